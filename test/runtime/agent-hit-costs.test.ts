/**
 * What a hit that does not stop costs in the debuggee (issue 26 point 2), counted with the real
 * runtime and the agent in process (its `callbackBreak` replaced by a recorder):
 * - a node breakpoint's hits are counted before any node event is built: with `>= 8` on a node
 *   run 10 times, the agent's node observer is told of runs 8 to 10 only;
 * - a callback's events are built only where a stop asks for them: the agent is told the
 *   runtime's frame, and 20 calls with nothing to stop at build no start or end event;
 * - a runtime that tells events only (one older than frames) still stops the agent, with the
 *   same stop and snapshot.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { installAgent } from '../../debug-adapter/debuggee/agent/index.js';
import type { CallbackInvocation, CallbackStart } from '../../runtime/events.js';
import type { NodeObserver } from '../../runtime/graph-model/node-hooks.js';
import { shared } from '../../runtime/hooks.js';
import { InvocationObservation } from '../../runtime/invocation/invocation-observation.js';
import { loadCallbackModel, type NdArray, numpyFunction, selectBackend, tf } from '../../runtime/index.js';
import { placeholder, unary, writeGraphModel } from '../../scripts/lib/graph-model-writer.js';
import { tempDir } from '../fixtures/callback-models.js';

const tmp = tempDir('tfjs-cb-agent-hit-costs-');
const AGENT_KEY = '__tfjsCallbackDebugAgent_v3';
const holder = globalThis as unknown as Record<string, unknown>;
let agent: ReturnType<typeof installAgent>;
let stops: string[] = [];

before(async () => {
  await selectBackend({ backend: 'cpu', quiet: true });
  agent = installAgent(globalThis);
  agent.callbackBreak = () => void stops.push(agent.lastBreak!.reason);
});
after(() => {
  agent.configure({ functionBreakpoints: [], breakOnCallbacks: [] });
  shared.observers = shared.observers.filter((o) => o.detail !== 'light');
  delete holder[AGENT_KEY];
  tmp.cleanup();
});

describe('a node breakpoint with a hit condition', () => {
  test('builds a node event only for the hits its condition lets through', async () => {
    const model = await loadCallbackModel(
      writeGraphModel(path.join(tmp.dir, 'chain'), [placeholder('x', [-1]), unary('a', 'Neg', 'x'), unary('b', 'Abs', 'a'), unary('c', 'Neg', 'b')]),
    );
    stops = [];
    agent.configure({ functionBreakpoints: [{ id: 1, name: 'b', hitCondition: '>= 8' }] });
    const observer = (shared.nodeObservers ?? []).at(-1) as NodeObserver;
    const onNode = observer.onNode;
    let told = 0;
    observer.onNode = (e) => {
      told++;
      onNode(e);
    };
    try {
      const x = tf.tensor1d([1, -2]);
      for (let i = 0; i < 10; i++) tf.dispose(model.execute({ x }) as tf.Tensor);
      x.dispose();
    } finally {
      observer.onNode = onNode;
      agent.configure({ functionBreakpoints: [] });
    }
    assert.deepEqual(stops, ['node', 'node', 'node'], 'hits 8, 9 and 10 stop');
    assert.equal(told, 3, 'node events built: the 7 hits before the 8th were counted, no event made');
  });
});

describe('callback invocations', () => {
  test('build no event where nothing stops, and the events at a stop', () => {
    const built = { start: 0, end: 0 };
    const proto = InvocationObservation.prototype;
    const { start, end } = proto;
    proto.start = function (this: InvocationObservation) {
      built.start++;
      return start.call(this);
    };
    proto.end = function (this: InvocationObservation) {
      built.end++;
      return end.call(this);
    };
    const double = (x: NdArray) => (x.data as Float32Array).map((v) => v * 2);
    const input = tf.tensor1d([1, 2, 3]);
    let snapshot: ReturnType<typeof agent.snapshot> = [];
    try {
      stops = [];
      for (let i = 0; i < 20; i++) tf.dispose(numpyFunction(double, [input], 'float32'));
      assert.deepEqual(built, { start: 0, end: 0 }, '20 calls with nothing to stop at');
      agent.configure({ breakOnCallbacks: ['double'] });
      agent.callbackBreak = () => {
        stops.push(agent.lastBreak!.reason);
        snapshot = agent.snapshot();
      };
      tf.dispose(numpyFunction(double, [input], 'float32'));
    } finally {
      proto.start = start;
      proto.end = end;
      agent.configure({ breakOnCallbacks: [] });
      agent.callbackBreak = () => void stops.push(agent.lastBreak!.reason);
      input.dispose();
    }
    assert.deepEqual(stops, ['callback']);
    assert.equal(snapshot.length, 1);
    assert.equal(snapshot[0]!.callback.functionName, 'double');
    assert.equal(snapshot[0]!.phase, 'running');
    assert.deepEqual(snapshot[0]!.Tout, ['float32']);
  });

  test('from a runtime that tells events only, stop the agent as frames do', () => {
    // The agent on a global of its own, told events as a runtime older than frames tells them.
    const g = { [Symbol.for('tfjs-callback-debugger.runtime.state')]: { observers: [], nextToken: 0, nextInvocation: 1 } } as never;
    const old = installAgent(g, { breakOnCallbacks: [], breakOnToutMismatch: true, breakOnNonFinite: false });
    const seen: { reason: string; phase: string | undefined; running: number }[] = [];
    old.callbackBreak = () => seen.push({ reason: old.lastBreak!.reason, phase: old.snapshot()[0]?.phase, running: old.active.length });
    const observer = (
      g[Symbol.for('tfjs-callback-debugger.runtime.state')] as {
        observers: { onCallbackStart(s: unknown, l: unknown): void; onCallbackEnd(e: unknown, l: unknown): void }[];
      }
    ).observers[0]!;
    const start: CallbackStart = {
      id: 7,
      callback: { name: 'f', token: 'pyfunc_0', kind: 'numpy_function', stateful: true },
      op: 'PyFunc',
      Tout: ['float32'],
      Tin: ['float32'],
      inputs: [],
      parameterNames: ['x'],
    };
    const live = { func: () => 1, args: [new Float32Array(2)] };
    observer.onCallbackStart(start, live);
    assert.equal(old.active.length, 1);
    const mismatch = { ok: false, mismatches: [{ message: 'dtype', problem: 'dtype', index: 0 }], narrowed: [], conversions: [] };
    const end = { ...start, outputs: [], durationMs: 1, toutCheck: mismatch, memoized: false } as unknown as CallbackInvocation;
    observer.onCallbackEnd(end, { ...live, outputs: [] });
    assert.deepEqual(seen, [{ reason: 'toutMismatch', phase: 'returned', running: 1 }]);
    assert.equal(old.active.length, 0);
  });
});
