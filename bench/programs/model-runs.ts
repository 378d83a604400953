// Benchmark program: a chain of BENCH_NODES model nodes (Neg, Abs, …: n0, n1, …) run BENCH_RUNS
// times; prints the time of the runs between the first (a warm-up) and the last (a breakpoint on
// the last hit stops there, outside the time).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadCallbackModel, selectBackend, tf } from 'tfjs-callback-debugger/runtime';
import { type NodeDef, placeholder, unary, writeGraphModel } from '../../scripts/lib/graph-model-writer.js';

await selectBackend({ backend: 'cpu', quiet: true });
const count = Number(process.env.BENCH_NODES ?? 100);
const runs = Number(process.env.BENCH_RUNS ?? 100);
const dir = mkdtempSync(path.join(tmpdir(), 'tfjs-cb-bench-model-runs-'));
const nodes: NodeDef[] = [placeholder('x', [-1])];
for (let i = 0; i < count; i++) nodes.push(unary(`n${i}`, i % 2 === 0 ? 'Neg' : 'Abs', i === 0 ? 'x' : `n${i - 1}`));
const model = await loadCallbackModel(writeGraphModel(path.join(dir, 'chain'), nodes));
const x = tf.randomNormal([16]);
tf.dispose(model.execute({ x }) as tf.Tensor); // warm-up, as in every variant
const loopStart = performance.now();
for (let i = 2; i < runs; i++) tf.dispose(model.execute({ x }) as tf.Tensor);
console.log(`loop-ms ${(performance.now() - loopStart).toFixed(1)}`);
tf.dispose(model.execute({ x }) as tf.Tensor);
rmSync(dir, { recursive: true, force: true });
