/**
 * How long a value shown as text may be: an evaluate result (evaluate-requests.ts) and a
 * logpoint's value (written in the debuggee: logpoints.ts) are cut at the same length, with the
 * same note. A leaf kept with the agent, whose modules ship and run in the debuggee.
 */

/** An evaluate result longer than this is cut, with a note, as a Variables page stops at MAX_PAGE values. */
export const MAX_RESULT_CHARS = 100_000;

/** A result cut to MAX_RESULT_CHARS, with a note that says how long it was and how to see the rest. */
export function shownResult(text: string, expression: string): string {
  if (text.length <= MAX_RESULT_CHARS) return text;
  const next = `(${expression.trim()}).slice(${MAX_RESULT_CHARS}, ${2 * MAX_RESULT_CHARS})`;
  return `${text.slice(0, MAX_RESULT_CHARS)}… (cut: the first ${count(MAX_RESULT_CHARS)} of ${count(text.length)} characters; evaluate ${next} for the next)`;
}

export function count(n: number): string {
  return n.toLocaleString('en-US');
}
