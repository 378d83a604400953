/**
 * The TensorFlow dtype a tensor stands for when TF.js holds it narrower: the output of a callback
 * declared `Tout: 'float64'` is a float32 tensor, but a numpy-style callback it feeds gets it as
 * float64, as in TensorFlow. Kept per tensor object, so it lasts as long as the tensor.
 */
import { dtypeOfArray, integerRange, storageOf, type TfDType } from '../dtypes.js';
import { tf, type Tensor } from '../tf.js';

const declared = new WeakMap<Tensor, TfDType>();

export function declareDType(tensor: Tensor, dtype: TfDType): void {
  if (dtype !== tensor.dtype) declared.set(tensor, dtype);
}

/** The dtype TensorFlow would give the tensor: its declared one, else its own. */
export function declaredDTypeOf(tensor: Tensor): TfDType {
  return declared.get(tensor) ?? tensor.dtype;
}

/**
 * A typed array as a tensor: TF.js's tf.tensor() takes only Float32Array, Int32Array and
 * Uint8Array, so a Float64Array (float64), BigInt64Array (int64), … is stored in the dtype TF.js
 * holds it as and remembers its own dtype. Integers outside int32 cannot be held: that is an error.
 */
export function tensorFromArray(view: ArrayBufferView, shape: readonly number[], what: string): Tensor {
  const dtype = dtypeOfArray(view);
  if (!dtype)
    throw new TypeError(`${what} is a ${view.constructor.name}, which has no TensorFlow dtype: use a Float32Array, Int32Array, Float64Array, … or a tensor.`);
  const storage = storageOf(dtype);
  const values = view as unknown as ArrayLike<number | bigint>;
  let tensor: Tensor;
  if (storage === 'int32') {
    const range = integerRange('int32')!;
    const out = new Int32Array(values.length);
    for (let i = 0; i < values.length; i++) {
      const v = Number(values[i]);
      if (v < range[0] || v > range[1]) {
        throw new RangeError(
          `${what} (${view.constructor.name}, ${dtype}) holds ${String(values[i])} at index ${i}, outside int32: TF.js holds ${dtype} as int32 and cannot keep it. Keep values within ±2147483647.`,
        );
      }
      out[i] = v;
    }
    tensor = tf.tensor(out, shape as number[], 'int32');
  } else {
    tensor = tf.tensor(values instanceof Float32Array ? values : Float32Array.from(values as ArrayLike<number>), shape as number[], 'float32');
  }
  declareDType(tensor, dtype);
  return tensor;
}
