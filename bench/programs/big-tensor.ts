// Benchmark program: a callback whose input has 1M elements, for the first variables page.
import { pyFunction, selectBackend, tf } from 'tfjs-callback-debugger/runtime';

await selectBackend({ quiet: true });

function inspect_big(big: tf.Tensor): tf.Tensor {
  return big.sum();
}

// Not named `big`: esbuild would rename the callback's parameter to avoid the shadowing.
const million = tf.range(0, 1 << 20, 1, 'float32');
console.log(pyFunction(inspect_big, [million], 'float32').dataSync()[0]);
