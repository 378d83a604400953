// Benchmark program for memory over a long run (bench/cli-memory.bench.ts): BENCH_CALLS (100,000)
// pyFunction calls of one small callback; at 1,000, 10,000 and the last call, the heap after a
// forced GC. Run with --expose-gc (NODE_OPTIONS, so the CLI's program process has it too).
import { pyFunction, tf } from 'tfjs-callback-debugger/runtime';

if (typeof globalThis.gc !== 'function') throw new Error('many-calls.mjs needs --expose-gc (NODE_OPTIONS=--expose-gc)');
const calls = Number(process.env.BENCH_CALLS ?? 100_000);
const checkpoints = new Set([1_000, 10_000, calls]);
const x = tf.scalar(1);
const double = (t) => t.mul(2);
for (let i = 1; i <= calls; i++) {
  tf.dispose(pyFunction(double, [x], 'float32'));
  if (checkpoints.has(i)) {
    globalThis.gc();
    console.log(`heap-after-gc ${i} ${process.memoryUsage().heapUsed}`);
  }
}
