/**
 * Graph models with callback nodes (EagerPyFunc, PyFunc, PyFuncStateless), loaded from disk with
 * loadCallbackModel and run on the real wasm and cpu backends.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import {
  addCallbackObserver,
  CallbackError,
  InvalidArgumentError,
  loadCallbackModel,
  ModelFormatError,
  NdArray,
  selectBackend,
  tf,
  UnboundCallbackError,
  type CallbackInvocation,
  type CallbackStart,
} from '../../runtime/index.js';
import { standardize } from '../../examples/callbacks/standardize.js';
import { BACKENDS } from '../helpers/backends.js';
import {
  chainModel,
  doubleModel,
  eagerModel,
  functionalIfModel,
  locationOfNodeName,
  multiOutputModel,
  orderedCallbacksModel,
  sideEffectModel,
  seededWeights,
  singleNodeModel,
  statelessModel,
  tempDir,
  weightedModel,
} from '../fixtures/callback-models.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const exampleModels = path.join(repoRoot, 'examples', 'models');

const { dir: root, cleanup } = tempDir('graph-model-test-');
after(cleanup);

/** Every invocation seen while `body` runs. */
async function observe<T>(body: () => T | Promise<T>): Promise<{ result: T; starts: CallbackStart[]; ends: CallbackInvocation[] }> {
  const starts: CallbackStart[] = [];
  const ends: CallbackInvocation[] = [];
  const stop = addCallbackObserver({ onCallbackStart: (s) => starts.push(s), onCallbackEnd: (e) => ends.push(e) });
  try {
    const result = await body();
    return { result, starts, ends };
  } finally {
    stop();
  }
}

function values(t: tf.Tensor | tf.Tensor[]): number[] {
  assert.ok(!Array.isArray(t), 'expected one tensor');
  return Array.from(t.dataSync() as Float32Array);
}

function assertClose(actual: ArrayLike<number>, expected: ArrayLike<number>, tol = 1e-5): void {
  assert.equal(actual.length, expected.length, 'length');
  for (let i = 0; i < actual.length; i++) {
    assert.ok(Math.abs(actual[i]! - expected[i]!) <= tol * Math.max(1, Math.abs(expected[i]!)), `index ${i}: ${actual[i]} vs ${expected[i]}`);
  }
}

test('tfjs-node is not installed in this repository (setup-native keeps its build in a cache): the models below load through fs, not loadGraphModel(file://)', () => {
  const require = createRequire(import.meta.url);
  assert.throws(
    () => require('@tensorflow/tfjs-node'),
    (err: NodeJS.ErrnoException) => err.code === 'MODULE_NOT_FOUND',
  );
});

describe('malformed models give ModelFormatError naming the file', () => {
  test('missing model.json', async () => {
    const file = path.join(root, 'nope', 'model.json');
    await assert.rejects(loadCallbackModel(file), (err: Error) => {
      assert.ok(err instanceof ModelFormatError, `got ${err.name}`);
      assert.match(err.message, /Cannot read model file/);
      assert.ok(err.message.includes(file), err.message);
      assert.match(err.message, /no such file/);
      return true;
    });
  });

  test('invalid JSON', async () => {
    const file = path.join(root, 'bad-json', 'model.json');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, '{"modelTopology": {"node": [ ');
    await assert.rejects(loadCallbackModel(file), (err: Error) => {
      assert.ok(err instanceof ModelFormatError, `got ${err.name}`);
      assert.ok(err.message.includes(file), err.message);
      assert.match(err.message, /is not valid JSON/);
      return true;
    });
  });

  test('JSON without modelTopology', async () => {
    const file = path.join(root, 'no-topology', 'model.json');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, JSON.stringify({ format: 'graph-model', weightsManifest: [] }));
    await assert.rejects(loadCallbackModel(file), (err: Error) => {
      assert.ok(err instanceof ModelFormatError, `got ${err.name}`);
      assert.ok(err.message.includes(file), err.message);
      assert.match(err.message, /has no modelTopology/);
      assert.match(err.message, /tfjs_graph_model/);
      return true;
    });
  });

  test('a layers model', async () => {
    const file = path.join(root, 'layers', 'model.json');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(
      file,
      JSON.stringify({
        format: 'layers-model',
        generatedBy: 'keras v2.16.1',
        modelTopology: { class_name: 'Sequential', config: { name: 'sequential', layers: [] }, keras_version: '2.16.1', backend: 'tensorflow' },
        weightsManifest: [],
      }),
    );
    await assert.rejects(loadCallbackModel(file), (err: Error) => {
      assert.ok(err instanceof ModelFormatError, `got ${err.name}`);
      assert.ok(err.message.includes(file), err.message);
      assert.match(err.message, /is not a graph model/);
      assert.match(err.message, /layers-model/);
      return true;
    });
  });

  test('a weight file listed in weightsManifest is missing', async () => {
    const { file } = weightedModel(root, 'missing-bin');
    const bin = path.join(path.dirname(file), 'group1-shard1of1.bin');
    fs.rmSync(bin);
    await assert.rejects(loadCallbackModel(file), (err: Error) => {
      assert.ok(err instanceof ModelFormatError, `got ${err.name}`);
      assert.ok(err.message.includes(bin), err.message);
      assert.ok(err.message.includes(file), `names the model file: ${err.message}`);
      assert.match(err.message, /is missing/);
      return true;
    });
  });
});

for (const backend of BACKENDS) {
  describe(`graph models on ${backend}`, () => {
    before(async () => {
      const report = await selectBackend({ backend, quiet: true });
      assert.equal(report.backend, backend);
      assert.equal(tf.getBackend(), backend);
    });

    test('loads model.json and its weights from disk and computes through the callback', async () => {
      const { file, kernel } = weightedModel(root, `weighted-${backend}`);
      const model = await loadCallbackModel(file, { callbacks: { scale: (h: tf.Tensor) => h.mul(3) } });
      try {
        assert.equal(model.name, `weighted-${backend}`);
        assert.equal(model.files.path, file);
        assert.deepEqual(model.inputNames, ['x']);
        assert.deepEqual(model.outputNames, ['out']);
        const x = tf.tensor2d([
          [1, 2, 3, 4],
          [-1, 0.5, 0, 2],
        ]);
        const y = model.execute(x) as tf.Tensor;
        const expected = tf.tidy(() => tf.relu(tf.matMul(x, tf.tensor2d(kernel, [4, 4])).mul(3)));
        assert.deepEqual(y.shape, [2, 4]);
        assertClose(y.dataSync() as Float32Array, expected.dataSync() as Float32Array);
        tf.dispose([x, y, expected]);
      } finally {
        model.dispose();
      }
    });

    test('callbackNodes read raw attrs: token case preserved, TensorFlow dtype names, model.json line', async () => {
      const file = eagerModel(root, `nodes-${backend}`);
      const model = await loadCallbackModel(file);
      try {
        assert.equal(model.callbackNodes.length, 1);
        const node = model.callbackNodes[0]!;
        assert.equal(node.node, 'py');
        assert.equal(node.op, 'EagerPyFunc');
        assert.equal(node.token, 'PyFunc_Upper_7', 'tfjs lowercases decoded attrs; the raw token keeps its case');
        assert.deepEqual(node.Tin, ['float32']);
        assert.deepEqual(node.Tout, ['float32']);
        assert.deepEqual(node.inputs, ['x']);
        assert.deepEqual(node.narrowed, []);
        assert.deepEqual(node.location, locationOfNodeName(file, 'py'));
        assert.deepEqual(
          model.unbound().map((n) => n.node),
          ['py'],
        );
      } finally {
        model.dispose();
      }
    });

    test('a Tout [] callback the outputs reach only by control edges runs once per execution under execute, executeAsync and run', async () => {
      let calls = 0;
      let seen: number[] = [];
      const model = await loadCallbackModel(sideEffectModel(root, `side-effect-${backend}`), {
        callbacks: {
          'StatefulPartitionedCall/log_stats': (x: NdArray) => {
            calls++;
            seen = Array.from(x.data as Float32Array);
          },
        },
      });
      const x = tf.tensor2d([[1, -2, 3]]);
      const before = tf.memory().numTensors;
      try {
        for (const how of ['execute', 'executeAsync', 'run'] as const) {
          calls = 0;
          const y = (await model[how](x)) as tf.Tensor;
          assert.equal(calls, 1, `${how}: the callback ran once`);
          assert.deepEqual(seen, [1, -2, 3]);
          assert.deepEqual(values(y), [1, 4, 9], `${how}: the outputs compute`);
          y.dispose();
        }
        assert.equal(tf.memory().numTensors, before, 'the control token and outputs are freed');
      } finally {
        x.dispose();
        model.dispose();
      }
    });

    test('a callback node with a control input (^node) receives only its data inputs, after the node it waits for', async () => {
      const order: string[] = [];
      const model = await loadCallbackModel(orderedCallbacksModel(root, `ordered-${backend}`), {
        callbacks: {
          log_stats: () => void order.push('log_stats'),
          scale: (...args: tf.Tensor[]) => {
            order.push(`scale(${args.length})`);
            return args[0]!.mul(2);
          },
        },
      });
      const x = tf.tensor2d([[1, -2, 3]]);
      try {
        for (const how of ['execute', 'executeAsync'] as const) {
          order.length = 0;
          const y = (await model[how](x)) as tf.Tensor;
          assert.deepEqual(order, ['log_stats', 'scale(1)'], how);
          assert.deepEqual(values(y), [2, 0, 6]);
          y.dispose();
        }
      } finally {
        x.dispose();
        model.dispose();
      }
    });

    test('a callback inside a functional If branch (control flow v2: a library function) runs through run() only when its branch does', async () => {
      let calls = 0;
      const file = functionalIfModel(root, `functional-if-${backend}`);
      const model = await loadCallbackModel(file, { callbacks: { double_np: (a: NdArray) => (calls++, a.map((v) => v * 2)) } });
      try {
        assert.deepEqual(
          model.callbackNodes.map((n) => [n.node, n.inFunction]),
          [['double_np', 'cond_true_7']],
        );
        const x = tf.tensor([1, -2, 3]);
        for (const [take, expected, expectedCalls] of [
          [true, [2, -4, 6], 1],
          [false, [-1, 2, -3], 0],
        ] as const) {
          calls = 0;
          const flag = tf.scalar(take, 'bool');
          const y = (await model.run({ take: flag, x })) as tf.Tensor;
          assert.deepEqual(values(y), expected);
          assert.equal(calls, expectedCalls);
          assert.throws(() => model.execute({ take: flag, x }), /node 'StatefulPartitionedCall\/cond' is a If \(tf\.cond with control flow v2\)/);
          tf.dispose([flag, y]);
        }
        x.dispose();
      } finally {
        model.dispose();
      }
    });

    test('binds by node name', async () => {
      const model = await loadCallbackModel(eagerModel(root, `by-name-${backend}`), { callbacks: { py: (x: tf.Tensor) => x.sub(2) } });
      try {
        const x = tf.tensor2d([[1, 2, 3]]);
        const y = model.execute(x) as tf.Tensor;
        assert.deepEqual(values(y), [0, 0, 1]);
        tf.dispose([x, y]);
      } finally {
        model.dispose();
      }
    });

    test('binds by the case-preserved token', async () => {
      const model = await loadCallbackModel(eagerModel(root, `by-token-${backend}`), { callbacks: { PyFunc_Upper_7: (x: tf.Tensor) => x.mul(-1) } });
      try {
        assert.deepEqual(model.unbound(), []);
        const x = tf.tensor2d([[1, -2, 3]]);
        const y = model.execute(x) as tf.Tensor;
        assert.deepEqual(values(y), [0, 2, 0]);
        tf.dispose([x, y]);
      } finally {
        model.dispose();
      }
    });

    test('the lowercased token tfjs would decode does not bind (the token is matched as written)', async () => {
      const model = await loadCallbackModel(eagerModel(root, `lower-token-${backend}`));
      try {
        assert.throws(() => model.bind({ pyfunc_upper_7: (x: tf.Tensor) => x }), TypeError);
      } finally {
        model.dispose();
      }
    });

    test('EagerPyFunc callbacks get Tensors', async () => {
      const seen: unknown[] = [];
      const model = await loadCallbackModel(eagerModel(root, `eager-args-${backend}`), {
        callbacks: {
          py: (x: unknown) => {
            seen.push(x);
            return (x as tf.Tensor).add(1);
          },
        },
      });
      try {
        const x = tf.tensor2d([[1, 2, 3]]);
        const y = model.execute(x) as tf.Tensor;
        assert.equal(seen.length, 1);
        assert.ok(seen[0] instanceof tf.Tensor, 'a Tensor');
        assert.ok(!(seen[0] instanceof NdArray));
        assert.deepEqual((seen[0] as tf.Tensor).shape, [1, 3]);
        assert.deepEqual(values(y), [2, 3, 4]);
        tf.dispose([x, y]);
      } finally {
        model.dispose();
      }
    });

    for (const op of ['PyFunc', 'PyFuncStateless'] as const) {
      test(`${op} callbacks get NdArray views`, async () => {
        const seen: unknown[] = [];
        const model = await loadCallbackModel(singleNodeModel(root, `${op}-args-${backend}`, 'np', op), {
          callbacks: {
            np: (a: NdArray) => {
              seen.push(a);
              return Float32Array.from(a.data as Float32Array, (v) => v * 10);
            },
          },
        });
        try {
          const x = tf.tensor2d([[1, 2, 3]]);
          const y = model.execute(x) as tf.Tensor;
          assert.equal(seen.length, 1);
          const arg = seen[0] as NdArray;
          assert.ok(arg instanceof NdArray, 'an NdArray');
          assert.ok(!(arg instanceof tf.Tensor));
          assert.deepEqual(arg.shape, [1, 3]);
          assert.equal(arg.dtype, 'float32');
          assert.ok(arg.data instanceof Float32Array);
          assert.deepEqual(Array.from(arg.data as Float32Array), [1, 2, 3]);
          assert.deepEqual(values(y), [-10, -20, -30]);
          tf.dispose([x, y]);
        } finally {
          model.dispose();
        }
      });
    }

    test("multiple outputs: Tout of 2, a consumer reads 'py:1'", async () => {
      const file = multiOutputModel(root, `multi-${backend}`);
      const model = await loadCallbackModel(file, { callbacks: { py: (x: tf.Tensor) => [x.add(1), x.mul(2)] } });
      try {
        assert.deepEqual(model.callbackNodes[0]!.Tout, ['float32', 'float32']);
        const x = tf.tensor2d([[1, 2, 3]]);
        const [first, second] = model.execute(x, ['first', 'second']) as tf.Tensor[];
        assert.deepEqual(values(first!), [2, 3, 4]);
        assert.deepEqual(values(second!), [2, 4, 6]);
        tf.dispose([x, first!, second!]);
      } finally {
        model.dispose();
      }
    });

    test('Tout DT_DOUBLE reports float64 and the narrowing to float32, in callbackNodes and in toutCheck', async () => {
      const model = await loadCallbackModel(doubleModel(root, `double-${backend}`), {
        callbacks: { dbl: (a: NdArray) => Float64Array.from(a.data as Float32Array, (v) => v / 4) },
      });
      try {
        const node = model.callbackNodes[0]!;
        assert.deepEqual(node.Tin, ['float64']);
        assert.deepEqual(node.Tout, ['float64']);
        assert.deepEqual(node.narrowed, [{ index: 0, declared: 'float64', storedAs: 'float32' }]);
        const x = tf.tensor2d([[1, 2, 3]]);
        const { result: y, ends } = await observe(() => model.execute(x) as tf.Tensor);
        assert.equal(y.dtype, 'float32');
        assert.deepEqual(values(y), [0.25, 0.5, 0.75]);
        assert.equal(ends.length, 1);
        assert.equal(ends[0]!.toutCheck!.ok, true);
        assert.deepEqual(ends[0]!.Tout, ['float64']);
        assert.deepEqual(ends[0]!.toutCheck!.narrowed, [{ index: 0, declared: 'float64', storedAs: 'float32' }]);
        tf.dispose([x, y]);
      } finally {
        model.dispose();
      }
    });

    test("a callback returning 2 values for one Tout raises InvalidArgumentError with TensorFlow's message", async () => {
      const model = await loadCallbackModel(singleNodeModel(root, `count-${backend}`, 'standardize', 'EagerPyFunc'), {
        callbacks: { standardize: (x: tf.Tensor) => [x.add(1), x.add(2)] },
      });
      try {
        const x = tf.tensor2d([[1, 2, 3]]);
        const before = tf.memory().numTensors;
        const { ends } = await observe(() =>
          assert.throws(
            () => model.execute(x),
            (err: Error) => {
              assert.ok(err instanceof InvalidArgumentError, `got ${err.name}: ${err.message}`);
              assert.equal(err.message.split('\n')[0], 'standardize returns 2 values, but expects to see 1 values.');
              assert.equal(err.problem, 'count');
              assert.equal(err.callback, 'standardize');
              return true;
            },
          ),
        );
        assert.equal(ends.length, 1);
        assert.equal(ends[0]!.toutCheck!.ok, false);
        assert.equal(ends[0]!.toutCheck!.mismatches[0]!.problem, 'count');
        assert.equal(tf.memory().numTensors, before, 'the two returned tensors are freed');
        x.dispose();
      } finally {
        model.dispose();
      }
    });

    test('a Float64Array for DT_FLOAT in a PyFunc node is "double, but expects float"', async () => {
      const model = await loadCallbackModel(singleNodeModel(root, `f64-${backend}`, 'normalize', 'PyFunc'), {
        callbacks: { normalize: (a: NdArray) => Float64Array.from(a.data as Float32Array, (v) => v / 3) },
      });
      try {
        const x = tf.tensor2d([[1, 2, 3]]);
        assert.throws(
          () => model.execute(x),
          (err: Error) => {
            assert.ok(err instanceof InvalidArgumentError, `got ${err.name}: ${err.message}`);
            assert.equal(err.message.split('\n')[0], '0-th value returned by normalize is double, but expects float');
            assert.equal(err.problem, 'dtype');
            assert.equal(err.index, 0);
            return true;
          },
        );
        x.dispose();
      } finally {
        model.dispose();
      }
    });

    test('unbound callback nodes fail before execution, listing each and how to bind it', async () => {
      let aCalls = 0;
      const file = chainModel(root, `unbound-${backend}`);
      const model = await loadCallbackModel(file, {
        callbacks: {
          a: (x: tf.Tensor) => {
            aCalls++;
            return x.add(1);
          },
        },
      });
      try {
        const x = tf.tensor2d([[1, 2, 3]]);
        assert.throws(
          () => model.execute(x),
          (err: Error) => {
            assert.ok(err instanceof UnboundCallbackError, `got ${err.name}: ${err.message}`);
            assert.deepEqual(
              err.nodes.map((n) => ({ node: n.node, op: n.op, token: n.token })),
              [{ node: 'b', op: 'PyFunc', token: 'tok_b' }],
            );
            assert.match(err.message, /node 'b' \(PyFunc, token 'tok_b'/);
            assert.doesNotMatch(err.message, /node 'a'/, 'the bound node is not listed');
            assert.ok(err.message.includes('callbacks:'), err.message);
            assert.ok(err.message.includes('tfjs-callbacks run'), err.message);
            assert.ok(err.message.includes(file), 'names the model file');
            return true;
          },
        );
        assert.equal(aCalls, 0, 'the bound callback did not run');
        x.dispose();
      } finally {
        model.dispose();
      }
    });

    test('a model with no bindings lists every callback node', async () => {
      const model = await loadCallbackModel(chainModel(root, `unbound-all-${backend}`));
      try {
        const x = tf.tensor2d([[1, 2, 3]]);
        assert.throws(
          () => model.execute(x),
          (err: Error) => {
            assert.ok(err instanceof UnboundCallbackError);
            assert.deepEqual(
              err.nodes.map((n) => `${n.node}/${n.op}/${n.token}`),
              ['a/EagerPyFunc/tok_a', 'b/PyFunc/tok_b'],
            );
            assert.match(err.message, /has 2 callback nodes with no JS function bound/);
            assert.match(err.message, /node 'a' \(EagerPyFunc, token 'tok_a'/);
            assert.match(err.message, /node 'b' \(PyFunc, token 'tok_b'/);
            return true;
          },
        );
        x.dispose();
      } finally {
        model.dispose();
      }
    });

    test('executeAsync() and run() with unbound nodes reject (a returned promise, not a synchronous throw)', async () => {
      let aCalls = 0;
      const model = await loadCallbackModel(chainModel(root, `unbound-async-${backend}`), {
        callbacks: {
          a: async (x: tf.Tensor) => {
            aCalls++;
            return x;
          },
        },
      });
      try {
        const x = tf.tensor2d([[1, 2, 3]]);
        await assert.rejects(() => model.executeAsync(x), UnboundCallbackError);
        await assert.rejects(() => model.run(x), UnboundCallbackError);
        assert.equal(aCalls, 0);
        x.dispose();
      } finally {
        model.dispose();
      }
    });

    test('binding a key that matches no node fails with the list of nodes', async () => {
      const model = await loadCallbackModel(chainModel(root, `bad-key-${backend}`));
      try {
        assert.throws(
          () => model.bind({ nosuchnode: (x: tf.Tensor) => x }),
          (err: Error) => {
            assert.ok(err instanceof TypeError);
            assert.match(err.message, /callbacks\['nosuchnode'\] names no callback node/);
            assert.match(err.message, /'a' \(EagerPyFunc, token 'tok_a'/);
            assert.match(err.message, /'b' \(PyFunc, token 'tok_b'/);
            return true;
          },
        );
        await assert.rejects(loadCallbackModel(chainModel(root, `bad-key-load-${backend}`), { callbacks: { zzz: () => 0 } }), /names no callback node/);
      } finally {
        model.dispose();
      }
    });

    test('async callbacks run through executeAsync (awaiting before computing)', async () => {
      const model = await loadCallbackModel(eagerModel(root, `async-${backend}`), {
        callbacks: {
          py: async (x: tf.Tensor) => {
            await new Promise((r) => setImmediate(r));
            return x.mul(2);
          },
        },
      });
      try {
        const x = tf.tensor2d([[1, -2, 3]]);
        const y = (await model.executeAsync(x)) as tf.Tensor;
        assert.deepEqual(values(y), [2, 0, 6]);
        tf.dispose([x, y]);
      } finally {
        model.dispose();
      }
    });

    test('async callbacks run through executeAsync (computing before the first await)', async () => {
      // The most natural async callback: the tensor is made synchronously, then the promise resolves.
      const model = await loadCallbackModel(eagerModel(root, `async-sync-part-${backend}`), {
        callbacks: { py: async (x: tf.Tensor) => x.mul(2) },
      });
      try {
        const x = tf.tensor2d([[1, -2, 3]]);
        const y = (await model.executeAsync(x)) as tf.Tensor;
        assert.deepEqual(values(y), [2, 0, 6]);
        tf.dispose([x, y]);
      } finally {
        model.dispose();
      }
    });

    test('run() uses executeAsync for async callbacks and execute for sync ones', async () => {
      const asyncModel = await loadCallbackModel(eagerModel(root, `run-async-${backend}`), {
        callbacks: {
          py: async (x: tf.Tensor) => {
            await null;
            return x.add(10);
          },
        },
      });
      const syncModel = await loadCallbackModel(eagerModel(root, `run-sync-${backend}`), { callbacks: { py: (x: tf.Tensor) => x.add(20) } });
      try {
        const x = tf.tensor2d([[1, 2, 3]]);
        // execute() would reject the async callback (see the next test): run() succeeding shows it chose executeAsync.
        const y1 = (await asyncModel.run(x)) as tf.Tensor;
        assert.deepEqual(values(y1), [11, 12, 13]);
        const y2 = (await syncModel.run(x)) as tf.Tensor;
        assert.deepEqual(values(y2), [21, 22, 23]);
        tf.dispose([x, y1, y2]);
      } finally {
        asyncModel.dispose();
        syncModel.dispose();
      }
    });

    test('an async callback under sync execute() fails, pointing to executeAsync', async () => {
      const model = await loadCallbackModel(eagerModel(root, `async-under-sync-${backend}`), {
        callbacks: {
          py: async (x: tf.Tensor) => {
            await null;
            return x;
          },
        },
      });
      try {
        const x = tf.tensor2d([[1, 2, 3]]);
        assert.throws(() => model.execute(x), /executeAsync/);
        x.dispose();
      } finally {
        model.dispose();
      }
    });

    test('PyFuncStateless: nodes with the same token and input run the callback once per execution', async () => {
      let calls = 0;
      const model = await loadCallbackModel(statelessModel(root, `stateless-${backend}`), {
        callbacks: {
          shared_token: (a: NdArray) => {
            calls++;
            return Float32Array.from(a.data as Float32Array, (v) => v * v + 1);
          },
        },
      });
      try {
        assert.deepEqual(model.unbound(), [], 'binding the token binds all three nodes');
        const x = tf.tensor2d([[1, 2, 3]]);
        const { result: y, ends } = await observe(() => model.execute(x) as tf.Tensor);
        // s1 and s2 share (token, input): one call; s3 reads -x, whose values differ: a second call.
        assert.equal(calls, 2);
        // sum = 2 * (x² + 1) + ((-x)² + 1) = 3x² + 3
        assert.deepEqual(values(y), [6, 15, 30]);
        assert.equal(ends.length, 3, 'each node is still observed');
        assert.equal(ends.filter((e) => e.memoized).length, 1);
        const y2 = model.execute(x) as tf.Tensor;
        assert.equal(calls, 4, 'results are reused within one execution only');
        assert.deepEqual(values(y2), [6, 15, 30]);
        tf.dispose([x, y, y2]);
      } finally {
        model.dispose();
      }
    });

    test('a throwing callback surfaces as CallbackError naming the node', async () => {
      const model = await loadCallbackModel(singleNodeModel(root, `throws-${backend}`, 'exploder', 'PyFunc'), {
        callbacks: {
          exploder: () => {
            throw new RangeError('boom from the callback');
          },
        },
      });
      try {
        const x = tf.tensor2d([[1, 2, 3]]);
        const { ends } = await observe(() =>
          assert.throws(
            () => model.execute(x),
            (err: Error) => {
              assert.ok(err instanceof CallbackError, `got ${err.name}: ${err.message}`);
              assert.equal(err.callback, 'exploder');
              assert.match(err.message, /callback 'exploder' raised: RangeError: boom from the callback/);
              assert.ok(err.cause instanceof RangeError);
              return true;
            },
          ),
        );
        assert.equal(ends.length, 1);
        assert.equal(ends[0]!.error?.name, 'RangeError');
        x.dispose();
      } finally {
        model.dispose();
      }
    });

    test("observer events carry the model name, node, op and the node's line in model.json", async () => {
      const file = eagerModel(root, `observed-${backend}`);
      const model = await loadCallbackModel(file, {
        callbacks: {
          py: function double(x: tf.Tensor) {
            return x.mul(2);
          },
        },
      });
      const named = await loadCallbackModel(file, { name: 'my-model', callbacks: { py: (x: tf.Tensor) => x } });
      try {
        const x = tf.tensor2d([[1, 2, 3]]);
        const { result: y, starts, ends } = await observe(() => model.execute(x) as tf.Tensor);
        assert.equal(starts.length, 1);
        assert.equal(ends.length, 1);
        const e = ends[0]!;
        assert.equal(e.graph, `observed-${backend}`);
        assert.equal(e.node, 'py');
        assert.equal(e.op, 'EagerPyFunc');
        assert.equal(e.callback.token, 'PyFunc_Upper_7');
        assert.equal(e.callback.kind, 'py_function');
        assert.equal(e.callback.functionName, 'double');
        assert.equal(e.callSite?.file, file);
        assert.deepEqual(e.callSite, { file, ...locationOfNodeName(file, 'py') });
        assert.deepEqual(
          e.inputs.map((s) => [s.dtype, s.shape]),
          [['float32', [1, 3]]],
        );
        assert.deepEqual(
          e.outputs.map((s) => [s.dtype, s.shape]),
          [['float32', [1, 3]]],
        );
        assert.equal(e.toutCheck!.ok, true);
        assert.equal(starts[0]!.id, e.id);

        const { result: y2, ends: ends2 } = await observe(() => named.execute(x) as tf.Tensor);
        assert.equal(ends2[0]!.graph, 'my-model');
        tf.dispose([x, y, y2]);
      } finally {
        model.dispose();
        named.dispose();
      }
    });

    test('no tensor leaks over 200 executions', async () => {
      const eager = await loadCallbackModel(weightedModel(root, `leak-w-${backend}`).file, {
        callbacks: { scale: (h: tf.Tensor) => h.square().add(1).sqrt() },
      });
      const multi = await loadCallbackModel(multiOutputModel(root, `leak-m-${backend}`), { callbacks: { py: (x: tf.Tensor) => [x.add(1), x.mul(2)] } });
      const numpy = await loadCallbackModel(doubleModel(root, `leak-d-${backend}`), {
        callbacks: { dbl: (a: NdArray) => Float64Array.from(a.data as Float32Array) },
      });
      const stateless = await loadCallbackModel(statelessModel(root, `leak-s-${backend}`), { callbacks: { shared_token: (a: NdArray) => a } });
      try {
        const before = tf.memory().numTensors;
        for (let i = 0; i < 200; i++) {
          const x4 = tf.randomNormal([2, 4], 0, 1, 'float32', i);
          const x3 = tf.randomNormal([2, 3], 0, 1, 'float32', i);
          tf.dispose(eager.execute(x4));
          tf.dispose(multi.execute(x3, ['first', 'second']));
          tf.dispose(numpy.execute(x3));
          tf.dispose(stateless.execute(x3));
          tf.dispose([x4, x3]);
        }
        assert.equal(tf.memory().numTensors, before);
      } finally {
        for (const m of [eager, multi, numpy, stateless]) m.dispose();
      }
    });

    test('no tensor leaks over 200 executeAsync runs of an async callback', async () => {
      const model = await loadCallbackModel(eagerModel(root, `leak-async-${backend}`), {
        callbacks: {
          py: async (x: tf.Tensor) => {
            await null;
            return tf.tidy(() => x.square().add(1));
          },
        },
      });
      const warn = console.warn;
      console.warn = () => {}; // tfjs advises execute() on every executeAsync of a graph without control flow
      try {
        const before = tf.memory().numTensors;
        for (let i = 0; i < 200; i++) {
          const x = tf.tensor2d([[i, 1, 2]]);
          tf.dispose(await model.executeAsync(x));
          x.dispose();
        }
        assert.equal(tf.memory().numTensors, before);
      } finally {
        console.warn = warn;
        model.dispose();
      }
    });

    test('examples/models/standardize runs with examples/callbacks/standardize.ts', async () => {
      const model = await loadCallbackModel(path.join(exampleModels, 'standardize', 'model.json'), { callbacks: { standardize } });
      try {
        assert.equal(model.name, 'standardize');
        assert.deepEqual(
          model.callbackNodes.map((n) => [n.node, n.op, n.token]),
          [['standardize', 'EagerPyFunc', 'pyfunc_0']],
        );
        const x = tf.randomNormal([4, 16], 0, 1, 'float32', 42);
        const y = model.execute(x) as tf.Tensor;
        const expected = tf.tidy(() => {
          const h = tf.matMul(x, tf.tensor2d(seededWeights(256, 7), [16, 16]));
          const { mean, variance } = tf.moments(h, -1, true);
          return tf.relu(h.sub(mean).div(variance.add(1e-6).sqrt()));
        });
        assert.deepEqual(y.shape, [4, 16]);
        assertClose(y.dataSync() as Float32Array, expected.dataSync() as Float32Array, 1e-4);
        tf.dispose([x, y, expected]);
      } finally {
        model.dispose();
      }
    });

    test('examples/models/tanh-callback with a tanh callback matches examples/models/tanh-ops', async () => {
      const withCallback = await loadCallbackModel(path.join(exampleModels, 'tanh-callback', 'model.json'), {
        callbacks: { activation: (h: tf.Tensor) => tf.tanh(h) },
      });
      const withOps = await loadCallbackModel(path.join(exampleModels, 'tanh-ops', 'model.json'));
      try {
        assert.deepEqual(withOps.callbackNodes, []);
        const x = tf.randomNormal([3, 16], 0, 1, 'float32', 7);
        const a = withCallback.execute(x) as tf.Tensor;
        const b = withOps.execute(x) as tf.Tensor;
        assertClose(a.dataSync() as Float32Array, b.dataSync() as Float32Array, 1e-5);
        tf.dispose([x, a, b]);
      } finally {
        withCallback.dispose();
        withOps.dispose();
      }
    });
  });
}
