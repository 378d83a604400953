/**
 * NaN and ±Inf counts in words, one way for every view that tells them (the CLI's lines, the
 * inspector's table, grid and histogram, the Run Graph toast, a data breakpoint's why): "2 NaN,
 * 1 −Inf, 3 +Inf", the counts that are not 0, with the sign of each infinity.
 * No TensorFlow.js import: the webview bundle can take it as it is.
 */

/** How each non-finite number is written (U+2212 for −, as the counts). */
export const NON_FINITE_WORDS = { nan: 'NaN', negInf: '−Inf', posInf: '+Inf' } as const;

/** What a summary counts of a tensor's non-finite values (runtime/summary.ts TensorSummary). */
export interface NonFiniteCounts {
  readonly dtype: string;
  readonly nanCount: number;
  /** ±Inf, both signs. */
  readonly infCount: number;
  /** Of infCount, the −Inf ones; absent when the signs were not counted. */
  readonly negInfCount?: number;
}

/** "NaN", "−Inf" or "+Inf" for a non-finite number; undefined for a finite one. */
export function nonFiniteWord(x: number): string | undefined {
  if (Number.isNaN(x)) return NON_FINITE_WORDS.nan;
  if (x === Infinity) return NON_FINITE_WORDS.posInf;
  if (x === -Infinity) return NON_FINITE_WORDS.negInf;
  return undefined;
}

/**
 * "" when every value is finite (and always for strings, which have no NaN). `count` writes each
 * count (the inspector's "1,024").
 */
export function nonFiniteText(s: NonFiniteCounts, count: (n: number) => string = String): string {
  if (s.dtype === 'string') return '';
  const parts: string[] = [];
  if (s.nanCount > 0) parts.push(`${count(s.nanCount)} ${NON_FINITE_WORDS.nan}`);
  if (s.negInfCount === undefined) {
    if (s.infCount > 0) parts.push(`${count(s.infCount)} ±Inf`);
  } else {
    if (s.negInfCount > 0) parts.push(`${count(s.negInfCount)} ${NON_FINITE_WORDS.negInf}`);
    if (s.infCount - s.negInfCount > 0) parts.push(`${count(s.infCount - s.negInfCount)} ${NON_FINITE_WORDS.posInf}`);
  }
  return parts.join(', ');
}
