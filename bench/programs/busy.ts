// Benchmark program: a pipeline with 10,000 callback invocations and tf work around them.
import { type NdArray, numpyFunction, pyFunction, selectBackend, tf } from 'tfjs-callback-debugger/runtime';

await selectBackend({ quiet: true });

const normalize = (x: NdArray) => x.map((v) => v / 255);
const activation = (x: tf.Tensor) => tf.tanh(x);
const image = tf.randomUniform([32, 32], 0, 255, 'float32', 1);
let total = 0;

function report(value: number) {
  console.log(`never: the sum of tanh of positive values is ${value}`); // BENCH-UNHIT-COLD: never called
}

const loopStart = performance.now();
for (let i = 0; i < 5000; i++) {
  const y = tf.tidy(() => {
    const n = numpyFunction(normalize, [image], 'float32');
    return pyFunction(activation, [n.mul(2)], 'float32').sum();
  });
  total += y.dataSync()[0]!;
  y.dispose();
  if (total < 0) {
    report(total); // BENCH-UNHIT-HOT: in the loop, on a branch never taken
  }
}
console.log(`total ${total.toFixed(2)}`);
console.log(`loop-ms ${(performance.now() - loopStart).toFixed(1)}`);
