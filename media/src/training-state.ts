/**
 * The Training section's state (training-view.ts draws it): one debug session's training curve,
 * built from its `trainingCurve` events (each brings the points since the last), per fit: each
 * batch's logs (x: the batch's step across the fit's epochs) and each epoch's. Every field is
 * checked as it comes in: a point that is not as the protocol says is counted, not drawn.
 *
 * Bounded: a fit keeps at most MAX_BATCH_POINTS batch points; past that every other one is let go
 * and from then on every 2nd (then 4th…) kept, `thinned` saying which; non-finite ones are always
 * kept, so every NaN stays marked. Points that never arrived (sent before the inspector opened, or
 * let go by the agent's bound) are counted in `missing`.
 */
import type { FitPositionView, TrainingCurveEvent } from './protocol.js';

export const MAX_BATCH_POINTS = 100_000;

export interface CurvePoint {
  /** The batch's step in its fit (or the epoch, for an epoch's point). */
  readonly x: number;
  readonly epoch: number;
  /** Null for an epoch's point. */
  readonly batch: number | null;
  readonly values: Readonly<Record<string, number>>;
}

export interface FitCurve {
  readonly id: number;
  epochs: number | null;
  batchesPerEpoch: number | null;
  metrics: string[];
  batches: CurvePoint[];
  epochPoints: CurvePoint[];
  /** Every `thinned`-th finite batch point is kept (1: all). */
  thinned: number;
  /** Batch points received, kept or not. */
  received: number;
}

export interface TrainingState {
  readonly sessionId: string;
  readonly fits: FitCurve[];
  /** The index the next event's points should start at (its `from`). */
  next: number;
  /** Points that never arrived. */
  missing: number;
  /** Points not as the protocol says: counted, not drawn. */
  malformed: number;
  current: FitPositionView | undefined;
  /** The last event came with a stop: `current` is the batch stopped in. */
  paused: boolean;
}

export function emptyTraining(sessionId: string): TrainingState {
  return { sessionId, fits: [], next: 0, missing: 0, malformed: 0, current: undefined, paused: false };
}

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;

/** A log value as the number it stands for; undefined for anything else. */
function logNumberOf(v: unknown): number | undefined {
  if (typeof v === 'number') return v;
  if (v === 'NaN' || v === 'Infinity' || v === '-Infinity') return Number(v);
  return undefined;
}

/** Adds an event's fits and points to the state (in place; the state is the view's own). */
export function applyTraining(state: TrainingState, event: TrainingCurveEvent): void {
  const raw = event as unknown as Record<string, unknown>;
  for (const f of Array.isArray(raw.fits) ? raw.fits : []) fitOf(state, f);
  const from = isInt(raw.from) ? raw.from : state.next;
  if (from > state.next) state.missing += from - state.next;
  const points = Array.isArray(raw.points) ? raw.points : [];
  // Points before state.next were received already (a repeated event): skipped.
  points.slice(Math.max(0, state.next - from)).forEach((p) => addPoint(state, p));
  state.next = Math.max(state.next, from + points.length);
  if (isInt(raw.dropped)) state.missing += raw.dropped;
  const c = raw.current as Record<string, unknown> | undefined;
  state.current =
    c && isInt(c.fit) && isInt(c.epoch) && isInt(c.batch) && isInt(c.step) ? { fit: c.fit, epoch: c.epoch, batch: c.batch, step: c.step } : undefined;
  state.paused = raw.paused === true;
}

function fitOf(state: TrainingState, raw: unknown): FitCurve | undefined {
  const f = raw as Record<string, unknown> | null;
  if (!f || !isInt(f.id)) {
    state.malformed++;
    return undefined;
  }
  let fit = state.fits.find((x) => x.id === f.id);
  if (!fit) {
    fit = { id: f.id, epochs: null, batchesPerEpoch: null, metrics: [], batches: [], epochPoints: [], thinned: 1, received: 0 };
    state.fits.push(fit);
    state.fits.sort((a, b) => a.id - b.id);
  }
  if (isInt(f.epochs)) fit.epochs = f.epochs;
  if (isInt(f.batchesPerEpoch)) fit.batchesPerEpoch = f.batchesPerEpoch;
  if (Array.isArray(f.metrics)) fit.metrics = f.metrics.filter((m): m is string => typeof m === 'string');
  return fit;
}

function addPoint(state: TrainingState, raw: unknown): void {
  const p = raw as Record<string, unknown> | null;
  const logs = p?.logs as Record<string, unknown> | undefined;
  if (!p || !isInt(p.fit) || !isInt(p.epoch) || !isInt(p.step) || !(p.batch === null || isInt(p.batch)) || !logs || typeof logs !== 'object') {
    state.malformed++;
    return;
  }
  const values: Record<string, number> = {};
  for (const [key, v] of Object.entries(logs)) {
    const n = logNumberOf(v);
    if (n === undefined) state.malformed++;
    else values[key] = n;
  }
  const fit = state.fits.find((x) => x.id === p.fit) ?? fitOf(state, { id: p.fit });
  if (!fit) return;
  const point: CurvePoint = { x: p.step, epoch: p.epoch, batch: p.batch as number | null, values };
  if (point.batch === null) {
    fit.epochPoints.push(point);
    return;
  }
  fit.received++;
  const finite = Object.values(values).every(Number.isFinite);
  if (finite && (fit.received - 1) % fit.thinned !== 0) return;
  fit.batches.push(point);
  if (fit.batches.length > MAX_BATCH_POINTS) thin(fit);
}

/** Halves a fit's batch points: every other finite one goes, the non-finite ones stay. */
function thin(fit: FitCurve): void {
  fit.thinned *= 2;
  let finiteSeen = 0;
  fit.batches = fit.batches.filter((p) => !Object.values(p.values).every(Number.isFinite) || finiteSeen++ % 2 === 0);
}

/** The metrics of a fit's batch points (loss first), and of its epoch points without their val_ twins. */
export function metricsOf(fit: FitCurve): { batch: string[]; epoch: string[] } {
  const batch = new Set<string>();
  for (const p of fit.batches) for (const k of Object.keys(p.values)) batch.add(k);
  const epoch = new Set<string>();
  for (const p of fit.epochPoints) for (const k of Object.keys(p.values)) epoch.add(k.startsWith('val_') && k.length > 4 ? k.slice(4) : k);
  const order = (names: Set<string>) => [...names].sort((a, b) => (a === 'loss' ? -1 : b === 'loss' ? 1 : a.localeCompare(b)));
  return { batch: order(batch), epoch: order(epoch) };
}
