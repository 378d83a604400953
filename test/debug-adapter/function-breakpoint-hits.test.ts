/**
 * Function breakpoints decided in the debuggee (issue 26): the agent counts each breakpoint's hits
 * and evaluates its condition where the hit happens, and calls `callbackBreak` (where the adapter's
 * one V8 breakpoint is, so one call is one pause) only for a hit that stops. In process, against
 * the real runtime: every `callbackBreak` call is counted.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, beforeEach, describe, test } from 'node:test';
import type { FunctionBreakpointRule, LastBreak } from '../../debug-adapter/debuggee/agent-protocol.js';
import { installAgent } from '../../debug-adapter/debuggee/agent/index.js';
import { type CallbackModel, type NdArray, loadCallbackModel, numpyFunction, selectBackend, tf } from '../../runtime/index.js';
import { type NodeDef, placeholder, unary, writeGraphModel } from '../../scripts/lib/graph-model-writer.js';
import { tempDir } from '../fixtures/callback-models.js';

const agent = installAgent(globalThis);
const saved = { ...agent.config };
const tmp = tempDir('tfjs-cb-fbp-hits-');
/** What each callbackBreak call saw: why, and the program's counter at that moment. */
let breaks: { why: LastBreak; at: number }[] = [];
let counter = 0;
let chain: CallbackModel;
let nextId = 1;

/** Sets the function breakpoints (fresh ids: fresh hit counts). */
function set(...rules: Omit<FunctionBreakpointRule, 'id'>[]): number[] {
  const withIds = rules.map((r) => ({ ...r, id: nextId++ }));
  agent.configure({ functionBreakpoints: withIds });
  return withIds.map((r) => r.id);
}

/** x → n0 (Neg) → n1 (Abs) → n2 (Neg) → n3 (Abs). */
function runChain(times: number): void {
  const x = tf.tensor1d([1, -2, 3, -4]);
  for (let i = 0; i < times; i++) {
    counter = i + 1;
    tf.dispose(chain.execute({ x }) as tf.Tensor);
  }
  x.dispose();
}

function callTwice(times: number): void {
  function double_it(values: NdArray) {
    return values.map((v) => v * 2);
  }
  for (let i = 0; i < times; i++) {
    counter = i + 1;
    tf.dispose(numpyFunction(double_it, [tf.tensor1d([counter, 0])], 'float32'));
  }
}

before(async () => {
  await selectBackend({ backend: 'cpu', quiet: true });
  const nodes: NodeDef[] = [placeholder('x', [-1])];
  for (let i = 0; i < 4; i++) nodes.push(unary(`n${i}`, i % 2 === 0 ? 'Neg' : 'Abs', i === 0 ? 'x' : `n${i - 1}`));
  chain = await loadCallbackModel(writeGraphModel(path.join(tmp.dir, 'chain'), nodes));
  agent.configure({ breakOnCallbacks: [], breakOnToutMismatch: true, breakOnNonFinite: false });
  agent.callbackBreak = () => {
    breaks.push({ why: { ...agent.lastBreak! }, at: counter });
  };
});
beforeEach(() => {
  breaks = [];
});
after(() => {
  agent.callbackBreak = () => {};
  agent.configure({ ...saved, functionBreakpoints: [] });
  chain.dispose();
  tmp.cleanup();
});

describe('node breakpoints decided in the debuggee', () => {
  test("hit condition '>= 1000' on a node run 1,000 times: one break, at the 1,000th hit", () => {
    set({ name: 'n2', hitCondition: '>= 1000' });
    runChain(1000);
    assert.equal(breaks.length, 1);
    assert.equal(breaks[0]!.at, 1000);
    assert.deepEqual([breaks[0]!.why.reason, breaks[0]!.why.node?.node, breaks[0]!.why.matched], ['node', 'n2', ['n2']]);
  });

  test('hit counts survive a reconfiguration that keeps the breakpoints; new breakpoints count from 0', () => {
    const ids = set({ name: 'Abs', hitCondition: '== 5' });
    runChain(2);
    agent.configure({ watchGraph: true, functionBreakpoints: agent.config.functionBreakpoints! });
    agent.configure({ watchGraph: false });
    runChain(1);
    // Abs runs twice a run: its 5th hit is n1 of the 3rd run.
    assert.deepEqual(
      breaks.map((b) => [b.at, b.why.node?.node]),
      [[1, 'n1']],
      `breakpoint ${ids[0]} counted across runs`,
    );
    breaks = [];
    set({ name: 'Abs', hitCondition: '== 5' });
    runChain(2);
    assert.equal(breaks.length, 0, 'a breakpoint set again counts from 0');
  });

  test('a condition over the Node scope names decides in process; a false one never breaks', () => {
    set({ name: 'n*', condition: 'op === "Abs" && node === "n3" && outputs[0].dataSync()[1] === 2 && inputs.length === 1 && attrs.T === "DT_FLOAT"' });
    runChain(3);
    assert.deepEqual(
      breaks.map((b) => [b.at, b.why.node?.node]),
      [
        [1, 'n3'],
        [2, 'n3'],
        [3, 'n3'],
      ],
    );
    breaks = [];
    set({ name: 'Neg', condition: 'false' });
    runChain(100);
    assert.equal(breaks.length, 0);
  });

  test('a node that ran while no breakpoint named it stops once one does; the graph watch turned on later sees every node', () => {
    // The runtime keeps the agent's "no" for n0..n2 (mayWant) until the agent's next reconfiguration.
    set({ name: 'n3' });
    runChain(2);
    assert.deepEqual(
      breaks.map((b) => b.why.node?.node),
      ['n3', 'n3'],
    );
    breaks = [];
    set({ name: 'n0' });
    runChain(1);
    assert.deepEqual(
      breaks.map((b) => b.why.node?.node),
      ['n0'],
    );
    set({ name: 'n0', condition: 'false' });
    agent.configure({ watchGraph: true });
    try {
      runChain(1);
      assert.deepEqual(
        agent.graphRun()?.nodes.map((n) => n.node),
        ['n0', 'n1', 'n2', 'n3'],
      );
    } finally {
      agent.configure({ watchGraph: false });
    }
  });

  test('a condition that throws breaks, with the failure for the stop to say', () => {
    set({ name: 'n0', condition: 'outputs[7].shape' });
    runChain(2);
    assert.equal(breaks.length, 2);
    assert.deepEqual(breaks[0]!.why.conditionFailure, { breakpoint: 'n0', message: "TypeError: Cannot read properties of undefined (reading 'shape')" });
    breaks = [];
    set({ name: 'n0', condition: 'op ===' });
    runChain(1);
    assert.match(breaks[0]?.why.conditionFailure?.message ?? '', /^SyntaxError: /);
  });
});

describe('callback breakpoints decided in the debuggee', () => {
  test('a false condition never breaks; a hit condition breaks at its hit only', () => {
    set({ name: 'double_it', condition: 'false' });
    callTwice(200);
    assert.equal(breaks.length, 0);
    set({ name: 'double_it', hitCondition: '% 50' });
    callTwice(200);
    assert.deepEqual(
      breaks.map((b) => b.at),
      [50, 100, 150, 200],
    );
  });

  test("a condition sees the callback's inputs under its parameter names", () => {
    set({ name: 'double_it', condition: 'values.data[0] > 7' });
    callTwice(9);
    assert.deepEqual(
      breaks.map((b) => [b.at, b.why.reason, b.why.conditionFailure]),
      [
        [8, 'callback', undefined],
        [9, 'callback', undefined],
      ],
    );
  });

  test('a condition that throws breaks and says why', () => {
    set({ name: 'double_it', condition: 'values.nope.length' });
    callTwice(1);
    assert.equal(breaks.length, 1);
    assert.deepEqual(breaks[0]!.why.conditionFailure, {
      breakpoint: 'double_it',
      message: "TypeError: Cannot read properties of undefined (reading 'length')",
    });
  });

  test("a name the agent does not bind is left to the adapter once; the source's names it is given decide later hits", () => {
    // As where tsx renamed a parameter: the source says `vals`, the JS the runtime reads `values`.
    const [id] = set({ name: 'double_it', condition: 'vals.data[0] === 3' });
    let verdicts: unknown[] = [];
    agent.callbackBreak = () => {
      const why = { ...agent.lastBreak! };
      breaks.push({ why, at: counter });
      if (why.undecided) verdicts.push(agent.decideConditions(why.id, why.undecided, ['vals']));
    };
    try {
      callTwice(4);
    } finally {
      agent.callbackBreak = () => breaks.push({ why: { ...agent.lastBreak! }, at: counter });
    }
    assert.deepEqual(
      breaks.map((b) => [b.at, b.why.undecided]),
      [
        [1, [id]],
        [3, undefined],
      ],
    );
    assert.deepEqual(verdicts, [{ stop: false }]);
    verdicts = [];
  });
});
