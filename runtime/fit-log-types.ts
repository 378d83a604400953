/**
 * The training curve's one definition, as it crosses processes: what a `model.fit` / `fitDataset`
 * told its callbacks at each batch's and epoch's end (training/fit-logs.ts reads it), as JSON. The CLI's
 * trace, the debuggee's agent → adapter (a binding while running, an agent call at a stop) and the
 * adapter → extension → webview (`trainingCurve` event) all carry these types. A leaf: no
 * TensorFlow.js import, so the agent's and the webview's bundles take it as it is (top level, beside
 * events.ts: hook-types.ts names it, and training/ imports it).
 */

/** A log value as JSON: a number, or the text of a non-finite one (JSON has no NaN or ±Infinity). */
export type LogValue = number | 'NaN' | 'Infinity' | '-Infinity';

/** One fit as it began: its number in the process (from 1) and what it told its callbacks of itself. */
export interface FitInfo {
  readonly id: number;
  /** The epochs it runs to (tfjs' `epochs`: the last epoch is epochs − 1), when it said. */
  readonly epochs: number | null;
  readonly initialEpoch: number;
  /** Batches in an epoch, when known up front (fit's samples / batchSize; fitDataset's batchesPerEpoch). */
  readonly batchesPerEpoch: number | null;
  /** The metrics it logs (loss first, then e.g. acc, val_loss, val_acc). */
  readonly metrics: readonly string[];
}

/** The values a fit handed its callbacks at a batch's end (`batch` set) or an epoch's end (`batch` null). */
export interface FitLogPoint {
  readonly fit: number;
  /** From 0, as tfjs counts epochs. */
  readonly epoch: number;
  /** The batch within its epoch, from 0; null for the epoch's own point. */
  readonly batch: number | null;
  /** The batch's place in the whole fit (from 0, across epochs): the per-batch chart's x. For an epoch point, the epoch. */
  readonly step: number;
  readonly logs: Readonly<Record<string, LogValue>>;
}

/** Where a fit is: the batch under way (or whose end its callbacks are being told). */
export interface FitPosition {
  readonly fit: number;
  readonly epoch: number;
  readonly batch: number;
  readonly step: number;
}

/**
 * The points gathered since the previous chunk, in order, with every fit begun so far. `from`: the
 * index of `points[0]` among all points of the process; `dropped`: points the sender's bound let go
 * before it could send them (none unless the program ran 100,000 batches between two sends).
 */
export interface TrainingCurveChunk {
  readonly fits: readonly FitInfo[];
  readonly points: readonly FitLogPoint[];
  readonly from: number;
  readonly dropped: number;
  /** The batch under way, if a fit is running. */
  readonly current?: FitPosition;
}

/** A number as JSON carries it. */
export function logValue(n: number): LogValue {
  if (Number.isFinite(n)) return n;
  return Number.isNaN(n) ? 'NaN' : n > 0 ? 'Infinity' : '-Infinity';
}

/** A log value as the number it stands for. */
export function logNumber(v: LogValue): number {
  return typeof v === 'number' ? v : Number(v);
}
