// Benchmark program: a 10M-element tensor passed to a pyFunction callback (bench/test-timings.bench.ts).
import { pyFunction, selectBackend, tf } from 'tfjs-callback-debugger/runtime';

await selectBackend({ quiet: true });

function total(x: tf.Tensor): tf.Tensor {
  const s = x.sum(); // BENCH-STOP
  return s;
}

const tenMillion = tf.range(0, 10_000_000, 1, 'float32');
console.log('total', pyFunction(total, [tenMillion], 'float32').dataSync()[0]);
