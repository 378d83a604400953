/**
 * Leaks: many wrapper calls, successful and failing, must leave no tensor behind once the caller
 * has disposed the outputs.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  CallbackError,
  InvalidArgumentError,
  NdArray,
  NotDifferentiableError,
  addCallbackObserver,
  compat,
  graphFunction,
  numpyFunction,
  pyFunction,
  tf,
} from '../../runtime/index.js';
import { BACKENDS, useBackend } from '../helpers/backends.js';

type Tensor = tf.Tensor;

const CALLS = 10_000;
const FAILING_CALLS = 1_000;

/** Runs `body` and asserts that the number of live tensors (and data buffers) did not change. */
function assertNoLeak(what: string, body: () => void): void {
  const before = tf.memory();
  body();
  const after = tf.memory();
  assert.equal(after.numTensors - before.numTensors, 0, `${what}: leaked ${after.numTensors - before.numTensors} tensors`);
  assert.equal(after.numDataBuffers - before.numDataBuffers, 0, `${what}: leaked ${after.numDataBuffers - before.numDataBuffers} data buffers`);
}

for (const backend of BACKENDS) {
  describe(`memory on ${backend}`, () => {
    useBackend(backend);

    describe(`${CALLS} successful calls leak nothing`, () => {
      it('pyFunction with an intermediate tensor inside func', () => {
        const x = tf.tensor([1, 2, 3]);
        let last = 0;
        assertNoLeak('pyFunction', () => {
          for (let i = 0; i < CALLS; i++) {
            const y = pyFunction((t: Tensor) => t.mul(2).add(1), [x], 'float32');
            if (i === CALLS - 1) last = y.dataSync()[2]!;
            y.dispose();
          }
        });
        assert.equal(last, 7, 'the calls did run');
        x.dispose();
      });

      it('pyFunction with a list Tout, an input returned unchanged and non-tensor inputs', () => {
        const x = tf.tensor([1, 2]);
        let calls = 0;
        assertNoLeak('pyFunction list', () => {
          for (let i = 0; i < CALLS; i++) {
            const outs = pyFunction(
              (t: Tensor, k: Tensor) => {
                calls++;
                return [t, t.mul(k)];
              },
              [x, 3],
              ['float32', 'float32'],
            );
            tf.dispose(outs);
          }
        });
        assert.equal(calls, CALLS, 'the calls did run');
        x.dispose();
      });

      it('numpyFunction', () => {
        const x = tf.tensor([1, 2, 3]);
        let calls = 0;
        assertNoLeak('numpyFunction', () => {
          for (let i = 0; i < CALLS; i++) {
            const y = numpyFunction(
              (a: NdArray) => {
                calls++;
                return (a.data as Float32Array).map((v) => v + 1);
              },
              [x],
              'float32',
            );
            y.dispose();
          }
        });
        assert.equal(calls, CALLS);
        x.dispose();
      });

      it('compat.v1.pyFunc', () => {
        const x = tf.tensor([1, 2, 3]);
        let calls = 0;
        assertNoLeak('compat.v1.pyFunc', () => {
          for (let i = 0; i < CALLS; i++) {
            const [s, n] = compat.v1.pyFunc(
              (a: NdArray) => {
                calls++;
                return [
                  new NdArray(
                    (a.data as Float32Array).map((v) => v * v),
                    a.shape,
                    'float32',
                  ),
                  Int32Array.of(a.size),
                ];
              },
              [x],
              ['float32', 'int32'],
            );
            tf.dispose([s!, n!]);
          }
        });
        assert.equal(calls, CALLS, 'the calls did run');
        x.dispose();
      });

      it('memoized stateless numpyFunction inside graphFunction', () => {
        let calls = 0;
        const halve = (a: NdArray) => {
          calls++;
          return (a.data as Float32Array).map((v) => v / 2);
        };
        const x = tf.tensor([2, 4]);
        const step = graphFunction(() => {
          const a = numpyFunction(halve, [x], 'float32', { stateful: false });
          const b = numpyFunction(halve, [x], 'float32', { stateful: false }); // memoized
          tf.dispose([a, b]);
        });
        assertNoLeak('memoized stateless', () => {
          for (let i = 0; i < CALLS; i++) step();
        });
        assert.equal(calls, CALLS, 'one real call per graph execution, the second memoized');
        x.dispose();
      });

      it('with an observer attached (summaries are computed)', () => {
        const x = tf.tensor([1, 2, 3]);
        let events = 0;
        const stop = addCallbackObserver({ onCallbackEnd: () => void events++ });
        try {
          assertNoLeak('observed', () => {
            for (let i = 0; i < FAILING_CALLS; i++) {
              const y = pyFunction((t: Tensor) => t.mul(2).add(1), [x], 'float32');
              const z = numpyFunction((a: NdArray) => a, [x], 'float32');
              tf.dispose([y, z]);
            }
          });
        } finally {
          stop();
        }
        assert.equal(events, 2 * FAILING_CALLS);
        x.dispose();
      });

      it('gradients through pyFunction', () => {
        const x = tf.scalar(3);
        let calls = 0;
        assertNoLeak('tf.grad', () => {
          for (let i = 0; i < FAILING_CALLS; i++) {
            const g = tf.grad((t: Tensor) =>
              pyFunction(
                (u: Tensor) => {
                  calls++;
                  return u.square().mul(2);
                },
                [t],
                'float32',
              ),
            )(x);
            g.dispose();
          }
        });
        assert.equal(calls, FAILING_CALLS, 'the calls did run');
        x.dispose();
      });
    });

    describe(`${FAILING_CALLS} failing calls leak nothing`, () => {
      it('Tout dtype mismatch (pyFunction with intermediates, numpyFunction with a Float64Array)', () => {
        const x = tf.tensor([1, 2, 3]);
        let failures = 0;
        assertNoLeak('dtype mismatch', () => {
          for (let i = 0; i < FAILING_CALLS; i++) {
            try {
              pyFunction((t: Tensor) => t.mul(2).toInt(), [x], 'float32');
            } catch (err) {
              if (err instanceof InvalidArgumentError) failures++;
            }
            try {
              numpyFunction((a: NdArray) => Float64Array.from(a.data as Float32Array), [x], 'float32');
            } catch (err) {
              if (err instanceof InvalidArgumentError) failures++;
            }
          }
        });
        assert.equal(failures, 2 * FAILING_CALLS);
        x.dispose();
      });

      it('Tout count mismatch, and a partial list where only the second output is wrong', () => {
        const x = tf.tensor([1, 2]);
        let failures = 0;
        assertNoLeak('count mismatch', () => {
          for (let i = 0; i < FAILING_CALLS; i++) {
            try {
              pyFunction((t: Tensor) => [t.add(1), t.add(2)], [x], 'float32');
            } catch (err) {
              if (err instanceof InvalidArgumentError) failures++;
            }
            try {
              pyFunction((t: Tensor) => [t.add(1), t.toInt()], [x], ['float32', 'float32']);
            } catch (err) {
              if (err instanceof InvalidArgumentError) failures++;
            }
          }
        });
        assert.equal(failures, 2 * FAILING_CALLS);
        x.dispose();
      });

      it('an exception thrown after func made tensors, with number inputs converted by the wrapper', () => {
        let failures = 0;
        assertNoLeak('thrown', () => {
          for (let i = 0; i < FAILING_CALLS; i++) {
            try {
              pyFunction(
                (t: Tensor) => {
                  t.square().add(1);
                  throw new Error('fails after making tensors');
                },
                [[1, 2, 3]],
                'float32',
              );
            } catch (err) {
              if (err instanceof CallbackError) failures++;
            }
            try {
              compat.v1.pyFunc(
                (a: NdArray) => {
                  void a;
                  throw new Error('v1 fails');
                },
                [5],
                'float32',
              );
            } catch (err) {
              if (err instanceof CallbackError) failures++;
            }
          }
        });
        assert.equal(failures, 2 * FAILING_CALLS);
      });

      it('failures inside graphFunction, with stateless results remembered before the failure', () => {
        const x = tf.tensor([1, 2]);
        let failures = 0;
        const step = graphFunction(() => {
          const ok = numpyFunction((a: NdArray) => a, [x], 'float32', { stateful: false });
          ok.dispose();
          numpyFunction((a: NdArray) => Float64Array.from(a.data as Float32Array), [x], 'float32', { stateful: false });
        });
        assertNoLeak('graph failures', () => {
          for (let i = 0; i < FAILING_CALLS; i++) {
            try {
              step();
            } catch (err) {
              if (err instanceof InvalidArgumentError) failures++;
            }
          }
        });
        assert.equal(failures, FAILING_CALLS);
        x.dispose();
      });

      it('failures with an observer attached (the returned value is summarised)', () => {
        const x = tf.tensor([1, 2, 3]);
        let mismatches = 0;
        const stop = addCallbackObserver({
          onCallbackEnd: (e) => {
            if (!e.toutCheck!.ok) mismatches++;
          },
        });
        try {
          assertNoLeak('observed failures', () => {
            for (let i = 0; i < FAILING_CALLS; i++) {
              try {
                pyFunction((t: Tensor) => t.mul(2).toInt(), [x], 'float32');
              } catch {
                // counted by the observer
              }
            }
          });
        } finally {
          stop();
        }
        assert.equal(mismatches, FAILING_CALLS);
        x.dispose();
      });

      it('a gradient request through numpyFunction that fails', () => {
        const x = tf.scalar(1);
        let failures = 0;
        assertNoLeak('failed gradients', () => {
          for (let i = 0; i < FAILING_CALLS; i++) {
            try {
              tf.grad((t: Tensor) => numpyFunction((a: NdArray) => a, [t], 'float32'))(x);
            } catch (err) {
              if (err instanceof NotDifferentiableError) failures++;
            }
          }
        });
        assert.equal(failures, FAILING_CALLS);
        x.dispose();
      });
    });
  });
}
