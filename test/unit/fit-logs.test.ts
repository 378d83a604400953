/**
 * The training curve's watch (runtime/training/fit-logs.ts), in process, on every backend that
 * loads: each batch's and epoch's logs read as the program's own callback sees them, a NaN loss
 * kept as NaN, val_ metrics at the epoch's end, fitDataset too, the batch under way; the fit's
 * results, the program's callbacks and the tensor count unchanged; nothing left shadowed.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { tf } from '../../runtime/index.js';
import type { FitInfo, FitLogPoint, FitPosition } from '../../runtime/fit-log-types.js';
import { addFitLogObserver, fitPosition } from '../../runtime/training/fit-logs.js';
import { BACKENDS, useBackend } from '../helpers/backends.js';

interface Seen {
  fits: FitInfo[];
  points: FitLogPoint[];
  ended: number[];
}

async function watched<T>(body: () => Promise<T>): Promise<{ result: T; seen: Seen }> {
  const seen: Seen = { fits: [], points: [], ended: [] };
  const stop = addFitLogObserver({
    onFitBegin: (f) => seen.fits.push(f),
    onFitPoint: (p) => seen.points.push(p),
    onFitEnd: (id) => seen.ended.push(id),
  });
  try {
    return { result: await body(), seen };
  } finally {
    stop();
  }
}

/** A dense model fitted 2 epochs × 3 batches (6 samples, batch 2), with validation; what its own callback saw and its final weights. */
async function fitSmall(options: { nanAtBatch?: number } = {}) {
  const model = tf.sequential({ layers: [tf.layers.dense({ units: 1, inputShape: [2], kernelInitializer: 'ones', biasInitializer: 'zeros' })] });
  let batches = 0;
  // A loss that is NaN on one batch (its 0/0), finite otherwise: the weights it leaves are NaN after it, as without the watch.
  const loss = (yTrue: tf.Tensor, yPred: tf.Tensor) =>
    tf.tidy(() => {
      const mse = tf.mean(tf.square(tf.sub(yTrue, yPred)));
      return batches === options.nanAtBatch ? tf.div(tf.mul(mse, 0), tf.scalar(0)) : mse;
    });
  model.compile({ optimizer: tf.train.sgd(0.01), loss, metrics: ['mse'] });
  const xs = tf.tensor2d([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], [6, 2]);
  const ys = tf.tensor2d([1, 2, 3, 4, 5, 6], [6, 1]);
  const vx = tf.tensor2d([1, 1], [1, 2]);
  const vy = tf.tensor2d([1], [1, 1]);
  const userBatches: { batch: number; loss: number }[] = [];
  const userEpochs: { epoch: number; logs: Record<string, number> }[] = [];
  const positions: (FitPosition | undefined)[] = [];
  const history = await model.fit(xs, ys, {
    epochs: 2,
    batchSize: 2,
    shuffle: false,
    verbose: 0,
    validationData: [vx, vy],
    callbacks: {
      onBatchBegin: () => {
        positions.push(fitPosition());
      },
      onBatchEnd: (batch, logs) => {
        batches++;
        userBatches.push({ batch, loss: logs!.loss! });
      },
      onEpochEnd: (epoch, logs) => {
        userEpochs.push({ epoch, logs: { ...logs } as Record<string, number> });
      },
    },
  });
  const weights = model.getWeights().map((w) => Array.from(w.dataSync()));
  tf.dispose([xs, ys, vx, vy]);
  model.dispose();
  return { history: history.history, userBatches, userEpochs, weights, positions };
}

for (const backend of BACKENDS) {
  describe(`training curve (${backend})`, () => {
    useBackend(backend);

    test('each batch point is the loss the program’s own callback saw; epoch points carry val_ metrics; results and tensors unchanged', async () => {
      // A fit leaves what it leaves (its optimizer's scalars): the same with the watch as without it.
      const start = tf.memory().numTensors;
      const plain = await fitSmall();
      const plainLeft = tf.memory().numTensors - start;
      const before = tf.memory().numTensors;
      const { result, seen } = await watched(() => fitSmall());
      assert.equal(tf.memory().numTensors - before, plainLeft, 'no tensor made or left by the watch');
      assert.deepEqual(result.weights, plain.weights, 'the same final weights');
      assert.deepEqual(result.history, plain.history, 'the same History');
      assert.deepEqual(result.userBatches, plain.userBatches, 'the program’s callback saw the same');

      assert.equal(seen.fits.length, 1);
      const fit = seen.fits[0]!;
      assert.deepEqual(
        { epochs: fit.epochs, initialEpoch: fit.initialEpoch, batchesPerEpoch: fit.batchesPerEpoch },
        { epochs: 2, initialEpoch: 0, batchesPerEpoch: 3 },
      );
      assert.deepEqual(fit.metrics, ['loss', 'mse', 'val_loss', 'val_mse']);
      const batchPoints = seen.points.filter((p) => p.batch !== null);
      assert.deepEqual(
        batchPoints.map((p) => [p.epoch, p.batch, p.step, p.logs.loss]),
        result.userBatches.map((b, i) => [Math.floor(i / 3), b.batch, i, b.loss]),
      );
      assert.ok(batchPoints.every((p) => typeof p.logs.mse === 'number'));
      const epochPoints = seen.points.filter((p) => p.batch === null);
      assert.deepEqual(
        epochPoints.map((p) => [p.epoch, p.step, p.logs]),
        result.userEpochs.map((e) => [e.epoch, e.epoch, e.logs]),
      );
      assert.ok('val_loss' in epochPoints[0]!.logs, Object.keys(epochPoints[0]!.logs).join());
      assert.deepEqual(seen.ended, [1]);
      // The batch under way, as the program's onBatchBegin runs (the fit's steps from 0, across epochs).
      assert.deepEqual(
        result.positions.map((p) => (p ? [p.epoch, p.batch, p.step] : undefined)),
        [
          [0, 0, 0],
          [0, 1, 1],
          [0, 2, 2],
          [1, 0, 3],
          [1, 1, 4],
          [1, 2, 5],
        ],
      );
      assert.equal(fitPosition(), undefined, 'no fit under way once the last observer went');
    });

    test('a NaN loss batch is recorded as NaN, where the program saw NaN', async () => {
      const plain = await fitSmall({ nanAtBatch: 1 });
      const { result, seen } = await watched(() => fitSmall({ nanAtBatch: 1 }));
      assert.ok(Number.isNaN(plain.userBatches[1]!.loss));
      assert.deepEqual(
        seen.points.filter((p) => p.batch !== null).map((p) => p.logs.loss),
        result.userBatches.map((b) => (Number.isNaN(b.loss) ? 'NaN' : b.loss)),
      );
      assert.equal(seen.points.find((p) => p.batch === 1 && p.epoch === 0)?.logs.loss, 'NaN');
      assert.deepEqual(result.weights.flat().map(String), plain.weights.flat().map(String));
    });

    test('fitDataset: points per batch and epoch, a second fit numbered 2', async () => {
      const { seen } = await watched(async () => {
        const model = tf.sequential({ layers: [tf.layers.dense({ units: 1, inputShape: [1] })] });
        model.compile({ optimizer: 'sgd', loss: 'meanSquaredError' });
        const data = tf.data.zip({ xs: tf.data.array([[1], [2], [3], [4]]), ys: tf.data.array([[2], [4], [6], [8]]) }).batch(2);
        await model.fitDataset(data, { epochs: 2, verbose: 0 });
        await model.fitDataset(data, { epochs: 1, verbose: 0 });
        model.dispose();
      });
      assert.deepEqual(
        seen.fits.map((f) => [f.id, f.epochs]),
        [
          [1, 2],
          [2, 1],
        ],
      );
      assert.deepEqual(
        seen.points.map((p) => [p.fit, p.epoch, p.batch, p.step]),
        [
          [1, 0, 0, 0],
          [1, 0, 1, 1],
          [1, 0, null, 0],
          [1, 1, 0, 2],
          [1, 1, 1, 3],
          [1, 1, null, 1],
          [2, 0, 0, 0],
          [2, 0, 1, 1],
          [2, 0, null, 0],
        ],
      );
      assert.ok(seen.points.every((p) => typeof p.logs.loss === 'number'));
    });
  });
}

test('without an observer nothing of tfjs-layers stays shadowed', () => {
  const proto = (tf as unknown as { CallbackList: { prototype: object } }).CallbackList.prototype;
  const history = (tf as unknown as { History: { prototype: object } }).History.prototype;
  const names = ['onTrainBegin', 'onBatchEnd', 'onEpochEnd'] as const;
  const before = names.map((n) => (proto as Record<string, unknown>)[n]);
  const sync = (history as Record<string, unknown>).syncData;
  const stop = addFitLogObserver({ onFitPoint: () => {} });
  assert.notEqual((proto as Record<string, unknown>).onBatchEnd, before[1]);
  stop();
  assert.deepEqual(
    names.map((n) => (proto as Record<string, unknown>)[n]),
    before,
  );
  assert.equal((history as Record<string, unknown>).syncData, sync);
  assert.ok(names.every((n) => Object.hasOwn(proto, n)));
});
