/**
 * The training curve on the CLI (`tfjs-callbacks run`): what each `model.fit` / `fitDataset` of the
 * program told its callbacks (runtime/training/fit-logs.ts), kept for the trace's `training` field
 * and said in one line after the summary: the last fit's last batch and epoch values.
 *
 * Bounded: a fit keeps at most MAX_BATCH_POINTS batch points; past that every other finite one is
 * let go and from then on every 2nd (then 4th…) kept, which the trace's `thinned` says; non-finite
 * ones are always kept. Epoch points are all kept.
 */
import type { FitLogObserver } from '../hook-types.js';
import type { FitInfo, FitLogPoint, LogValue } from '../fit-log-types.js';

export const MAX_BATCH_POINTS = 100_000;

/** One fit in the trace: how it began, its points in order, and how thinned its batch points are. */
export interface TraceFit {
  readonly info: FitInfo;
  readonly points: FitLogPoint[];
  /** Every `thinned`-th finite batch point is kept (1: all). */
  thinned: number;
  /** Batch points the fit logged, kept or not. */
  batches: number;
}

/** The trace's `training` field. */
export interface TraceTraining {
  readonly fits: readonly TraceFit[];
}

const finite = (p: FitLogPoint) => Object.values(p.logs).every((v) => typeof v === 'number');

export class TrainingReport implements FitLogObserver {
  private readonly fits: TraceFit[] = [];

  onFitBegin(info: FitInfo): void {
    this.fits.push({ info, points: [], thinned: 1, batches: 0 });
  }

  onFitPoint(point: FitLogPoint): void {
    const fit = this.fits.find((f) => f.info.id === point.fit);
    if (!fit) return;
    if (point.batch === null) {
      fit.points.push(point);
      return;
    }
    fit.batches++;
    if (finite(point) && (fit.batches - 1) % fit.thinned !== 0) return;
    fit.points.push(point);
    if (fit.points.length > MAX_BATCH_POINTS) thin(fit);
  }

  /** Whether any fit ran. */
  get any(): boolean {
    return this.fits.length > 0;
  }

  trace(): TraceTraining {
    return { fits: this.fits };
  }

  /**
   * "training: 2 fits · fit 2 · epoch 3/3 · batch 32/32 · loss 0.412 · acc 0.88 · epoch 3: loss 0.4 · val_loss 0.5",
   * epochs and batches counted from 1; undefined when no fit ran.
   */
  summaryLine(): string | undefined {
    const fit = this.fits.at(-1);
    if (!fit) return undefined;
    const parts = [`training: ${this.fits.length} fit${this.fits.length === 1 ? '' : 's'}`];
    if (this.fits.length > 1) parts.push(`fit ${fit.info.id}`);
    const lastBatch = fit.points.findLast((p) => p.batch !== null);
    const lastEpoch = fit.points.findLast((p) => p.batch === null);
    if (!lastBatch) return `${parts.join(' · ')} · no batch ended`;
    const { epochs, batchesPerEpoch } = fit.info;
    parts.push(`epoch ${lastBatch.epoch + 1}${epochs !== null ? `/${epochs}` : ''}`);
    parts.push(`batch ${(lastBatch.batch ?? 0) + 1}${batchesPerEpoch !== null ? `/${batchesPerEpoch}` : ''}`);
    const order = fit.info.metrics;
    parts.push(...values(lastBatch.logs, order));
    if (lastEpoch) parts.push(`epoch ${lastEpoch.epoch + 1}: ${values(lastEpoch.logs, order).join(' · ')}`);
    const nonFinite = fit.points.filter((p) => p.batch !== null && !finite(p)).length;
    if (nonFinite > 0) parts.push(`⚠ NaN/Inf in ${nonFinite} batch${nonFinite === 1 ? '' : 'es'}`);
    return parts.join(' · ');
  }
}

/** The logs in words, in the fit's order of its metrics (others after them). */
function values(logs: Readonly<Record<string, LogValue>>, order: readonly string[]): string[] {
  const rank = (k: string) => (order.includes(k) ? order.indexOf(k) : order.length);
  return Object.entries(logs)
    .sort(([a], [b]) => rank(a) - rank(b))
    .map(([k, v]) => `${k} ${typeof v === 'number' ? Number(v.toPrecision(4)) : v}`);
}

/** Halves a fit's finite batch points (epoch points and non-finite ones stay). */
function thin(fit: TraceFit): void {
  fit.thinned *= 2;
  let seen = 0;
  const kept = fit.points.filter((p) => p.batch === null || !finite(p) || seen++ % 2 === 0);
  fit.points.splice(0, fit.points.length, ...kept);
}
