/**
 * What a callback returned, value by value, classified before the Tout check: its dtype (a typed
 * array's type is its dtype), shape and flat data, or why it cannot be an output at all.
 */
import { arrayTypeOf, dtypeOfArray, isTfDType, storageOf, type TfDType } from '../dtypes.js';
import { describeThrown } from '../errors.js';
import { NdArray } from '../ndarray.js';
import { tf, type Tensor } from '../tf.js';
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

/**
 * Never throws: a value whose reading throws (a getter, a revoked Proxy) is a value that cannot be
 * an output, and says so, so the Tout error and the observers' end event still come.
 */
export function classify(value: unknown): ReturnedValue {
  try {
    return classifyValue(value);
  } catch (err) {
    return bad(
      'unreadable value',
      `reading it threw ${describeThrown(err)}. Return a Tensor, NdArray, typed array, number, boolean, string or nested array of plain values`,
    );
  }
}

function classifyValue(value: unknown): ReturnedValue {
  if (value instanceof tf.Tensor) {
    if (value.isDisposed)
      return bad(
        'disposed Tensor',
        `it is a ${value.dtype}[${value.shape.join(',')}] tensor that was already disposed (return it before disposing it, or clone it)`,
      );
    return { dtype: value.dtype, shape: value.shape, describe: value instanceof tf.Variable ? 'Variable' : 'Tensor', tensor: value };
  }
  if (value instanceof NdArray) return classifyNdArray(value);
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
  if (value === undefined || value === null) {
    const what = String(value);
    return bad(
      what,
      `${what} is not a Tensor, NdArray, typed array, number, boolean, string or nested array. Return a value for every Tout entry (is an output missing, or Tout longer than what the callback returns?)`,
    );
  }
  if (typeof (value as { then?: unknown }).then === 'function') {
    return bad(
      'Promise',
      'the callback returned a Promise. Wrapped callbacks run synchronously, as in TensorFlow; compute the value before returning (async callbacks are supported for graph model nodes run with executeAsync)',
    );
  }
  const what = `${typeof value}${typeof value === 'object' ? ` (${(value as object).constructor?.name ?? 'Object'})` : ''}`;
  return bad(what, `${what} is not a Tensor, NdArray, typed array, number, boolean, string or nested array`);
}

function bad(describe: string, problem: string): ReturnedValue {
  return { dtype: undefined, shape: [], describe, problem };
}

/**
 * An NdArray is checked as numpy's ndarray is built: a shape of non-negative integers, data of
 * exactly that many values, and data of the type its dtype says (converting Float64Array data
 * labelled int32 would change the values without a word).
 */
function classifyNdArray(value: NdArray): ReturnedValue {
  const dtype: unknown = value.dtype;
  if (!isTfDType(dtype)) return bad('NdArray', `Unsupported numpy data type: its dtype ${JSON.stringify(dtype) ?? String(dtype)} is not a TensorFlow dtype`);
  const shape: unknown = value.shape;
  if (!Array.isArray(shape) || shape.length > MAX_NESTING || !shape.every((d) => Number.isSafeInteger(d) && d >= 0)) {
    return bad('NdArray', `its shape ${describeShape(shape)} is not a list of at most ${MAX_NESTING} non-negative integers (new NdArray(data, [2, 3], dtype))`);
  }
  const data: unknown = value.data;
  const dataProblem = ndDataProblem(data, dtype);
  if (dataProblem) return bad('NdArray', dataProblem);
  const flat = data as ArrayLike<unknown>;
  const size = (shape as number[]).reduce((a, b) => a * b, 1);
  const expected = size * (dtype === 'complex64' || dtype === 'complex128' ? 2 : 1);
  if (flat.length !== expected) return bad('NdArray', `its data holds ${flat.length} values but its shape [${shape.join(',')}] needs ${expected}`);
  return { dtype, shape: [...(shape as number[])], describe: 'NdArray', flat };
}

function ndDataProblem(data: unknown, dtype: TfDType): string | undefined {
  if (dtype === 'string') {
    if (Array.isArray(data) && data.every((v) => typeof v === 'string')) return undefined;
    return `its dtype is string but its data is ${describeData(data)}: string data is a JS array of strings`;
  }
  const wanted = arrayTypeOf(dtype)!;
  const actual = ArrayBuffer.isView(data) ? dtypeOfArray(data) : undefined;
  // The dtype's own array type, or what TF.js holds the dtype as (Float32Array for float64, …).
  if (data instanceof wanted || (actual !== undefined && (actual === dtype || actual === storageOf(dtype) || (dtype === 'complex128' && actual === 'float32'))))
    return undefined;
  const instead = actual ? `, or give the NdArray the dtype its data has ('${actual}')` : '';
  return `its dtype is ${dtype} but its data is ${describeData(data)}: converting it would change values silently. Give ${dtype} data as ${withArticle(wanted.name)}${instead}`;
}

function describeData(data: unknown): string {
  if (data === null || data === undefined) return String(data);
  if (Array.isArray(data)) return 'a JS array';
  return withArticle(typeof data === 'object' ? ((data as object).constructor?.name ?? 'object') : typeof data);
}

function withArticle(word: string): string {
  return `${/^[aeiou]/i.test(word) ? 'an' : 'a'} ${word}`;
}

function describeShape(shape: unknown): string {
  if (!Array.isArray(shape)) return `(${describeData(shape)})`;
  return shape.length > 8 ? `[${shape.slice(0, 8).map(String).join(',')},…] (${shape.length} entries)` : `[${shape.map(String).join(',')}]`;
}

/** Deeper than any tensor's rank: a circular array would otherwise nest forever. */
const MAX_NESTING = 64;
/**
 * Nested JS arrays are for small values. Rows shared by reference can describe more elements than
 * memory holds ([r, r] nested 40 deep is 2**40 values from 40 arrays): counted before flattening.
 */
const MAX_NESTED_VALUES = 2 ** 26;

/** Linear in the values: each array is read once per place it appears, rows are at most 64 deep. */
function classifyNested(value: unknown[]): ReturnedValue {
  const shape: number[] = [];
  const ancestors: unknown[] = [];
  let size = 1;
  for (let level: unknown = value; Array.isArray(level); level = level[0]) {
    if (ancestors.includes(level)) return bad('nested array', CIRCULAR);
    if (shape.length === MAX_NESTING)
      return bad('nested array', `it nests deeper than ${MAX_NESTING} levels; a tensor's rank is far less. Return a typed array or NdArray`);
    ancestors.push(level);
    shape.push(level.length);
    size *= level.length;
  }
  if (size > MAX_NESTED_VALUES) {
    return bad(
      'nested array',
      `its shape [${shape.join(',')}] holds ${size} values, more than the ${MAX_NESTED_VALUES} nested JS arrays may hold. Return a typed array or NdArray`,
    );
  }
  const flat: unknown[] = [];
  const ragged = flattenInto(value, shape, 0, flat, []);
  if (ragged) return bad(ragged === CIRCULAR ? 'nested array' : 'ragged nested array', ragged);
  const kinds = new Set(flat.map((v) => typeof v));
  if (kinds.size > 1) return bad('nested array', `its leaves mix ${[...kinds].join(' and ')}`);
  const kind = kinds.values().next().value ?? 'number';
  if (kind !== 'number' && kind !== 'boolean' && kind !== 'string') return bad('nested array', `its leaves are ${kind}s`);
  const literal = kind === 'number' ? (flat.every((v) => Number.isInteger(v)) ? 'integer' : 'number') : kind;
  return { dtype: undefined, shape, describe: 'nested array', flat, literal };
}

const CIRCULAR = 'it contains itself (a circular array), so it has no shape. Return a fresh array of values';

function flattenInto(value: unknown, shape: number[], axis: number, out: unknown[], path: unknown[]): string | undefined {
  if (axis === shape.length) {
    if (Array.isArray(value)) return path.includes(value) ? CIRCULAR : `it is ragged: an array at depth ${axis} where a value was expected`;
    out.push(value);
    return undefined;
  }
  if (!Array.isArray(value) || value.length !== shape[axis]) {
    return `it is ragged: at depth ${axis} a row has ${Array.isArray(value) ? value.length : 'no'} items where ${shape[axis]} were expected`;
  }
  if (path.includes(value)) return CIRCULAR;
  path.push(value);
  for (let i = 0; i < shape[axis]!; i++) {
    const problem = flattenInto(value[i], shape, axis + 1, out, path);
    if (problem) return problem;
  }
  path.pop();
  return undefined;
}
