/**
 * The Pinned section's state (pins-view.ts draws it): the pinned expressions and, per pin, its
 * latest status and a compact series of its summaries over the session's stops (stop number, min,
 * mean, max to 6 significant digits, NaN and ±Inf counts), as parallel number arrays. Plain JSON,
 * saved with the rest of the inspector's state, and bounded: at most PIN_STOP_CAP stops per pin;
 * one more drops every other stop (the newest is always kept), so older stops thin out as a
 * session runs on. The values themselves are not here: pin-values.ts keeps the last stops' ones.
 */
import type { HostMessage, PinnedValue, PinnedValuesEvent, TensorInfo } from './protocol.js';

/** Stops per pin kept for the chart, then every other one dropped. */
export const PIN_STOP_CAP = 2500;

/** One pin's summaries over stops: entry i of each list is the i-th stop it had a value at. */
export interface PinSeries {
  readonly stop: readonly number[];
  /** Over the finite values; null where there was none (drawn as a NaN mark). */
  readonly min: readonly (number | null)[];
  readonly mean: readonly (number | null)[];
  readonly max: readonly (number | null)[];
  readonly nan: readonly number[];
  /** ±Inf. */
  readonly inf: readonly number[];
  /** How many times the series was halved (its older stops thinned). */
  readonly thinned: number;
}

/** A pin at the latest stop it was evaluated at. */
export type PinLatest =
  | { readonly stop: number; readonly status: 'value'; readonly info: TensorInfo }
  | { readonly stop: number; readonly status: 'unresolved' }
  | { readonly stop: number; readonly status: 'error'; readonly error: string };

export interface PinsState {
  readonly expressions: readonly string[];
  /** The session the series are of (a new session's first stop starts them afresh). */
  readonly sessionId?: string;
  /** The session's latest stop with pins. */
  readonly lastStop?: number;
  readonly valueLimit?: number;
  readonly series: Readonly<Record<string, PinSeries>>;
  readonly latest: Readonly<Record<string, PinLatest>>;
  /** A clicked point: that stop's values are shown (when still kept). */
  readonly opened?: { readonly expression: string; readonly stop: number };
}

export function initialPins(): PinsState {
  return { expressions: [], series: {}, latest: {} };
}

const STATUSES = new Set(['value', 'unresolved', 'error']);

/** A `pins` or `pinned` message as posted, or undefined when it is not one (nothing partial gets in). */
export function asPinsMessage(data: unknown): HostMessage | undefined {
  const m = data as { type?: unknown; expressions?: unknown; sessionId?: unknown; event?: unknown };
  if (m.type === 'pins') return Array.isArray(m.expressions) && m.expressions.every((e) => typeof e === 'string') ? (data as HostMessage) : undefined;
  const event = m.event as Partial<PinnedValuesEvent> | undefined;
  if (m.type !== 'pinned' || typeof m.sessionId !== 'string' || !event || typeof event !== 'object') return undefined;
  if (!Number.isSafeInteger(event.stop) || !Array.isArray(event.pins)) return undefined;
  const ok = event.pins.every(
    (p: Partial<PinnedValue> | null) =>
      !!p && typeof p.expression === 'string' && STATUSES.has(String(p.status)) && (p.status !== 'value' || (!!p.info && typeof p.info === 'object')),
  );
  return ok ? (data as HostMessage) : undefined;
}

/** The saved slice, or a fresh one when it is not ours. */
export function restorePins(saved: unknown): PinsState {
  const s = saved as Partial<PinsState> | undefined;
  if (!s || typeof s !== 'object' || !Array.isArray(s.expressions) || !s.series || !s.latest) return initialPins();
  const expressions = s.expressions.filter((e): e is string => typeof e === 'string');
  const series: Record<string, PinSeries> = {};
  for (const e of expressions) {
    const one = s.series[e];
    if (one && Array.isArray(one.stop) && [one.min, one.mean, one.max, one.nan, one.inf].every((l) => Array.isArray(l) && l.length === one.stop.length))
      series[e] = one;
  }
  const latest = Object.fromEntries(expressions.flatMap((e) => (s.latest?.[e] ? [[e, s.latest[e]!]] : [])));
  return { ...s, expressions, series, latest };
}

/** Applies a host message to the slice (others leave it as it was). */
export function reducePins(state: PinsState, message: HostMessage): PinsState {
  if (message.type === 'pins') {
    const keep = <T>(r: Readonly<Record<string, T>>) => Object.fromEntries(message.expressions.flatMap((e) => (r[e] ? [[e, r[e]]] : [])));
    const opened = state.opened && message.expressions.includes(state.opened.expression) ? state.opened : undefined;
    return { ...state, expressions: [...message.expressions], series: keep(state.series), latest: keep(state.latest), opened };
  }
  if (message.type !== 'pinned') return state;
  const { event, sessionId } = message;
  const fresh = state.sessionId !== sessionId;
  const series: Record<string, PinSeries> = fresh ? {} : { ...state.series };
  const latest: Record<string, PinLatest> = fresh ? {} : { ...state.latest };
  for (const pin of event.pins) {
    if (!state.expressions.includes(pin.expression)) continue;
    latest[pin.expression] = latestOf(pin, event.stop);
    if (pin.status === 'value' && !pin.info.opaque) series[pin.expression] = addPoint(series[pin.expression], event.stop, pin.info);
  }
  return {
    ...state,
    sessionId,
    lastStop: event.stop,
    valueLimit: event.valueLimit,
    series,
    latest,
    opened: fresh ? undefined : state.opened,
  };
}

export function openPoint(state: PinsState, expression: string, stop: number): PinsState {
  return { ...state, opened: { expression, stop } };
}

export function closePoint(state: PinsState): PinsState {
  return { ...state, opened: undefined };
}

function latestOf(pin: PinnedValue, stop: number): PinLatest {
  if (pin.status === 'value') {
    const { preview: _preview, ...info } = pin.info;
    return { stop, status: 'value', info };
  }
  return pin.status === 'error' ? { stop, status: 'error', error: String(pin.error) } : { stop, status: 'unresolved' };
}

const stat = (x: unknown): number | null => (typeof x === 'number' && Number.isFinite(x) ? Number(x.toPrecision(6)) : null);
const count = (x: unknown): number => (typeof x === 'number' && Number.isFinite(x) ? x : 0);

function addPoint(s: PinSeries | undefined, stop: number, info: TensorInfo): PinSeries {
  const base = s ?? { stop: [], min: [], mean: [], max: [], nan: [], inf: [], thinned: 0 };
  // A later event of the same stop replaces its point.
  const same = base.stop.at(-1) === stop;
  const cut = <T>(l: readonly T[]) => (same ? l.slice(0, -1) : l.slice());
  const next = {
    stop: [...cut(base.stop), stop],
    min: [...cut(base.min), stat(info.min)],
    mean: [...cut(base.mean), stat(info.mean)],
    max: [...cut(base.max), stat(info.max)],
    nan: [...cut(base.nan), count(info.nanCount)],
    inf: [...cut(base.inf), count(info.infCount)],
    thinned: base.thinned,
  };
  if (next.stop.length <= PIN_STOP_CAP) return next;
  const n = next.stop.length;
  const half = <T>(l: readonly T[]) => l.filter((_, i) => (n - 1 - i) % 2 === 0);
  return {
    stop: half(next.stop),
    min: half(next.min),
    mean: half(next.mean),
    max: half(next.max),
    nan: half(next.nan),
    inf: half(next.inf),
    thinned: base.thinned + 1,
  };
}
