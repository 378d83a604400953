/**
 * A sampled tensor summary costs O(sample) (issue 11): a 50M-element tensor's summary cost 50x the
 * exact one of its 2^20-element sample, because cpu's and wasm's StridedSlice kernels are slow per
 * element. Checked structurally here (reads counted, kernels run); the timing is in
 * bench/runtime.bench.ts.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { selectBackend, tf } from '../../runtime/index.js';
import { stridedSample, summarizeTensor, summarizeValues, SUMMARY_SAMPLE_LIMIT, valuesInPlace } from '../../runtime/summary.js';

/** An ArrayLike that counts the elements read from it. */
function countingValues(length: number): { values: ArrayLike<number>; reads: () => number } {
  let reads = 0;
  const values = new Proxy({ length } as ArrayLike<number>, {
    get(target, key) {
      if (typeof key === 'string' && /^\d+$/.test(key)) {
        reads++;
        return Number(key);
      }
      return Reflect.get(target, key);
    },
  });
  return { values, reads: () => reads };
}

describe('stridedSample', () => {
  test('reads ceil(length / step) elements and no more', () => {
    const { values, reads } = countingValues(50_000_000);
    const step = Math.ceil(50_000_000 / SUMMARY_SAMPLE_LIMIT);
    const sample = stridedSample(values, step);
    assert.equal(sample.length, Math.ceil(50_000_000 / step));
    assert.ok(sample.length <= SUMMARY_SAMPLE_LIMIT);
    assert.equal(reads(), sample.length);
    assert.equal(sample[1], step);
    assert.equal(sample[sample.length - 1], (sample.length - 1) * step);
  });

  test('keeps a typed array typed, and refuses a step that is not a whole number ≥ 1', () => {
    const sample = stridedSample(new Int32Array([0, 1, 2, 3, 4, 5, 6]), 3);
    assert.ok(sample instanceof Int32Array);
    assert.deepEqual([...sample], [0, 3, 6]);
    assert.throws(() => stridedSample([1, 2], 0), RangeError);
    assert.throws(() => stridedSample([1, 2], 1.5), RangeError);
  });
});

for (const backend of ['cpu', 'wasm'] as const) {
  describe(`a sampled summary on ${backend}`, () => {
    test('reads the values in place: no kernel runs and no tensor is made', async () => {
      await selectBackend({ backend, quiet: true });
      const size = 4 * SUMMARY_SAMPLE_LIMIT + 5;
      const big = tf.range(0, size, 1, 'float32');
      const before = tf.memory().numTensors;
      const info = await tf.profile(() => {
        summarizeTensor(big);
      });
      assert.deepEqual(
        info.kernels.map((k) => k.name),
        [],
        'the summary ran no backend op (StridedSlice was the 50x cost)',
      );
      assert.equal(info.newTensors, 0);
      assert.equal(tf.memory().numTensors, before);
      big.dispose();
    });

    test("the in-place view is the backend's memory, not a copy", async () => {
      await selectBackend({ backend, quiet: true });
      const t = tf.tensor([1, 2, 3], [3], 'float32');
      const view = valuesInPlace(t) as Float32Array;
      assert.ok(view instanceof Float32Array, `got ${Object.prototype.toString.call(view)} (tfjs ${tf.version.tfjs} changed its ${backend} backend?)`);
      assert.deepEqual([...view], [1, 2, 3]);
      if (backend === 'cpu') assert.equal(view, t.dataSync(), "the cpu backend's own array");
      else assert.ok(view.buffer.byteLength > view.byteLength * 100 && view.byteOffset > 0, 'a view on the wasm heap');
      t.dispose();
    });

    test("the statistics are those of the same elements the backend's strided slice picks", async () => {
      await selectBackend({ backend, quiet: true });
      const size = 3 * SUMMARY_SAMPLE_LIMIT + 7;
      const big = tf.tidy(() => tf.sin(tf.range(0, size, 1, 'float32')));
      const step = Math.ceil(size / SUMMARY_SAMPLE_LIMIT);
      const expected = tf.tidy(() => tf.stridedSlice(big, [0], [size], [step]).dataSync());
      const s = summarizeTensor(big);
      const reference = summarizeValues({ dtype: 'float32', shape: [expected.length], flat: expected }, false);
      assert.equal(s.exact, false);
      assert.equal(s.size, size);
      assert.equal(s.counted, expected.length);
      assert.equal(s.min, reference.min);
      assert.equal(s.max, reference.max);
      assert.equal(s.mean, reference.mean);
      assert.deepEqual(s.preview, reference.preview);
      big.dispose();
    });
  });
}
