/**
 * `Symbol.for('debug.description')`: the one-line preview debuggers show for a value (VS Code's
 * js-debug calls it too). Tensors and NdArrays give `<kind> <dtype>[<shape>]` without reading data.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { NdArray, numpyFunction, tf } from '../../runtime/index.js';
import { installTensorDescription } from '../../runtime/debug-description.js';
import { BACKENDS, useBackend } from '../helpers/backends.js';

const DESCRIPTION = Symbol.for('debug.description');

/** What a debugger does: call the symbol's method on the value. */
function describeValue(value: object): string {
  const method = (value as Record<symbol, unknown>)[DESCRIPTION];
  assert.equal(typeof method, 'function', `${Object.prototype.toString.call(value)} has no debug.description method`);
  return (method as () => string).call(value);
}

for (const backend of BACKENDS) {
  describe(`debug.description on ${backend}`, () => {
    useBackend(backend);

    it('a tensor shows its dtype and shape; a scalar an empty shape', () => {
      const t = tf.zeros([2, 3]);
      const i = tf.scalar(7, 'int32');
      const b = tf.tensor([true, false], [2], 'bool');
      const s = tf.tensor(['a'], [1, 1], 'string');
      try {
        assert.equal(describeValue(t), 'Tensor float32[2,3]');
        assert.equal(describeValue(i), 'Tensor int32[]');
        assert.equal(describeValue(b), 'Tensor bool[2]');
        assert.equal(describeValue(s), 'Tensor string[1,1]');
      } finally {
        tf.dispose([t, i, b, s]);
      }
    });

    it('a variable says Variable; a disposed tensor or variable says so, and describing it reads nothing', () => {
      const v = tf.variable(tf.ones([4]));
      const t = tf.ones([2, 2]);
      assert.equal(describeValue(v), 'Variable float32[4]');
      v.dispose();
      t.dispose();
      // A disposed tensor's data cannot be read: a description that read it would throw here.
      assert.throws(() => t.dataSync(), /disposed/);
      assert.equal(describeValue(t), 'Tensor float32[2,2] (disposed)');
      assert.equal(describeValue(v), 'Variable float32[4] (disposed)');
    });

    it('the NdArray a numpyFunction callback receives shows its dtype and shape', () => {
      const x = tf.zeros([2, 3]);
      let seen = '';
      let calls = 0;
      const out = numpyFunction(
        (a: NdArray) => {
          calls++;
          seen = describeValue(a);
          return a;
        },
        [x],
        'float32',
      );
      tf.dispose([x, out]);
      assert.equal(calls, 1);
      assert.equal(seen, 'NdArray float32[2,3]');
    });
  });
}

describe('debug.description, backend-independent', () => {
  it('an NdArray made by hand: its own dtype (int64 data is a BigInt64Array), and a broken one does not throw', () => {
    assert.equal(describeValue(new NdArray(new BigInt64Array(2), [2], 'int64')), 'NdArray int64[2]');
    assert.equal(describeValue(new NdArray(new Float64Array(1), [], 'float64')), 'NdArray float64[]');
    const broken = new NdArray(new Float32Array(1), null as unknown as number[], 'float32');
    assert.equal(describeValue(broken), 'NdArray (unreadable)');
  });

  it('on tf.Tensor.prototype, not enumerable; a tensor whose fields throw is described, not thrown', () => {
    const own = Object.getOwnPropertyDescriptor(tf.Tensor.prototype, DESCRIPTION);
    assert.ok(own, 'installed on tf.Tensor.prototype');
    assert.equal(own.enumerable, false);
    const hostile = Object.create(tf.Tensor.prototype, {
      dtype: {
        get: () => {
          throw new Error('no dtype');
        },
      },
    }) as object;
    assert.equal(describeValue(hostile), 'Tensor (unreadable)');
  });

  it('installing again keeps a description something else put there first', () => {
    const proto = tf.Tensor.prototype as unknown as Record<symbol, unknown>;
    const ours = Object.getOwnPropertyDescriptor(proto, DESCRIPTION)!;
    const theirs = () => 'theirs';
    Object.defineProperty(proto, DESCRIPTION, { value: theirs, configurable: true, writable: true, enumerable: false });
    try {
      installTensorDescription();
      assert.equal(proto[DESCRIPTION], theirs);
    } finally {
      Object.defineProperty(proto, DESCRIPTION, ours);
    }
  });
});
