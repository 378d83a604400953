/**
 * The rule for a returned value's dtype against Tout, per wrapper: shared by the runtime's check
 * (runtime/tout/tout-checks.ts) and the editor's static one (extension/server/tout-checks.ts), so it
 * imports no TensorFlow.js.
 */
import { isFloating, isInteger, storageOf, type TfDType } from '../dtypes.js';
import type { CallbackKind } from '../events.js';
import { article } from './tout-messages.js';

/**
 * How a value of dtype `actual` meets Tout's `expected`: the one rule the runtime and the editor's
 * static checks share. `from`: a tensor, an array (typed array, NdArray) or a JS literal (numbers,
 * booleans, strings and nested arrays of them, whose `actual` is the dtype they take).
 */
export function judgeDType(kind: CallbackKind, actual: TfDType, expected: TfDType, from: 'tensor' | 'array' | 'literal'): 'ok' | 'convert' | 'mismatch' {
  // What TF.js holds a dtype as (float32 data for float64, int32 for int64, uint8, …) is that dtype.
  if (actual === expected || actual === storageOf(expected)) return 'ok';
  if (kind !== 'py_function' || from === 'tensor') return 'mismatch';
  return convertible(actual, expected, from) ? 'convert' : 'mismatch';
}

/** The flag for a converted value; the editor's static check words it the same way. */
export function conversionMessage(index: number, describe: string, from: TfDType, to: TfDType): string {
  const truncates = isFloating(from) && isInteger(to);
  return `output ${index}: py_function converts ${article(describe)} ${describe} (${from}) to ${to}${truncates ? ', truncating fractions' : ''}, as TensorFlow's convert_to_tensor does. Return ${to} data to skip the conversion.`;
}

/** What convert_to_tensor turns into `expected`: numbers into numbers (and complex), bools into numbers. */
function convertible(actual: TfDType, expected: TfDType, from: 'array' | 'literal'): boolean {
  const numeric = (d: TfDType) => isFloating(d) || isInteger(d);
  // TypeError: Cannot convert 1.5 to EagerTensor of dtype int32 (a numpy array would be truncated).
  if (from === 'literal' && isFloating(actual) && isInteger(expected)) return false;
  if (actual === 'bool') return numeric(expected);
  if (expected === 'complex64' || expected === 'complex128') return numeric(actual);
  return numeric(actual) && numeric(expected);
}
