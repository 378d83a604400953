/**
 * Node-level hooks on a 100-node model (cpu, input float32[256]), ratios in one run:
 * - the runtime's execute() with no node observer against tfjs's own GraphModel.execute (hooks off:
 *   tfjs's executor untouched, so this measures the runtime's wrapper only);
 * - a no-op node observer, and "first non-finite" (a summary of every node's outputs), against off;
 * - the runtime's fixed cost per run, on a 1-node model (what the first ratio cannot resolve from noise).
 * Rounds alternate on and off so drift hits both.
 */
import path from 'node:path';
import { addNodeObserver, createNonFiniteFinder, loadCallbackModel, selectBackend, tf } from '../runtime/index.js';
import { type NodeDef, placeholder, unary, writeGraphModel } from '../scripts/lib/graph-model-writer.js';
import { tempDir } from '../test/fixtures/callback-models.js';
import { measurePair } from './harness.js';

type Print = (line: string) => void;

export async function nodeHookBenchmarks(print: Print): Promise<void> {
  await selectBackend({ backend: 'cpu', quiet: true });
  const tmp = tempDir('tfjs-cb-bench-nodes-');
  const nodes: NodeDef[] = [placeholder('x', [-1])];
  for (let i = 0; i < 100; i++) nodes.push(unary(`n${i}`, i % 2 === 0 ? 'Neg' : 'Abs', i === 0 ? 'x' : `n${i - 1}`));
  const model = await loadCallbackModel(writeGraphModel(path.join(tmp.dir, 'chain100'), nodes));
  const x = tf.randomNormal([256]);
  const runtimeRun = () => tf.dispose(model.execute({ x }) as tf.Tensor);
  const tfjsRun = () => tf.dispose(model.graphModel.execute({ x }) as tf.Tensor);
  print('\nnode hooks · 100-node model, float32[256], cpu');
  const [tfjs, off] = measurePair(tfjsRun, runtimeRun, 50);
  print(
    `  hooks off (runtime execute)      ${off.usPerCall.toFixed(0).padStart(6)} µs/run  vs tfjs GraphModel.execute ${tfjs.usPerCall.toFixed(0)} µs  ratio ${(off.usPerCall / tfjs.usPerCall).toFixed(3)}x`,
  );
  for (const [label, make] of [
    ['a no-op node observer           ', () => addNodeObserver({ onNode: () => {} })],
    [
      'first non-finite on             ',
      () => {
        const finder = createNonFiniteFinder();
        return addNodeObserver({ onNode: (e) => void finder.check(e) });
      },
    ],
  ] as const) {
    let stop: (() => void) | undefined;
    const [base, on] = measurePair(
      () => {
        stop?.();
        stop = undefined;
        runtimeRun();
      },
      () => {
        stop ??= make();
        runtimeRun();
      },
      50,
    );
    stop?.();
    print(
      `  ${label}  ${on.usPerCall.toFixed(0).padStart(6)} µs/run  vs off ${base.usPerCall.toFixed(0)} µs  ratio ${(on.usPerCall / base.usPerCall).toFixed(3)}x`,
    );
  }
  // The runtime's own per-run cost, which the 100-node ratio cannot resolve from noise: a 1-node model.
  const one = await loadCallbackModel(writeGraphModel(path.join(tmp.dir, 'one'), [placeholder('x', [-1]), unary('n0', 'Neg', 'x')]));
  const [tfjsOne, runtimeOne] = measurePair(
    () => tf.dispose(one.graphModel.execute({ x }) as tf.Tensor),
    () => tf.dispose(one.execute({ x }) as tf.Tensor),
    2000,
  );
  print(
    `  runtime execute() fixed cost      ${(runtimeOne.usPerCall - tfjsOne.usPerCall).toFixed(1).padStart(6)} µs/run  (1-node model: ${runtimeOne.usPerCall.toFixed(1)} µs vs tfjs ${tfjsOne.usPerCall.toFixed(1)} µs)`,
  );
  one.dispose();
  x.dispose();
  model.dispose();
  tmp.cleanup();
}
