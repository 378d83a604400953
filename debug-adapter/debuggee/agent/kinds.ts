/**
 * What the agent takes values to be: a tfjs tensor, an NdArray, a typed array (no import of tfjs:
 * any copy of it in the process), and what data breakpoints use of TensorFlow.js.
 */

/** A tfjs tensor as the agent sees it. */
export interface TensorLike {
  readonly dtype: string;
  readonly shape: number[];
  readonly size: number;
  readonly dataId: object;
  readonly isDisposed: boolean;
  dataSync(): ArrayLike<unknown>;
  reshape(shape: number[]): TensorLike;
  slice(begin: number[], size: number[]): TensorLike;
  dispose(): void;
}

export interface NdArrayLike {
  readonly dtype: string;
  readonly shape: number[];
  readonly data: ArrayLike<unknown>;
}

/** A tf.Variable as data breakpoints use it. */
export interface VariableLike extends TensorLike {
  readonly name: string;
  assign(newValue: unknown): void;
  clone(): TensorLike;
  sub(other: TensorLike): TensorLike;
}

/** What data breakpoints use of TensorFlow.js. */
export interface TfLike {
  Variable: { new (...args: never[]): VariableLike; prototype: { assign(this: VariableLike, newValue: unknown): void } };
  tidy<T>(fn: () => T): T;
  engine(): {
    registeredVariables: Record<string, unknown>;
    /** `gradientDepth` > 0 while a gradient tape records (agent/values.ts reads off it). */
    state: { scopeStack: unknown[]; gradientDepth?: number };
    endScope(): void;
  };
}

export const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object';
export const isTensor = (v: unknown): v is TensorLike =>
  isObject(v) && typeof v.dataSync === 'function' && Array.isArray(v.shape) && typeof v.dtype === 'string';
export const isNdArray = (v: unknown): v is NdArrayLike =>
  isObject(v) && !isTensor(v) && Array.isArray(v.shape) && typeof v.dtype === 'string' && v.data !== undefined;

/** A typed array's class name ("Float32Array"); undefined for anything else. */
export const arrayName = (v: unknown): string | undefined => (ArrayBuffer.isView(v) ? Object.prototype.toString.call(v).slice(8, -1) : undefined);

/** A value's class name, "Object" where it has none. */
export const className = (v: unknown): string => (v as { constructor?: { name?: string } }).constructor?.name ?? 'Object';

/** What a value that is no tensor value is, for people: "Promise", "Object", "null", "bigint". */
export const typeName = (v: unknown): string => {
  if (v === null || v === undefined) return String(v);
  if (typeof v !== 'object') return typeof v;
  if (typeof (v as { then?: unknown }).then === 'function') return 'Promise';
  return arrayName(v) ?? (Array.isArray(v) ? 'Array' : className(v));
};

/** The values an input holds in place: an NdArray's data, a typed array, a plain array; undefined for anything else. */
export const arrayOf = (v: unknown): { length: number; [k: number]: unknown } | undefined => {
  if (ArrayBuffer.isView(v) && !(v instanceof DataView)) return v as unknown as { length: number; [k: number]: unknown };
  if (Array.isArray(v)) return v;
  const data = (v as { data?: unknown } | null)?.data;
  if (v !== null && typeof v === 'object' && (ArrayBuffer.isView(data) || Array.isArray(data)) && Array.isArray((v as { shape?: unknown }).shape))
    return data as { length: number; [k: number]: unknown };
  return undefined;
};
