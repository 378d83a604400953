/**
 * One returned value against its Tout entry, with each wrapper's semantics as TensorFlow 2.21
 * runs them in a graph (measured: test/fixtures/tf-ground-truth/py-func-cases.json):
 *
 * - numpy_function / py_func check strictly: float64 data for a float32 output is an error
 *   (`0-th value returned by f is double, but expects float`).
 * - py_function converts what is not a tensor to the Tout dtype, as convert_to_tensor does
 *   (a Float64Array for float32 is converted, and we flag it); a tensor of another dtype fails
 *   (`ValueError: Tensor conversion requested dtype float32 for Tensor with dtype int32: …`).
 *
 * Both accept what TF.js holds a dtype as (a float32 tensor or Float32Array for float64, int32
 * data for int64, uint8, …): that is the dtype, narrowed, and reported. Integers a dtype cannot
 * hold are an error, never wrapped silently.
 */
import { conversionMessage, judgeDType } from './dtype-rules.js';
import { dtypeOfArray, integerRange, literalDType, storageOf, type TfDType } from '../dtypes.js';
import type { CallbackKind } from '../events.js';
import { literalRepr, tensorRepr } from '../python-repr.js';
import type { ReturnedValue } from './returned-values.js';
import { tf } from '../tf.js';
import type { Conversion, ToutMismatch } from '../tout-verdict.js';
import {
  article,
  dtypeFix,
  dtypeMismatchLine,
  notATensorMessage,
  notConvertibleLine,
  outputLead,
  tensorConversionLine,
  variableReturnedLine,
} from './tout-messages.js';

export type { Conversion, Narrowing, ToutMismatch } from '../tout-verdict.js';

export type ValueCheck = { readonly ok: true; readonly conversion?: Conversion } | { readonly ok: false; readonly mismatch: ToutMismatch };

const OK: ValueCheck = Object.freeze({ ok: true });

/** One returned value's verdict: what `checkValue` weighs it against and words it with. */
interface Output {
  readonly index: number;
  readonly expected: TfDType;
  readonly callback: string;
}

export function checkValue(value: ReturnedValue, expected: TfDType, index: number, callback: string, kind: CallbackKind): ValueCheck {
  const output: Output = { index, expected, callback };
  const problem = value.problem;
  if (problem) return mismatch(output, 'value', value.describe, (cb) => notATensorMessage(outputLead(index, cb), problem));
  return kind === 'py_function' ? checkConverted(value, output) : checkStrict(value, output);
}

/** numpy_function and py_func: the value's dtype must be Tout's (or what TF.js holds it as). */
function checkStrict(value: ReturnedValue, output: Output): ValueCheck {
  const { index, expected } = output;
  const actual = value.dtype ?? literalDType(value.literal, expected);
  if (judgeDType('numpy_function', actual, expected, fromOf(value)) === 'ok') return checkRange(value, output);
  const fix = dtypeFix({ describe: value.describe, actual, expected, fractionalNumbers: value.literal === 'number' });
  return mismatch(output, 'dtype', actual, (cb) => dtypeMismatchLine(outputLead(index, cb), actual, expected), `${describeValue(value, actual)} ${fix}`);
}

/** py_function: tensors must match; anything else is converted to Tout's dtype where it can be. */
function checkConverted(value: ReturnedValue, output: Output): ValueCheck {
  const { index, expected, callback } = output;
  const lead = outputLead(index, callback);
  const tensor = value.tensor;
  if (tensor) {
    // py_function's own lines name no callback: the short form is the line itself.
    if (tensor instanceof tf.Variable) {
      const repr = tensorRepr(tensor);
      return mismatch(output, 'value', 'Variable', () => variableReturnedLine(repr), `In TF.js: return tf.clone(variable) (${lead}).`);
    }
    if (judgeDType('py_function', tensor.dtype, expected, 'tensor') === 'ok') return OK;
    const repr = tensorRepr(tensor);
    return mismatch(
      output,
      'dtype',
      tensor.dtype,
      () => tensorConversionLine(expected, tensor.dtype, repr),
      `${lead}: py_function converts returned arrays and numbers to Tout, never tensors. ` +
        `Return tensor.cast('${storageOf(expected)}') or change Tout to '${tensor.dtype}'.`,
    );
  }
  const actual = value.dtype ?? literalDType(value.literal, expected);
  const verdict = judgeDType('py_function', actual, expected, fromOf(value));
  if (verdict === 'mismatch') {
    const fix = dtypeFix({ describe: value.describe, actual, expected });
    const repr = valueRepr(value);
    return mismatch(output, 'dtype', actual, () => notConvertibleLine(repr, expected), `${describeValue(value, actual)} ${fix}`);
  }
  const range = checkRange(value, output);
  // JS literals take Tout's dtype silently, as Python's do in TensorFlow.
  if (verdict === 'ok' || !range.ok || value.dtype === undefined) return range;
  const message = conversionMessage(index, value.describe, actual, expected);
  return { ok: true, conversion: { index, from: value.describe, fromDType: actual, to: expected, message } };
}

function fromOf(value: ReturnedValue): 'tensor' | 'array' | 'literal' {
  return value.tensor ? 'tensor' : value.dtype === undefined ? 'literal' : 'array';
}

/**
 * Integer outputs are held as int32: a value the declared dtype (or int32) cannot hold is an
 * error. TensorFlow would wrap 2**40 to 0 without a word; that loses data, so we refuse it.
 */
function checkRange(value: ReturnedValue, output: Output): ValueCheck {
  const { index, expected } = output;
  const declared = integerRange(expected);
  const flat = value.flat;
  // The data's own type decides, not the label: Int32Array data of an NdArray labelled uint8 may hold 300.
  const source = flat && ArrayBuffer.isView(flat) ? (dtypeOfArray(flat) ?? value.dtype) : value.dtype;
  if (!declared || !flat || (source !== undefined && fitsIn(source, expected))) return OK;
  const int32 = integerRange('int32')!;
  const [min, max] = [Math.max(declared[0], int32[0]), Math.min(declared[1], int32[1])];
  for (let i = 0; i < flat.length; i++) {
    const v = Number(flat[i]);
    if (v >= min && v <= max) continue;
    const why = Number.isNaN(v)
      ? `NaN is no ${expected} value`
      : declared[1] > int32[1] && (v > int32[1] || v < int32[0])
        ? `TF.js holds ${expected} as int32 and cannot keep it`
        : `it is outside ${expected}`;
    const held = String(flat[i]);
    return mismatch(
      output,
      'value',
      value.dtype ?? 'number',
      (cb) => `${outputLead(index, cb)} holds ${held} at flat index ${i}: ${why}. Keep the values within [${min}, ${max}].`,
    );
  }
  return OK;
}

/** True when every value of `source` fits in what TF.js keeps of `target`. */
function fitsIn(source: TfDType, target: TfDType): boolean {
  const from = integerRange(source);
  const to = integerRange(target)!;
  const int32 = integerRange('int32')!;
  return from !== undefined && from[0] >= Math.max(to[0], int32[0]) && from[1] <= Math.min(to[1], int32[1]);
}

function mismatch(output: Output, problem: ToutMismatch['problem'], actual: string, line: (callback: string | undefined) => string, fix?: string): ValueCheck {
  return { ok: false, mismatch: toutMismatch({ problem, index: output.index, expected: output.expected, actual }, output.callback, line, fix) };
}

/**
 * A mismatch worded once: `line(callback)` is its first line, TensorFlow's words; `line(undefined)`
 * the same words without the callback's name, the short form a debugger's stop shows after it.
 * The message is the line, then our fix.
 */
export function toutMismatch(
  facts: Pick<ToutMismatch, 'problem' | 'index' | 'expected' | 'actual'>,
  callback: string,
  line: (callback: string | undefined) => string,
  fix?: string,
): ToutMismatch {
  const first = line(callback);
  return { ...facts, message: fix === undefined ? first : `${first}\n  ${fix}`, short: line(undefined) };
}

function describeValue(value: ReturnedValue, actual: TfDType): string {
  return `the value is ${article(value.describe)} ${value.describe} of shape [${value.shape.join(',')}] and dtype ${actual}.`;
}

function valueRepr(value: ReturnedValue): string {
  const flat = value.flat ? Array.from(value.flat) : [];
  return literalRepr(value.shape.length === 0 ? flat[0] : flat);
}
