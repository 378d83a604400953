/**
 * A function breakpoint on a node of a model that has not loaded yet (a full node path, as a
 * converted Keras model names them: StatefulPartitionedCall/dense_1/Relu) stays quietly unverified
 * until a model loads: no "answers to" message listing callbacks, no Debug Console warning, no
 * suggestion, though the program's callbacks (and the model's callback node, told just before its
 * graph) are known by then. A model that has it binds it; a model that lacks it brings the warning
 * with the closest node names, once. Real adapter, real debuggee, real TF.js.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { callbackNode, constWeight, matMul, placeholder, unary, writeGraphModel } from '../../scripts/lib/graph-model-writer.js';
import { fixture, useDebugAdapter, withSession } from '../helpers/dap.js';

useDebugAdapter();

const PROGRAM = fixture('late-model-program.ts');
const NODE = 'StatefulPartitionedCall/dense_1/Relu';
const T = { timeout: 90_000 };

/**
 * x → <layer>/MatMul → <layer>/Relu → standardize (EagerPyFunc) → Identity; without the callback
 * node where `withCallback` is false (a plain converted model: the agent has no callback to tell).
 */
function writeModel(dir: string, layer: string, withCallback = true): string {
  const scope = `StatefulPartitionedCall/${layer}`;
  const last = withCallback ? 'StatefulPartitionedCall/standardize' : `${scope}/Relu`;
  return writeGraphModel(
    dir,
    [
      placeholder('x', [2, 2]),
      constWeight(`${scope}/kernel`, [2, 2]),
      matMul(`${scope}/MatMul`, 'x', `${scope}/kernel`),
      unary(`${scope}/Relu`, 'Relu', `${scope}/MatMul`),
      ...(withCallback
        ? [callbackNode('StatefulPartitionedCall/standardize', 'EagerPyFunc', [`${scope}/Relu`], `pyfunc_${layer}`, ['DT_FLOAT'], ['DT_FLOAT'])]
        : []),
      unary('Identity', 'Identity', last),
    ],
    [{ name: `${scope}/kernel`, shape: [2, 2], values: new Float32Array([1, -1, 0.5, 2]) }],
  );
}

describe('a function breakpoint on a node of a model not loaded yet', () => {
  let dir: string;
  let withNode: string;
  let withoutNode: string;
  let plainWithoutNode: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'late-model-'));
    plainWithoutNode = writeModel(path.join(dir, 'plain'), 'dense', false);
    withNode = writeModel(path.join(dir, 'classifier'), 'dense_1');
    withoutNode = writeModel(path.join(dir, 'encoder'), 'dense');
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  const statuses = (s: { all(event: string): DebugProtocol.Event[] }, id: number) =>
    s
      .all('breakpoint')
      .map((e) => (e as DebugProtocol.BreakpointEvent).body.breakpoint)
      .filter((b) => b.id === id);

  test('stays quietly unverified until its model loads, then binds and stops there: no warning, no suggestion', T, () =>
    withSession(async (s) => {
      let set: DebugProtocol.SetFunctionBreakpointsResponse | undefined;
      await s.launch({ program: PROGRAM, args: [withNode] }, async (dc) => {
        set = await dc.setFunctionBreakpointsRequest({ breakpoints: [{ name: NODE }] });
      });
      const bp = set!.body.breakpoints[0]!;
      assert.equal(bp.verified, false);
      assert.equal(bp.message, `No model with a node '${NODE}' has loaded yet: it will bind when a model with this node loads.`);
      const stop = await s.stopped();
      assert.equal(stop.body.reason, 'function breakpoint', s.summary());
      const seen = statuses(s, bp.id!);
      assert.equal(seen.at(-1)?.verified, true, 'verified once the model loaded');
      assert.deepEqual(
        seen.filter((b) => !b.verified).map((b) => b.message),
        [],
        'no other unverified status on the way (it was "No callback or model node answers to …")',
      );
      await s.dc.continueRequest({ threadId: 1 });
      await s.terminated();
      assert.doesNotMatch(s.output('console'), /matches no|matched no|Did you mean/, s.output('console'));
    }),
  );

  test('a model that lacks it brings the warning with the closest node names, once; a later model with it binds it', T, () =>
    withSession(async (s) => {
      let set: DebugProtocol.SetFunctionBreakpointsResponse | undefined;
      await s.launch({ program: PROGRAM, args: [withoutNode, withNode] }, async (dc) => {
        set = await dc.setFunctionBreakpointsRequest({ breakpoints: [{ name: NODE }] });
      });
      const id = set!.body.breakpoints[0]!.id!;
      const warned = /Function breakpoint 'StatefulPartitionedCall\/dense_1\/Relu' matches no callback or model node.*\n/;
      await s.waitForOutput(warned, 'console');
      assert.match(
        warned.exec(s.output('console'))![0],
        /: no model loaded so far \('encoder'\) has this node\. Did you mean 'StatefulPartitionedCall\/dense\/Relu'\? .*Model 'encoder' has 6 nodes, closest first: StatefulPartitionedCall\/dense\/Relu, /,
      );
      const unverified = statuses(s, id).filter((b) => !b.verified);
      assert.match(unverified.at(-1)?.message ?? '', /^No callback or model node answers to 'StatefulPartitionedCall\/dense_1\/Relu'/);
      assert.equal((await s.stopped()).body.reason, 'function breakpoint', s.summary());
      assert.equal(statuses(s, id).at(-1)?.verified, true, 'the second model has it');
      await s.dc.continueRequest({ threadId: 1 });
      await s.terminated();
      assert.equal(s.output('console').match(/'StatefulPartitionedCall\/dense_1\/Relu' match/g)?.length, 1, s.output('console'));
    }),
  );

  test('a model with no callback node that lacks it brings the warning too, once, and the run ends', T, () =>
    withSession(async (s) => {
      await s.launch({ program: PROGRAM, args: [plainWithoutNode] }, async (dc) => {
        await dc.setFunctionBreakpointsRequest({ breakpoints: [{ name: NODE }] });
      });
      await s.terminated();
      const console = s.output('console');
      // Before: the agent told a graph only where a waiting name matched it, so this model said nothing.
      assert.match(
        console,
        /Function breakpoint 'StatefulPartitionedCall\/dense_1\/Relu' matches no callback or model node: no model loaded so far \('plain'\) has this node\. Did you mean 'StatefulPartitionedCall\/dense\/Relu'\?/,
        s.summary(),
      );
      assert.equal(console.match(/'StatefulPartitionedCall\/dense_1\/Relu' match/g)?.length, 1, console);
    }),
  );
});
