// Benchmark program (plain JS: its lines are V8's, for a breakpoint set by raw CDP): a tf.data
// pipeline whose map function runs for each of 20,000 rows, as abalone-node's does; a breakpoint
// with a condition that never holds sits on the map's hot line. Prints the loop's time.
import { selectBackend, tf } from 'tfjs-callback-debugger/runtime';

await selectBackend({ backend: 'cpu', quiet: true });

const rows = Array.from({ length: 20_000 }, (_, i) => ({ xs: [i % 7, i % 11, i % 13], ys: i % 2 }));
const dataset = tf.data.array(rows).map((row) => {
  const scaled = row.xs.map((v) => v / 13); // BENCH-CONDITION
  return { xs: scaled, ys: row.ys };
});

let total = 0;
const loopStart = performance.now();
await dataset.forEachAsync((row) => {
  total += row.xs[0];
});
console.log(`total ${total.toFixed(3)}`);
console.log(`loop-ms ${(performance.now() - loopStart).toFixed(1)}`);
