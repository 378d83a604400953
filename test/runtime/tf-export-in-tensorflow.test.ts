/**
 * What tfFunction(...).export() writes, real TensorFlow runs with TF.js's numbers: traced functions
 * that together use every kernel in MAPPED_KERNELS are exported, and one Python process
 * (scripts/tf-run-exports.py) imports each model.json into TensorFlow (tf.graph_util.import_graph_def,
 * Consts from the shard, callback tokens registered with Python equivalents of the JS callbacks),
 * refuses any op or attr TensorFlow's op registry lacks, and runs it. Outputs are compared with the
 * TF.js eager call: float32 at rtol 1e-5 / atol 1e-6, int32 and bool exactly. Needs the TensorFlow
 * venv scripts/setup-test-env.sh makes (or TFJS_TEST_TF_PYTHON); without it, one loud skip line.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { MAPPED_KERNELS, type NdArray, compat, numpyFunction, pyFunction, tf, tfFunction } from '../../runtime/index.js';
import { TF_OP_DEFS } from '../../runtime/trace/tf-op-defs.js';
import { layersModel, layersModelInput } from '../fixtures/layers-model.js';
import { useBackend } from '../helpers/backends.js';
import { assertCloseValues } from '../helpers/same-values.js';
import { TF_PYTHON } from '../helpers/tensorflow-python.js';

type Tensor = tf.Tensor;
type Eager = (...inputs: Tensor[]) => Tensor | Tensor[] | Record<string, Tensor>;

const SCRIPT = fileURLToPath(new URL('../../scripts/tf-run-exports.py', import.meta.url));
const SKIP = TF_PYTHON ? false : 'no TensorFlow Python here (TFJS_TEST_TF_PYTHON, or scripts/setup-test-env.sh)';
if (SKIP) console.error(`!!!!!!!! the TensorFlow round trip of exports will NOT run: ${SKIP} !!!!!!!!`);

interface Case {
  readonly name: string;
  readonly fn: Eager;
  /** Inputs to trace with and to run in both TF.js and TensorFlow. */
  readonly inputs: () => Tensor[];
}

const grid = (rows: number[][]) => () => [tf.tensor(rows)];
const X = grid([
  [1.5, -2, 0.25],
  [-0.75, 3, -1],
]);

// JS callbacks, with the Python equivalents of the same names in scripts/tf-run-exports.py.
const cube = (v: Tensor) => tf.mul(v, tf.square(v));
const shift = (a: NdArray) => (a.data as Float32Array).map((v) => v + 0.25);
const halve = (a: NdArray, k: NdArray) => (a.data as Float32Array).map((v) => v / (k.data as Float32Array)[0]!);
const count_positive = (v: Tensor) => tf.sum(tf.cast(tf.greater(v, 0), 'int32'));

/** Made before the traces (its initializers draw random numbers, which a trace refuses). */
let model: tf.Sequential | undefined;

const CASES: readonly Case[] = [
  // The two graphs TensorFlow refused (issue 29): an op it lacks, a dtype its op does not give.
  { name: 'prelu', fn: (x) => tf.prelu(x, tf.tensor1d([0.2, 0.5, -1])), inputs: X },
  { name: 'floor_div', fn: (x) => tf.cast(tf.floorDiv(x, tf.scalar(0.7)), 'float32'), inputs: X },
  { name: 'floor_div_int', fn: (x) => tf.floorDiv(tf.cast(x, 'int32'), tf.scalar(2, 'int32')), inputs: X },
  {
    name: 'unary',
    fn: (x) => {
      const unit = tf.mul(tf.tanh(x), 0.9);
      const pos = tf.add(tf.abs(x), 0.5);
      return [
        ...[tf.acos, tf.asin, tf.atanh].map((op) => op(unit)),
        ...[tf.acosh, tf.reciprocal, tf.log, tf.log1p, tf.sqrt, tf.rsqrt].map((op) => op(tf.add(pos, 1))),
        ...[tf.asinh, tf.atan, tf.ceil, tf.cos, tf.cosh, tf.erf, tf.exp, tf.expm1, tf.floor, tf.selu, tf.sign, tf.sin, tf.sinh, tf.square].map((op) => op(x)),
        ...[tf.softplus, tf.tan, tf.relu, tf.relu6, tf.round, tf.sigmoid, tf.elu, tf.neg, tf.zerosLike, tf.onesLike, tf.clone].map((op) => op(x)),
        tf.leakyRelu(x, 0.1),
        tf.clipByValue(x, -0.5, 0.5),
      ];
    },
    inputs: X,
  },
  {
    name: 'binary_and_predicates',
    fn: (x) => {
      const pos = tf.add(tf.abs(x), 1.5);
      return [
        tf.atan2(x, pos),
        tf.minimum(x, 0.5),
        tf.maximum(x, tf.zerosLike(x)),
        tf.squaredDifference(x, pos),
        tf.sub(tf.div(x, pos), 1),
        tf.pow(pos, tf.scalar(1.5)),
        tf.mod(x, tf.scalar(0.7)),
        tf.addN([x, x, pos]),
        tf.where(tf.isNaN(tf.sqrt(x)), tf.onesLike(x), x),
        tf.isFinite(tf.div(tf.scalar(1), tf.round(x))),
        tf.logicalOr(tf.isInf(tf.reciprocal(tf.ceil(x))), tf.equal(x, -1)),
        tf.logicalAnd(tf.logicalNot(tf.less(x, 0)), tf.lessEqual(tf.abs(x), 2)),
        tf.notEqual(tf.sign(x), 1),
        tf.greaterEqual(x, 0.25),
        tf.greater(x, -1),
      ];
    },
    inputs: X,
  },
  {
    name: 'reductions',
    fn: (x) => ({
      sum: tf.sum(x, 1, true),
      mean: tf.mean(x),
      min: tf.min(x, 0),
      max: tf.max(x, 1),
      prod: tf.prod(tf.add(tf.abs(x), 1), 1, true),
      all: tf.all(tf.less(x, 10), 1),
      any: tf.any(tf.less(x, -1)),
      argMax: tf.argMax(x, 1),
      argMin: tf.argMin(x, 0),
      softmax: tf.softmax(x),
      cumsum: tf.cumsum(x, 1, false, true),
    }),
    inputs: X,
  },
  {
    name: 'shapes',
    fn: (x, ids) => {
      const table = tf.tensor([10, 20, 30, 40], [4], 'int32');
      return [
        tf.gather(table, ids!),
        tf.reshape(tf.transpose(x), [-1]),
        tf.expandDims(x, 1),
        tf.concat([x, x], 1),
        tf.stack(tf.unstack(x, 1).reverse(), 1),
        tf.slice(x, [0, 1], [2, 2]),
        tf.stridedSlice(tf.concat([x, x], 1), [0, 1], [2, 6], [1, 2]),
        tf.tile(tf.slice(x, [0, 0], [1, 3]), [2, 1]),
        tf.pad(
          x,
          [
            [1, 0],
            [0, 2],
          ],
          3,
        ),
        tf.fill([2, 2], 7),
        tf.range(0, 6, 1),
        tf.oneHot(ids!, 5),
        tf.topk(x, 2).values,
        tf.topk(x, 2).indices,
        tf.cast(ids!, 'float32'),
        tf.matMul(x, tf.transpose(x)),
        tf.matMul(tf.reshape(x, [1, 2, 3]), tf.ones([1, 3, 2]), false, false),
      ];
    },
    inputs: () => [...X(), tf.tensor([3, 0], [2], 'int32')],
  },
  {
    name: 'image',
    fn: (x) => {
      const image = tf.reshape(x, [1, 2, 3, 1]) as tf.Tensor4D;
      const conv = tf.conv2d(image, tf.tensor4d([0.5, -1, 2, 0.25], [2, 2, 1, 1]), 1, 'same');
      return [tf.maxPool(conv, 2, 1, 'same'), tf.avgPool(conv, 2, 1, 'valid')];
    },
    inputs: X,
  },
  {
    name: 'fused',
    fn: (x) => {
      const image = tf.reshape(x, [1, 2, 3, 1]) as tf.Tensor4D;
      const filter = tf.tensor4d([0.5, -1, 2, 0.25, 1, -0.5, 0.75, 1.25], [2, 2, 1, 2]);
      return [
        tf.fused.matMul({ a: x, b: tf.transpose(x), bias: tf.tensor1d([0.5, -1]), activation: 'leakyrelu', leakyreluAlpha: 0.3 }),
        tf.fused.matMul({ a: x, b: x, transposeA: true, activation: 'prelu', preluActivationWeights: tf.tensor1d([0.1, -2, 0.5]) }),
        tf.fused.conv2d({ x: image, filter, strides: 1, pad: 'same', bias: tf.tensor1d([0.1, -0.2]), activation: 'sigmoid' }),
        tf.fused.depthwiseConv2d({ x: image, filter, strides: 1, pad: 'valid', bias: tf.tensor1d([1, -1]), activation: 'relu' }),
        tf.fused.depthwiseConv2d({ x: image, filter: tf.slice(filter, [0, 0, 0, 0], [2, 2, 1, 1]), strides: 1, pad: 'same', activation: 'elu' }),
      ];
    },
    inputs: X,
  },
  {
    name: 'layers_predict',
    fn: (x) => model!.predict(x) as Tensor,
    inputs: () => [layersModelInput()],
  },
  {
    name: 'callbacks',
    fn: (x) => {
      const c = pyFunction(cube, [tf.sinh(x)], 'float32', { name: 'cube' }) as Tensor;
      const s = numpyFunction(shift, [tf.exp(c)], 'float32', { name: 'shift' }) as Tensor;
      const h = compat.v1.pyFunc(halve, [tf.neg(s), 2], 'float32', false, 'halve') as Tensor;
      return [tf.add(h, 1), pyFunction(count_positive, [x], 'int32', { name: 'count_positive' }) as Tensor];
    },
    inputs: X,
  },
];

interface TfTensor {
  readonly dtype: string;
  readonly shape: number[];
  readonly values: (number | boolean | string)[];
}
type TfResult = { readonly outputs: TfTensor[] } | { readonly error: string; readonly problems?: string[] };

describe('tfFunction exports run in TensorFlow', { skip: SKIP }, () => {
  useBackend('cpu');
  let root: string;
  const results = new Map<string, TfResult>();
  const expected = new Map<string, Tensor[]>();
  const traced = new Set<string>();
  const refused = new Map<string, string>();
  let opDefs: Record<string, string | null> = {};

  before(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'tf-export-tensorflow-'));
    model = layersModel();
    const models = [];
    for (const c of CASES) {
      const f = tfFunction(c.fn, { name: c.name });
      const inputs = c.inputs();
      tf.dispose(flat(f(...inputs)));
      for (const n of f.graph!.nodes) traced.add(n.type === 'kernel' ? n.kernel : n.op);
      expected.set(c.name, flat(c.fn(...inputs)));
      let exported: ReturnType<typeof f.export>;
      try {
        exported = f.export(path.join(root, c.name));
      } catch (err) {
        refused.set(c.name, String(err));
        continue;
      }
      const callbacks = exported.callbacks.map((cb) => {
        const node = f.graph!.nodes.find((n) => n.type === 'callback' && n.token === cb.token)!;
        return { token: cb.token, name: cb.name, op: cb.op, Tout: node.outputs.map((o) => o.dtype) };
      });
      models.push({
        name: c.name,
        dir: path.dirname(exported.modelPath),
        inputs: Object.fromEntries(
          inputs.map((t, i) => [`input_${i}`, { dtype: t.dtype, shape: t.shape, values: Array.from(t.dataSync() as ArrayLike<number>) }]),
        ),
        outputs: exported.outputs,
        callbacks,
      });
      f.dispose();
    }
    const manifest = path.join(root, 'manifest.json');
    fs.writeFileSync(manifest, JSON.stringify({ models, opDefs: Object.keys(TF_OP_DEFS) }));
    const run = spawnSync(TF_PYTHON!, [SCRIPT, manifest], { encoding: 'utf8', timeout: 240_000, maxBuffer: 64 << 20 });
    assert.equal(run.status, 0, `${SCRIPT} failed:\n${run.stderr.slice(-3000)}`);
    const answer = JSON.parse(run.stdout) as { models: Record<string, TfResult>; opDefs: Record<string, string | null> };
    for (const [name, result] of Object.entries(answer.models)) results.set(name, result);
    opDefs = answer.opDefs;
  });
  after(() => {
    if (root) fs.rmSync(root, { recursive: true, force: true });
    for (const ts of expected.values()) tf.dispose(ts);
    model?.dispose();
  });

  for (const c of CASES) {
    it(`${c.name}: TensorFlow imports and runs the export with TF.js's numbers`, () => {
      assert.equal(refused.get(c.name), undefined, 'the export refused it');
      const result = results.get(c.name);
      assert.ok(result, 'TensorFlow gave no result');
      if ('error' in result) assert.fail(`TensorFlow: ${result.error}${result.problems ? `\n  ${result.problems.join('\n  ')}` : ''}`);
      const want = expected.get(c.name)!;
      assert.equal(result.outputs.length, want.length, 'outputs');
      // JSON has no NaN or infinities: the script writes them as strings.
      want.forEach((t, i) => assertCloseValues({ ...result.outputs[i]!, values: result.outputs[i]!.values.map(Number) }, t, `${c.name} output ${i}`));
    });
  }

  it("the op definitions the export checks its nodes against (tf-op-defs.ts) are this TensorFlow's", () => {
    assert.deepEqual(opDefs, TF_OP_DEFS);
  });

  it('the functions above trace every mapped kernel', () => {
    assert.deepEqual(
      MAPPED_KERNELS.filter((k) => !traced.has(k)),
      [],
      'mapped kernels no export here runs in TensorFlow',
    );
  });
});

function flat(out: ReturnType<Eager>): Tensor[] {
  return out instanceof tf.Tensor ? [out] : Array.isArray(out) ? out : Object.values(out);
}
