/**
 * Tensor summaries for debug hooks: dtype, shape and health statistics. The cost is bounded:
 * tensors above SUMMARY_SAMPLE_LIMIT elements are summarised from an evenly strided sample of
 * that many elements, and `exact: false` says so. The sample is read in place where the backend
 * keeps the values in memory JS can see (cpu, wasm): a strided read of O(sample) elements. Elsewhere
 * (the native backend) a strided slice runs on the backend, which copies only the sample out.
 */
import { storageOf, type TfDType } from './dtypes.js';
import { tf, type Tensor, type TfjsDType } from './tf.js';

export const SUMMARY_SAMPLE_LIMIT = 1 << 20;
const PREVIEW_LENGTH = 8;

export interface TensorSummary {
  /** TensorFlow's dtype: the declared one (Tin, Tout) where TF.js holds it narrower. */
  readonly dtype: TfDType;
  /** The dtype TF.js holds the values in, when it is not `dtype` (float64 held as float32). */
  readonly heldAs?: TfjsDType;
  readonly shape: readonly number[];
  readonly size: number;
  /** Over finite values; absent for string tensors or when none is finite. */
  readonly min?: number;
  readonly max?: number;
  readonly mean?: number;
  readonly nanCount: number;
  /** ±Inf, both signs: `negInfCount` of them are −Inf. */
  readonly infCount: number;
  /** −Inf values (absent where none was counted: a string tensor, an older agent's summary). */
  readonly negInfCount?: number;
  readonly zeroCount: number;
  /** False when the statistics come from a strided sample (huge tensors). */
  readonly exact: boolean;
  /** How many elements the statistics cover. */
  readonly counted: number;
  /** The first few values, as text-safe JS values. */
  readonly preview: readonly (number | string | boolean)[];
  /**
   * What a callback returned in place of a value ("ragged nested array", "Promise"): it has no
   * dtype, shape or values, and the rest of the summary says nothing.
   */
  readonly notAValue?: string;
}

/** Values without a tensor (a callback's return value that failed the Tout check). */
export interface RawValues {
  readonly dtype: TfDType;
  readonly shape: readonly number[];
  readonly flat: ArrayLike<unknown>;
}

/** `declared`: the dtype TensorFlow has for it (a node's Tin or Tout), when TF.js holds it narrower. */
export function summarizeTensor(tensor: Tensor, declared?: TfDType): TensorSummary {
  const summary = summarizeHeld(tensor);
  if (declared === undefined || declared === tensor.dtype || storageOf(declared) !== tensor.dtype) return summary;
  return { ...summary, dtype: declared, heldAs: tensor.dtype };
}

function summarizeHeld(tensor: Tensor): TensorSummary {
  if (tensor.isDisposed) return emptySummary(tensor.dtype, tensor.shape);
  if (tensor.size <= SUMMARY_SAMPLE_LIMIT || tensor.dtype === 'string') {
    return summarizeValues({ dtype: tensor.dtype, shape: tensor.shape, flat: tensor.dataSync() as ArrayLike<unknown> }, true);
  }
  const step = Math.ceil(tensor.size / SUMMARY_SAMPLE_LIMIT);
  const view = valuesInPlace(tensor);
  // tfjs-backend-cpu's StridedSlice computes each output's index through coordinate arrays (about
  // 1 µs an element) and wasm's is little faster: reading in place skips both.
  const sample = view ? stridedSample(view, step) : sampleOnBackend(tensor, step);
  const summary = summarizeValues({ dtype: tensor.dtype, shape: tensor.shape, flat: sample as ArrayLike<unknown> }, false);
  return { ...summary, size: tensor.size };
}

/**
 * The strided sample taken by the backend. Not returned out of a tf.tidy: tidy walks what its
 * function returns, key by key, looking for tensors (700 ms for a 1M-element typed array).
 */
function sampleOnBackend(tensor: Tensor, step: number): ArrayLike<unknown> {
  const flat = tensor.reshape([-1]);
  const sliced = tf.stridedSlice(flat, [0], [tensor.size], [step]);
  try {
    return sliced.dataSync() as ArrayLike<unknown>;
  } finally {
    tf.dispose([flat, sliced]);
  }
}

/**
 * Elements 0, step, 2·step, … of `flat`: ceil(length / step) reads and nothing more. The same
 * elements the backend's strided slice picks, so a summary does not depend on the backend.
 */
export function stridedSample<T>(flat: ArrayLike<T>, step: number): ArrayLike<T> {
  if (!Number.isInteger(step) || step < 1) throw new RangeError(`stridedSample: step must be a whole number ≥ 1, got ${step}.`);
  const count = Math.ceil(flat.length / step);
  const out: { length: number; [i: number]: T } = ArrayBuffer.isView(flat)
    ? new (flat.constructor as new (n: number) => { length: number; [i: number]: T })(count)
    : new Array<T>(count);
  for (let i = 0, j = 0; i < count; i++, j += step) out[i] = flat[j]!;
  return out;
}

/** The backend that holds a tensor's data (tfjs-core's engine, internal). */
interface EngineTensorInfo {
  readonly state?: { readonly tensorInfo?: { get(dataId: object): { backend?: unknown } | undefined } };
}

/**
 * The tensor's values where its backend keeps them in JS-visible memory, without a copy: the cpu
 * backend's own array (its dataSync returns it as is), the wasm backend's heap. Undefined for
 * other backends (the native one copies on every read) and dtypes these do not hold flat.
 * test/hostile/summary.test.ts checks both stay views when tfjs changes.
 */
export function valuesInPlace(tensor: Tensor): ArrayLike<unknown> | undefined {
  if (tensor.dtype !== 'float32' && tensor.dtype !== 'int32' && tensor.dtype !== 'bool') return undefined;
  const backend = (tf.engine() as unknown as EngineTensorInfo).state?.tensorInfo?.get(tensor.dataId)?.backend;
  if (backend === undefined) return undefined;
  // The engine's registry, not tf.findBackend: that one starts a backend not yet started (wasm's
  // start is async and is retried on every call), which cost ~0.8 s a summary on tensorflow.
  const started = (tf.engine() as unknown as { registry?: Record<string, unknown> }).registry ?? {};
  if (backend === started.cpu) return tensor.dataSync();
  const wasm = backend as { typedArrayFromHeap?: (info: { shape: number[]; dtype: string; dataId: object }) => ArrayLike<unknown> };
  if (backend === started.wasm && typeof wasm.typedArrayFromHeap === 'function') {
    return wasm.typedArrayFromHeap({ shape: tensor.shape, dtype: tensor.dtype, dataId: tensor.dataId });
  }
  return undefined;
}

export function summarizeValues(values: RawValues, exact = true): TensorSummary {
  const { dtype, shape, flat } = values;
  const size = shape.reduce((a, b) => a * b, 1);
  const preview = Array.from({ length: Math.min(PREVIEW_LENGTH, flat.length) }, (_, i) => previewValue(flat[i]));
  if (dtype === 'string') {
    return { dtype, shape, size, nanCount: 0, infCount: 0, zeroCount: 0, exact, counted: flat.length, preview };
  }
  let min = Infinity;
  let max = -Infinity;
  let sum = 0;
  let finite = 0;
  let nanCount = 0;
  let infCount = 0;
  let negInfCount = 0;
  let zeroCount = 0;
  for (let i = 0; i < flat.length; i++) {
    const v = Number(flat[i]);
    // biome-ignore lint/suspicious/noSelfCompare: the NaN test, in the hottest loop of a summary
    if (v !== v) nanCount++;
    else if (v === Infinity) infCount++;
    else if (v === -Infinity) {
      infCount++;
      negInfCount++;
    } else {
      if (v < min) min = v;
      if (v > max) max = v;
      if (v === 0) zeroCount++;
      sum += v;
      finite++;
    }
  }
  const stats = finite > 0 ? { min, max, mean: sum / finite } : {};
  return { dtype, shape, size, ...stats, nanCount, infCount, negInfCount, zeroCount, exact, counted: flat.length, preview };
}

function previewValue(v: unknown): number | string | boolean {
  if (typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean') return v;
  if (typeof v === 'bigint') return Number(v);
  return String(v);
}

function emptySummary(dtype: TfDType, shape: readonly number[]): TensorSummary {
  return { dtype, shape, size: 0, nanCount: 0, infCount: 0, zeroCount: 0, exact: false, counted: 0, preview: [] };
}

export { signature } from './signature.js';
