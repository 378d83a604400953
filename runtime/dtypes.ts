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
  | 'float16' | 'bfloat16' | 'float32' | 'float64'
  | 'int8' | 'int16' | 'int32' | 'int64'
  | 'uint8' | 'uint16' | 'uint32' | 'uint64'
  | 'bool' | 'string' | 'complex64' | 'complex128';

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
  return typeof value === 'string' && value in DTYPES;
}

/** TensorFlow's DataTypeString: what its error messages print ('float', 'double', 'int32'). */
export function displayName(dtype: TfDType): string {
  return DTYPES[dtype].display;
}

export function enumName(dtype: TfDType): string {
  return DTYPES[dtype].enumName;
}

export function storageOf(dtype: TfDType): TfjsDType {
  return DTYPES[dtype].storage;
}

/** True when TF.js holding this dtype loses range or precision. */
export function isLossy(dtype: TfDType): boolean {
  return DTYPES[dtype].lossy;
}

/** TF.js dtypes already are TensorFlow names, but for the width of their storage. */
export function fromTfjs(dtype: TfjsDType): TfDType {
  return dtype;
}

export const ALL_DTYPES = Object.keys(DTYPES) as TfDType[];

export function isFloating(dtype: TfDType): boolean {
  return dtype === 'float16' || dtype === 'bfloat16' || dtype === 'float32' || dtype === 'float64';
}

export function isInteger(dtype: TfDType): boolean {
  return dtype.startsWith('int') || dtype.startsWith('uint');
}
