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

/** `input 0 has 3 zeros and negatives (min -2)`; '' when nothing about it is telling. */
export function inputFacts(s: TensorSummary | undefined, index: number): string {
  if (!s) return '';
  const parts: string[] = [];
  if (s.zeroCount > 0) parts.push(`${s.zeroCount} zero${s.zeroCount === 1 ? '' : 's'}`);
  if (s.min !== undefined && s.min < 0) parts.push(`negatives (min ${Number(s.min.toPrecision(5))})`);
  if (parts.length === 0 && s.min !== undefined && s.max !== undefined)
    parts.push(`values in [${Number(s.min.toPrecision(5))}, ${Number(s.max.toPrecision(5))}]`);
  return parts.length ? `input ${index} has ${parts.join(' and ')}` : '';
}
