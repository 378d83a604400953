import type { ArrayResult } from './numpy-function.js';
import type { Tensor } from './tf.js';
import type { ToutSpec } from './tout/tout.js';
import { runWrapped, type Input } from './invocation/wrap.js';

export interface PyFunctionOptions {
  /** A name for the callback (TensorFlow's op name); defaults to its token, `pyfunc_N`. */
  readonly name?: string;
}

/**
 * What a pyFunction callback may return: a tensor, a list of them, or nothing (Tout []). Arrays,
 * typed arrays and numbers are converted to Tout's dtype, as TensorFlow's convert_to_tensor does.
 */
export type PyFunctionResult = ArrayResult | readonly ArrayResult[] | null | undefined | void;

/**
 * Wraps `func` as a once-differentiable op that runs it eagerly: TensorFlow's `tf.py_function`.
 *
 * `func` receives one Tensor per entry of `inp` and may run any tf ops; gradients flow through
 * them. Its outputs are checked against `Tout` and stay on the backend (nothing is downloaded).
 *
 * ```ts
 * const logHuber = (x: Tensor, m: Tensor) =>
 *   tf.abs(x).lessEqual(m).dataSync()[0] ? x.square() : m.square().mul(tf.scalar(1).sub(m.log().mul(2)).add(x.square().log()));
 * const dydx = tf.grad((x) => pyFunction(logHuber, [x, tf.scalar(2)], 'float32'))(tf.scalar(1)); // 2
 * ```
 * @param func called with the tensors of `inp`.
 * @param inp the input tensors.
 * @param Tout the output dtype, or a list of them; `[]` when `func` returns nothing.
 * @returns one tensor when `Tout` is a dtype, else a list (`[]` for `Tout` `[]`).
 */
export function pyFunction(func: (...inputs: Tensor[]) => PyFunctionResult, inp: readonly Input[], Tout: string, options?: PyFunctionOptions): Tensor;
export function pyFunction(
  func: (...inputs: Tensor[]) => PyFunctionResult,
  inp: readonly Input[],
  Tout: readonly string[],
  options?: PyFunctionOptions,
): Tensor[];
export function pyFunction(
  func: (...inputs: Tensor[]) => PyFunctionResult,
  inp: readonly Input[],
  Tout: ToutSpec,
  options?: PyFunctionOptions,
): Tensor | Tensor[];
export function pyFunction(
  func: (...inputs: Tensor[]) => PyFunctionResult,
  inp: readonly Input[],
  Tout: ToutSpec,
  options: PyFunctionOptions = {},
): Tensor | Tensor[] {
  return runWrapped('py_function', 'EagerPyFunc', func, inp, Tout, true, options.name);
}
