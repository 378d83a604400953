/**
 * Text from a program, a model or a trace put into Markdown (hovers) so that it shows literally:
 * no links (`[x](command:…)`), no HTML (`<img onerror>`), no emphasis, no fence to break out of.
 */

/**
 * Inline text: the punctuation Markdown gives a meaning to is backslash-escaped and line breaks
 * become spaces (no new block can start). Left as they are, because they cannot act here: `[`
 * and `]` (a link needs the `(` that is escaped, and no reference definition can start a line),
 * and `_` between letters or digits (never emphasis in CommonMark), so `cb [pyfunc_0]` reads as is.
 */
export function escapeMarkdown(text: string): string {
  return oneLine(text).replace(/[\\`*{}()#+\-.!|<>~&:]|_/gu, (c, offset: number, whole: string) =>
    c === '_' && /[\p{L}\p{N}]/u.test(whole[offset - 1] ?? '') && /[\p{L}\p{N}]/u.test(whole[offset + 1] ?? '') ? c : `\\${c}`,
  );
}

/** A code span that holds `text` whatever backticks it contains (CommonMark: a longer fence, spaces inside). */
export function codeSpan(text: string): string {
  const line = oneLine(text);
  const fence = '`'.repeat(longestRun(line, '`') + 1);
  const pad = line.startsWith('`') || line.endsWith('`') || line.startsWith(' ') ? ' ' : '';
  return `${fence}${pad}${line}${pad}${fence}`;
}

/** A fenced block (several lines) whose fence no line of `text` can close. */
export function codeBlock(text: string, language = 'text'): string[] {
  const fence = '`'.repeat(Math.max(3, longestRun(text, '`') + 1));
  return [`${fence}${language}`, text, fence];
}

function oneLine(text: string): string {
  return String(text).replace(/\r\n|[\r\n\u2028\u2029]/g, ' ');
}

function longestRun(text: string, char: string): number {
  let longest = 0;
  let run = 0;
  for (const c of text) {
    run = c === char ? run + 1 : 0;
    if (run > longest) longest = run;
  }
  return longest;
}
