/**
 * The numpy float64 mistake, in JavaScript: the callback returns a Float64Array where Tout says
 * float32. Running it fails with TensorFlow's own message:
 *   0-th value returned by normalize is double, but expects float
 */
import { type NdArray, numpyFunction, selectBackend, tf } from 'tfjs-callback-debugger/runtime';

await selectBackend();

function normalize(pixels: NdArray): Float64Array {
  const max = Math.max(...(pixels.data as Float32Array));
  return Float64Array.from(pixels.data as Float32Array, (v) => v / max); // should be Float32Array
}

const image = tf.tensor(
  [
    [0, 64],
    [128, 255],
  ],
  [2, 2],
  'float32',
);
const normalized = numpyFunction(normalize, [image], 'float32', { name: 'normalize' });
console.log(normalized.dataSync());
