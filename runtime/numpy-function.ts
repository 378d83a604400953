import type { NdArray } from './ndarray.js';
import type { Tensor } from './tf.js';
import type { ToutSpec } from './tout/tout.js';
import { runWrapped, type Input } from './invocation/wrap.js';

export interface NumpyFunctionOptions {
  /**
   * false: the callback returns the same outputs for the same inputs and has no side effects, so
   * within one execution (a graphFunction call, a model run) a call with identical inputs reuses
   * the earlier result. Default true, as in TensorFlow.
   */
  readonly stateful?: boolean;
  /** A name for the callback; defaults to its token, `pyfunc_N`. */
  readonly name?: string;
}

/**
 * A single output: an NdArray, a typed array (its type is its dtype: Float64Array is float64), a
 * number, boolean or string, or nested arrays of them (these take the dtype Tout declares).
 */
export type ArrayResult = NdArray | ArrayBufferView | number | boolean | string | readonly unknown[] | Tensor;
export type NumpyFunctionResult = ArrayResult | readonly ArrayResult[] | null | undefined | void;

/**
 * Wraps `func` as an op over arrays: TensorFlow's `tf.numpy_function`.
 *
 * `func` receives one NdArray (flat typed data, shape, dtype) per entry of `inp`. On the cpu
 * backend these share memory with the tensors (zero-copy); elsewhere they are copies. As with
 * numpy arrays in TensorFlow they are not guaranteed to be copies: do not modify them in place
 * or keep them. Not differentiable: a gradient through it fails, naming the callback.
 *
 * ```ts
 * const y = numpyFunction((x) => x.map(Math.sinh), [tf.scalar(1)], 'float32'); // sinh(1) = 1.1752012, shape []
 * ```
 */
export function numpyFunction(func: (...inputs: NdArray[]) => NumpyFunctionResult, inp: readonly Input[], Tout: string, options?: NumpyFunctionOptions): Tensor;
export function numpyFunction(
  func: (...inputs: NdArray[]) => NumpyFunctionResult,
  inp: readonly Input[],
  Tout: readonly string[],
  options?: NumpyFunctionOptions,
): Tensor[];
export function numpyFunction(
  func: (...inputs: NdArray[]) => NumpyFunctionResult,
  inp: readonly Input[],
  Tout: ToutSpec,
  options?: NumpyFunctionOptions,
): Tensor | Tensor[];
export function numpyFunction(
  func: (...inputs: NdArray[]) => NumpyFunctionResult,
  inp: readonly Input[],
  Tout: ToutSpec,
  options: NumpyFunctionOptions = {},
): Tensor | Tensor[] {
  const stateful = options.stateful ?? true;
  return runWrapped('numpy_function', stateful ? 'PyFunc' : 'PyFuncStateless', func, inp, Tout, stateful, options.name);
}

/** `tf.compat.v1.py_func(func, inp, Tout, stateful=True, name=None)`: numpyFunction's contract. */
function pyFunc(func: (...inputs: NdArray[]) => NumpyFunctionResult, inp: readonly Input[], Tout: string, stateful?: boolean, name?: string): Tensor;
function pyFunc(
  func: (...inputs: NdArray[]) => NumpyFunctionResult,
  inp: readonly Input[],
  Tout: readonly string[],
  stateful?: boolean,
  name?: string,
): Tensor[];
function pyFunc(func: (...inputs: NdArray[]) => NumpyFunctionResult, inp: readonly Input[], Tout: ToutSpec, stateful = true, name?: string): Tensor | Tensor[] {
  return runWrapped('py_func', stateful ? 'PyFunc' : 'PyFuncStateless', func, inp, Tout, stateful, name);
}

/** TensorFlow's v1 names. */
export const compat = { v1: { pyFunc, py_func: pyFunc } } as const;
