// Benchmark program: start, pick the backend, run one numpyFunction callback, exit.
import { type NdArray, numpyFunction, selectBackend, tf } from 'tfjs-callback-debugger/runtime';

await selectBackend({ quiet: true });

function first_callback(x: NdArray): NdArray {
  return x.map((v) => v + 1);
}

const y = numpyFunction(first_callback, [tf.tensor([1, 2, 3])], 'float32');
console.log(y.dataSync()[0]);
