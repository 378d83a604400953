/**
 * The op watch (runtime/op-watch/), in process, on every backend that loads: where each birth of
 * NaN/Inf is found and what it says (the op, forward or backward and of which op, the layer, the
 * fit step, the program's line), that a value carried on is not a birth, that a kernel inside
 * another is the outer op's, that nothing stays hooked without an observer, and that watching
 * changes no result and leaves no tensor.
 */
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { describe, test } from 'node:test';
import { tf } from '../../runtime/index.js';
import type { OpBirth } from '../../runtime/hook-types.js';
import { addOpBirthObserver } from '../../runtime/op-watch/op-watch.js';
import { BACKENDS, useBackend } from '../helpers/backends.js';
import { lineOf } from '../helpers/markers.js';

const here = fileURLToPath(import.meta.url);
const at = (marker: string) => lineOf(here, marker);

/** Runs `body` with an observer that keeps every birth (messages and facts; tensors are not kept). */
async function births(body: () => Promise<unknown> | void): Promise<OpBirth[]> {
  const seen: OpBirth[] = [];
  const stop = addOpBirthObserver({ onBirth: (b) => seen.push({ ...b, inputs: [], outputs: [] }) });
  try {
    await body();
  } finally {
    stop();
  }
  return seen;
}

/** A one-unit ReLU scored with a hand-written log loss: rows whose ReLU gives 0 make log(0) = -Inf. */
function logLossModel(): tf.LayersModel {
  const model = tf.sequential({
    layers: [tf.layers.dense({ units: 1, inputShape: [2], activation: 'relu', kernelInitializer: 'ones', name: 'score' })],
  });
  const logLoss = (yTrue: tf.Tensor, yPred: tf.Tensor) => tf.tidy(() => tf.neg(tf.mean(tf.mul(yTrue, tf.log(yPred))))); // @log
  model.compile({ optimizer: 'sgd', loss: logLoss });
  return model;
}

async function fitLogLoss(): Promise<number[]> {
  const model = logLossModel();
  const xs = tf.tensor2d([
    [1, 1],
    [-1, -1],
    [2, 0],
    [0, -3],
  ]);
  const ys = tf.ones([4, 1]);
  const history = await model.fit(xs, ys, { epochs: 2, batchSize: 4, verbose: 0, shuffle: false }); // @fit
  tf.dispose([xs, ys]);
  model.dispose();
  return history.history.loss.map(Number);
}

class SoftSqrt extends tf.layers.Layer {
  static className = 'SoftSqrtForTest';
  override call(inputs: tf.Tensor | tf.Tensor[]): tf.Tensor {
    const x = Array.isArray(inputs) ? inputs[0]! : inputs;
    return tf.tidy(() => tf.sqrt(tf.relu(x))); // @sqrt
  }
}

const SHADOWED = ['runKernelFunc', 'makeTensor', 'addTapeNode'];
const ownShadows = () => SHADOWED.filter((name) => Object.hasOwn(tf.engine(), name));
const ownNames = (o: object) => Object.getOwnPropertyNames(o).sort();

for (const backend of BACKENDS) {
  describe(`op watch on ${backend}`, () => {
    useBackend(backend);

    test('nothing is hooked without an observer, and removing the last one restores every method it shadowed', async () => {
      const protos = [tf.engine(), tf.layers.Layer.prototype, tf.LayersModel.prototype, tf.Optimizer.prototype, tf.CallbackList.prototype];
      const before = protos.map(ownNames);
      assert.deepEqual(ownShadows(), []);
      const stop = addOpBirthObserver({ onBirth: () => {} });
      assert.deepEqual(ownShadows(), SHADOWED);
      stop();
      assert.deepEqual(ownShadows(), []);
      assert.deepEqual(protos.map(ownNames), before);
    });

    test("a custom loss's log of a ReLU's 0: the first birth is `Log`, forward, at the loss's line, in epoch 1 batch 1, saying its input has zeros", async () => {
      const found = await births(fitLogLoss);
      const first = found[0]!;
      assert.equal(first.cause, 'op');
      assert.equal(first.op, 'Log');
      assert.equal(first.pass, 'forward');
      assert.equal(first.kind, 'Inf');
      assert.equal(first.site?.file, here);
      assert.equal(first.site?.line, at('@log'));
      assert.deepEqual(first.fit, { epoch: 0, batch: 0 });
      assert.deepEqual(first.first?.coords, [1, 0], 'row 1 is the first ReLU 0');
      assert.match(
        first.message,
        new RegExp(`^first Inf: op \`Log\` \\(forward, epoch 1 batch 1\\) at .*op-watch\\.test\\.ts:${at('@log')}:\\d+, input 0 has 2 zeros$`),
      );
      // Then only births: the backward of Log (1/0); nothing downstream of them. (Whether epoch 2 has
      // births of its own depends on the backend: cpu's ReLU gradient makes 0 × -Inf = NaN weights.)
      const described = found.map((b) => `${b.op} ${b.pass}${b.gradientOf ? ` of ${b.gradientOf.op}` : ''} e${b.fit?.epoch}`);
      assert.deepEqual(described.slice(0, 2), ['Log forward e0', 'RealDiv backward of Log e0']);
      assert.ok(
        described.slice(2).every((d) => d === 'Log forward e1' || d === 'RealDiv backward of Log e1'),
        described.join('\n'),
      );
      assert.equal(found[1]!.gradientOf?.site?.line, at('@log'), 'the backward kernel names the forward line');
    });

    test('sqrt of 0 in a custom layer: a finite forward, then Inf in the backward of `Sqrt`, naming its line and layer', async () => {
      const model = tf.sequential({
        layers: [
          tf.layers.dense({ units: 2, inputShape: [2], kernelInitializer: 'zeros', name: 'features' }),
          new SoftSqrt({ name: 'soft_sqrt' }),
          tf.layers.dense({ units: 1, kernelInitializer: 'ones', name: 'out' }),
        ],
      });
      model.compile({ optimizer: 'sgd', loss: 'meanSquaredError' });
      const xs = tf.tensor2d([
        [1, 2],
        [3, 4],
      ]);
      const ys = tf.tensor2d([[1], [0]]);
      const found = await births(async () => void (await model.fit(xs, ys, { epochs: 1, verbose: 0 })));
      tf.dispose([xs, ys]);
      model.dispose();
      const first = found[0]!;
      assert.equal(first.pass, 'backward');
      assert.equal(first.op, 'RealDiv');
      assert.equal(first.gradientOf?.op, 'Sqrt');
      assert.equal(first.gradientOf?.site?.line, at('@sqrt'));
      assert.deepEqual(first.layer, { name: 'soft_sqrt', className: 'SoftSqrtForTest' });
      assert.match(first.message, new RegExp(`backward of \`Sqrt\` at .*op-watch\\.test\\.ts:${at('@sqrt')}:\\d+, layer \`soft_sqrt\``));
      assert.ok(!found.some((b) => b.pass === 'forward'), `no forward birth: ${found.map((b) => b.message).join('\n')}`);
    });

    test('tf.grad of sqrt at 0, outside any model: backward of `Sqrt`, at the line of the tf.grad call', async () => {
      const x = tf.tensor1d([0, 4]);
      const found = await births(() => {
        const dx = tf.grad((v: tf.Tensor) => tf.sqrt(v).sum())(x); // @grad
        dx.dispose();
      });
      x.dispose();
      assert.equal(found.length, 1, found.map((b) => b.message).join('\n'));
      assert.equal(found[0]!.gradientOf?.op, 'Sqrt');
      assert.equal(found[0]!.site?.line, at('@grad'));
      assert.equal(found[0]!.gradientOf?.site?.line, at('@grad'));
    });

    test('a tensor made from data that held NaN is the birth, at the line that made it; the ops it feeds are not', async () => {
      const found = await births(() => {
        const row = '1.5,n/a,2'.split(',').map(Number);
        const t = tf.tensor1d(row); // @data
        tf.dispose([t, t.mul(2), t.sum()]);
      });
      assert.equal(found.length, 1, found.map((b) => b.message).join('\n'));
      assert.equal(found[0]!.cause, 'data');
      assert.equal(found[0]!.op, 'tf.tensor1d');
      assert.equal(found[0]!.site?.line, at('@data'));
      assert.match(found[0]!.message, /^first NaN: `tf\.tensor1d` made a tensor from the program's data that held 1 NaN, 0 Inf of 3 at /);
    });

    test('an input that held NaN before the watch began is said once, as such', async () => {
      const old = tf.tensor1d([Number.NaN, 1]);
      const found = await births(() => {
        const a = old.add(1); // @carried
        tf.dispose([a, a.mul(3)]);
      });
      old.dispose();
      assert.equal(found.length, 1, found.map((b) => b.message).join('\n'));
      assert.equal(found[0]!.cause, 'input');
      assert.equal(found[0]!.site?.line, at('@carried'));
      assert.match(found[0]!.message, /input `a` of op `Add` \(forward\) already held NaN, made where the watch did not see/);
    });

    test('a kernel run inside a customGrad op is that op’s: its inner Log is not the birth', async () => {
      const f = tf.customGrad((x, save) => {
        (save as tf.GradSaveFunc)([x as tf.Tensor]);
        return { value: tf.log(x as tf.Tensor), gradFunc: (dy, [saved]) => (dy as tf.Tensor).div(saved!) };
      });
      const x = tf.tensor1d([0, 1]);
      const found = await births(() => void (f(x) as tf.Tensor).dispose());
      x.dispose();
      assert.equal(found.length, 1, found.map((b) => b.message).join('\n'));
      assert.notEqual(found[0]!.op, 'Log');
      assert.equal(found[0]!.pass, 'forward');
    });

    test('a NaN in a large output is found wherever the backend keeps it (past the native backend’s copy limit: its reduction)', async () => {
      const size = 1 << 17;
      const values = new Float32Array(size).fill(1);
      values[size - 3] = -1;
      const x = tf.tensor1d(values);
      const found = await births(() => void tf.sqrt(x).dispose()); // @large
      x.dispose();
      assert.equal(found.length, 1, found.map((b) => b.message).join('\n'));
      assert.equal(found[0]!.op, 'Sqrt');
      assert.deepEqual(found[0]!.first?.coords, [size - 3]);
      assert.match(found[0]!.message, /input 0 has negatives \(min -1\)$/);
    });

    test('watching changes no result and leaves no tensor behind', async () => {
      const plainTensors = tf.memory().numTensors;
      const plain = await fitLogLoss();
      assert.equal(tf.memory().numTensors, plainTensors);
      const watched: number[] = [];
      await births(async () => void watched.push(...(await fitLogLoss())));
      assert.deepEqual(watched, plain);
      assert.equal(tf.memory().numTensors, plainTensors);
    });
  });
}
