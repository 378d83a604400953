/**
 * A small benchmark harness: median time per call over several rounds, and comparisons printed as
 * ratios against a baseline measured in the same run (never as pass/fail timings in tests).
 */
export interface Measurement {
  /** Median microseconds per call. */
  readonly usPerCall: number;
}

export function measure(fn: () => void, callsPerRound: number, rounds = 7): Measurement {
  for (let i = 0; i < Math.max(3, callsPerRound / 10); i++) fn(); // warm up (JIT, backend caches)
  const perRound: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < callsPerRound; i++) fn();
    perRound.push(Number(process.hrtime.bigint() - start) / 1000 / callsPerRound);
  }
  perRound.sort((a, b) => a - b);
  return { usPerCall: perRound[Math.floor(perRound.length / 2)]! };
}

/**
 * Measures baseline and candidate in alternating rounds, so drift (GC, thermal, other load)
 * hits both alike.
 */
export function measurePair(baseline: () => void, measured: () => void, callsPerRound: number, rounds = 9): [Measurement, Measurement] {
  for (let i = 0; i < Math.max(3, callsPerRound / 10); i++) {
    baseline();
    measured();
  }
  const a: number[] = [];
  const b: number[] = [];
  for (let r = 0; r < rounds; r++) {
    for (const [fn, out] of (r % 2 === 0
      ? [
          [baseline, a],
          [measured, b],
        ]
      : [
          [measured, b],
          [baseline, a],
        ]) as [() => void, number[]][]) {
      const start = process.hrtime.bigint();
      for (let i = 0; i < callsPerRound; i++) fn();
      out.push(Number(process.hrtime.bigint() - start) / 1000 / callsPerRound);
    }
  }
  return [{ usPerCall: median(a) }, { usPerCall: median(b) }];
}

function median(values: number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.floor(sorted.length / 2)]!;
}

export async function measureAsync(fn: () => Promise<void>, callsPerRound: number, rounds = 7): Promise<Measurement> {
  for (let i = 0; i < Math.max(3, callsPerRound / 10); i++) await fn();
  const perRound: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < callsPerRound; i++) await fn();
    perRound.push(Number(process.hrtime.bigint() - start) / 1000 / callsPerRound);
  }
  perRound.sort((a, b) => a - b);
  return { usPerCall: perRound[Math.floor(perRound.length / 2)]! };
}

export interface Comparison {
  readonly name: string;
  readonly baselineName: string;
  readonly baseline: Measurement;
  readonly measured: Measurement;
  /** What the target bounds: the ratio, or the absolute overhead in µs. */
  readonly target?: { readonly kind: 'ratio' | 'overheadUs' | 'overheadPercent'; readonly max: number };
}

export function formatComparison(c: Comparison): string {
  const ratio = c.measured.usPerCall / c.baseline.usPerCall;
  const overheadUs = c.measured.usPerCall - c.baseline.usPerCall;
  const overheadPercent = (ratio - 1) * 100;
  let verdict = '';
  if (c.target) {
    const value = c.target.kind === 'ratio' ? ratio : c.target.kind === 'overheadUs' ? overheadUs : overheadPercent;
    const unit = c.target.kind === 'ratio' ? 'x' : c.target.kind === 'overheadUs' ? ' µs' : '%';
    verdict = `  target ≤ ${c.target.max}${unit}: ${value <= c.target.max ? 'met' : 'MISSED'}`;
  }
  return (
    `${c.name.padEnd(58)} ${fmt(c.measured.usPerCall).padStart(10)} µs  vs ${c.baselineName} ${fmt(c.baseline.usPerCall)} µs` +
    `  ratio ${ratio.toFixed(3)}x  overhead ${overheadUs >= 0 ? '+' : ''}${fmt(overheadUs)} µs (${overheadPercent >= 0 ? '+' : ''}${overheadPercent.toFixed(1)}%)${verdict}`
  );
}

function fmt(us: number): string {
  return Math.abs(us) >= 100 ? us.toFixed(0) : us.toFixed(2);
}
