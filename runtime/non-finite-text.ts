/**
 * NaN and ±Inf counts in words, one way for every view that tells them (the CLI's lines, the
 * inspector's table, grid and histogram, the Run Graph toast, a data breakpoint's why, the
 * debugger's NaN/Inf stops): "2 NaN, 1 −Inf, 3 +Inf", the counts that are not 0, with the sign of
 * each infinity.
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

/** Counts with what they are out of: the tensor's size, and the sample they come from when not all. */
export interface NonFiniteOutOf extends NonFiniteCounts {
  readonly size: number;
  /** False when the counts come from a strided sample of `counted` elements (runtime/summary.ts). */
  readonly exact?: boolean;
  readonly counted?: number;
}

/**
 * "1 NaN, 2 −Inf of 6 elements" (from a sample: "… in a sample of 1048576 of 4000000 elements");
 * "" when every value is finite.
 */
export function nonFiniteOutOf(s: NonFiniteOutOf, count: (n: number) => string = String): string {
  const bad = nonFiniteText(s, count);
  if (!bad) return '';
  const elements = `${count(s.size)} element${s.size === 1 ? '' : 's'}`;
  return s.exact === false && s.counted !== undefined && s.counted < s.size
    ? `${bad} in a sample of ${count(s.counted)} of ${elements}`
    : `${bad} of ${elements}`;
}

/** An output as a summary tells it (a value's info may leave out the counts: then nothing is said of it). */
export type NonFiniteOutput = Omit<NonFiniteOutOf, 'nanCount' | 'infCount'> & { readonly nanCount?: number; readonly infCount?: number };

/**
 * Which outputs hold NaN or ±Inf, and how many of each: "output 0 has 1 NaN, 2 −Inf of 6 elements;
 * output 2 has 3 +Inf of 4 elements" (the debugger's NaN/Inf stops). "" when none does.
 */
export function nonFiniteOutputsText(outputs: readonly (NonFiniteOutput | null | undefined)[], count: (n: number) => string = String): string {
  return outputs
    .flatMap((o, i) => {
      const words = o ? nonFiniteOutOf({ ...o, nanCount: o.nanCount ?? 0, infCount: o.infCount ?? 0 }, count) : '';
      return words ? [`output ${i} has ${words}`] : [];
    })
    .join('; ');
}
