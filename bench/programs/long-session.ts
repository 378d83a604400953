// Benchmark program: STOPS callback invocations, each a stop (bench/long-session.bench.ts), with a
// fresh object and a tensor to show. After the first MARK stops, after LATE_MARK and at the end it
// prints its heap after a full GC and its tensor count.
import v8 from 'node:v8';
import vm from 'node:vm';
import { type NdArray, numpyFunction, selectBackend, tf } from 'tfjs-callback-debugger/runtime';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;
await selectBackend({ quiet: true });

const STOPS = Number(process.env.BENCH_STOPS ?? 2000);
const MARK = Number(process.env.BENCH_MARK ?? 100);
const LATE_MARK = Number(process.env.BENCH_LATE_MARK ?? 500);

function inspect_step(x: NdArray): NdArray {
  const scale = Number(x.data[1]);
  const meta = { step: Number(x.data[0]), history: Array.from({ length: 200 }, (_, i) => i * scale) };
  return x.map((v) => v + meta.history.length); // BENCH-STOP
}

function mark(stops: number): void {
  gc();
  console.log(`mark ${stops} heap ${process.memoryUsage().heapUsed} tensors ${tf.memory().numTensors}`);
}

const input = tf.tensor([1, 2, 3, 4], [2, 2], 'float32');
for (let i = 1; i <= STOPS; i++) {
  numpyFunction(inspect_step, [input], 'float32').dispose();
  if (i === MARK || i === LATE_MARK || i === STOPS) mark(i);
}
