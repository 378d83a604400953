/**
 * pyFunction (tf.py_function), numpyFunction (tf.numpy_function) and compat.v1.pyFunc
 * (tf.compat.v1.py_func), on the real wasm and cpu backends.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import {
  CallbackError,
  InvalidArgumentError,
  NdArray,
  NotDifferentiableError,
  compat,
  graphFunction,
  numpyFunction,
  pyFunction,
  tf,
} from '../../runtime/index.js';
import { BACKENDS, assertClose, lineAbove, useBackend } from '../helpers/backends.js';

type Tensor = tf.Tensor;

const THIS_FILE = fileURLToPath(import.meta.url);

/** TensorFlow's tf.py_function example, with Python control flow on a tensor's value. */
function log_huber(x: Tensor, m: Tensor): Tensor {
  if (tf.abs(x).lessEqual(m).dataSync()[0]) {
    return x.square();
  }
  return m.square().mul(
    tf
      .scalar(1)
      .sub(tf.scalar(2).mul(tf.log(m)))
      .add(tf.log(x.square())),
  );
}

function scalarOf(t: Tensor): number {
  return t.dataSync()[0] as number;
}

function valuesOf(t: Tensor): number[] {
  return Array.from(t.dataSync() as ArrayLike<number>);
}

type Patchable = Record<string, unknown>;

/**
 * Runs `body` while counting downloads from the backend: the engine's readSync/read and the active
 * backend's readSync/read, each wrapped around the real method and restored afterwards.
 */
function countReads<T>(body: () => T): { result: T; reads: number } {
  let reads = 0;
  const targets = [tf.engine() as unknown as Patchable, tf.backend() as unknown as Patchable];
  const restores: (() => void)[] = [];
  for (const target of targets) {
    for (const method of ['readSync', 'read']) {
      const own = Object.getOwnPropertyDescriptor(target, method);
      const original = target[method] as (...args: unknown[]) => unknown;
      target[method] = function (this: unknown, ...args: unknown[]) {
        reads++;
        return original.apply(this, args);
      };
      restores.push(() => {
        if (own) Object.defineProperty(target, method, own);
        else delete target[method];
      });
    }
  }
  try {
    return { result: body(), reads };
  } finally {
    for (const restore of restores.reverse()) restore();
  }
}

/** The token/name a callback is known by, read from the InvalidArgumentError of a Tout mismatch. */
function calledName(run: () => unknown): string {
  try {
    run();
  } catch (err) {
    assert.ok(err instanceof InvalidArgumentError, `expected InvalidArgumentError, got ${String(err)}`);
    return err.callback;
  }
  assert.fail('expected the call to fail the Tout check');
}

function tokenNumber(token: string): number {
  const match = /^pyfunc_(\d+)$/.exec(token);
  assert.ok(match, `expected a pyfunc_N token, got ${token}`);
  return Number(match[1]);
}

for (const backend of BACKENDS) {
  describe(`wrappers on ${backend}`, () => {
    useBackend(backend);

    describe('TensorFlow seed examples', () => {
      it('log_huber via pyFunction, x=1 m=2: y = 1 and dy/dx = 2 (first branch)', () => {
        const x = tf.scalar(1);
        const m = tf.scalar(2);
        const y = pyFunction(log_huber, [x, m], 'float32');
        const dy_dx = tf.grad((xs: Tensor) => pyFunction(log_huber, [xs, m], 'float32'))(x);
        assert.equal(y.dtype, 'float32');
        assert.deepEqual(y.shape, []);
        assert.equal(scalarOf(y), 1);
        assert.equal(scalarOf(dy_dx), 2);
        tf.dispose([x, m, y, dy_dx]);
      });

      it('log_huber via pyFunction, x=3 m=2: the second branch, value and gradient by hand', () => {
        const x = tf.scalar(3);
        const m = tf.scalar(2);
        const y = pyFunction(log_huber, [x, m], 'float32');
        const dy_dx = tf.grad((xs: Tensor) => pyFunction(log_huber, [xs, m], 'float32'))(x);
        // y = m²(1 - 2 ln m + ln x²); dy/dx = m² · 2x / x² = 2m²/x
        const expectedY = 4 * (1 - 2 * Math.log(2) + Math.log(9));
        assertClose(scalarOf(y), expectedY, 1e-5, 'y');
        assertClose(scalarOf(dy_dx), 8 / 3, 1e-5, 'dy/dx');
        assert.ok(Math.abs(scalarOf(y) - 9) > 1, 'the second branch, not x²');
        tf.dispose([x, m, y, dy_dx]);
      });

      it('numpyFunction sinh inside a graph function: y = sinh(1), y*y = 1.3810978', () => {
        // np.sinh keeps the input's shape: a typed array has none, so return an NdArray of x's shape.
        const my_numpy_func = (x: NdArray) => new NdArray((x.data as Float32Array).map(Math.sinh), x.shape, 'float32');
        let y1 = NaN;
        const tf_function = graphFunction((input: Tensor) => {
          const y = numpyFunction(my_numpy_func, [input], 'float32');
          y1 = scalarOf(y);
          const out = y.mul(y);
          y.dispose();
          return out;
        });
        const input = tf.scalar(1);
        const result = tf_function(input);
        assertClose(y1, Math.sinh(1), 1e-6, 'sinh(1)');
        assert.equal(result.dtype, 'float32');
        assert.deepEqual(result.shape, []);
        assertClose(scalarOf(result), 1.3810978, 1e-6, 'y*y');
        tf.dispose([input, result]);
      });
    });

    describe('pyFunction', () => {
      it('returns a single Tensor when Tout is one dtype', () => {
        const x = tf.tensor([1, 2, 3]);
        const y = pyFunction((a: Tensor) => a.mul(2), [x], 'float32');
        assert.ok(y instanceof tf.Tensor);
        assert.ok(!Array.isArray(y));
        assert.equal(y.dtype, 'float32');
        assert.deepEqual(y.shape, [3]);
        assert.deepEqual(valuesOf(y), [2, 4, 6]);
        tf.dispose([x, y]);
      });

      it('returns a list when Tout is a list (also a list of one)', () => {
        const x = tf.tensor([1, 2]);
        const [a, b] = pyFunction((t: Tensor) => [t.add(1), t.toInt()], [x], ['float32', 'int32']);
        assert.ok(a instanceof tf.Tensor && b instanceof tf.Tensor);
        assert.equal(a.dtype, 'float32');
        assert.equal(b.dtype, 'int32');
        assert.deepEqual(valuesOf(a), [2, 3]);
        assert.deepEqual(valuesOf(b), [1, 2]);
        const one = pyFunction((t: Tensor) => t.neg(), [x], ['float32']);
        assert.ok(Array.isArray(one));
        assert.equal(one.length, 1);
        assert.deepEqual(valuesOf(one[0]!), [-1, -2]);
        tf.dispose([x, a, b, ...one]);
      });

      it('a func returning undefined or null with Tout [] gives []', () => {
        const x = tf.scalar(1);
        let calls = 0;
        const none = pyFunction(
          (t: Tensor) => {
            void t;
            calls++;
            return undefined;
          },
          [x],
          [],
        );
        const nil = pyFunction(
          (t: Tensor) => {
            void t;
            calls++;
            return null;
          },
          [x],
          [],
        );
        assert.deepEqual(none, []);
        assert.deepEqual(nil, []);
        assert.equal(calls, 2);
        x.dispose();
      });

      it('outputs stay on the backend: a func doing only tf ops makes zero reads', () => {
        const x = tf.scalar(2);
        const v = tf.tensor([1, 2, 3]);
        const { result: y, reads } = countReads(() => pyFunction((a: Tensor, b: Tensor) => a.mul(b).add(1), [x, v], 'float32'));
        assert.equal(reads, 0, 'pyFunction must not download anything');
        // The counter does count: reading the output is one download at least.
        const { reads: readsOfData } = countReads(() => y.dataSync());
        assert.ok(readsOfData > 0, 'dataSync is counted as a read');
        assert.deepEqual(valuesOf(y), [3, 5, 7]);
        tf.dispose([x, v, y]);
      });

      it('an input returned unchanged comes back as a different tensor that the caller owns', () => {
        const x = tf.tensor([4, 5]);
        const y = pyFunction((a: Tensor) => a, [x], 'float32');
        assert.notEqual(y, x);
        assert.deepEqual(valuesOf(y), [4, 5]);
        y.dispose();
        assert.equal(x.isDisposed, false, 'disposing the output leaves the input alone');
        assert.deepEqual(valuesOf(x), [4, 5]);
        const z = pyFunction((a: Tensor) => a, [x], 'float32');
        x.dispose();
        assert.equal(z.isDisposed, false, 'disposing the input leaves the output alone');
        assert.deepEqual(valuesOf(z), [4, 5]);
        z.dispose();
      });

      it('a tensor func closes over comes back as a clone; gradients flow through a returned input', () => {
        const outside = tf.tensor([9, 8]);
        const x = tf.scalar(1);
        const y = pyFunction(
          (t: Tensor) => {
            void t;
            return outside;
          },
          [x],
          'float32',
        );
        assert.notEqual(y, outside);
        y.dispose();
        assert.equal(outside.isDisposed, false);
        assert.deepEqual(valuesOf(outside), [9, 8]);
        const g = tf.grad((t: Tensor) => pyFunction((u: Tensor) => u, [t], 'float32'))(tf.scalar(5));
        assert.equal(scalarOf(g), 1);
        tf.dispose([outside, x, g]);
      });

      it('each output is a tensor of its own, even when func returns one tensor twice', () => {
        const x = tf.tensor([1, 2]);
        const [a, b] = pyFunction(
          (t: Tensor) => {
            const r = t.add(1);
            return [r, r];
          },
          [x],
          ['float32', 'float32'],
        );
        assert.notEqual(a, b, 'the two outputs should be distinct tensors');
        a!.dispose();
        assert.equal(b!.isDisposed, false, 'disposing output 0 must not dispose output 1');
        assert.deepEqual(valuesOf(b!), [2, 3]);
        tf.dispose([x, b!]);
      });

      it('converts non-tensor inputs to tensors for func (numbers become float32)', () => {
        let seen: Tensor[] = [];
        const y = pyFunction(
          (a: Tensor, b: Tensor) => {
            seen = [a, b];
            return a.add(b);
          },
          [2, [1, 2, 3]],
          'float32',
        );
        assert.ok(seen.every((t) => t instanceof tf.Tensor));
        assert.deepEqual(
          seen.map((t) => t.dtype),
          ['float32', 'float32'],
        );
        assert.deepEqual(
          seen.map((t) => t.shape),
          [[], [3]],
        );
        assert.deepEqual(valuesOf(y), [3, 4, 5]);
        y.dispose();
      });

      it('an exception in func propagates as CallbackError with the original stack (file and line)', () => {
        const x = tf.scalar(1);
        let original: Error | undefined;
        let line = 0;
        const failing = (t: Tensor) => {
          void t;
          original = new Error('boom in callback');
          line = lineAbove();
          throw original;
        };
        assert.throws(
          () => pyFunction(failing, [x], 'float32', { name: 'exploding_callback' }),
          (err: unknown) => {
            assert.ok(err instanceof CallbackError, `expected CallbackError, got ${String(err)}`);
            assert.equal(err.callback, 'exploding_callback');
            assert.equal(err.kind, 'py_function');
            assert.equal(err.cause, original);
            assert.match(err.message, /exploding_callback/);
            assert.match(err.message, /boom in callback/);
            assert.ok(original?.stack, 'the original error has a stack');
            assert.ok(err.stack?.includes(original.stack), 'the CallbackError stack contains the original stack');
            assert.ok(err.stack?.includes(`${THIS_FILE}:${line}:`), `the stack points at ${THIS_FILE}:${line}`);
            return true;
          },
        );
        x.dispose();
      });

      it('a func returning a Promise fails with an error about synchronous callbacks and executeAsync', () => {
        const x = tf.scalar(1);
        let calls = 0;
        assert.throws(
          () =>
            pyFunction(
              (async (t: Tensor) => {
                calls++;
                return t;
              }) as unknown as (t: Tensor) => Tensor,
              [x],
              'float32',
              { name: 'async_callback' },
            ),
          (err: unknown) => {
            assert.ok(err instanceof Error);
            assert.match(err.message, /async_callback/);
            assert.match(err.message, /synchronous/);
            assert.match(err.message, /executeAsync/);
            return true;
          },
        );
        assert.equal(calls, 1);
        x.dispose();
      });

      it('arity: a func taking 2 parameters with 1 input is a TypeError before it runs', () => {
        const x = tf.scalar(1);
        let called = false;
        assert.throws(
          () =>
            pyFunction(
              (a: Tensor, b: Tensor) => {
                called = true;
                return a.add(b);
              },
              [x],
              'float32',
              { name: 'two_args' },
            ),
          (err: unknown) => err instanceof TypeError && /two_args/.test(err.message) && /takes 2 arguments but inp has 1 tensor/.test(err.message),
        );
        assert.equal(called, false);
        // Rest parameters take any number.
        const y = pyFunction((...ts: Tensor[]) => tf.addN(ts), [x, x, x], 'float32');
        assert.equal(scalarOf(y), 3);
        tf.dispose([x, y]);
      });

      it('default names: two different functions get consecutive pyfunc_N tokens', () => {
        const x = tf.scalar(1);
        const firstDefaultNamed = (t: Tensor) => {
          void t;
          return null;
        };
        const secondDefaultNamed = (t: Tensor) => {
          void t.shape;
          return undefined;
        };
        const first = calledName(() => pyFunction(firstDefaultNamed, [x], 'float32'));
        const second = calledName(() => pyFunction(secondDefaultNamed, [x], 'float32'));
        assert.equal(tokenNumber(second), tokenNumber(first) + 1);
        x.dispose();
      });

      it('default names: two distinct functions with the same source text get distinct tokens', () => {
        const x = tf.scalar(1);
        // Two different function objects (a factory's closures over different values); their
        // source text is the same.
        const makeEmpty = (label: string) => (t: Tensor) => {
          void [t, label];
          return null;
        };
        const a = calledName(() => pyFunction(makeEmpty('a'), [x], 'float32'));
        const b = calledName(() => pyFunction(makeEmpty('b'), [x], 'float32'));
        assert.notEqual(b, a, 'different functions should be different callbacks');
        x.dispose();
      });

      it('default names: the same function wrapped twice keeps its token; a given name is used in messages', () => {
        const x = tf.scalar(1);
        const returnsNothing = (t: Tensor) => {
          void t;
          return undefined; // keeps its token
        };
        const once = calledName(() => pyFunction(returnsNothing, [x], 'float32'));
        const twice = calledName(() => pyFunction(returnsNothing, [x], 'float32'));
        tokenNumber(once);
        assert.equal(twice, once);
        assert.throws(
          () => pyFunction(returnsNothing, [x], 'float32', { name: 'my_named_callback' }),
          (err: unknown) =>
            err instanceof InvalidArgumentError &&
            err.callback === 'my_named_callback' &&
            err.message.split('\n')[0] === 'my_named_callback returns 0 values, but expects to see 1 values.',
        );
        x.dispose();
      });
    });

    describe('numpyFunction', () => {
      it('func gets NdArray views: data, shape, dtype', () => {
        const x = tf.tensor2d([
          [1, 2, 3],
          [4, 5, 6],
        ]);
        const k = tf.tensor1d([7, 8], 'int32');
        let views: NdArray[] = [];
        const y = numpyFunction(
          (a: NdArray, b: NdArray) => {
            views = [a, b];
            return a;
          },
          [x, k],
          'float32',
        );
        const [a, b] = views;
        assert.ok(a instanceof NdArray && b instanceof NdArray);
        assert.deepEqual(a.shape, [2, 3]);
        assert.equal(a.dtype, 'float32');
        assert.ok(a.data instanceof Float32Array);
        assert.deepEqual(Array.from(a.data as Float32Array), [1, 2, 3, 4, 5, 6]);
        assert.equal(a.get(1, 2), 6);
        assert.equal(a.size, 6);
        assert.equal(a.rank, 2);
        assert.deepEqual(b.shape, [2]);
        assert.equal(b.dtype, 'int32');
        assert.ok(b.data instanceof Int32Array);
        assert.deepEqual(Array.from(b.data as Int32Array), [7, 8]);
        assert.deepEqual(y.shape, [2, 3]);
        tf.dispose([x, k, y]);
      });

      it(
        backend === 'cpu'
          ? 'cpu: the view data IS the tensor backing array (zero copy)'
          : `${backend}: the view data is a copy of the tensor (tensorflow: even of one no op has used yet)`,
        () => {
          const x = tf.tensor([1.5, 2.5, 3.5]);
          let data: unknown;
          const y = numpyFunction(
            (a: NdArray) => {
              data = a.data;
              return a.data.length;
            },
            [x],
            'int32',
          );
          assert.deepEqual(Array.from(data as Float32Array), [1.5, 2.5, 3.5]);
          if (backend === 'cpu') {
            // Observed: the cpu backend hands out its own Float32Array; dataSync returns it every time.
            assert.equal(data, x.dataSync());
          } else {
            // Observed: wasm copies out of its heap on every read; tfjs-node hands back the array the
            // tensor was made from until an op uses it, so the runtime copies. Writing to the view
            // does not change the tensor.
            assert.notEqual(data, x.dataSync());
            (data as Float32Array)[0] = 100;
            assert.deepEqual(valuesOf(x), [1.5, 2.5, 3.5]);
          }
          tf.dispose([x, y]);
        },
      );

      it('a number returns a scalar of the Tout dtype', () => {
        const x = tf.tensor([1, 2, 3]);
        const sum = numpyFunction((a: NdArray) => (a.data as Float32Array).reduce((s, v) => s + v, 0), [x], 'float32');
        assert.equal(sum.dtype, 'float32');
        assert.deepEqual(sum.shape, []);
        assert.equal(scalarOf(sum), 6);
        const count = numpyFunction((a: NdArray) => a.size, [x], 'int32');
        assert.equal(count.dtype, 'int32');
        assert.equal(scalarOf(count), 3);
        tf.dispose([x, sum, count]);
      });

      it('nested arrays take the dtype Tout declares', () => {
        const x = tf.scalar(0);
        const asInt = numpyFunction(
          (a: NdArray) => {
            void a;
            return [
              [1, 2],
              [3, 4],
            ];
          },
          [x],
          'int32',
        );
        assert.equal(asInt.dtype, 'int32');
        assert.deepEqual(asInt.shape, [2, 2]);
        assert.deepEqual(asInt.arraySync(), [
          [1, 2],
          [3, 4],
        ]);
        const asFloat = numpyFunction(
          (a: NdArray) => {
            void a;
            return [
              [1.5, 2],
              [3, 4],
            ];
          },
          [x],
          'float32',
        );
        assert.equal(asFloat.dtype, 'float32');
        assert.deepEqual(asFloat.arraySync(), [
          [1.5, 2],
          [3, 4],
        ]);
        tf.dispose([x, asInt, asFloat]);
      });

      it('typed arrays and NdArrays keep their data; a list gives several outputs', () => {
        const x = tf.tensor2d([
          [1, 2],
          [3, 4],
        ]);
        const [f, i, n] = numpyFunction(
          (a: NdArray) => [
            Float32Array.from(a.data as Float32Array, (v) => v / 2),
            Int32Array.from(a.data as Float32Array, (v) => v * 10),
            new NdArray(
              Float32Array.from(a.data as Float32Array, (v) => -v),
              a.shape,
              'float32',
            ),
          ],
          [x],
          ['float32', 'int32', 'float32'],
        );
        assert.equal(f!.dtype, 'float32');
        assert.deepEqual(f!.shape, [4]);
        assert.deepEqual(valuesOf(f!), [0.5, 1, 1.5, 2]);
        assert.equal(i!.dtype, 'int32');
        assert.deepEqual(valuesOf(i!), [10, 20, 30, 40]);
        assert.equal(n!.dtype, 'float32');
        assert.deepEqual(n!.shape, [2, 2]);
        assert.deepEqual(n!.arraySync(), [
          [-1, -2],
          [-3, -4],
        ]);
        tf.dispose([x, f!, i!, n!]);
      });

      it('string inputs and outputs', () => {
        const words = tf.tensor1d(['ab', 'cd', 'ef'], 'string');
        let view: NdArray | undefined;
        const upper = numpyFunction(
          (w: NdArray) => {
            view = w;
            return (w.data as string[]).map((s) => s.toUpperCase());
          },
          [words],
          'string',
        );
        assert.equal(view?.dtype, 'string');
        assert.deepEqual(view?.shape, [3]);
        assert.deepEqual(Array.from(view!.data as string[]), ['ab', 'cd', 'ef']);
        assert.equal(upper.dtype, 'string');
        assert.deepEqual(upper.arraySync(), ['AB', 'CD', 'EF']);
        const joined = numpyFunction((w: NdArray) => (w.data as string[]).join('+'), [words], 'string');
        assert.deepEqual(joined.shape, []);
        assert.equal(joined.arraySync(), 'ab+cd+ef');
        tf.dispose([words, upper, joined]);
      });

      it('bool inputs and outputs', () => {
        const flags = tf.tensor1d([true, false, true], 'bool');
        let view: NdArray | undefined;
        const negated = numpyFunction(
          (b: NdArray) => {
            view = b;
            return Array.from(b.data as Uint8Array, (v) => v === 0);
          },
          [flags],
          'bool',
        );
        assert.equal(view?.dtype, 'bool');
        assert.deepEqual(Array.from(view!.data as Uint8Array), [1, 0, 1]);
        assert.equal(negated.dtype, 'bool');
        assert.deepEqual(valuesOf(negated), [0, 1, 0]);
        const same = numpyFunction((b: NdArray) => new NdArray(b.data, b.shape, 'bool'), [flags], 'bool');
        assert.equal(same.dtype, 'bool');
        assert.deepEqual(valuesOf(same), [1, 0, 1]);
        tf.dispose([flags, negated, same]);
      });

      it('a gradient through numpyFunction fails with NotDifferentiableError naming the callback', () => {
        const x = tf.scalar(1);
        assert.throws(
          () => tf.grad((t: Tensor) => numpyFunction((a: NdArray) => (a.data as Float32Array).map(Math.sinh), [t], 'float32', { name: 'np_sinh' }))(x),
          (err: unknown) => {
            assert.ok(err instanceof NotDifferentiableError, `expected NotDifferentiableError, got ${String(err)}`);
            assert.match(err.message, /np_sinh/);
            assert.match(err.message, /pyFunction/);
            return true;
          },
        );
        // The forward pass alone works.
        const y = numpyFunction((a: NdArray) => (a.data as Float32Array).map(Math.sinh), [x], 'float32', { name: 'np_sinh' });
        assertClose(scalarOf(y), Math.sinh(1));
        tf.dispose([x, y]);
      });

      it('an exception in func propagates as CallbackError of kind numpy_function', () => {
        const x = tf.scalar(1);
        const cause = new RangeError('bad value');
        assert.throws(
          () =>
            numpyFunction(
              (a: NdArray) => {
                void a;
                throw cause;
              },
              [x],
              'float32',
              { name: 'np_raises' },
            ),
          (err: unknown) =>
            err instanceof CallbackError &&
            err.kind === 'numpy_function' &&
            err.callback === 'np_raises' &&
            err.cause === cause &&
            /np_raises/.test(err.message),
        );
        x.dispose();
      });

      it('a func returning a Promise fails with an error about synchronous callbacks and executeAsync', () => {
        const x = tf.scalar(1);
        assert.throws(
          () => numpyFunction((async (a: NdArray) => a) as unknown as (a: NdArray) => NdArray, [x], 'float32', { name: 'np_async' }),
          (err: unknown) => err instanceof Error && /np_async/.test(err.message) && /synchronous/.test(err.message) && /executeAsync/.test(err.message),
        );
        x.dispose();
      });

      describe('stateful: false memoizes within one graphFunction execution', () => {
        it('identical inputs: the callback runs once; the reused result is a tensor of its own', () => {
          let calls = 0;
          const double = (a: NdArray) => {
            calls++;
            return (a.data as Float32Array).map((v) => v * 2);
          };
          const graph = graphFunction(() => {
            const x1 = tf.tensor([1, 2, 3]);
            const x2 = tf.tensor([1, 2, 3]); // another tensor, identical values
            const a = numpyFunction(double, [x1], 'float32', { stateful: false });
            const b = numpyFunction(double, [x2], 'float32', { stateful: false });
            const c = numpyFunction(double, [x1], 'float32', { stateful: false });
            assert.notEqual(a, b);
            a.dispose();
            assert.equal(b.isDisposed, false);
            const out = [valuesOf(b), valuesOf(c)];
            tf.dispose([x1, x2, b, c]);
            return out;
          });
          const [b, c] = graph();
          assert.equal(calls, 1);
          assert.deepEqual(b, [2, 4, 6]);
          assert.deepEqual(c, [2, 4, 6]);
        });

        it('different inputs: the callback runs for each', () => {
          let calls = 0;
          const triple = (a: NdArray) => {
            calls++;
            return (a.data as Float32Array).map((v) => v * 3);
          };
          const graph = graphFunction(() => {
            const x1 = tf.tensor([1, 2]);
            const x2 = tf.tensor([1, 5]);
            const a = numpyFunction(triple, [x1], 'float32', { stateful: false });
            const b = numpyFunction(triple, [x2], 'float32', { stateful: false });
            const out = [valuesOf(a), valuesOf(b)];
            tf.dispose([x1, x2, a, b]);
            return out;
          });
          assert.deepEqual(graph(), [
            [3, 6],
            [3, 15],
          ]);
          assert.equal(calls, 2);
        });

        it('not memoized across two separate graphFunction calls, nor outside one', () => {
          let calls = 0;
          const plusOne = (a: NdArray) => {
            calls++;
            return (a.data as Float32Array).map((v) => v + 1);
          };
          const x = tf.tensor([1]);
          const graph = graphFunction(() => {
            const y = numpyFunction(plusOne, [x], 'float32', { stateful: false });
            const v = valuesOf(y);
            y.dispose();
            return v;
          });
          assert.deepEqual(graph(), [2]);
          assert.deepEqual(graph(), [2]);
          assert.equal(calls, 2);
          const e1 = numpyFunction(plusOne, [x], 'float32', { stateful: false });
          const e2 = numpyFunction(plusOne, [x], 'float32', { stateful: false });
          assert.equal(calls, 4, 'eager calls have no execution to memoize in');
          tf.dispose([x, e1, e2]);
        });

        it('stateful: true (the default) never memoizes', () => {
          let calls = 0;
          const counted = (a: NdArray) => {
            calls++;
            return a;
          };
          const graph = graphFunction(() => {
            const x = tf.tensor([1, 2]);
            const outs = [
              numpyFunction(counted, [x], 'float32'),
              numpyFunction(counted, [x], 'float32', { stateful: true }),
              numpyFunction(counted, [x], 'float32'),
            ];
            tf.dispose([x, ...outs]);
          });
          graph();
          assert.equal(calls, 3);
        });

        it('two different closures with the same source are different callbacks: not merged', () => {
          const scale = (k: number) => (a: NdArray) => (a.data as Float32Array).map((v) => v * k);
          const graph = graphFunction(() => {
            const x = tf.tensor([1, 2]);
            const doubled = numpyFunction(scale(2), [x], 'float32', { stateful: false });
            const tripled = numpyFunction(scale(3), [x], 'float32', { stateful: false });
            const out = [valuesOf(doubled), valuesOf(tripled)];
            tf.dispose([x, doubled, tripled]);
            return out;
          });
          assert.deepEqual(graph(), [
            [2, 4],
            [3, 6],
          ]);
        });

        it('the same callback with a different Tout is not served the other result', () => {
          const firstElement = (a: NdArray) => (a.data as Float32Array)[0]!;
          const graph = graphFunction(() => {
            const x = tf.tensor([7, 8]);
            const asFloat = numpyFunction(firstElement, [x], 'float32', { stateful: false });
            const asInt = numpyFunction(firstElement, [x], 'int32', { stateful: false });
            const out = [asFloat.dtype, asInt.dtype];
            tf.dispose([x, asFloat, asInt]);
            return out;
          });
          assert.deepEqual(graph(), ['float32', 'int32']);
        });
      });
    });

    describe('compat.v1.pyFunc', () => {
      it('same contract: NdArray inputs, Tout dtype or list, returns a Tensor or a list', () => {
        const x = tf.tensor([1, 4, 9]);
        let seen: unknown;
        const y = compat.v1.pyFunc(
          (a: NdArray) => {
            seen = a;
            return (a.data as Float32Array).map(Math.sqrt);
          },
          [x],
          'float32',
        );
        assert.ok(seen instanceof NdArray);
        assert.ok(y instanceof tf.Tensor);
        assert.deepEqual(valuesOf(y), [1, 2, 3]);
        const [s, n] = compat.v1.pyFunc(
          (a: NdArray) => [Float32Array.of((a.data as Float32Array).reduce((p, v) => p + v, 0)), new NdArray(Int32Array.of(a.size), [], 'int32')],
          [x],
          ['float32', 'int32'],
        );
        assert.deepEqual(s!.shape, [1]);
        assert.deepEqual(n!.shape, []);
        assert.equal(scalarOf(s!), 14);
        assert.equal(n!.dtype, 'int32');
        assert.equal(scalarOf(n!), 3);
        assert.equal(compat.v1.py_func, compat.v1.pyFunc);
        tf.dispose([x, y, s!, n!]);
      });

      it('a list of plain numbers for a Tout list of two gives two scalar outputs (as TF does with a Python list)', () => {
        const x = tf.tensor([1, 4, 9]);
        const outs = compat.v1.pyFunc((a: NdArray) => [(a.data as Float32Array).reduce((p, v) => p + v, 0), a.size], [x], ['float32', 'int32']);
        assert.equal(outs.length, 2);
        assert.deepEqual(
          outs.map((t) => t.dtype),
          ['float32', 'int32'],
        );
        assert.deepEqual(
          outs.map((t) => t.shape),
          [[], []],
        );
        assert.deepEqual(outs.map(scalarOf), [14, 3]);
        tf.dispose([x, ...outs]);
      });

      it('kind py_func and the name argument in errors', () => {
        const x = tf.scalar(1);
        assert.throws(
          () =>
            compat.v1.pyFunc(
              (a: NdArray) => {
                void a;
                throw new Error('v1 failure');
              },
              [x],
              'float32',
              true,
              'legacy_func',
            ),
          (err: unknown) =>
            err instanceof CallbackError && err.kind === 'py_func' && err.callback === 'legacy_func' && /py_func callback 'legacy_func'/.test(err.message),
        );
        assert.throws(
          () => compat.v1.pyFunc((a: NdArray) => [a, a], [x], 'float32', true, 'legacy_func'),
          (err: unknown) => err instanceof InvalidArgumentError && err.message.split('\n')[0] === 'legacy_func returns 2 values, but expects to see 1 values.',
        );
        x.dispose();
      });

      it('stateful false memoizes within a graphFunction execution; true does not', () => {
        let calls = 0;
        const square = (a: NdArray) => {
          calls++;
          return (a.data as Float32Array).map((v) => v * v);
        };
        const graph = graphFunction((stateful: boolean) => {
          const x = tf.tensor([3]);
          const a = compat.v1.pyFunc(square, [x], 'float32', stateful);
          const b = compat.v1.pyFunc(square, [x], 'float32', stateful);
          const out = [valuesOf(a), valuesOf(b)];
          tf.dispose([x, a, b]);
          return out;
        });
        assert.deepEqual(graph(false), [[9], [9]]);
        assert.equal(calls, 1);
        assert.deepEqual(graph(true), [[9], [9]]);
        assert.equal(calls, 3);
      });

      it('a gradient through pyFunc fails with NotDifferentiableError', () => {
        const x = tf.scalar(2);
        assert.throws(
          () => tf.grad((t: Tensor) => compat.v1.pyFunc((a: NdArray) => a, [t], 'float32', true, 'legacy_identity'))(x),
          (err: unknown) => err instanceof NotDifferentiableError && /legacy_identity/.test(err.message) && /pyFunction/.test(err.message),
        );
        x.dispose();
      });
    });
  });
}
