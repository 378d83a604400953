/**
 * Newline-delimited messages from a stream of string chunks, in linear time: each chunk is
 * scanned once for '\n' and the pieces of a message are joined once, when it ends. (Appending to
 * one string and searching it from 0 on every chunk made a 100M-character message quadratic.)
 *
 * Self-contained on purpose: the bridge's worker, a plain script, gets its source (`toString()`).
 */
export interface LineFramer {
  /** The complete messages that `chunk` ends, in order (empty lines skipped). */
  push(chunk: string): string[];
  /** Characters scanned for newlines so far: each character once. */
  readonly scanned: number;
  /** Characters copied into messages so far: each character once. */
  readonly copied: number;
}

export function createLineFramer(): LineFramer {
  let pieces: string[] = [];
  let scanned = 0;
  let copied = 0;
  return {
    push(chunk: string): string[] {
      const out: string[] = [];
      let from = 0;
      for (let nl = chunk.indexOf('\n'); nl >= 0; nl = chunk.indexOf('\n', from)) {
        pieces.push(chunk.slice(from, nl));
        const line = pieces.length === 1 ? pieces[0]! : pieces.join('');
        copied += line.length;
        pieces = [];
        if (line) out.push(line);
        from = nl + 1;
      }
      if (from < chunk.length) pieces.push(chunk.slice(from));
      scanned += chunk.length;
      return out;
    },
    get scanned() {
      return scanned;
    },
    get copied() {
      return copied;
    },
  };
}
