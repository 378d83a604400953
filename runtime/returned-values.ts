/**
 * What a callback returned, value by value, classified before the Tout check: its dtype (a typed
 * array's type is its dtype), shape and flat data, or why it cannot be an output at all.
 */
import { dtypeOfArray, isTfDType, type TfDType } from './dtypes.js';
import { NdArray } from './ndarray.js';
import { tf, type Tensor } from './tf.js';
import type { Tout } from './tout.js';

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

export function classify(value: unknown): ReturnedValue {
  if (value instanceof tf.Tensor) {
    if (value.isDisposed) return bad('disposed Tensor', `it is a ${value.dtype}[${value.shape.join(',')}] tensor that was already disposed (return it before disposing it, or clone it)`);
    return { dtype: value.dtype, shape: value.shape, describe: value instanceof tf.Variable ? 'Variable' : 'Tensor', tensor: value };
  }
  if (value instanceof NdArray) {
    if (!isTfDType(value.dtype)) return bad('NdArray', `Unsupported numpy data type: its dtype ${JSON.stringify(value.dtype)} is not a TensorFlow dtype`);
    const flat = value.data as ArrayLike<unknown>;
    const expected = value.size * (value.dtype === 'complex64' || value.dtype === 'complex128' ? 2 : 1);
    if (flat.length !== expected) return bad('NdArray', `its data holds ${flat.length} values but its shape [${value.shape.join(',')}] needs ${expected}`);
    return { dtype: value.dtype, shape: value.shape, describe: 'NdArray', flat };
  }
  if (ArrayBuffer.isView(value)) {
    const dtype = dtypeOfArray(value);
    const name = value.constructor.name;
    if (!dtype) return bad(name, `a ${name} has no TensorFlow dtype`);
    return { dtype, shape: [(value as unknown as ArrayLike<unknown>).length], describe: name, flat: value as unknown as ArrayLike<unknown> };
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

/** Deeper than any tensor's rank: a circular array would otherwise nest forever. */
const MAX_NESTING = 64;

function classifyNested(value: unknown[]): ReturnedValue {
  const shape: number[] = [];
  for (let level: unknown = value; Array.isArray(level); level = level[0]) {
    if (shape.length === MAX_NESTING) return bad('nested array', `it nests deeper than ${MAX_NESTING} levels (does it contain itself?)`);
    shape.push(level.length);
  }
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
