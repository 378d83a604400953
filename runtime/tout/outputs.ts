/**
 * Turns what a callback returned into tensors, checking count and dtype against Tout with
 * TensorFlow's wording (runtime/tout/tout-checks.ts). Nothing here throws for a mismatch: the result
 * lists the mismatches so a debugger can stop and show them before the error is raised.
 */
import { isLossy, storageOf, type TfDType } from '../dtypes.js';
import { declareDType } from './declared-dtypes.js';
import { describeThrown } from '../errors.js';
import type { CallbackKind } from '../events.js';
import { classify, returnedList, type ReturnedValue } from './returned-values.js';
import { tf, type Tensor } from '../tf.js';
import type { Tout } from './tout.js';
import { checkValue, type Conversion, type Narrowing, type ToutMismatch, toutMismatch, type ValueCheck } from './tout-checks.js';
import { countMismatchLine, outputLead, unreadableLine } from './tout-messages.js';

export type { Conversion, Narrowing, ToutMismatch } from './tout-checks.js';
export type { ReturnedValue } from './returned-values.js';
export { classify, returnedList } from './returned-values.js';

export interface ConvertedOutputs {
  readonly tensors: Tensor[];
  readonly returned: ReturnedValue[];
  readonly mismatches: ToutMismatch[];
  readonly narrowed: Narrowing[];
  /** py_function's conversions of returned arrays and numbers to Tout (flags, not errors). */
  readonly conversions: Conversion[];
}

/**
 * `firstNewTensorId`: tensors with a smaller id existed before the callback ran (its inputs, or a
 * tensor it closed over); they are cloned, since the caller of the wrapper owns its outputs.
 */
export function convertOutputs(ret: unknown, tout: Tout, callback: string, kind: CallbackKind, firstNewTensorId: number): ConvertedOutputs {
  const mismatches: ToutMismatch[] = [];
  const narrowed: Narrowing[] = [];
  const conversions: Conversion[] = [];
  const expectedCount = tout.dtypes.length;
  let count: number;
  let returned: ReturnedValue[];
  let isList: boolean;
  try {
    const values = returnedList(ret, tout);
    count = values.length;
    isList = Array.isArray(ret);
    // A list far longer than Tout (new Array(2**32 - 1)) is a count error: classify only a few.
    const shown = count === expectedCount ? count : Math.min(count, SHOWN_ON_COUNT_ERROR);
    returned = new Array<ReturnedValue>(shown);
    for (let i = 0; i < shown; i++) returned[i] = classify(values[i]);
  } catch (err) {
    // A revoked Proxy throws even from Array.isArray: the return value cannot be read at all.
    const thrown = describeThrown(err);
    mismatches.push(
      toutMismatch(
        { problem: 'value', expected: tout.dtypes.join(','), actual: 'unreadable value' },
        callback,
        (cb) => unreadableLine(cb, thrown),
        'Return a Tensor, NdArray, typed array, number or nested array per Tout entry.',
      ),
    );
    return { tensors: [], returned: [], mismatches, narrowed, conversions };
  }
  if (count !== expectedCount) {
    mismatches.push(
      toutMismatch(
        { problem: 'count', expected: String(expectedCount), actual: String(count) },
        callback,
        (cb) => countMismatchLine(cb, count, expectedCount),
        countDetail(ret, count, tout, isList),
      ),
    );
    return { tensors: [], returned, mismatches, narrowed, conversions };
  }
  const checks = returned.map((value, i) => checkSafely(value, tout.dtypes[i]!, i, callback, kind));
  for (const check of checks) {
    if (!check.ok) mismatches.push(check.mismatch);
    else if (check.conversion) conversions.push(check.conversion);
  }
  if (mismatches.length > 0) return { tensors: [], returned, mismatches, narrowed, conversions };
  const tensors: Tensor[] = [];
  const made: Tensor[] = [];
  for (let i = 0; i < returned.length; i++) {
    const value = returned[i]!;
    const expected = tout.dtypes[i]!;
    if (isLossy(expected)) narrowed.push({ index: i, declared: expected, storedAs: storageOf(expected) });
    let tensor: Tensor;
    try {
      tensor = toTensor(value, expected, firstNewTensorId);
    } catch (err) {
      // The checks passed but TF.js refused the data: still a Tout error naming the output, never
      // a bare error from inside TF.js (the tensors made so far are freed by the caller's tidy).
      const thrown = describeThrown(err);
      mismatches.push(
        toutMismatch(
          { problem: 'value', index: i, expected, actual: value.describe },
          callback,
          (cb) => `${outputLead(i, cb)} cannot be made a ${expected} tensor: TensorFlow.js raised ${thrown}`,
          `The value is ${value.describe} of shape [${value.shape.join(',')}]: return ${expected} data of that shape.`,
        ),
      );
      return { tensors: [], returned, mismatches, narrowed, conversions };
    }
    // The same tensor returned twice must still give outputs the caller can dispose one by one.
    // (A list scan, not a Set: one or a few outputs, on every call.)
    const output = made.includes(tensor) ? tf.clone(tensor) : tensor;
    made.push(tensor);
    declareDType(output, expected);
    tensors.push(output);
  }
  return { tensors, returned, mismatches, narrowed, conversions };
}

const SHOWN_ON_COUNT_ERROR = 64;

/** The Tout check of one value; a value that breaks the check itself is a Tout error too. */
function checkSafely(value: ReturnedValue, expected: TfDType, index: number, callback: string, kind: CallbackKind): ValueCheck {
  try {
    return checkValue(value, expected, index, callback, kind);
  } catch (err) {
    const thrown = describeThrown(err);
    return {
      ok: false,
      mismatch: toutMismatch(
        { problem: 'value', index, expected, actual: value.describe },
        callback,
        (cb) => `${outputLead(index, cb)} cannot be checked against ${expected}: ${thrown}`,
        `Return ${expected} data: a Tensor, NdArray, typed array, number or nested array.`,
      ),
    };
  }
}

function countDetail(ret: unknown, count: number, tout: Tout, isList: boolean): string {
  const declared = tout.single ? `Tout ${JSON.stringify(tout.dtypes[0])}` : `Tout ${JSON.stringify(tout.dtypes)}`;
  if (count === 0 && Array.isArray(ret)) {
    // A returned array is the list of outputs (as in TensorFlow): [] is none, not one empty output.
    const expected = `${declared} expects ${tout.dtypes.length} (${tout.dtypes.join(', ')})`;
    return `The callback returned an empty array ([]), a list of no outputs, but ${expected}. Return one value per Tout entry (one empty output is an empty typed array or tensor, e.g. new Float32Array(0)), or use Tout [] for a callback that returns nothing.`;
  }
  if (count === 0) {
    return `The callback returned ${ret === null ? 'null' : 'undefined'} (no values) but ${declared} declares ${tout.dtypes.length}: return the outputs, or use Tout [] for a callback that returns nothing.`;
  }
  const listNote = !tout.single && isList ? ' With a list Tout, a returned array is the list of outputs: return [value] for one array output.' : '';
  return `The callback returned ${count} values; ${declared} declares ${tout.dtypes.length}. Return exactly one value per Tout entry (a list for several).${listNote}`;
}

/** A checked value as a tensor of what TF.js holds `expected` as; converts py_function's values. */
function toTensor(value: ReturnedValue, expected: TfDType, firstNewTensorId: number): Tensor {
  if (value.tensor) return value.tensor.id < firstNewTensorId ? tf.clone(value.tensor) : value.tensor;
  const storage = storageOf(expected);
  const flat = value.flat!;
  const shape = value.shape as number[];
  if (storage === 'string') return tf.tensor(Array.from(flat as ArrayLike<string>), shape, 'string');
  if (storage === 'complex64') {
    const isComplex = value.dtype === 'complex64' || value.dtype === 'complex128';
    const numbers = Float32Array.from(flat as ArrayLike<number>, Number);
    // Complex data interleaves re, im; real data converts with a zero imaginary part.
    const re = isComplex ? numbers.filter((_, i) => i % 2 === 0) : numbers;
    const im = isComplex ? numbers.filter((_, i) => i % 2 === 1) : new Float32Array(numbers.length);
    return tf.complex(tf.tensor(re, shape), tf.tensor(im, shape));
  }
  return tf.tensor(storageArray(flat, storage), shape, storage);
}

/** Zero-copy when the data already is TF.js's storage type (cpu keeps the array it is given). */
function storageArray(flat: ArrayLike<unknown>, storage: 'float32' | 'int32' | 'bool'): Float32Array | Int32Array | Uint8Array {
  if (storage === 'float32') return flat instanceof Float32Array ? flat : Float32Array.from(flat as ArrayLike<number>, Number);
  if (storage === 'int32') {
    if (flat instanceof Int32Array) return flat;
    // Floats convert to integers by truncation, as numpy's astype and convert_to_tensor do.
    return Int32Array.from(flat as ArrayLike<number | bigint>, (v) => Math.trunc(Number(v)));
  }
  return flat instanceof Uint8Array ? flat : Uint8Array.from(flat as ArrayLike<unknown>, (v) => (v ? 1 : 0));
}
