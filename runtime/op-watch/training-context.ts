/**
 * Where in a training program an op runs, for the op watch's births: the layer whose `call()` is
 * running, the `model.fit` / `fitDataset` epoch and batch, and, in a backward pass, the forward
 * op whose gradient it is (its kernel, layer and the program's stack when it ran).
 *
 * - Layers: tfjs-layers calls `layer.call()` directly in training (not `apply`), so each layer of
 *   a model is given an own `call` that marks it running, when the model is fitted, evaluated or
 *   run, and a layer applied alone when `apply` is called. Own properties, not enumerable.
 * - Epoch and batch: one fit callback, registered once per process with tfjs-layers'
 *   `registerCallbackConstructor` (verbosity 0: every fit); it only notes where the fit is.
 */
import { tf } from '../tf.js';

/** A layer by its name and class (`dense_Dense1`, `Dense`). */
export interface LayerRef {
  readonly name: string;
  readonly className: string;
}

/** Where a fit is: its epoch and batch, from 0 as tfjs counts them. */
export interface FitStep {
  readonly epoch: number;
  readonly batch: number;
}

/** A forward op on the gradient tape: what a backward kernel differentiates. */
export interface ForwardOp {
  readonly op: string;
  readonly layer?: LayerRef;
  /** Captured when it ran; its `stack` is formatted only when a birth asks for it. */
  readonly trace: { stack?: string };
}

interface LayerLike {
  readonly name: string;
  getClassName(): string;
  call(...args: unknown[]): unknown;
  readonly layers?: readonly LayerLike[];
}

const TRACKED = Symbol.for('tfjs-callback-debugger.opWatch.layerTracked');
const FIT_CALLBACK = Symbol.for('tfjs-callback-debugger.opWatch.fitCallback');
/** The model methods after which a model's layers are tracked. */
const MODEL_METHODS = ['fit', 'fitDataset', 'trainOnBatch', 'predict', 'predictOnBatch', 'evaluate', 'evaluateDataset', 'execute'] as const;

export class TrainingContext {
  private readonly layers: LayerLike[] = [];
  private fit: { epoch: number; batch: number } | undefined;
  /** Set while a backward kernel of a tape node runs. */
  backwardOf: ForwardOp | undefined;
  private restore: (() => void)[] = [];
  private on = false;

  /** The innermost layer whose `call()` is running. */
  layer(): LayerRef | undefined {
    const layer = this.layers.at(-1);
    return layer ? layerRef(layer) : undefined;
  }

  step(): FitStep | undefined {
    return this.fit ? { ...this.fit } : undefined;
  }

  install(): void {
    if (this.on) return;
    this.on = true;
    this.registerFitCallback();
    const layerProto = (tf.layers as unknown as { Layer?: { prototype: Record<string, unknown> } }).Layer?.prototype;
    if (layerProto) this.shadow(layerProto, 'apply', (self) => this.track(self as LayerLike));
    const modelProto = (tf as unknown as { LayersModel?: { prototype: Record<string, unknown> } }).LayersModel?.prototype;
    if (modelProto) for (const name of MODEL_METHODS) this.shadow(modelProto, name, (self) => this.trackModel(self as LayerLike));
  }

  remove(): void {
    this.on = false;
    for (const undo of this.restore.splice(0)) undo();
    this.layers.length = 0;
    this.fit = undefined;
    this.backwardOf = undefined;
  }

  /** Runs `before(this)` ahead of each call of `proto[name]` while the watch is on. */
  private shadow(proto: Record<string, unknown>, name: string, before: (self: unknown) => void): void {
    const original = proto[name];
    if (typeof original !== 'function') return;
    const had = Object.hasOwn(proto, name);
    proto[name] = function (this: unknown, ...args: unknown[]) {
      before(this);
      return (original as (...a: unknown[]) => unknown).apply(this, args);
    };
    this.restore.push(() => {
      if (had) proto[name] = original;
      else delete proto[name];
    });
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

  /** One fit callback for the process (tfjs-layers refuses a constructor twice, and cannot drop one). */
  private registerFitCallback(): void {
    const g = globalThis as unknown as Record<symbol, { context: TrainingContext | undefined } | undefined>;
    const existing = g[FIT_CALLBACK];
    if (existing) {
      existing.context = this;
      return;
    }
    const Base = (tf as unknown as { Callback?: new () => object }).Callback;
    const register = (tf as unknown as { registerCallbackConstructor?: (level: number, ctor: new () => object) => void }).registerCallbackConstructor;
    if (!Base || !register) return;
    const slot: { context: TrainingContext | undefined } = { context: this };
    g[FIT_CALLBACK] = slot;
    class FitStepCallback extends Base {
      async onEpochBegin(epoch: number): Promise<void> {
        if (slot.context?.on) slot.context.fit = { epoch, batch: 0 };
      }
      async onBatchBegin(batch: number): Promise<void> {
        const c = slot.context;
        if (c?.on) c.fit = { epoch: c.fit?.epoch ?? 0, batch };
      }
      async onTrainEnd(): Promise<void> {
        if (slot.context) slot.context.fit = undefined;
      }
    }
    register(0, FitStepCallback);
  }
}

function layerRef(layer: LayerLike): LayerRef {
  let className = layer.constructor?.name ?? 'Layer';
  try {
    className = layer.getClassName();
  } catch {}
  return { name: String(layer.name), className };
}
