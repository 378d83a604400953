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
