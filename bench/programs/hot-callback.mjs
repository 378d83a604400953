// Benchmark program (plain JS: its lines are V8's, for a breakpoint set by raw CDP): 10,000
// numpyFunction calls of a callback with a line never run (and one for a logpoint); prints the loop's time.
import { numpyFunction, selectBackend, tf } from 'tfjs-callback-debugger/runtime';

await selectBackend({ backend: 'cpu', quiet: true });

function smooth(x) {
  const out = Float32Array.from(x.data, (v) => v * 0.5 + 1);
  out[1] += 0; // BENCH-LOGPOINT
  if (out[0] < -1) {
    console.log('never taken'); // BENCH-UNHIT-IN-CALLBACK
  }
  return out;
}

const input = tf.range(0, 256, 1, 'float32');
let total = 0;
const loopStart = performance.now();
for (let i = 0; i < 10_000; i++) {
  const y = numpyFunction(smooth, [input], 'float32');
  total += y.dataSync()[255];
  y.dispose();
}
console.log(`total ${total}`);
console.log(`loop-ms ${(performance.now() - loopStart).toFixed(1)}`);
