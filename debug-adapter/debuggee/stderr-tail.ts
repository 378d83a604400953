/**
 * The end of a launched program's stderr, kept so that a program that exits before its bridge
 * connects (a preload that fails: `-r` of a missing module, ts-node on TypeScript 7) is told in the
 * launch's error with what it said, not only in the Debug Console behind the dialog.
 */
const KEPT_CHARS = 8192;

export class StderrTail {
  private text = '';

  add(chunk: string): void {
    this.text = (this.text + chunk).slice(-KEPT_CHARS);
  }

  /** What the program said of why it ended: our own line with its fix, else its error's line, else its last line. */
  reason(): string | undefined {
    const lines = this.text.split('\n').map((l) => l.trimEnd());
    const ours = lines.findIndex((l) => l.startsWith('tfjs-callbacks: '));
    if (ours >= 0) return [lines[ours]!, ...takeIndented(lines.slice(ours + 1))].map((l) => l.trim()).join(' ');
    const error = lines.find((l) => /^([A-Z]\w*)?Error\b.*:/.test(l));
    return error ?? lines.filter((l) => l.trim() !== '' && !/^Node\.js v\d/.test(l)).at(-1);
  }
}

function takeIndented(lines: readonly string[]): string[] {
  const end = lines.findIndex((l) => !/^\s+\S/.test(l));
  return lines.slice(0, end < 0 ? lines.length : end);
}
