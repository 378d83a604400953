/**
 * Training state in reach (issue 27 point 3): an ESM program paused in a custom layer's call()
 * while its top level awaits model.fit — no frame sees `model` — shows its tf.Variables in a
 * "tf.Variables" scope of every frame (each one offers Break on Value Change: dataBreakpointInfo
 * answers its name), reaches them from the Debug Console as `$tfVariables["hidden/kernel"]`, lists
 * them through `trainingVariables` and pages one through `tensorData` (Show tf.Variables and its
 * Inspect), and a function breakpoint `tf.Variable hidden/kernel` (what that quick pick adds) stops
 * at the optimizer's assign — also when set before TF.js is loaded. Real adapter, debuggee, TF.js.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { TRAINING_VARIABLES_REQUEST, type TrainingVariablesResponseBody, VARIABLES_GRAPH } from '../../debug-adapter/extension-protocol.js';
import { variableActions, variableItem, variableNode } from '../../extension/variable-items.js';
import { fixture, THREAD, useDebugAdapter, withSession } from '../helpers/dap.js';
import { lineOf } from '../helpers/markers.js';

useDebugAdapter();

const PROGRAM = fixture('training-state-program.ts');
const T = { timeout: 120_000 };

describe('training state: the program’s tf.Variables while paused', () => {
  test('paused in call() during model.fit: scope, $tfVariables, Break on Value Change, the list, a page, and a tf.Variable function breakpoint', T, () =>
    withSession(async (s) => {
      const callLine = lineOf(PROGRAM, '@layer-call');
      await s.launch({ program: PROGRAM }, (dc) => dc.setBreakpointsRequest({ source: { path: PROGRAM }, breakpoints: [{ line: callLine }] }));
      assert.equal((await s.stopped()).body.reason, 'breakpoint');
      const frames = await s.stack();
      assert.equal(frames[0]!.line, callLine);

      // The top level's `model` is out of reach from here: why the scope exists.
      await assert.rejects(s.evaluate('model.layers.length', frames[0]!.id), /model is not defined/);

      // Every frame has the scope, before Global (which VS Code leaves collapsed).
      for (const frame of [frames[0]!, frames.at(-1)!]) {
        const names = (await s.scopes(frame.id)).map((x) => x.name);
        assert.ok(names.includes('tf.Variables'), `frame ${frame.name}: ${names.join(', ')}`);
        if (names.includes('Global')) assert.equal(names.indexOf('tf.Variables'), names.indexOf('Global') - 1, names.join(', '));
      }
      const scope = (await s.scopes(frames[0]!.id)).find((x) => x.name === 'tf.Variables')!;
      const vars = await s.variables(scope.variablesReference);
      assert.deepEqual(
        vars.list.map((v) => v.name),
        ['hidden/kernel', 'hidden/bias', 'scale/factor'],
      );
      const kernel = vars.get('hidden/kernel');
      assert.match(kernel.value, /^Variable float32\[2,3\] min=1 max=1/);
      assert.equal(kernel.evaluateName, '$tfVariables["hidden/kernel"]');
      assert.ok(kernel.variablesReference > 0, 'it expands like any tensor');

      // Break on Value Change is offered on it (VS Code asks dataBreakpointInfo by scope and name).
      const info = (await s.dc.dataBreakpointInfoRequest({ variablesReference: scope.variablesReference, name: 'hidden/kernel' })).body;
      assert.equal(info.dataId, 'hidden/kernel');
      assert.deepEqual(info.accessTypes, ['write']);

      // The Debug Console and watches reach it from any frame by its evaluateName.
      const shape = await s.evaluate(`${kernel.evaluateName}.shape`, frames[0]!.id);
      assert.match(shape.result, /\[2, 3\]/);
      const count = await s.evaluate('Object.keys($tfVariables).length', frames.at(-1)!.id, 'watch');
      assert.equal(count.result, '3');

      // Show tf.Variables: the list with summaries, its rows, and Inspect's page of values.
      const listed = (await s.dc.customRequest(TRAINING_VARIABLES_REQUEST)).body as TrainingVariablesResponseBody;
      assert.deepEqual(
        listed.variables.map((v) => [v.name, v.trainable, v.info.shape]),
        [
          ['hidden/kernel', true, [2, 3]],
          ['hidden/bias', true, [3]],
          ['scale/factor', true, [1 * 3]],
        ],
      );
      const row = variableItem(listed.variables[0]!);
      assert.deepEqual(row, { label: 'hidden/kernel', description: 'float32[2,3]', detail: 'min 1 · max 1 · mean 1' });
      assert.deepEqual(
        variableActions(listed.variables[0]!).map((a) => a.label),
        ['Break on Value Change', 'Break When It Becomes NaN/Inf', 'Inspect', 'Pin in Tensor Inspector', 'Copy Expression'],
      );
      const shown = variableNode(listed.variables[0]!).node;
      assert.equal(shown.graph, VARIABLES_GRAPH);
      const page = (await s.dc.customRequest('tensorData', { graph: shown.graph, node: shown.node, side: 'outputs', index: 0, start: 0, count: 10 })).body;
      assert.deepEqual(page.values, [1, 1, 1, 1, 1, 1]);
      await assert.rejects(
        s.dc.customRequest('tensorData', { graph: VARIABLES_GRAPH, node: 'nope/kernel', side: 'outputs', index: 0 }),
        /no tf\.Variable named 'nope\/kernel' is registered now/,
      );

      // Break on Value Change from the quick pick: a `tf.Variable <name>` function breakpoint.
      await s.dc.setBreakpointsRequest({ source: { path: PROGRAM }, breakpoints: [] });
      const set = (
        await s.dc.setFunctionBreakpointsRequest({
          breakpoints: [{ name: 'tf.Variable hidden/kernel' }, { name: "tf.Variable 'nope/kernel'" }, { name: 'Scale' }],
        })
      ).body.breakpoints;
      assert.equal(set.length, 3);
      assert.equal(set[0]!.verified, true, set[0]!.message);
      assert.equal(set[1]!.verified, false);
      assert.match(set[1]!.message ?? '', /no tf\.Variable named 'nope\/kernel' exists now/);
      assert.notEqual(set[0]!.id, set[2]!.id, 'ids apart from callback function breakpoints');
      await s.dc.continueRequest({ threadId: THREAD });
      const stop = await s.nextStop();
      assert.ok(stop, `a stop at the optimizer's assign; events: ${s.summary()}`);
      assert.equal(stop.body.reason, 'data breakpoint');
      assert.match(stop.body.description ?? '', /hidden\/kernel assigned/);
      assert.deepEqual(stop.body.hitBreakpointIds, [set[0]!.id]);

      await s.dc.setFunctionBreakpointsRequest({ breakpoints: [] });
      await s.dc.continueRequest({ threadId: THREAD });
      await s.waitForOutput('fitted epochs=2');
      assert.equal((await s.terminated())?.body.exitCode ?? 0, 0);
    }),
  );

  test('a tf.Variable function breakpoint kept from the last session holds from the start (set before TF.js loads)', T, () =>
    withSession(async (s) => {
      let set: DebugProtocol.Breakpoint[] = [];
      await s.launch({ program: PROGRAM }, async (dc) => {
        set = (await dc.setFunctionBreakpointsRequest({ breakpoints: [{ name: 'tf.Variable scale/factor', hitCondition: '2' }] })).body.breakpoints;
      });
      assert.equal(set.length, 1, JSON.stringify(set));
      const stop = await s.stopped();
      assert.equal(stop.body.reason, 'data breakpoint', s.summary());
      assert.match(stop.body.description ?? '', /scale\/factor assigned/);
      assert.deepEqual(stop.body.hitBreakpointIds, [set[0]!.id]);
      assert.match(set[0]!.message ?? '', /no tf\.Variable named 'scale\/factor' exists yet: watched once the program runs/);
      await s.dc.setFunctionBreakpointsRequest({ breakpoints: [] });
      await s.dc.continueRequest({ threadId: THREAD });
      await s.waitForOutput('fitted epochs=2');
    }),
  );
});
