/**
 * Where in a training program an op runs, for the op watch's births: the layer whose `call()` is
 * running, the `model.fit` / `fitDataset` epoch and batch, and, in a backward pass, the forward
 * op whose gradient it is (its kernel, layer and the program's stack when it ran).
 *
 * - Layers: tfjs-layers calls `layer.call()` directly in training (not `apply`), so each layer of
 *   a model is given an own `call` that marks it running, when the model is fitted, evaluated or
 *   run, and a layer applied alone when `apply` is called. Own properties, not enumerable.
 * - Optimizer updates: between an optimizer's gradients and the end of its `minimize` (what
 *   model.fit and custom loops call), kernels are its update of the weights.
 * - The program's line that called `model.fit` (or predict, evaluate…): tfjs-layers is compiled
 *   to generators, so its kernels' stacks lose the async callers; this line stands in for them.
 * - Epoch and batch: what a fit tells its callbacks (tfjs-layers' `CallbackList` onEpochBegin,
 *   onBatchBegin), read on the way; no callback is added to the program's fits.
 */
import { type CallSite, captureStack, firstUserFrame } from '../callsite.js';
import type { FitStep, LayerRef } from '../hook-types.js';
import { tf } from '../tf.js';
import { type Around, shadowMethod } from '../prototype-shadow.js';

export type { FitStep, LayerRef } from '../hook-types.js';

/** A forward op on the gradient tape: what a backward kernel differentiates. */
export interface ForwardOp {
  readonly op: string;
  readonly layer?: LayerRef;
  /** Captured when it ran; its `stack` is formatted only when a birth asks for it. `entry`: the model method's caller then. */
  readonly trace: { stack?: string; entry?: CallSite };
}

interface LayerLike {
  readonly name: string;
  getClassName(): string;
  call(...args: unknown[]): unknown;
  readonly layers?: readonly LayerLike[];
}

const TRACKED = Symbol.for('tfjs-callback-debugger.opWatch.layerTracked');
/** The model methods after which a model's layers are tracked. */
const MODEL_METHODS = ['fit', 'fitDataset', 'trainOnBatch', 'predict', 'predictOnBatch', 'evaluate', 'evaluateDataset', 'execute'] as const;

export class TrainingContext {
  private readonly layers: LayerLike[] = [];
  private fit: { epoch: number; batch: number } | undefined;
  /** Set while a backward kernel of a tape node runs. */
  backwardOf: ForwardOp | undefined;
  /** The optimizer (its class) whose `minimize` is applying its gradients now. */
  private updating: string | undefined;
  private minimizing = 0;
  private restore: (() => void)[] = [];
  /** The stacks of the model methods' calls under way, innermost last (formatted only when a birth reads one). */
  private readonly entries: { stack?: string }[] = [];
  private on = false;

  /** The innermost layer whose `call()` is running. */
  layer(): LayerRef | undefined {
    const layer = this.layers.at(-1);
    return layer ? layerRef(layer) : undefined;
  }

  /** Runs `fn` as the backward pass of `forward`. */
  during<T>(forward: ForwardOp, fn: () => T): T {
    const outer = this.backwardOf;
    this.backwardOf = forward;
    try {
      return fn();
    } finally {
      this.backwardOf = outer;
    }
  }

  /** The optimizer class whose update of the weights is running, if one is. */
  optimizerUpdate(): string | undefined {
    return this.updating;
  }

  step(): FitStep | undefined {
    return this.fit ? { ...this.fit } : undefined;
  }

  install(): void {
    if (this.on) return;
    this.on = true;
    const callbacks = (tf as unknown as { CallbackList?: { prototype: Record<string, unknown> } }).CallbackList?.prototype;
    if (callbacks) this.watchFitSteps(callbacks);
    const layerProto = (tf.layers as unknown as { Layer?: { prototype: Record<string, unknown> } }).Layer?.prototype;
    if (layerProto) this.shadow(layerProto, 'apply', (self) => this.track(self as LayerLike));
    const modelProto = (tf as unknown as { LayersModel?: { prototype: Record<string, unknown> } }).LayersModel?.prototype;
    if (modelProto) for (const name of MODEL_METHODS) this.around(modelProto, name, (self, call) => this.modelCall(self as LayerLike, call));
    const optimizerProto = (tf as unknown as { Optimizer?: { prototype: Record<string, unknown> } }).Optimizer?.prototype;
    if (optimizerProto) this.watchUpdates(optimizerProto);
  }

  /** Where each fit is, as it tells its callbacks (the epoch and batch, from 0). */
  private watchFitSteps(proto: Record<string, unknown>): void {
    this.around(proto, 'onEpochBegin', (_self, call, args) => {
      this.fit = { epoch: Number(args[0]), batch: 0 };
      return call();
    });
    this.around(proto, 'onBatchBegin', (_self, call, args) => {
      this.fit = { epoch: this.fit?.epoch ?? 0, batch: Number(args[0]) };
      return call();
    });
    this.around(proto, 'onTrainEnd', (_self, call) => {
      this.fit = undefined;
      return call();
    });
  }

  /** `minimize` computes the gradients, then applies them: what runs after the first, inside it, is the update. */
  private watchUpdates(proto: Record<string, unknown>): void {
    this.around(proto, 'minimize', (_self, call) => {
      this.minimizing++;
      try {
        return call();
      } finally {
        if (--this.minimizing === 0) this.updating = undefined;
      }
    });
    this.around(proto, 'computeGradients', (self, call) => {
      const result = call();
      if (this.minimizing > 0) this.updating = optimizerName(self);
      return result;
    });
  }

  remove(): void {
    this.on = false;
    for (const undo of this.restore.splice(0).reverse()) undo();
    this.layers.length = 0;
    this.entries.length = 0;
    this.fit = undefined;
    this.backwardOf = undefined;
    this.updating = undefined;
    this.minimizing = 0;
  }

  /** Runs `before(this)` ahead of each call of `proto[name]` while the watch is on. */
  private shadow(proto: Record<string, unknown>, name: string, before: (self: unknown) => void): void {
    this.around(proto, name, (self, call) => {
      before(self);
      return call();
    });
  }

  /** Each call of `proto[name]` goes through `around`, which makes the call; undone by remove(). */
  private around(proto: Record<string, unknown>, name: string, around: Around): void {
    shadowMethod(proto, name, around, this.restore);
  }

  /** The program's line that called the model method under way (innermost), if it is known. */
  entrySite(): CallSite | undefined {
    const entry = this.entries.at(-1);
    return entry ? firstUserFrame(entry.stack ?? '') : undefined;
  }

  /** A model method: its layers tracked, and the program's line that called it kept until it returns or settles. */
  private modelCall(model: LayerLike, call: () => unknown): unknown {
    this.trackModel(model);
    const site = captureStack(TrainingContext.prototype.modelCall, 12);
    const entries = this.entries;
    entries.push(site);
    const done = () => {
      const at = entries.lastIndexOf(site);
      if (at >= 0) entries.splice(at, 1);
    };
    let result: unknown;
    try {
      result = call();
    } catch (err) {
      done();
      throw err;
    }
    if (result instanceof Promise) result.then(done, done);
    else done();
    return result;
  }

  private trackModel(model: LayerLike): void {
    for (const layer of model.layers ?? []) {
      this.track(layer);
      if (layer.layers) this.trackModel(layer);
    }
  }

  /** Gives a layer an own `call` that marks it running (once per layer). */
  private track(layer: LayerLike): void {
    const holder = layer as unknown as Record<symbol, boolean>;
    if (!layer || typeof layer.call !== 'function' || holder[TRACKED]) return;
    holder[TRACKED] = true;
    const original = layer.call;
    const running = this.layers;
    Object.defineProperty(layer, 'call', {
      configurable: true,
      writable: true,
      enumerable: false,
      value: function (this: unknown, ...args: unknown[]) {
        running.push(layer);
        try {
          return original.apply(this, args);
        } finally {
          running.pop();
        }
      },
    });
  }
}

function optimizerName(optimizer: unknown): string {
  const o = optimizer as { getClassName?: () => string; constructor?: { name?: string } };
  try {
    if (typeof o.getClassName === 'function') return o.getClassName();
  } catch {}
  return o.constructor?.name ?? 'Optimizer';
}

function layerRef(layer: LayerLike): LayerRef {
  let className = layer.constructor?.name ?? 'Layer';
  try {
    className = layer.getClassName();
  } catch {}
  return { name: String(layer.name), className };
}
