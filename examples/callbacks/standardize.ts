/**
 * Callbacks for examples/models/standardize/model.json, bound by node name. The model holds an
 * EagerPyFunc node 'standardize' (token pyfunc_0): a py_function, so it receives tensors.
 */
import type { tf } from 'tfjs-callback-debugger/runtime';
import { tf as tfjs } from 'tfjs-callback-debugger/runtime';

/** Standardizes each row to zero mean and unit variance. */
export function standardize(h: tf.Tensor): tf.Tensor {
  const { mean, variance } = tfjs.moments(h, -1, true);
  return h.sub(mean).div(variance.add(1e-6).sqrt());
}
