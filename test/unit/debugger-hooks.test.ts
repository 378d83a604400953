/**
 * What the runtime's shared hook state gives a debugger: callbacks made known as they come (a
 * wrapper's function when first called, a model's nodes when it loads and when bound), and a
 * paused-time count that an invocation's durationMs leaves out.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { addCallbackObserver, loadCallbackModel, type NdArray, numpyFunction, tf, type CallbackInvocation, type KnownCallback } from '../../runtime/index.js';
import { repoRoot } from '../fixtures/spawn.js';
import { useBackend } from '../helpers/backends.js';

const STATE = Symbol.for('tfjs-callback-debugger.runtime.state');
const shared = (globalThis as unknown as Record<symbol, { known?: KnownCallback[]; pausedMs?: number }>)[STATE]!;

describe('callbacks made known', () => {
  useBackend('cpu');

  it('a wrapper’s function once, when first called; a model’s nodes when it loads, and with the function’s name when bound', async () => {
    const known: KnownCallback[] = [];
    const stop = addCallbackObserver({ onCallbackKnown: (k) => known.push(k) });
    try {
      const twice = (x: NdArray) => x.map((v) => v * 2);
      for (let i = 0; i < 3; i++) numpyFunction(twice, [tf.tensor([1, 2])], 'float32', { name: 'twice_np' }).dispose();
      assert.deepEqual(
        known.map((k) => [k.name, k.functionName]),
        [['twice_np', 'twice']],
      );
      assert.match(known[0]!.token, /^pyfunc_\d+$/);
      assert.ok(
        shared.known?.some((k) => k.name === 'twice_np'),
        'kept for a debugger that attaches later',
      );

      known.length = 0;
      const model = await loadCallbackModel(path.join(repoRoot, 'examples/models/standardize/model.json'), {
        callbacks: {
          standardize: function standardize_fn(h: tf.Tensor) {
            return h;
          },
        },
      });
      model.dispose();
      assert.deepEqual(
        known.map((k) => [k.name, k.node, k.graph, k.functionName]),
        [
          ['standardize', 'standardize', 'standardize', undefined],
          ['standardize', 'standardize', 'standardize', 'standardize_fn'],
        ],
      );
    } finally {
      stop();
    }
  });
});

describe('time paused in a debugger', () => {
  useBackend('cpu');

  it('durationMs leaves out what was added to pausedMs while the callback ran', () => {
    let ended: CallbackInvocation | undefined;
    const stop = addCallbackObserver({ onCallbackEnd: (inv) => (ended = inv) });
    try {
      const started = performance.now();
      numpyFunction(
        (x: NdArray) => {
          // What the debugger's agent does around a stop of 5 s.
          shared.pausedMs = (shared.pausedMs ?? 0) + 5000;
          return x;
        },
        [tf.tensor([1])],
        'float32',
      ).dispose();
      const wallMs = performance.now() - started;
      assert.ok(ended);
      // Bounded by this call's own wall time, not a constant: the 5 s are left out whatever the machine's load.
      assert.ok(ended.durationMs >= 0 && ended.durationMs <= Math.max(0, wallMs - 5000), `durationMs ${ended.durationMs} of a ${wallMs} ms call`);
    } finally {
      stop();
    }
  });
});
