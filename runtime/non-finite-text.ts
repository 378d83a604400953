/**
 * NaN and ±Inf counts in words, one way for every view that tells them (the CLI's lines, the
 * summary): "2 NaN, 1 −Inf, 3 +Inf", the counts that are not 0, with the sign of each infinity.
 * No TensorFlow.js import: the webview bundle can take it as it is.
 */

/** What a summary counts of a tensor's non-finite values (runtime/summary.ts TensorSummary). */
export interface NonFiniteCounts {
  readonly dtype: string;
  readonly nanCount: number;
  /** ±Inf, both signs. */
  readonly infCount: number;
  /** Of infCount, the −Inf ones; absent when the signs were not counted. */
  readonly negInfCount?: number;
}

/** "" when every value is finite (and always for strings, which have no NaN). */
export function nonFiniteText(s: NonFiniteCounts): string {
  if (s.dtype === 'string') return '';
  const parts: string[] = [];
  if (s.nanCount > 0) parts.push(`${s.nanCount} NaN`);
  if (s.negInfCount === undefined) {
    if (s.infCount > 0) parts.push(`${s.infCount} ±Inf`);
  } else {
    if (s.negInfCount > 0) parts.push(`${s.negInfCount} −Inf`);
    if (s.infCount - s.negInfCount > 0) parts.push(`${s.infCount - s.negInfCount} +Inf`);
  }
  return parts.join(', ');
}
