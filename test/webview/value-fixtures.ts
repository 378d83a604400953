/**
 * `tensorCallback` events (debug-adapter/PROTOCOL.md) with every kind of value a callback can
 * return, as the adapter's agent describes them, and image-shaped tensors; for the inspector's
 * browser tests (value-kinds.test.ts, image.test.ts).
 */
import type { TensorCallbackEvent, TensorInfo } from '../../media/src/protocol.js';
import { SESSION } from './fixtures.js';
import { fixtureKey, type Fixtures } from './harness.js';

type Value = number | string | boolean;

/** The summary the agent sends for these values (statistics over finite numbers; none for strings). */
export function summarize(kind: string, dtype: string, shape: number[], values: readonly Value[], extra: Partial<TensorInfo> = {}): TensorInfo {
  const size = shape.reduce((a, b) => a * b, 1);
  const base = { kind, dtype, shape, size, disposed: false, exact: true, counted: values.length, preview: values.slice(0, 8) };
  if (dtype === 'string') return { ...base, nanCount: 0, infCount: 0, zeroCount: 0, ...extra };
  const numbers = values.map(Number);
  const finite = numbers.filter(Number.isFinite);
  const stats = finite.length > 0 ? { min: Math.min(...finite), max: Math.max(...finite), mean: finite.reduce((a, b) => a + b, 0) / finite.length } : {};
  return {
    ...base,
    ...stats,
    nanCount: numbers.filter(Number.isNaN).length,
    infCount: numbers.filter((v) => v === Infinity || v === -Infinity).length,
    zeroCount: numbers.filter((v) => v === 0).length,
    ...extra,
  };
}

export interface KindCase {
  readonly kind: string;
  readonly dtype: string;
  readonly shape: number[];
  /** Flat, row-major; undefined for values with none (disposed tensors, opaque values). */
  readonly values?: readonly Value[];
  readonly Tout: string;
  /** TensorFlow's message when the Tout check refused it. */
  readonly mismatch?: { readonly problem: 'dtype' | 'value'; readonly message: string };
  readonly disposed?: boolean;
  readonly opaque?: boolean;
}

const M = (i: number, what: string) => `${i}-th value returned by every_kind ${what}`;
/** The runtime's short form of an M message: the same words without the callback's name. */
const short = (message: string) => message.replace(' returned by every_kind', '');

/** One output of each kind; Tout refuses some of them, as the runtime's check does. */
export const KIND_CASES: readonly KindCase[] = [
  { kind: 'Float32Array', dtype: 'float32', shape: [4], values: [0.5, 1.5, -2, 4], Tout: 'float32' },
  {
    kind: 'Float64Array',
    dtype: 'float64',
    shape: [4],
    values: [1, 2, 3, 4],
    Tout: 'float32',
    mismatch: { problem: 'dtype', message: M(1, 'is double, but expects float') },
  },
  { kind: 'Int8Array', dtype: 'int8', shape: [3], values: [-128, 0, 127], Tout: 'int8' },
  { kind: 'Int16Array', dtype: 'int16', shape: [3], values: [-300, 0, 300], Tout: 'int16' },
  { kind: 'Int32Array', dtype: 'int32', shape: [3], values: [-70000, 1, 70000], Tout: 'int32' },
  { kind: 'Uint8Array', dtype: 'uint8', shape: [3], values: [0, 128, 255], Tout: 'uint8' },
  { kind: 'Uint8ClampedArray', dtype: 'uint8', shape: [3], values: [0, 7, 255], Tout: 'uint8' },
  { kind: 'Uint16Array', dtype: 'uint16', shape: [3], values: [0, 1000, 65535], Tout: 'uint16' },
  { kind: 'Uint32Array', dtype: 'uint32', shape: [3], values: [0, 5, 4294967295], Tout: 'uint32' },
  {
    kind: 'BigInt64Array',
    dtype: 'int64',
    shape: [3],
    values: [-3, 0, 2 ** 40],
    Tout: 'float32',
    mismatch: { problem: 'dtype', message: M(9, 'is int64, but expects float') },
  },
  { kind: 'BigUint64Array', dtype: 'uint64', shape: [2], values: [1, 2 ** 50], Tout: 'uint64' },
  { kind: 'Array', dtype: 'float32', shape: [3, 4], values: Array.from({ length: 12 }, (_, i) => i / 4), Tout: 'float32' },
  { kind: 'Array', dtype: 'bool', shape: [2, 2], values: [true, false, false, true], Tout: 'bool' },
  { kind: 'Array', dtype: 'string', shape: [3], values: ['a', '', 'long text'], Tout: 'string' },
  { kind: 'number', dtype: 'float64', shape: [], values: [2.5], Tout: 'int32', mismatch: { problem: 'dtype', message: M(14, 'is double, but expects int32') } },
  { kind: 'boolean', dtype: 'bool', shape: [], values: [true], Tout: 'bool' },
  {
    kind: 'string',
    dtype: 'string',
    shape: [],
    values: ['abc'],
    Tout: 'float32',
    mismatch: { problem: 'dtype', message: M(16, 'is string, but expects float') },
  },
  { kind: 'NdArray', dtype: 'float32', shape: [2, 2], values: [1, NaN, 3, 4], Tout: 'float32' },
  { kind: 'Tensor', dtype: 'float32', shape: [2, 3], values: [0, 1, 2, 3, 4, 5], Tout: 'float32' },
  {
    kind: 'Tensor',
    dtype: 'float32',
    shape: [3],
    disposed: true,
    Tout: 'float32',
    mismatch: {
      problem: 'value',
      message: M(19, 'is not a tensor: it is a float32[3] tensor that was already disposed (return it before disposing it, or clone it)'),
    },
  },
  { kind: 'Tensor', dtype: 'string', shape: [2], values: ['x', 'y'], Tout: 'string' },
  {
    kind: 'Promise',
    dtype: '',
    shape: [],
    opaque: true,
    Tout: 'float32',
    mismatch: { problem: 'value', message: M(21, 'is not a tensor: the callback returned a Promise') },
  },
  {
    kind: 'Object',
    dtype: '',
    shape: [],
    opaque: true,
    Tout: 'float32',
    mismatch: {
      problem: 'value',
      message: M(22, 'is not a tensor: object (Object) is not a Tensor, NdArray, typed array, number, boolean, string or nested array'),
    },
  },
];

function caseInfo(c: KindCase): TensorInfo {
  if (c.opaque) return { kind: c.kind, dtype: '', shape: [], size: 0, disposed: false, opaque: true };
  if (c.disposed) return { kind: c.kind, dtype: c.dtype, shape: c.shape, size: c.shape.reduce((a, b) => a * b, 1), disposed: true };
  return summarize(c.kind, c.dtype, c.shape, c.values!);
}

/** A numpy_function whose return value has one of every kind, stopped on its Tout mismatch. */
export const kindsEvent: TensorCallbackEvent = {
  reason: 'exception',
  description: 'Tout mismatch in every_kind: 1-th value is double, but expects float',
  invocation: {
    id: 30,
    callback: { name: 'every_kind', token: 'pyfunc_7', kind: 'numpy_function', stateful: true, functionName: 'every_kind' },
    op: 'PyFunc',
    Tout: KIND_CASES.map((c) => c.Tout),
    parameterNames: ['x'],
    phase: 'returned',
    toutCheck: {
      ok: false,
      mismatches: KIND_CASES.flatMap((c, index) =>
        c.mismatch ? [{ index, problem: c.mismatch.problem, message: c.mismatch.message, short: short(c.mismatch.message) }] : [],
      ),
      narrowed: [],
    },
  },
  inputs: [summarize('NdArray', 'float32', [2], [1, 2])],
  outputs: KIND_CASES.map(caseInfo),
};

export const kindsFixtures: Fixtures = Object.fromEntries(
  KIND_CASES.flatMap((c, i) => (c.values ? [[fixtureKey(SESSION, 30, 'outputs', i), { info: kindsEvent.outputs[i]!, values: c.values }]] : [])),
);

// ---- images ---------------------------------------------------------------------------------------

export const IMAGE_H = 6;
export const IMAGE_W = 8;

/** The uint8 test image: R = 32·x, G = 50·y, B = 255 on odd x + y, else 0. */
export function pixel(y: number, x: number): [number, number, number] {
  return [32 * x, 50 * y, (x + y) % 2 ? 255 : 0];
}

function imageValues(channels: 3 | 4, unit: boolean): number[] {
  const out: number[] = [];
  for (let y = 0; y < IMAGE_H; y++) {
    for (let x = 0; x < IMAGE_W; x++) {
      const rgb = pixel(y, x);
      for (const v of rgb) out.push(unit ? v / 255 : v);
      // Alpha: opaque but for the top row, which fades in.
      if (channels === 4) out.push(y === 0 ? x / (IMAGE_W - 1) : 1);
    }
  }
  return out;
}

const pixels = imageValues(3, false);
const rgba = imageValues(4, true);
const mask = Array.from({ length: IMAGE_H * IMAGE_W }, (_, i) => (i % 3 === 0 ? 1 : 0));

/**
 * A py_function that makes an RGBA float image from a uint8 [H, W, 3] one and a [H, W] mask:
 * inputs `pixels` ([6, 8, 3] uint8) and `mask` ([6, 8] int32), output [1, 6, 8, 4] float32 in 0–1.
 */
export const imageEvent: TensorCallbackEvent = {
  reason: 'breakpoint',
  description: 'Paused on breakpoint in add_alpha',
  invocation: {
    id: 40,
    callback: { name: 'add_alpha', token: 'pyfunc_8', kind: 'py_function', stateful: true, functionName: 'add_alpha' },
    op: 'EagerPyFunc',
    Tout: ['float32'],
    parameterNames: ['pixels', 'mask'],
    phase: 'returned',
    toutCheck: { ok: true, mismatches: [], narrowed: [] },
  },
  inputs: [summarize('Tensor', 'int32', [IMAGE_H, IMAGE_W, 3], pixels), summarize('Tensor', 'int32', [IMAGE_H, IMAGE_W], mask)],
  outputs: [summarize('Tensor', 'float32', [1, IMAGE_H, IMAGE_W, 4], rgba)],
};

export const imageFixtures: Fixtures = {
  [fixtureKey(SESSION, 40, 'inputs', 0)]: { info: imageEvent.inputs[0]!, values: pixels },
  [fixtureKey(SESSION, 40, 'inputs', 1)]: { info: imageEvent.inputs[1]!, values: mask },
  [fixtureKey(SESSION, 40, 'outputs', 0)]: { info: imageEvent.outputs[0]!, values: rgba },
};
