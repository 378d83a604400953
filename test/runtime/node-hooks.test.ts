/**
 * Node-level execution hooks (runtime/graph-model/node-hooks.ts): every node of a runtime model
 * run told in execution order with its input and output tensors, through execute() and
 * executeAsync() (a real converted tf.cond model), on every backend; tfjs's own executor restored
 * when nobody observes; no tensor left behind. A node that no observer may want is not asked
 * about again until the interest epoch moves on or the observers change.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import {
  addNodeObserver,
  createNonFiniteFinder,
  loadCallbackModel,
  type NdArray,
  type NodeExecution,
  type NonFiniteOrigin,
  numpyFunction,
  tf,
  tfFunction,
} from '../../runtime/index.js';
import { graphExecutorPrototype } from '../../runtime/graph-model/tfjs-internals.js';
import { shared } from '../../runtime/hooks.js';
import { callbackNode, placeholder, unary, writeGraphModel } from '../../scripts/lib/graph-model-writer.js';
import { tempDir } from '../fixtures/callback-models.js';
import { BACKENDS, useBackend } from '../helpers/backends.js';

const converted = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'tf-converted');
const tmp = tempDir('tfjs-cb-node-hooks-');
after(() => tmp.cleanup());

/** x → Log 'log' → EagerPyFunc 'scale' (callback) → Neg 'out'. */
const LOG_MODEL = writeGraphModel(path.join(tmp.dir, 'log-model'), [
  placeholder('x', [-1]),
  unary('log', 'Log', 'x'),
  callbackNode('scale', 'EagerPyFunc', ['log'], 'pyfunc_scale', ['DT_FLOAT'], ['DT_FLOAT']),
  unary('out', 'Neg', 'scale'),
]);

/** What an observer saw of each node, read while its tensors were alive. */
interface Seen {
  node: string;
  op: string;
  index: number;
  graph: string;
  inputs: (number[] | undefined)[];
  outputs: number[][];
}

function watch(): { seen: Seen[]; stop: () => void } {
  const seen: Seen[] = [];
  const read = (t: tf.Tensor | undefined) => (t ? Array.from(t.dataSync() as Float32Array) : undefined);
  const stop = addNodeObserver({
    onNode: (e: NodeExecution) => {
      seen.push({ node: e.node, op: e.op, index: e.index, graph: e.graph, inputs: e.inputs.map(read), outputs: e.outputs.map((t) => read(t)!) });
    },
  });
  return { seen, stop };
}

for (const backend of BACKENDS) {
  describe(`node hooks on ${backend}`, () => {
    useBackend(backend);

    it('execute(): each node after it ran, in order, with its inputs and outputs; the callback node is one of them', async () => {
      const model = await loadCallbackModel(LOG_MODEL, { callbacks: { scale: (t: tf.Tensor) => t.mul(10) } });
      const { seen, stop } = watch();
      try {
        const x = tf.tensor1d([1, Math.E]);
        const y = model.execute({ x }) as tf.Tensor;
        assert.deepEqual(
          seen.map((s) => [s.index, s.node, s.op, s.graph]),
          [
            [0, 'log', 'Log', 'log-model'],
            [1, 'scale', 'EagerPyFunc', 'log-model'],
            [2, 'out', 'Neg', 'log-model'],
          ],
        );
        const [log, scale, out] = seen;
        assert.deepEqual(log!.inputs, [[1, Math.fround(Math.E)]]);
        assert.ok(Math.abs(log!.outputs[0]![1]! - 1) < 1e-6, `log(e) = ${log!.outputs[0]}`);
        assert.deepEqual(scale!.inputs, log!.outputs, "the callback's input is Log's output");
        assert.deepEqual(out!.inputs, scale!.outputs);
        assert.deepEqual(Array.from(y.dataSync()), out!.outputs[0]);
        tf.dispose([x, y]);
      } finally {
        stop();
        model.dispose();
      }
    });

    it('executeAsync() through tf.cond (a real converted model): Switch/Merge and the taken branch only', async () => {
      const model = await loadCallbackModel(path.join(converted, 'cond_callback', 'model.json'), {
        callbacks: { double_np: (a: NdArray) => a.map((v) => v * 2) },
      });
      const { seen, stop } = watch();
      try {
        const input = model.graphModel.inputs[0]!;
        for (const [values, taken] of [
          [[1, 2, 3], true],
          [[-1, -2, -3], false],
        ] as const) {
          seen.length = 0;
          const x = tf.tensor(values, input.shape?.map((d) => (d === -1 ? values.length : d)) as number[]);
          const y = (await model.run({ [input.name]: x })) as tf.Tensor;
          const ops = seen.map((s) => s.op);
          assert.ok(ops.includes('Switch') && ops.includes('Merge'), ops.join(', '));
          assert.equal(ops.includes('PyFunc') || ops.includes('EagerPyFunc'), taken, `the callback node ran only on its branch: ${ops.join(', ')}`);
          assert.deepEqual(
            seen.map((s) => s.index),
            seen.map((_, i) => i),
            'indexes count from 0 in each run',
          );
          tf.dispose([x, y]);
        }
      } finally {
        stop();
        model.dispose();
      }
    });

    it("nobody watching: the executor is tfjs's own again, and nodes are not told", async () => {
      const model = await loadCallbackModel(LOG_MODEL, { callbacks: { scale: (t: tf.Tensor) => t.clone() } });
      try {
        const proto = graphExecutorPrototype(model.graphModel);
        const own = proto.checkTensorForDisposal;
        const { seen, stop } = watch();
        assert.notEqual(proto.checkTensorForDisposal, own, 'shadowed while watched');
        stop();
        assert.equal(proto.checkTensorForDisposal, own, 'restored when the last observer left');
        const x = tf.tensor1d([1]);
        tf.dispose([x, model.execute({ x }) as tf.Tensor]);
        assert.equal(seen.length, 0);
      } finally {
        model.dispose();
      }
    });

    it('the first non-finite: the node that made it from finite inputs, or the input that already held it; none for a finite run', async () => {
      const model = await loadCallbackModel(LOG_MODEL, { callbacks: { scale: (t: tf.Tensor) => t.mul(10) } });
      const finder = createNonFiniteFinder();
      const seen: (NonFiniteOrigin | undefined)[] = [];
      const stop = addNodeObserver({ onNode: (e) => seen.push(finder.check(e)) });
      try {
        for (const [values, expected] of [
          [[0, 1, 4], 'first Inf: node `log` (Log), input 0 has 1 zero'],
          [[-1, 1], 'first NaN: node `log` (Log), input 0 has negatives (min -1)'],
          [[Number.NaN, 1], 'first NaN: `x`, input 0 of node `log` (Log), already held NaN'],
          [[1, 2], undefined],
        ] as const) {
          seen.length = 0;
          const x = tf.tensor1d(values as unknown as number[]);
          tf.dispose([x, model.execute({ x }) as tf.Tensor]);
          const origins = seen.filter((o): o is NonFiniteOrigin => o !== undefined);
          assert.deepEqual(
            origins.map((o) => o.message),
            expected ? [expected] : [],
            `x = [${values}]: one origin per run, the first`,
          );
        }
      } finally {
        stop();
        model.dispose();
      }
    });

    it('tfFunction replays are told node by node too (the tracing call is not: it runs eagerly), the first non-finite included', () => {
      const f = tfFunction((x: tf.Tensor) => numpyFunction((a: NdArray) => a.map((v) => v * 10), [tf.log(x)], 'float32').neg(), { name: 'log_scale' });
      const { seen, stop } = watch();
      const finder = createNonFiniteFinder();
      const origins: NonFiniteOrigin[] = [];
      const stopFinder = addNodeObserver({
        onNode: (e) => {
          const origin = finder.check(e);
          if (origin) origins.push(origin);
        },
      });
      try {
        const x = tf.tensor1d([1, Math.E]);
        tf.dispose(f(x));
        assert.equal(seen.length, 0, 'the first call traces, eagerly');
        const y = f(x);
        assert.deepEqual(
          seen.map((s) => [s.index, s.op, s.graph]),
          [
            [0, 'Log', 'log_scale'],
            [1, 'PyFunc', 'log_scale'],
            [2, 'Neg', 'log_scale'],
          ],
        );
        assert.deepEqual(seen[1]!.inputs, seen[0]!.outputs, "the callback node's input is Log's output");
        assert.deepEqual(Array.from(y.dataSync()), seen[2]!.outputs[0]);
        tf.dispose([x, y]);
        const zero = tf.tensor1d([0, 1]);
        tf.dispose(f(zero));
        assert.match(origins[0]?.message ?? '', /^first Inf: node `n0_Log` \(Log\), input 0 has 1 zero$/);
        zero.dispose();
      } finally {
        stop();
        stopFinder();
        f.dispose();
      }
    });

    it('watching leaves no tensor behind', async () => {
      const model = await loadCallbackModel(LOG_MODEL, { callbacks: { scale: (t: tf.Tensor) => t.clone() } });
      const stop = addNodeObserver({ onNode: (e) => void e.outputs[0]?.shape });
      try {
        const x = tf.tensor1d([1, 2]);
        tf.dispose(model.execute({ x }) as tf.Tensor);
        const before = tf.memory().numTensors;
        for (let i = 0; i < 20; i++) tf.dispose(model.execute({ x }) as tf.Tensor);
        assert.equal(tf.memory().numTensors, before);
        x.dispose();
      } finally {
        stop();
        model.dispose();
      }
    });
  });
}

describe('what node observers are asked', () => {
  useBackend('cpu');

  it("a node every observer's mayWant said no for is not asked about again until the interest epoch moves or the observers change; run order still counts it", async () => {
    const model = await loadCallbackModel(LOG_MODEL, { callbacks: { scale: (t: tf.Tensor) => t.clone() } });
    const asked: string[] = [];
    const told: string[] = [];
    let names = new Set(['out']);
    const stop = addNodeObserver({
      mayWant: (node) => {
        asked.push(`may ${node}`);
        return names.has(node);
      },
      wants: (node) => {
        asked.push(`wants ${node}`);
        return true;
      },
      onNode: (e) => told.push(`${e.node}#${e.index}`),
    });
    const x = tf.tensor1d([1, 2]);
    const run = (times: number) => {
      for (let i = 0; i < times; i++) tf.dispose(model.execute({ x }) as tf.Tensor);
    };
    try {
      run(3);
      assert.deepEqual(asked, ['may log', 'may scale', 'may out', 'wants out', 'may out', 'wants out', 'may out', 'wants out']);
      assert.deepEqual(told, ['out#2', 'out#2', 'out#2']);

      // Its answers changed: until the epoch moves, the no it gave for log holds.
      names = new Set(['log', 'out']);
      asked.length = told.length = 0;
      run(1);
      assert.deepEqual(told, ['out#2']);
      shared.nodeInterestEpoch = (shared.nodeInterestEpoch ?? 0) + 1;
      run(1);
      assert.deepEqual(told, ['out#2', 'log#0', 'out#2']);

      // Another observer, which may want every node: the nodes are asked about again.
      const all: string[] = [];
      const stopAll = addNodeObserver({ onNode: (e) => all.push(e.node) });
      try {
        run(1);
        assert.deepEqual(all, ['log', 'scale', 'out']);
      } finally {
        stopAll();
      }
    } finally {
      stop();
      x.dispose();
      model.dispose();
    }
  });
});
