/**
 * Turns what a callback returned into tensors, checking count and dtype against Tout with
 * TensorFlow's wording. Nothing here throws for a mismatch: the result lists the mismatches so a
 * debugger can stop and show them before the error is raised.
 */
import { displayName, isFloating, isInteger, isLossy, storageOf, type TfDType } from './dtypes.js';
import { NdArray } from './ndarray.js';
import { tf, type Tensor } from './tf.js';
import type { Tout } from './tout.js';

export interface ToutMismatch {
  readonly problem: 'count' | 'dtype' | 'value';
  /** Output index (dtype and value problems). */
  readonly index?: number;
  readonly expected: string;
  readonly actual: string;
  /** TensorFlow's message, first line exactly as TensorFlow prints it. */
  readonly message: string;
}

/** A declared dtype TF.js holds in a narrower one (float64 as float32, …): reported, not hidden. */
export interface Narrowing {
  readonly index: number;
  readonly declared: TfDType;
  readonly storedAs: string;
}

/** One returned value, classified before conversion. */
export interface ReturnedValue {
  /** TensorFlow dtype of the value, undefined for untyped JS literals (numbers, nested arrays). */
  readonly dtype: TfDType | undefined;
  readonly shape: readonly number[];
  /** Short description for messages: "Float64Array", "Tensor", "number", "nested array". */
  readonly describe: string;
  readonly tensor?: Tensor;
  readonly flat?: ArrayLike<unknown>;
  /** For untyped values: what the literals are. */
  readonly literal?: 'number' | 'integer' | 'boolean' | 'string';
  readonly problem?: string;
}

export interface ConvertedOutputs {
  readonly tensors: Tensor[];
  readonly returned: ReturnedValue[];
  readonly mismatches: ToutMismatch[];
  readonly narrowed: Narrowing[];
}

/**
 * Splits a callback's return value into its list of values. As in TensorFlow, a returned list is
 * the list of outputs; for a single-dtype Tout a plain nested array of numbers is one value (it
 * is how JS writes an array literal).
 */
export function returnedList(ret: unknown, tout: Tout): unknown[] {
  if (ret === undefined || ret === null) return [];
  if (!Array.isArray(ret)) return [ret];
  if (tout.single && ret.length > 0 && !ret.some(isValueObject)) return [ret];
  return ret;
}

/** A value object is one output; a plain nested array of numbers is one output too. */
function isValueObject(v: unknown): boolean {
  return v instanceof tf.Tensor || v instanceof NdArray || ArrayBuffer.isView(v) || v === null || v === undefined;
}

/**
 * `firstNewTensorId`: tensors with a smaller id existed before the callback ran (its inputs, or a
 * tensor it closed over); they are cloned, since the caller of the wrapper owns its outputs.
 */
export function convertOutputs(ret: unknown, tout: Tout, callback: string, firstNewTensorId: number): ConvertedOutputs {
  const values = returnedList(ret, tout);
  const expectedCount = tout.dtypes.length;
  const returned = values.map(classify);
  const mismatches: ToutMismatch[] = [];
  const narrowed: Narrowing[] = [];
  if (values.length !== expectedCount) {
    const first = `${callback} returns ${values.length} values, but expects to see ${expectedCount} values.`;
    mismatches.push({
      problem: 'count',
      expected: String(expectedCount),
      actual: String(values.length),
      message: `${first}\n  ${countDetail(ret, values.length, tout)}`,
    });
    return { tensors: [], returned, mismatches, narrowed };
  }
  const tensors: Tensor[] = [];
  const used = new Set<Tensor>();
  returned.forEach((value, i) => {
    const expected = tout.dtypes[i]!;
    const mismatch = checkValue(value, expected, i, callback);
    if (mismatch) {
      mismatches.push(mismatch);
      return;
    }
    if (isLossy(expected)) narrowed.push({ index: i, declared: expected, storedAs: storageOf(expected) });
    const tensor = toTensor(value, expected, firstNewTensorId);
    // The same tensor returned twice must still give outputs the caller can dispose one by one.
    tensors.push(used.has(tensor) ? tf.clone(tensor) : tensor);
    used.add(tensor);
  });
  // Tensors made here are disposed by the caller's tidy when the check fails.
  return { tensors: mismatches.length > 0 ? [] : tensors, returned, mismatches, narrowed };
}

function countDetail(ret: unknown, count: number, tout: Tout): string {
  const declared = tout.single ? `Tout ${JSON.stringify(tout.dtypes[0])}` : `Tout ${JSON.stringify(tout.dtypes)}`;
  if (count === 0) {
    return `The callback returned ${ret === null ? 'null' : 'undefined'} (no values) but ${declared} declares ${tout.dtypes.length}: return the outputs, or use Tout [] for a callback that returns nothing.`;
  }
  const listNote = !tout.single && Array.isArray(ret) ? ' With a list Tout, a returned array is the list of outputs: return [value] for one array output.' : '';
  return `The callback returned ${count} values; ${declared} declares ${tout.dtypes.length}. Return exactly one value per Tout entry (a list for several).${listNote}`;
}

function checkValue(value: ReturnedValue, expected: TfDType, index: number, callback: string): ToutMismatch | undefined {
  const lead = `${index}-th value returned by ${callback}`;
  if (value.problem) {
    return { problem: 'value', index, expected, actual: value.describe, message: `${lead} is not a tensor: ${value.problem}` };
  }
  const actual = value.dtype ?? literalDType(value, expected);
  if (actual === expected) return undefined;
  // A TF.js tensor can only be held in TF.js's dtypes: one in the storage of the declared dtype
  // is that dtype, narrowed (reported as such).
  if (value.tensor && value.tensor.dtype === storageOf(expected)) return undefined;
  const first = `${lead} is ${displayName(actual)}, but expects ${displayName(expected)}`;
  return {
    problem: 'dtype',
    index,
    expected,
    actual,
    message: `${first}\n  ${describeValue(value, actual)}${hint(value, actual, expected)}`,
  };
}

/** The dtype an untyped JS literal takes: the declared one when it can hold the values. */
function literalDType(value: ReturnedValue, expected: TfDType): TfDType {
  switch (value.literal) {
    case 'boolean':
      return 'bool';
    case 'string':
      return 'string';
    case 'integer':
      return isFloating(expected) || isInteger(expected) || expected === 'complex64' ? expected : 'int32';
    default:
      return isFloating(expected) || expected === 'complex64' ? expected : 'float64';
  }
}

function describeValue(value: ReturnedValue, actual: TfDType): string {
  return `the value is ${article(value.describe)} ${value.describe} of shape [${value.shape.join(',')}] and dtype ${actual}.`;
}

function article(word: string): string {
  return /^[aeiou]/i.test(word) ? 'an' : 'a';
}

function hint(value: ReturnedValue, actual: TfDType, expected: TfDType): string {
  if (actual === 'float64' && expected === 'float32') {
    const how = value.describe === 'NdArray' ? "new NdArray(Float32Array.from(a.data), a.shape, 'float32')" : 'Float32Array.from(values)';
    return ` This is numpy's float64 mistake in JavaScript: ${value.describe === 'NdArray' ? 'float64 data' : 'a Float64Array'} is double precision. Return float32 data (${how}) or declare Tout 'float64'.`;
  }
  if (value.literal === 'number' && isInteger(expected)) {
    return ` The values are not all integers; round them (Math.round) or declare a float dtype in Tout.`;
  }
  return ` Return ${displayName(expected)} data or change Tout to '${actual}'.`;
}

const TYPED_DTYPES: [new (...args: never[]) => unknown, TfDType][] = [
  [Float32Array, 'float32'], [Float64Array, 'float64'], [Int32Array, 'int32'], [Int16Array, 'int16'],
  [Int8Array, 'int8'], [Uint8Array, 'uint8'], [Uint8ClampedArray, 'uint8'], [Uint16Array, 'uint16'],
  [Uint32Array, 'uint32'], [BigInt64Array, 'int64'], [BigUint64Array, 'uint64'],
];

export function classify(value: unknown): ReturnedValue {
  if (value instanceof tf.Tensor) {
    return { dtype: value.dtype, shape: value.shape, describe: 'Tensor', tensor: value };
  }
  if (value instanceof NdArray) {
    return { dtype: value.dtype, shape: value.shape, describe: 'NdArray', flat: value.data as ArrayLike<unknown> };
  }
  if (ArrayBuffer.isView(value)) {
    const entry = TYPED_DTYPES.find(([ctor]) => value instanceof ctor);
    const name = value.constructor.name;
    if (!entry) return bad(name, `a ${name} has no TensorFlow dtype`);
    return { dtype: entry[1], shape: [(value as unknown as ArrayLike<unknown>).length], describe: name, flat: value as unknown as ArrayLike<unknown> };
  }
  if (typeof value === 'number') {
    return { dtype: undefined, shape: [], describe: 'number', flat: [value], literal: Number.isInteger(value) ? 'integer' : 'number' };
  }
  if (typeof value === 'boolean') return { dtype: undefined, shape: [], describe: 'boolean', flat: [value], literal: 'boolean' };
  if (typeof value === 'string') return { dtype: undefined, shape: [], describe: 'string', flat: [value], literal: 'string' };
  if (Array.isArray(value)) return classifyNested(value);
  if (value !== null && typeof (value as { then?: unknown }).then === 'function') {
    return bad('Promise', 'the callback returned a Promise. Wrapped callbacks run synchronously, as in TensorFlow; compute the value before returning (async callbacks are supported for graph model nodes run with executeAsync)');
  }
  const what = value === null ? 'null' : value === undefined ? 'undefined' : `${typeof value}${typeof value === 'object' ? ` (${(value as object).constructor?.name ?? 'Object'})` : ''}`;
  return bad(what, `${what} is not a Tensor, NdArray, typed array, number, boolean, string or nested array`);
}

function bad(describe: string, problem: string): ReturnedValue {
  return { dtype: undefined, shape: [], describe, problem };
}

function classifyNested(value: unknown[]): ReturnedValue {
  const shape: number[] = [];
  for (let level: unknown = value; Array.isArray(level); level = level[0]) shape.push(level.length);
  const flat: unknown[] = [];
  const ragged = flattenInto(value, shape, 0, flat);
  if (ragged) return bad('nested array', ragged);
  const kinds = new Set(flat.map((v) => typeof v));
  if (kinds.size > 1) return bad('nested array', `its leaves mix ${[...kinds].join(' and ')}`);
  const kind = kinds.values().next().value ?? 'number';
  if (kind !== 'number' && kind !== 'boolean' && kind !== 'string') return bad('nested array', `its leaves are ${kind}s`);
  const literal = kind === 'number' ? (flat.every((v) => Number.isInteger(v)) ? 'integer' : 'number') : kind;
  return { dtype: undefined, shape, describe: 'nested array', flat, literal };
}

function flattenInto(value: unknown, shape: number[], axis: number, out: unknown[]): string | undefined {
  if (axis === shape.length) {
    if (Array.isArray(value)) return `it is ragged: an array at depth ${axis} where a value was expected`;
    out.push(value);
    return undefined;
  }
  if (!Array.isArray(value) || value.length !== shape[axis]) {
    return `it is ragged: at depth ${axis} a row has ${Array.isArray(value) ? value.length : 'no'} items where ${shape[axis]} were expected`;
  }
  for (const item of value) {
    const problem = flattenInto(item, shape, axis + 1, out);
    if (problem) return problem;
  }
  return undefined;
}

function toTensor(value: ReturnedValue, expected: TfDType, firstNewTensorId: number): Tensor {
  if (value.tensor) return value.tensor.id < firstNewTensorId ? tf.clone(value.tensor) : value.tensor;
  const storage = storageOf(expected);
  const flat = value.flat!;
  if (storage === 'string') return tf.tensor(Array.from(flat as ArrayLike<string>), value.shape as number[], 'string');
  if (storage === 'complex64') {
    const interleaved = Float32Array.from(flat as ArrayLike<number>);
    const re = interleaved.filter((_, i) => i % 2 === 0);
    const im = interleaved.filter((_, i) => i % 2 === 1);
    return tf.complex(tf.tensor(re, value.shape as number[]), tf.tensor(im, value.shape as number[]));
  }
  return tf.tensor(storageArray(flat, storage), value.shape as number[], storage);
}

/** Zero-copy when the data already is TF.js's storage type (cpu keeps the array it is given). */
function storageArray(flat: ArrayLike<unknown>, storage: 'float32' | 'int32' | 'bool'): Float32Array | Int32Array | Uint8Array {
  if (storage === 'float32') return flat instanceof Float32Array ? flat : Float32Array.from(flat as ArrayLike<number>, Number);
  if (storage === 'int32') {
    if (flat instanceof Int32Array) return flat;
    return Int32Array.from(flat as ArrayLike<number | bigint>, (v) => Number(v));
  }
  return flat instanceof Uint8Array ? flat : Uint8Array.from(flat as ArrayLike<unknown>, (v) => (v ? 1 : 0));
}
