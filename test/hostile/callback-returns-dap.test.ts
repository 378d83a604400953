/**
 * What a debugger sees of bad callback returns: the debuggee's agent (debug-adapter/debuggee/agent/,
 * in process, over the real runtime) keeps a frame per invocation under way and drops it at the
 * end event. Caught failures must leave none behind, or a later stop shows phantom callbacks as
 * still running (issue 11: 200 caught failures left 200 phantom frames).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { installAgent } from '../../debug-adapter/debuggee/agent/index.js';
import { InvalidArgumentError, CallbackError, NdArray, numpyFunction, pyFunction, selectBackend, tf } from '../../runtime/index.js';

/* eslint-disable @typescript-eslint/no-explicit-any */

const STATE = Symbol.for('tfjs-callback-debugger.runtime.state');
const shared = (globalThis as any)[STATE] as { observers: unknown[] };

describe('the agent after caught callback failures', () => {
  const observersBefore = [...shared.observers];
  const agent = installAgent(globalThis);
  const stops: { reason: string; running: number }[] = [];

  before(async () => {
    await selectBackend({ backend: 'cpu', quiet: true });
    agent.configure({ breakOnCallbacks: ['later'], breakOnToutMismatch: true, breakOnNonFinite: false });
    agent.callbackBreak = () => stops.push({ reason: agent.lastBreak!.reason, running: agent.active.length });
  });
  after(() => {
    agent.callbackBreak = () => {};
    shared.observers = observersBefore;
  });

  test('200 caught bad returns and throws leave no frame running; a later stop shows only its own callback', () => {
    const x = tf.tensor1d([1, 2, 3]);
    const failures: (() => unknown)[] = [
      () => pyFunction((t: tf.Tensor) => [t.add(1), undefined] as never, [x], ['float32', 'float32']),
      () => numpyFunction(() => new NdArray(null as never, [3], 'float32'), [x], 'float32'),
      () =>
        numpyFunction(
          () =>
            new Proxy([1], {
              get: () => {
                throw new Error('boom');
              },
            }),
          [x],
          'float32',
        ),
      () =>
        pyFunction(
          () => {
            throw undefined;
          },
          [x],
          'float32',
        ),
    ];
    for (let i = 0; i < 200; i++) {
      assert.throws(failures[i % failures.length]!, (err: Error) => err instanceof InvalidArgumentError || err instanceof CallbackError);
    }
    assert.equal(agent.active.length, 0, 'no invocation is left as running');
    // The three bad returns of each round stop once each on the Tout mismatch, with only themselves running.
    assert.equal(stops.length, 150);
    assert.ok(
      stops.every((s) => s.reason === 'toutMismatch' && s.running === 1),
      JSON.stringify(stops.find((s) => s.running !== 1)),
    );

    stops.length = 0;
    pyFunction((t: tf.Tensor) => t.mul(2), [x], 'float32', { name: 'later' }).dispose();
    assert.deepEqual(stops, [{ reason: 'callback', running: 1 }], 'the later stop shows one frame, its own');
    x.dispose();
  });
});
