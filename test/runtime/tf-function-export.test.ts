/**
 * tfFunction export: a traced graph written as a graph model (model.json + one shard) that
 * loadCallbackModel loads, its callback nodes bound again by name or token, giving the very same
 * values as the traced function. Unmappable kernels are listed and nothing is written. On every
 * real backend.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import {
  type CallbackModel,
  type TracedGraph,
  GraphExportError,
  MAPPED_KERNELS,
  type NdArray,
  compat,
  loadCallbackModel,
  numpyFunction,
  pyFunction,
  tf,
  tfFunction,
} from '../../runtime/index.js';
import { checkModelJson } from '../../runtime/graph-model/model-json-check.js';
import { graphFromModelJson } from '../../media/src/graph/model.js';
import { buildScopes } from '../../media/src/graph/scopes.js';
import { layersModel, layersModelInput } from '../fixtures/layers-model.js';
import { assertCloseValues, assertSameValues, values, valuesOf } from '../helpers/same-values.js';
import { BACKENDS, useBackend } from '../helpers/backends.js';

type Tensor = tf.Tensor;

const THIS_FILE = fileURLToPath(import.meta.url);

function single(out: Tensor | Tensor[]): Tensor {
  assert.ok(!Array.isArray(out), 'one output');
  return out;
}

function readJson(modelPath: string): { modelTopology: { node: { name: string; op: string; input?: string[]; attr?: Record<string, unknown> }[] } } {
  return JSON.parse(fs.readFileSync(modelPath, 'utf8'));
}

const input = () =>
  tf.tensor([
    [0.5, -1, 2],
    [3, -0.25, 1.5],
  ]);

for (const backend of BACKENDS) {
  describe(`tfFunction export on ${backend}`, () => {
    useBackend(backend);
    let root: string;
    before(() => {
      root = fs.mkdtempSync(path.join(os.tmpdir(), `tf-export-${backend}-`));
    });
    after(() => fs.rmSync(root, { recursive: true, force: true }));
    const dirFor = (name: string) => path.join(root, name);
    /** Kernels the round trips below ran through an exported model. */
    const exercised = new Set<string>();
    const noteKernels = (f: { readonly graph: TracedGraph | undefined }) => {
      for (const n of f.graph?.nodes ?? []) if (n.type === 'kernel') exercised.add(n.kernel);
    };

    it('(a) a dense layer with a captured tensor and a variable round-trips, and model.json passes the runtime checks', async () => {
      const W = tf.tensor([
        [1, -2],
        [3, 4],
        [-5, 6],
      ]);
      const b = tf.variable(tf.tensor([0.5, -1]), false, `dense_b_${backend}`);
      const dense = tfFunction((x: Tensor) => tf.relu(tf.add(tf.matMul(x, W), b)), { name: 'dense' });
      dense(input()).dispose();
      const exported = dense.export(dirFor('dense'));
      assert.equal(exported.modelPath, path.join(dirFor('dense'), 'model.json'));
      assert.deepEqual(fs.readdirSync(dirFor('dense')).sort(), ['group1-shard1of1.bin', 'model.json']);
      const json = readJson(exported.modelPath);
      checkModelJson(json);
      assert.deepEqual(
        json.modelTopology.node.map((n) => n.op),
        ['Placeholder', 'Const', 'Const', 'MatMul', 'AddV2', 'Relu', 'Identity'],
      );
      const model = await loadCallbackModel(exported.modelPath);
      const x = tf.tensor([
        [1, 2, 3],
        [-1, 0.5, 2],
      ]);
      assertSameValues(single(model.execute(x)), dense(x), 'execute');
      assertSameValues(single(await model.executeAsync({ input_0: x })), dense(x), 'executeAsync by input name');
      noteKernels(dense);
      assert.deepEqual(model.outputNames, ['output']);
      model.dispose();
      dense.dispose();
      b.dispose();
      W.dispose();
    });

    it('(b) pyFunction, numpyFunction and a stateless py_func between kernels are callback nodes, bound again by name and by token', async () => {
      const calls: string[] = [];
      const cube = (v: Tensor) => {
        calls.push('cube');
        return tf.mul(v, tf.square(v));
      };
      const shift = (a: NdArray) => {
        calls.push('shift');
        return (a.data as Float32Array).map((v) => v + 0.25);
      };
      const halve = (a: NdArray, k: NdArray) => (a.data as Float32Array).map((v) => v / (k.data as Float32Array)[0]!);
      const eager = (x: Tensor) => {
        const c = pyFunction(cube, [tf.sinh(x)], 'float32', { name: 'cube' });
        const s = numpyFunction(shift, [tf.exp(c)], 'float32', { name: 'shift' });
        const h = compat.v1.pyFunc(halve, [tf.neg(s), 2], 'float32', false, 'halve');
        return tf.add(h, 1);
      };
      const f = tfFunction(eager, { name: 'with_callbacks' });
      f(input()).dispose();
      const exported = f.export(dirFor('callbacks'));
      assert.deepEqual(
        exported.callbacks.map((c) => [c.node, c.name, c.op]),
        [
          ['with_callbacks/cube', 'cube', 'EagerPyFunc'],
          ['with_callbacks/shift', 'shift', 'PyFunc'],
          ['with_callbacks/halve', 'halve', 'PyFuncStateless'],
        ],
      );
      const json = readJson(exported.modelPath);
      checkModelJson(json);
      const halveNode = json.modelTopology.node.find((n) => n.op === 'PyFuncStateless')!;
      assert.deepEqual(halveNode.attr?.Tin, { list: { type: ['DT_FLOAT', 'DT_FLOAT'] } }, 'the literal 2 is a float constant input');
      assert.deepEqual(halveNode.attr?.Tout, { list: { type: ['DT_FLOAT'] } });
      const x = tf.tensor([
        [0.1, -0.2, 0.3],
        [0.4, 0.5, -0.6],
      ]);
      calls.length = 0;
      const expected = f(x);
      assert.deepEqual(calls, ['cube', 'shift'], 'the replay runs the callbacks');

      const byName = await loadCallbackModel(exported.modelPath, { callbacks: { cube, shift, halve } });
      calls.length = 0;
      assertSameValues(single(byName.execute(x)), expected, 'bound by name');
      noteKernels(f);
      assert.deepEqual(calls, ['cube', 'shift'], 'the model runs the callbacks');
      byName.dispose();

      const tokens = Object.fromEntries(exported.callbacks.map((c) => [c.token, { cube, shift, halve }[c.name as 'cube']]));
      const byToken = await loadCallbackModel(exported.modelPath, { callbacks: tokens });
      assertSameValues(single(await byToken.executeAsync(x)), expected, 'bound by token');
      assert.deepEqual(
        byToken.callbackNodes.map((n) => n.token),
        exported.callbacks.map((c) => c.token),
      );
      byToken.dispose();

      const unbound = await loadCallbackModel(exported.modelPath);
      assert.throws(() => unbound.execute(x), /cube: \(x0\) =>/, 'the unbound message suggests the callback names');
      unbound.dispose();
      f.dispose();
    });

    it("with no name given, callback nodes are named after their functions (an anonymous one's after its token) and bind by those names", async () => {
      // docs/runtime-api.md's example (Export a traced graph): `loadCallbackModel(m.modelPath, { callbacks: { cube, shift } })`.
      function cube(v: Tensor) {
        return tf.mul(v, tf.square(v));
      }
      function shift(a: NdArray) {
        return (a.data as Float32Array).map((v) => v + 0.25);
      }
      const f = tfFunction((x: Tensor) => {
        const s = numpyFunction(shift, [pyFunction(cube, [x], 'float32')], 'float32');
        return pyFunction((t: Tensor) => tf.neg(t), [s], 'float32');
      });
      f(input()).dispose();
      const exported = f.export(dirFor('function-names'));
      const [c, sh, anonymous] = exported.callbacks;
      assert.deepEqual([c?.name, sh?.name], ['cube', 'shift']);
      assert.match(anonymous?.name ?? '', /^pyfunc_\d+$/, 'an anonymous callback keeps its token');
      assert.equal(anonymous?.name, anonymous?.token);
      assert.ok(c?.node.endsWith('/cube') && sh?.node.endsWith('/shift'), exported.callbacks.map((x) => x.node).join(', '));
      const x = tf.tensor([
        [0.5, -1, 2],
        [0.1, 0.2, -0.3],
      ]);
      const model = await loadCallbackModel(exported.modelPath, { callbacks: { cube, shift, [anonymous!.token]: (t: Tensor) => tf.neg(t) } });
      assertSameValues(single(model.execute(x)), f(x), 'bound by the functions’ names and the token');
      model.dispose();
      f.dispose();
    });

    it('a callback run for its effects only (Tout []) still runs in the model, as in every replay', async () => {
      const seen: number[][] = [];
      const record = (t: Tensor) => {
        seen.push(values(t));
      };
      const f = tfFunction(
        (x: Tensor) => {
          pyFunction(record, [tf.neg(x)], [], { name: 'record' });
          return tf.exp(x);
        },
        { name: 'effects' },
      );
      f(tf.tensor([1, 2])).dispose();
      const exported = f.export(dirFor('effects'));
      const model = await loadCallbackModel(exported.modelPath, { callbacks: { record } });
      seen.length = 0;
      const x = tf.tensor([3, 4]);
      assertSameValues(single(model.execute(x)), f(x), 'output');
      assert.deepEqual(
        seen,
        [
          [-3, -4],
          [-3, -4],
        ],
        'the model ran it, then the replay',
      );
      model.dispose();
      f.dispose();
    });

    it('(c) int32 and float32 inputs, a reduction with keepDims, argMax, reshape, gather, concat, named outputs', async () => {
      const table = tf.tensor([10, 20, 30, 40], [4], 'int32');
      const eager = (x: Tensor, ids: Tensor) => {
        const picked = tf.gather(table, ids);
        const scaled = tf.mul(tf.cast(picked, 'float32'), tf.sum(x, 1, true));
        return {
          rowSums: tf.sum(x, 1, true),
          meanAll: tf.mean(tf.square(tf.sub(x, 2))),
          argmax: tf.argMax(x, 1),
          mixed: tf.concat([tf.reshape(scaled, [-1]), tf.transpose(x).reshape([-1]), tf.expandDims(tf.max(x), 0)], 0),
          count: tf.add(tf.cast(tf.greater(x, 0), 'int32').sum(), ids.sum()),
          sliced: tf.slice(tf.softmax(x), [0, 1], [2, 2]),
        };
      };
      const f = tfFunction(eager, { name: 'mixed' });
      const ids = tf.tensor([3, 0], [2], 'int32');
      tf.dispose(Object.values(f(input(), ids)));
      const exported = f.export(dirFor('mixed'));
      assert.deepEqual(exported.outputs, ['output_rowSums', 'output_meanAll', 'output_argmax', 'output_mixed', 'output_count', 'output_sliced']);
      checkModelJson(readJson(exported.modelPath));
      const model = await loadCallbackModel(exported.modelPath);
      const x = tf.tensor([
        [2, -3, 4],
        [0.5, 7, -1],
      ]);
      const ids2 = tf.tensor([1, 2], [2], 'int32');
      const expected = f(x, ids2);
      const got = model.execute([x, ids2], exported.outputs as string[]) as Tensor[];
      Object.values(expected).forEach((t, i) => assertSameValues(got[i]!, t, exported.outputs[i]!));
      noteKernels(f);
      assert.deepEqual(got[0]!.shape, [2, 1], 'keep_dims was kept');
      assert.equal(got[2]!.dtype, 'int32');
      model.dispose();
      f.dispose();
      table.dispose();
    });

    it('(d) with several signatures traced, export names them unless one is picked by index or example inputs', async () => {
      const f = tfFunction((x: Tensor) => tf.tanh(tf.mul(x, x)), { name: 'square_tanh' });
      f(input()).dispose();
      const wide = tf.ones([4, 3]);
      f(wide).dispose();
      const dir = dirFor('second');
      assert.throws(() => f.export(dir), /has 2 traced graphs.*#0 \(float32\[2,3\]\); #1 \(float32\[4,3\]\).*signature.*inputs/);
      assert.throws(() => f.export(dir, { signature: 2 }), /signature 2 is not one of its graphs/);
      assert.equal(fs.existsSync(dir), false);
      const exported = f.export(dir, { signature: 1 });
      const model = await loadCallbackModel(exported.modelPath);
      assert.deepEqual(model.graphModel.inputs[0]!.shape, [4, 3]);
      const x = tf.randomNormal([4, 3]);
      assertSameValues(single(model.execute(x)), f(x), 'the picked signature');
      assert.throws(() => model.execute(input()), /shape/, 'the graph is the [4,3] one');
      model.dispose();
      // The same graph, picked by example inputs; overwrite replaces it in place.
      const again = f.export(dir, { inputs: [tf.zeros([4, 3])], overwrite: true });
      assert.equal(again.modelPath, exported.modelPath);
      // Example inputs of a new signature trace it first.
      const third = f.export(dirFor('third'), { inputs: [tf.zeros([5])] });
      assert.equal(f.concreteFunctions.length, 3);
      const thirdModel = await loadCallbackModel(third.modelPath);
      assert.deepEqual(thirdModel.graphModel.inputs[0]!.shape, [5]);
      thirdModel.dispose();
      f.dispose();
    });

    it('refuses a graph that has not been traced, and a folder that is not empty', () => {
      const f = tfFunction((x: Tensor) => tf.exp(x), { name: 'untraced' });
      assert.throws(() => f.export(dirFor('untraced')), /'untraced' has not been traced yet: call it once, or pass export's inputs/);
      f(input()).dispose();
      const busy = dirFor('busy');
      fs.mkdirSync(busy);
      fs.writeFileSync(path.join(busy, 'notes.txt'), 'mine');
      assert.throws(() => f.export(busy), /is not empty \(notes\.txt\).*overwrite: true/);
      assert.deepEqual(fs.readdirSync(busy), ['notes.txt']);
      f.export(busy, { overwrite: true });
      assert.deepEqual(fs.readdirSync(busy).sort(), ['group1-shard1of1.bin', 'model.json', 'notes.txt']);
      f.dispose();
    });

    it('lists every unmapped kernel with the line that traced it, and writes nothing', () => {
      const f = tfFunction(
        (x: Tensor) => {
          const stepped = tf.step(x);
          const conv = tf.conv2d(tf.reshape(stepped, [1, 2, 3, 1]) as tf.Tensor4D, tf.ones([1, 1, 1, 1]) as tf.Tensor4D, 1, 0);
          return tf.add(tf.reshape(conv, [2, 3]), tf.diag(tf.ones([1])).reshape([1]));
        },
        { name: 'unmapped' },
      );
      f(input()).dispose();
      const dir = dirFor('unmapped');
      const before = fs.readdirSync(root).sort();
      let error: unknown;
      try {
        f.export(dir);
      } catch (err) {
        error = err;
      }
      assert.ok(error instanceof GraphExportError, String(error));
      assert.deepEqual(
        error.unmapped.map((u) => u.op),
        ['Step', 'Conv2D', 'Diag'],
      );
      for (const u of error.unmapped) assert.equal(u.callSite?.file, THIS_FILE, `${u.node} names this file`);
      assert.match(error.message, /3 nodes cannot be written, and nothing was written/);
      assert.match(error.message, /n0_Step \(Step\) at .*tf-function-export\.test\.ts:\d+:\d+: the export has no TensorFlow op for this kernel/);
      assert.match(error.message, /Conv2D\) at .*: its pad is 0; the export writes 'same' and 'valid' only/);
      assert.equal(fs.existsSync(dir), false, 'no folder');
      assert.deepEqual(fs.readdirSync(root).sort(), before, 'no staging folder left');
      f.dispose();
    });

    it("writes each node as TensorFlow's op registry defines it, and refuses a dtype TensorFlow's op does not take", async () => {
      const f = tfFunction(
        (x: Tensor) => [
          tf.prelu(x, tf.tensor1d([0.2, 0.5, -1])),
          tf.cast(tf.floorDiv(x, tf.scalar(0.7)), 'float32'),
          tf.logicalNot(tf.all(tf.greater(x, 0))),
          tf.onesLike(x),
        ],
        { name: 'as_defined' },
      );
      tf.dispose(f(input()));
      const exported = f.export(dirFor('as-defined'));
      const nodes = readJson(exported.modelPath).modelTopology.node;
      const node = (name: string) => nodes.find((n) => n.name === name)!;
      assert.deepEqual([node('n0_Prelu/negative').op, node('n0_Prelu/scaled').op, node('n0_Prelu').op], ['Less', 'Mul', 'SelectV2'], 'TensorFlow has no Prelu');
      assert.deepEqual(node('n0_Prelu').input, ['n0_Prelu/negative', 'n0_Prelu/scaled', 'input_0']);
      const floorDiv = nodes.find((n) => n.op === 'FloorDiv')!;
      assert.deepEqual(floorDiv.attr, { T: { type: 'DT_FLOAT' } }, "TensorFlow's FloorDiv keeps float32");
      // TF.js's cpu and wasm floorDiv give int32 (tfjs-node gives TensorFlow's float32): a Cast to it then takes the kernel's name.
      const traced = f.graph!.nodes.find((n) => n.type === 'kernel' && n.kernel === 'FloorDiv')!;
      const named = node(traced.name);
      if (traced.outputs[0]!.dtype === 'int32')
        assert.deepEqual([named.op, named.input, named.attr?.SrcT, named.attr?.DstT], ['Cast', [floorDiv.name], { type: 'DT_FLOAT' }, { type: 'DT_INT32' }]);
      else assert.equal(named, floorDiv);
      for (const op of ['All', 'LogicalNot', 'OnesLike']) {
        const attrs = Object.keys(nodes.find((n) => n.op === op)!.attr ?? {});
        assert.ok(!attrs.includes(op === 'OnesLike' ? 'dtype' : 'T'), `${op}: ${attrs.join(', ')}`);
      }
      const model = await loadCallbackModel(exported.modelPath);
      const x = tf.tensor([
        [1.5, -2, 0.25],
        [-0.75, 3, -1],
      ]);
      const got = model.execute(x) as Tensor[];
      f(x).forEach((t, i) => assertSameValues(got[i]!, t, exported.outputs[i]!));
      model.dispose();
      f.dispose();

      const ints = tfFunction((x: Tensor) => tf.exp(tf.cast(x, 'int32')), { name: 'int_exp' });
      ints(input()).dispose();
      assert.throws(
        () => ints.export(dirFor('int-exp')),
        (err: unknown) =>
          err instanceof GraphExportError &&
          /n1_Exp \(Exp\) at .*: TensorFlow's Exp takes no int32 \(its attr T; of the export's dtypes it takes float\)/.test(err.message),
      );
      ints.dispose();
    });

    it('leaves tf.memory().numTensors as it was after export, load, execute and dispose', async () => {
      const W = tf.tensor([[1], [2], [3]]);
      const f = tfFunction((x: Tensor) => tf.sigmoid(tf.matMul(x, W)), { name: 'leak_check' });
      f(input()).dispose();
      const x = input();
      const start = tf.memory().numTensors;
      const exported = f.export(dirFor('leak'));
      const model: CallbackModel = await loadCallbackModel(exported.modelPath);
      tf.dispose(model.execute(x));
      model.dispose();
      assert.equal(tf.memory().numTensors, start);
      f.dispose();
      W.dispose();
      x.dispose();
    });

    it('maps element-wise, comparison and reduction kernels: each output round-trips exactly', async () => {
      const eager = (x: Tensor) => {
        const unit = tf.mul(tf.tanh(x), 0.9);
        const pos = tf.add(tf.abs(x), 1.5);
        const floats = [
          ...[tf.acos, tf.asin, tf.atanh].map((op) => op(unit)),
          ...[tf.acosh, tf.reciprocal].map((op) => op(pos)),
          ...[
            tf.asinh,
            tf.atan,
            tf.ceil,
            tf.cos,
            tf.cosh,
            tf.erf,
            tf.expm1,
            tf.floor,
            tf.selu,
            tf.sign,
            tf.sin,
            tf.softplus,
            tf.tan,
            tf.relu6,
            tf.round,
            tf.sigmoid,
          ].map((op) => op(x)),
          tf.atan2(x, pos),
          tf.minimum(x, 0.5),
          tf.squaredDifference(x, pos),
          tf.sub(tf.div(x, pos), 1),
          tf.prod(pos, 1, true),
          tf.min(x, 0),
          tf.cast(tf.argMin(x, 1), 'float32'),
        ];
        const checks = [
          tf.isNaN(tf.log(x)),
          tf.isInf(tf.div(x, 0)),
          tf.isFinite(tf.div(x, 0)),
          tf.logicalNot(tf.equal(x, 2)),
          tf.logicalAnd(tf.notEqual(x, 0), tf.greaterEqual(x, -1)),
          tf.logicalOr(tf.lessEqual(x, 0), tf.greater(x, 2)),
          tf.all(tf.less(x, 10), 1),
          tf.any(tf.less(x, -1)),
        ];
        return [...floats, ...checks];
      };
      const f = tfFunction(eager, { name: 'elementwise' });
      tf.dispose(f(input()));
      const exported = f.export(dirFor('elementwise'));
      const model = await loadCallbackModel(exported.modelPath);
      const x = tf.tensor([
        [1.5, -2, 0],
        [-0.75, 3, 2],
      ]);
      const got = model.execute(x) as Tensor[];
      const expected = f(x);
      expected.forEach((t, i) => assertSameValues(got[i]!, t, exported.outputs[i]!));
      noteKernels(f);
      model.dispose();
      f.dispose();
    });

    it('maps the kernels it claims to: a wide graph round-trips exactly', async () => {
      const eager = (x: Tensor) => {
        const pos = tf.add(tf.abs(x), 0.5);
        const parts = [
          tf.log1p(pos),
          tf.sqrt(pos),
          tf.rsqrt(pos),
          tf.elu(x),
          tf.leakyRelu(x, 0.1),
          tf.prelu(x, tf.fill([3], 0.2)),
          tf.clipByValue(x, -0.5, 0.5),
          tf.pow(pos, tf.scalar(1.5)),
          tf.maximum(x, tf.zerosLike(x)),
          tf.cast(tf.floorDiv(x, tf.scalar(0.7)), 'float32'),
          tf.mod(x, tf.scalar(0.7)),
          tf.where(tf.less(x, 0), tf.onesLike(x), x),
          tf.cumsum(x, 1, false, true),
          tf.tile(tf.slice(x, [0, 0], [1, 3]), [2, 1]),
          tf.pad(
            x,
            [
              [0, 0],
              [0, 0],
            ],
            3,
          ),
          tf.stridedSlice(tf.concat([x, x], 1), [0, 1], [2, 6], [1, 2]),
          tf.stack(tf.unstack(x, 1).reverse(), 1),
          tf.addN([x, x, pos]),
          tf.cast(tf.reshape(tf.oneHot(tf.tensor([2, 0], [2], 'int32'), 3), [2, 3]), 'float32'),
          tf.reshape(tf.range(0, 6, 1), [2, 3]),
          tf.topk(x, 3).values,
        ];
        const image = tf.reshape(x, [1, 2, 3, 1]) as tf.Tensor4D;
        const conv = tf.conv2d(image, tf.ones([2, 2, 1, 1]) as tf.Tensor4D, 1, 'same');
        const pooled = tf.add(tf.maxPool(conv, 2, 1, 'same'), tf.avgPool(conv, 2, 1, 'same'));
        return tf.addN([...parts, tf.reshape(pooled, [2, 3])]);
      };
      const f = tfFunction(eager, { name: 'wide' });
      f(input()).dispose();
      const kernels = new Set(f.graph!.nodes.map((n) => (n.type === 'kernel' ? n.kernel : n.op)));
      for (const k of kernels) assert.ok(MAPPED_KERNELS.includes(k), `${k} is mapped`);
      const exported = f.export(dirFor('wide'));
      const model = await loadCallbackModel(exported.modelPath);
      const x = tf.tensor([
        [1.5, -2, 0.25],
        [-0.75, 3, -1],
      ]);
      assertSameValues(single(model.execute(x)), f(x), 'every kernel');
      noteKernels(f);
      model.dispose();
      f.dispose();
    });

    it("a traced model.predict of a tfjs-layers model (conv, depthwise, dense) and tf.fused's kernels export unfused and load back with the same values", async () => {
      const model = layersModel();
      const predict = tfFunction((x: Tensor) => model.predict(x) as Tensor, { name: 'predict' });
      predict(layersModelInput()).dispose();
      const kernels = predict.graph!.nodes.map((n) => (n.type === 'kernel' ? n.kernel : n.op));
      assert.ok(kernels.includes('FusedConv2D') && kernels.includes('_FusedMatMul'), kernels.join(', '));
      const image = (x: Tensor) => tf.reshape(x, [1, 2, 3, 1]) as tf.Tensor4D;
      const filter = tf.tensor4d([0.5, -1, 2, 0.25, 1, -0.5, 0.75, 1.25], [2, 2, 1, 2]);
      const fused = tfFunction(
        (x: Tensor) => [
          tf.fused.matMul({ a: x, b: tf.transpose(x), bias: tf.tensor1d([0.5, -1]), activation: 'prelu', preluActivationWeights: tf.tensor1d([0.3, -2]) }),
          tf.fused.conv2d({ x: image(x), filter, strides: 1, pad: 'valid', bias: tf.tensor1d([0.1, -0.2]), activation: 'leakyrelu', leakyreluAlpha: 0.1 }),
          tf.fused.depthwiseConv2d({ x: image(x), filter, strides: 1, pad: 'same', bias: tf.tensor1d([1, -1]), activation: 'relu6' }),
        ],
        { name: 'fused' },
      );
      tf.dispose(fused(input()));
      for (const [name, f, x] of [
        ['predict', predict, layersModelInput(0.5)],
        [
          'fused',
          fused,
          tf.tensor([
            [0.3, -2, 1],
            [4, -0.5, 0],
          ]),
        ],
      ] as const) {
        const exported = f.export(dirFor(name));
        const json = readJson(exported.modelPath);
        checkModelJson(json);
        const ops = json.modelTopology.node.map((n) => n.op);
        assert.ok(!ops.some((op) => op.includes('Fused') || op === 'Prelu'), `written unfused: ${ops.join(', ')}`);
        const loaded = await loadCallbackModel(exported.modelPath);
        const got = loaded.execute(x);
        const want = (f as (x: Tensor) => Tensor | Tensor[])(x);
        // TF.js's cpu backend runs a fused kernel as exactly these parts; wasm and TensorFlow fuse the activation and may round it otherwise.
        const check =
          backend === 'cpu' ? assertSameValues : (a: Tensor, b: Tensor, what: string) => assertCloseValues(valuesOf(a), b, what, { rtol: 1e-6, atol: 0 });
        [want].flat().forEach((t, i) => check([got].flat()[i]!, t, `${name} output ${i}`));
        noteKernels(f);
        loaded.dispose();
        f.dispose();
      }
      model.dispose();
      filter.dispose();
    });

    it("writes the traced code's structure as name scopes: each call of a tfFunction it calls and of a named tf.tidy is one, which the graph view collapses", async () => {
      const cube = (v: Tensor) => tf.mul(v, tf.square(v));
      const block = tfFunction((x: Tensor) => tf.relu(tf.add(x, 1)), { name: 'block' });
      const eager = (x: Tensor) => {
        let y = x;
        for (let i = 0; i < 3; i++) y = block(y);
        const z = tf.tidy('head', () => tf.mul(y, pyFunction(cube, [y], 'float32', { name: 'cube' }) as Tensor));
        return tf.sinh(z);
      };
      const f = tfFunction(eager, { name: 'scoped' });
      f(input()).dispose();
      assert.deepEqual(
        f.graph!.nodes.map((n) => n.name),
        [
          'block/n0_Add',
          'block/n1_Relu',
          'block_1/n2_Add',
          'block_1/n3_Relu',
          'block_2/n4_Add',
          'block_2/n5_Relu',
          'head/n6_cube',
          'head/n7_Multiply',
          'n8_Sinh',
        ],
      );
      const exported = f.export(dirFor('scoped'));
      assert.deepEqual(
        exported.callbacks.map((c) => [c.node, c.name]),
        [['head/cube', 'cube']],
      );
      const json = readJson(exported.modelPath);
      checkModelJson(json);
      const tree = buildScopes(graphFromModelJson(json, 'scoped/model.json'));
      assert.deepEqual(
        tree.root.scopes.map((s) => [s.label, s.total]),
        [
          ['block', 2],
          ['block_1', 2],
          ['block_2', 2],
          ['head', 2],
        ],
      );
      const model = await loadCallbackModel(exported.modelPath, { callbacks: { cube } });
      const x = tf.tensor([
        [0.1, -0.2, 0.3],
        [0.4, 0.5, -0.6],
      ]);
      assertSameValues(single(model.execute(x)), f(x), 'the scoped model');
      noteKernels(f);
      model.dispose();
      block.dispose();
      f.dispose();
    });

    it('has a round trip above for every kernel it maps', () => {
      const untested = MAPPED_KERNELS.filter((k) => !exercised.has(k));
      assert.deepEqual(untested, [], 'kernels mapped but never exported and run back');
    });
  });
}
