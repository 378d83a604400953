/**
 * TensorFlow's dtype names and how TF.js stores each one.
 *
 * Tout is written with TensorFlow's names ('float32', 'float64', 'int64', …) so ported code reads
 * the same. TF.js has five dtypes; the others are held in the nearest one. Where that loses
 * information (float64→float32, int64→int32, …) it is a narrowing, and the runtime reports it.
 */
import type { TfjsDType } from './tf.js';

/** TensorFlow dtype names as Python spells them (`tf.float32.name`). */
export type TfDType =
  | 'float16'
  | 'bfloat16'
  | 'float32'
  | 'float64'
  | 'int8'
  | 'int16'
  | 'int32'
  | 'int64'
  | 'uint8'
  | 'uint16'
  | 'uint32'
  | 'uint64'
  | 'bool'
  | 'string'
  | 'complex64'
  | 'complex128';

interface DTypeInfo {
  /** TensorFlow's DataTypeString, used in its error texts ("float", "double"). */
  readonly display: string;
  /** The `DT_*` enum name in a GraphDef. */
  readonly enumName: string;
  /** How TF.js holds it. */
  readonly storage: TfjsDType;
  /** True when `storage` cannot hold every value of this dtype. */
  readonly lossy: boolean;
}

const DTYPES: Record<TfDType, DTypeInfo> = {
  float16: { display: 'half', enumName: 'DT_HALF', storage: 'float32', lossy: false },
  bfloat16: { display: 'bfloat16', enumName: 'DT_BFLOAT16', storage: 'float32', lossy: false },
  float32: { display: 'float', enumName: 'DT_FLOAT', storage: 'float32', lossy: false },
  float64: { display: 'double', enumName: 'DT_DOUBLE', storage: 'float32', lossy: true },
  int8: { display: 'int8', enumName: 'DT_INT8', storage: 'int32', lossy: false },
  int16: { display: 'int16', enumName: 'DT_INT16', storage: 'int32', lossy: false },
  int32: { display: 'int32', enumName: 'DT_INT32', storage: 'int32', lossy: false },
  int64: { display: 'int64', enumName: 'DT_INT64', storage: 'int32', lossy: true },
  uint8: { display: 'uint8', enumName: 'DT_UINT8', storage: 'int32', lossy: false },
  uint16: { display: 'uint16', enumName: 'DT_UINT16', storage: 'int32', lossy: false },
  uint32: { display: 'uint32', enumName: 'DT_UINT32', storage: 'int32', lossy: true },
  uint64: { display: 'uint64', enumName: 'DT_UINT64', storage: 'int32', lossy: true },
  bool: { display: 'bool', enumName: 'DT_BOOL', storage: 'bool', lossy: false },
  string: { display: 'string', enumName: 'DT_STRING', storage: 'string', lossy: false },
  complex64: { display: 'complex64', enumName: 'DT_COMPLEX64', storage: 'complex64', lossy: false },
  complex128: { display: 'complex128', enumName: 'DT_COMPLEX128', storage: 'complex64', lossy: true },
};

/** Every spelling accepted in Tout: Python names, DataTypeString names and DT_* enum names. */
const ALIASES = new Map<string, TfDType>();
for (const [name, info] of Object.entries(DTYPES) as [TfDType, DTypeInfo][]) {
  ALIASES.set(name, name);
  ALIASES.set(info.display, name);
  ALIASES.set(info.enumName, name);
}
ALIASES.set('half', 'float16');
ALIASES.set('double', 'float64');
ALIASES.set('float', 'float32');

/** The canonical TensorFlow name for a spelling, or undefined if it names no dtype. */
export function parseDType(spelling: unknown): TfDType | undefined {
  return typeof spelling === 'string' ? ALIASES.get(spelling) : undefined;
}

export function isTfDType(value: unknown): value is TfDType {
  // Own keys only: 'toString' or 'constructor' is in every object, and names no dtype.
  return typeof value === 'string' && Object.hasOwn(DTYPES, value);
}

/** TensorFlow's DataTypeString: what its error messages print ('float', 'double', 'int32'). */
export function displayName(dtype: TfDType): string {
  return DTYPES[dtype].display;
}

export function storageOf(dtype: TfDType): TfjsDType {
  return DTYPES[dtype].storage;
}

/** True when TF.js holding this dtype loses range or precision. */
export function isLossy(dtype: TfDType): boolean {
  return DTYPES[dtype].lossy;
}

export const ALL_DTYPES = Object.keys(DTYPES) as TfDType[];

export function isFloating(dtype: TfDType): boolean {
  return dtype === 'float16' || dtype === 'bfloat16' || dtype === 'float32' || dtype === 'float64';
}

export function isInteger(dtype: TfDType): boolean {
  return dtype.startsWith('int') || dtype.startsWith('uint');
}

/**
 * The dtype an untyped JS literal takes for its declared dtype (Tout, Tin): the declared one when it
 * can hold the values, as Python's do in TensorFlow. The Tout check and the debugger's agent both read it.
 */
export function literalDType(literal: 'number' | 'integer' | 'boolean' | 'string' | undefined, declared: string): TfDType {
  const d = declared as TfDType;
  switch (literal) {
    case 'boolean':
      return 'bool';
    case 'string':
      return 'string';
    case 'integer':
      return isFloating(d) || isInteger(d) || d.startsWith('complex') ? d : 'int32';
    default:
      return isFloating(d) || d.startsWith('complex') ? d : 'float64';
  }
}

/** The typed arrays numpy-style data comes in, one per element type. */
export type NumericArray =
  | Float32Array
  | Float64Array
  | Int8Array
  | Int16Array
  | Int32Array
  | BigInt64Array
  | Uint8Array
  | Uint8ClampedArray
  | Uint16Array
  | Uint32Array
  | BigUint64Array;

type NumericArrayType = (new (length: number) => NumericArray) & { from(source: ArrayLike<unknown>, map: (v: unknown) => unknown): NumericArray };

/**
 * The one table between typed arrays and dtypes: a typed array's type is its dtype (a
 * Float64Array is float64, as a numpy float64 array is), and each dtype's numpy-style data is the
 * array type numpy would use. The language server (a type's name) and the inspector webview (a
 * value's kind) read it by name: dtypeOfArrayName.
 */
const ARRAY_TYPES: readonly (readonly [NumericArrayType, TfDType])[] = [
  [Float32Array, 'float32'],
  [Float64Array, 'float64'],
  [Int32Array, 'int32'],
  [Int16Array, 'int16'],
  [Int8Array, 'int8'],
  [Uint8Array, 'uint8'],
  [Uint8ClampedArray, 'uint8'],
  [Uint16Array, 'uint16'],
  [Uint32Array, 'uint32'],
  [BigInt64Array, 'int64'],
  [BigUint64Array, 'uint64'],
] as unknown as (readonly [NumericArrayType, TfDType])[];

/** The dtype of a typed array (Uint8ClampedArray is uint8), or undefined for other views. */
export function dtypeOfArray(view: ArrayBufferView): TfDType | undefined {
  for (const [type, dtype] of ARRAY_TYPES) if (view instanceof type) return dtype;
  return undefined;
}

/** The dtype of a typed array type by its name ('Float64Array' is float64), or undefined for any other name. */
export function dtypeOfArrayName(name: string): TfDType | undefined {
  for (const [type, dtype] of ARRAY_TYPES) if (type.name === name) return dtype;
  return undefined;
}

/**
 * The array type numpy-style data of `dtype` comes in: Float64Array for float64, BigInt64Array
 * for int64, …; bool is a Uint8Array of 0/1, complex dtypes interleave re, im in their float type,
 * float16 and bfloat16 (which JS has no array for) are Float32Array. Undefined for string.
 */
export function arrayTypeOf(dtype: TfDType): NumericArrayType | undefined {
  switch (dtype) {
    case 'string':
      return undefined;
    case 'bool':
      return Uint8Array as unknown as NumericArrayType;
    case 'float16':
    case 'bfloat16':
    case 'complex64':
      return Float32Array as unknown as NumericArrayType;
    case 'complex128':
      return Float64Array as unknown as NumericArrayType;
    default:
      return ARRAY_TYPES.find(([, d]) => d === dtype)![0];
  }
}

/** True for dtypes whose numpy-style data holds bigints (int64, uint64). */
export function isBigIntDType(dtype: TfDType): boolean {
  return dtype === 'int64' || dtype === 'uint64';
}

/** The integer range a dtype holds, for checks before TF.js stores values in int32. */
export function integerRange(dtype: TfDType): readonly [number, number] | undefined {
  switch (dtype) {
    case 'int8':
      return [-128, 127];
    case 'uint8':
      return [0, 255];
    case 'int16':
      return [-32768, 32767];
    case 'uint16':
      return [0, 65535];
    case 'int32':
      return [-(2 ** 31), 2 ** 31 - 1];
    case 'uint32':
      return [0, 2 ** 32 - 1];
    case 'int64':
      return [-(2 ** 63), 2 ** 63 - 1];
    case 'uint64':
      return [0, 2 ** 64 - 1];
    default:
      return undefined;
  }
}
