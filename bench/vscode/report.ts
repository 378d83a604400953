/** Medians with min–max and n, ratios, and the Markdown/JSON the bench writes. */

export interface Stat {
  readonly median: number;
  readonly min: number;
  readonly max: number;
  readonly n: number;
}

export function stat(values: readonly number[]): Stat | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { median, min: sorted[0]!, max: sorted[sorted.length - 1]!, n: sorted.length };
}

export function fmt(s: Stat | undefined): string {
  if (!s) return 'n/a';
  const d = (v: number) => (v >= 100 ? v.toFixed(0) : v.toFixed(1));
  return `${d(s.median)} ms (${d(s.min)}–${d(s.max)}, n=${s.n})`;
}

export function ratio(a: Stat | undefined, b: Stat | undefined): string {
  if (!a || !b || b.median === 0) return 'n/a';
  const r = a.median / b.median;
  // Two significant digits below 0.1 (a step 400 times faster than the other's is not "0.00x").
  return `${r >= 0.1 ? r.toFixed(2) : r.toPrecision(2)}x`;
}
