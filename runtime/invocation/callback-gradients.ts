/**
 * What a gradient tape sees through a callback, as in TensorFlow: numpy-style callbacks have
 * none (asking for one says why), py_function's tensor ops are differentiable as they are.
 */
import { NotDifferentiableError } from '../errors.js';
import type { CallbackSpec } from './callback-spec.js';
import { declareDType } from '../tout/declared-dtypes.js';
import type { ConvertedOutputs } from '../tout/outputs.js';
import { isTapeOn, tf, type Tensor } from '../tf.js';

/** The outputs as the tape should see them; the converted tensors themselves while no tape records. */
export function withGradients(converted: ConvertedOutputs, inputs: readonly Tensor[], spec: CallbackSpec): Tensor[] {
  let outputs = converted.tensors;
  if (outputs.length === 0 || inputs.length === 0 || !isTapeOn()) return outputs;
  const returned = converted.returned;
  if (spec.identity.kind !== 'py_function') outputs = outputs.map((o) => notDifferentiable(o, inputs, spec));
  // Values py_function converted from arrays or numbers have no path back to its inputs: their
  // gradient is zeros, as TensorFlow's (a tape through tensor ops is kept).
  else outputs = outputs.map((o, i) => (returned[i]?.tensor ? o : zeroGradient(o, inputs)));
  outputs.forEach((o, i) => declareDType(o, spec.tout.dtypes[i]!));
  return outputs;
}

/** numpy callbacks have no gradient: asking for one must say which callback and what to use. */
function notDifferentiable(output: Tensor, inputs: readonly Tensor[], spec: CallbackSpec): Tensor {
  const wrapped = tf.customGrad((..._xs: unknown[]) => ({
    value: output.clone(),
    gradFunc: () => {
      throw new NotDifferentiableError(
        `Cannot compute a gradient through ${spec.identity.kind} callback '${spec.identity.name}': ` +
          `it takes and returns arrays, not tensors, so TensorFlow.js cannot see its computation. ` +
          `Use pyFunction (tf.py_function) with tf ops inside the callback to make it differentiable.`,
      );
    },
  }));
  return (wrapped as (...t: Tensor[]) => Tensor)(...inputs);
}

/** `output`, with a gradient of zeros for every input. */
function zeroGradient(output: Tensor, inputs: readonly Tensor[]): Tensor {
  const wrapped = tf.customGrad((...xs: unknown[]) => ({
    value: output.clone(),
    gradFunc: () => (xs.slice(0, inputs.length) as Tensor[]).map((x) => tf.zerosLike(x)),
  }));
  return (wrapped as (...t: Tensor[]) => Tensor)(...inputs);
}
