/**
 * Line starts of a text, found in one pass: a line's range or an offset's line is then a lookup
 * (a binary search), not a scan of the text. Per-node or per-site lookups in a multi-MB
 * model.json or program stay linear in the text overall.
 */
import type { Range } from 'vscode-languageserver';

export class LineIndex {
  /** Offset of each line's first character. */
  private readonly starts: number[] = [0];
  /** How many times the text was scanned (once): tests check that lookups never rescan it. */
  static scans = 0;

  constructor(private readonly text: string) {
    LineIndex.scans++;
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) this.starts.push(i + 1);
  }

  get lineCount(): number {
    return this.starts.length;
  }

  /** A whole 0-based line, to its end without the line break (an empty range past the last line). */
  lineRange(line: number): Range {
    const start = this.starts[line];
    if (start === undefined) return { start: { line, character: 0 }, end: { line, character: 0 } };
    let end = line + 1 < this.starts.length ? this.starts[line + 1]! - 1 : this.text.length;
    if (end > start && this.text.charCodeAt(end - 1) === 13) end--; // \r of \r\n
    return { start: { line, character: 0 }, end: { line, character: end - start } };
  }

  /** The 0-based line holding `offset`. */
  lineOf(offset: number): number {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }
}
