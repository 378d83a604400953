/**
 * The training curve, read as each `model.fit` / `fitDataset` tells its callbacks: while some
 * observer wants it (a debugger's agent, the CLI), tfjs-layers' `CallbackList` methods onTrainBegin,
 * onBatchEnd and onEpochEnd and `History.syncData` are shadowed on their prototypes (restored when
 * the last observer goes), and the logs they are handed are read on the way. Nothing is added to
 * the program's callbacks and no tensor is made or disposed: a log that is a scalar tensor is read
 * with `dataSync()` (the fit keeps and disposes it as before), a number as it is.
 *
 * - A batch's logs are read before its callbacks run (a stop in the program's onBatchEnd sees that
 *   batch's point); an epoch's after them (tfjs' BaseLogger, the first callback, averages them).
 * - The methods shadowed here are none of those op-watch/training-context.ts shadows (onEpochBegin,
 *   onBatchBegin, onTrainEnd, fit): either watch comes and goes without undoing the other's.
 */
import type { FitLogObserver } from '../hook-types.js';
import { shared } from '../hooks.js';
import { tf } from '../tf.js';
import { type Around, shadowMethod } from '../prototype-shadow.js';
import { type FitInfo, type FitLogPoint, type FitPosition, type LogValue, logValue } from '../fit-log-types.js';

export type { FitLogObserver } from '../hook-types.js';

type Proto = Record<string, unknown>;
interface ListLike {
  readonly callbacks?: readonly { readonly params?: Record<string, unknown> }[];
}
/** A log value tfjs hands its callbacks: a number, or a scalar tensor. */
interface ScalarLike {
  readonly size?: number;
  readonly isDisposed?: boolean;
  dataSync?(): ArrayLike<number>;
}

/** A running fit: where it is. */
interface FitState {
  readonly info: FitInfo;
  epoch: number;
  batch: number;
  step: number;
}

/** Keys tfjs puts in a batch's logs that are not values of the curve. */
const NOT_METRICS = new Set(['batch', 'size']);

class FitLogWatch {
  private readonly restore: (() => void)[] = [];
  private readonly byList = new WeakMap<object, FitState>();
  private readonly byHistory = new WeakMap<object, FitState>();
  private latest: FitState | undefined;
  private fits = 0;

  install(): void {
    const api = tf as unknown as { CallbackList?: { prototype: Proto }; History?: { prototype: Proto } };
    const list = api.CallbackList?.prototype;
    if (list) {
      this.around(list, 'onTrainBegin', (self, call) => {
        this.begin(self);
        return call();
      });
      this.around(list, 'onBatchEnd', (self, call, args) => this.batchEnd(self, call, args));
      this.around(list, 'onEpochEnd', (self, call, args) => after(call(), () => this.epochEnd(self, args)));
    }
    const history = api.History?.prototype;
    if (history) this.around(history, 'syncData', (self, call) => after(call(), () => this.end(self)));
  }

  remove(): void {
    for (const undo of this.restore.splice(0).reverse()) undo();
    this.latest = undefined;
  }

  position(): FitPosition | undefined {
    const s = this.latest;
    return s ? { fit: s.info.id, epoch: s.epoch, batch: s.batch, step: s.step } : undefined;
  }

  private begin(list: unknown): FitState {
    const callbacks = (list as ListLike).callbacks ?? [];
    const params = callbacks.find((c) => c?.params)?.params ?? {};
    const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);
    const samples = num(params.samples);
    const batchSize = num(params.batchSize);
    const info: FitInfo = {
      id: ++this.fits,
      epochs: num(params.epochs),
      initialEpoch: num(params.initialEpoch) ?? 0,
      batchesPerEpoch: num(params.steps) ?? (samples !== null && batchSize ? Math.ceil(samples / batchSize) : null),
      metrics: Array.isArray(params.metrics) ? params.metrics.map(String) : [],
    };
    const state: FitState = { info, epoch: info.initialEpoch, batch: 0, step: 0 };
    this.byList.set(list as object, state);
    const history = callbacks.find((c) => (c as { constructor?: { name?: string } })?.constructor === (tf as unknown as { History?: unknown }).History);
    if (history) this.byHistory.set(history, state);
    this.latest = state;
    tell((o) => o.onFitBegin?.(info));
    return state;
  }

  /** The batch's point first (its logs are the fit's own tensors until its callbacks resolve them), then its callbacks. */
  private batchEnd(list: unknown, call: () => unknown, args: unknown[]): unknown {
    const state = this.byList.get(list as object) ?? this.begin(list);
    const batch = Number(args[0]);
    state.batch = batch;
    this.latest = state;
    const point: FitLogPoint = { fit: state.info.id, epoch: state.epoch, batch, step: state.step, logs: readLogs(args[1]) };
    tell((o) => o.onFitPoint(point));
    return after(call(), () => {
      state.step++;
      state.batch = batch + 1;
    });
  }

  /** After the epoch's callbacks: tfjs' BaseLogger has put the epoch's averages in its logs. */
  private epochEnd(list: unknown, args: unknown[]): void {
    const state = this.byList.get(list as object);
    if (!state) return;
    const epoch = Number(args[0]);
    const point: FitLogPoint = { fit: state.info.id, epoch, batch: null, step: epoch, logs: readLogs(args[1]) };
    state.epoch = epoch + 1;
    state.batch = 0;
    tell((o) => o.onFitPoint(point));
  }

  private end(history: unknown): void {
    const state = this.byHistory.get(history as object);
    if (!state) return;
    if (this.latest === state) this.latest = undefined;
    tell((o) => o.onFitEnd?.(state.info.id));
  }

  /** Each call of `proto[name]` goes through `around`, which makes the call; undone by remove(). */
  private around(proto: Proto, name: string, around: Around): void {
    shadowMethod(proto, name, around, this.restore);
  }
}

/** Runs `then` once `result` (a callback list's promise) has resolved; its value and its rejection pass on unchanged. */
function after(result: unknown, then: () => void): unknown {
  if (!(result instanceof Promise)) {
    then();
    return result;
  }
  return result.then((value: unknown) => {
    then();
    return value;
  });
}

/** A fit's logs as numbers: numbers as they are, scalar tensors read in place; what is neither is not a value of the curve. */
function readLogs(logs: unknown): Record<string, LogValue> {
  const out: Record<string, LogValue> = {};
  if (!logs || typeof logs !== 'object') return out;
  for (const [key, value] of Object.entries(logs as Record<string, unknown>)) {
    if (NOT_METRICS.has(key)) continue;
    if (typeof value === 'number') {
      out[key] = logValue(value);
      continue;
    }
    const scalar = value as ScalarLike | null;
    if (!scalar || typeof scalar.dataSync !== 'function' || scalar.isDisposed || scalar.size !== 1) continue;
    out[key] = logValue(Number(scalar.dataSync()[0]));
  }
  return out;
}

/** Tells every observer; one that throws is told on stderr, and the fit goes on. */
function tell(each: (o: FitLogObserver) => void): void {
  for (const o of shared.fitLogObservers ?? []) {
    try {
      each(o);
    } catch (err) {
      process.stderr.write(`tfjs-callback-debugger: a training-curve observer failed: ${err instanceof Error ? err.message : String(err)}\n`);
    }
  }
}

let installed: FitLogWatch | undefined;

/** Installs the watch while some observer wants fit logs; removes it when none does. */
export function syncFitLogs(): void {
  const wanted = (shared.fitLogObservers?.length ?? 0) > 0;
  if (wanted && !installed) {
    installed = new FitLogWatch();
    installed.install();
  } else if (!wanted && installed) {
    installed.remove();
    installed = undefined;
  }
}

/** Watches what every fit tells its callbacks; returns the function that stops watching. */
export function addFitLogObserver(observer: FitLogObserver): () => void {
  shared.fitLogObservers = [...(shared.fitLogObservers ?? []), observer];
  syncFitLogs();
  return () => {
    shared.fitLogObservers = (shared.fitLogObservers ?? []).filter((o) => o !== observer);
    syncFitLogs();
  };
}

/** The batch a fit is at now (the last fit that ran a batch, until its History is synced). */
export function fitPosition(): FitPosition | undefined {
  return installed?.position();
}

/** Lends the watch to a debugger's agent (runtime/index.ts, as the runtime loads); one that came before the runtime left its observers in the list. */
export function lendFitLogs(): void {
  if (shared.tools) Object.assign(shared.tools, { addFitLogObserver, syncFitLogs, fitPosition });
  syncFitLogs();
}
