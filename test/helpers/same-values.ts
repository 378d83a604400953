/** Exact tensor comparisons for tests where no tolerance is right (a replay, an export round trip). */
import assert from 'node:assert/strict';
import type { tf } from '../../runtime/index.js';

export function values(t: tf.Tensor): number[] {
  return Array.from(t.dataSync() as ArrayLike<number>);
}

/** The very same dtype, shape and values. */
export function assertSameValues(actual: tf.Tensor, expected: tf.Tensor, what: string): void {
  assert.equal(actual.dtype, expected.dtype, `${what}: dtype`);
  assert.deepEqual(actual.shape, expected.shape, `${what}: shape`);
  assert.deepEqual(values(actual), values(expected), `${what}: values`);
}

/** Values as compared with a tensor's: from another runtime (TensorFlow's, as JSON) or TF.js's. */
export interface ValuesOf {
  readonly dtype: string;
  readonly shape: readonly number[];
  readonly values: readonly number[];
}

export const valuesOf = (t: tf.Tensor): ValuesOf => ({ dtype: t.dtype, shape: t.shape, values: values(t) });

/**
 * The same dtype and shape; float32 values within atol + rtol·|expected| (NaN where NaN, infinities
 * equal), other dtypes' exactly: for results two runtimes compute each their own way.
 */
export function assertCloseValues(actual: ValuesOf, expected: tf.Tensor, what: string, { rtol = 1e-5, atol = 1e-6 } = {}): void {
  assert.equal(actual.dtype, expected.dtype, `${what}: dtype`);
  assert.deepEqual(actual.shape, expected.shape, `${what}: shape`);
  const wanted = values(expected);
  if (expected.dtype !== 'float32') {
    assert.deepEqual(actual.values, wanted, `${what}: values`);
    return;
  }
  const off = wanted.flatMap((w, i) => {
    const got = actual.values[i]!;
    const close = Number.isNaN(w) ? Number.isNaN(got) : got === w || Math.abs(got - w) <= atol + rtol * Math.abs(w);
    return close ? [] : [`[${i}] ${got}, expected ${w}`];
  });
  assert.deepEqual(off, [], `${what}: values beyond rtol ${rtol} / atol ${atol}`);
}
