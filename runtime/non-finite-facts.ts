/**
 * What the NaN/Inf finders say about tensors, one way for both (graph-model/first-non-finite.ts
 * for model nodes, op-watch/ for every kernel): which non-finite values outputs hold, and what
 * about a finite input can make them (zeros, negatives, its range).
 */
import type { TensorSummary } from './summary.js';

export type NonFiniteKind = 'NaN' | 'Inf' | 'NaN and Inf';

/** NaN, Inf, both, or undefined when every summarised value is finite. */
export function nonFiniteKind(summaries: readonly (TensorSummary | undefined)[]): NonFiniteKind | undefined {
  const nan = summaries.some((s) => (s?.nanCount ?? 0) > 0);
  const inf = summaries.some((s) => (s?.infCount ?? 0) > 0);
  return nan && inf ? 'NaN and Inf' : nan ? 'NaN' : inf ? 'Inf' : undefined;
}

/** Five significant digits; very large and very small numbers in e-notation (`1.25e+18`, not 19 digits). */
export function shortNumber(x: number): string {
  const abs = Math.abs(x);
  if (abs !== 0 && (abs >= 1e6 || abs < 1e-4)) return x.toExponential(4).replace(/\.?0+e/, 'e');
  return String(Number(x.toPrecision(5)));
}

/** `input 0 has 3 zeros and negatives (min -2)`; '' when nothing about it is telling. */
export function inputFacts(s: TensorSummary | undefined, index: number): string {
  if (!s) return '';
  const parts: string[] = [];
  if (s.zeroCount > 0) parts.push(`${s.zeroCount} zero${s.zeroCount === 1 ? '' : 's'}`);
  if (s.min !== undefined && s.min < 0) parts.push(`negatives (min ${shortNumber(s.min)})`);
  if (parts.length === 0 && s.min !== undefined && s.max !== undefined) parts.push(`values in [${shortNumber(s.min)}, ${shortNumber(s.max)}]`);
  return parts.length ? `input ${index} has ${parts.join(' and ')}` : '';
}
