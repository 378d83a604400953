/**
 * Node breakpoints and stepping through a graph: function breakpoints by node name, op or glob
 * (with conditions and hit counts) stop right after the node ran, with a Node scope and the node
 * as the top frame; step over goes node by node, step into enters a callback when the next node is
 * one, and step out of that callback stops at its node. Also what the graph view reads (`graphRun`,
 * `nodeInfo`, `tensorData` of the paused node). Real adapter, real debuggee, a model file written
 * by the test.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, describe, test } from 'node:test';
import type { DebugProtocol } from '@vscode/debugprotocol';
import type { GraphRunRecord, NodeSnapshot, ValuePage } from '../../debug-adapter/extension-protocol.js';
import { tempDir } from '../fixtures/callback-models.js';
import { writeDenseModel } from '../fixtures/dense-model.js';
import { THREAD, useDebugAdapter, withSession, type Session } from '../helpers/dap.js';

useDebugAdapter();

const tmp = tempDir('tfjs-cb-node-bp-');
after(() => tmp.cleanup());
const { model, callbacks, inputs } = writeDenseModel(tmp.dir);
const T = { timeout: 90_000 };

async function launchWith(s: Session, breakpoints: DebugProtocol.FunctionBreakpoint[], watch = false) {
  await s.launch({ model, callbacks, inputs }, async (dc) => {
    await dc.setFunctionBreakpointsRequest({ breakpoints });
    if (watch) await dc.customRequest('graphWatch', { on: true });
  });
}

async function topFrame(s: Session) {
  const [top] = await s.stack();
  assert.ok(top);
  return top;
}

describe('node breakpoints', () => {
  test('an op name stops right after the node ran: the node is the top frame, its Node scope has inputs, outputs and attrs', T, () =>
    withSession(async (s) => {
      await launchWith(s, [{ name: 'MatMul' }]);
      const stop = await s.stopped();
      assert.equal(stop.body.reason, 'function breakpoint');
      assert.equal(stop.body.description, 'Paused on node dense/MatMul (MatMul)');
      const top = await topFrame(s);
      assert.equal(top.name, 'dense-model › dense/MatMul (MatMul)');
      assert.equal(top.source?.path, model);
      const scope = await s.scope(top.id, 'Node');
      assert.match(scope.get('x (input 0)').value, /^Tensor float32\[2,2\] min=1 max=4/);
      assert.match(scope.get('output 0').value, /^Tensor float32\[2,2\] min=-4 max=3/);
      assert.equal(scope.get('op').value, 'MatMul');
      assert.equal(scope.get('run order').value, 'node 1 of this run');
      const attrs = await s.variables(scope.get('attrs').variablesReference);
      assert.deepEqual(
        attrs.list.map((v) => `${v.name}=${v.value}`),
        ['T=DT_FLOAT', 'transpose_a=false', 'transpose_b=false'],
      );
      const rows = await s.variables(scope.get('output 0').variablesReference);
      const values = await s.variables(rows.get('values').variablesReference);
      assert.deepEqual(
        values.list.map((v) => v.value),
        ['1', '-2', '3', '-4'],
      );
      assert.equal((await s.evaluate('outputs[0].shape.join("x")', top.id)).result, '"2x2"');
      assert.equal((await s.evaluate('attrs.transpose_a', top.id)).result, 'false');
      await s.dc.continueRequest({ threadId: THREAD });
      assert.equal((await s.terminated())?.body.exitCode, 0, s.output());
      assert.equal(s.all('stopped').length, 1, s.summary());
    }),
  );

  test('step over goes node by node, step into enters the callback node, step out of it stops at its node', T, () =>
    withSession(async (s) => {
      await launchWith(s, [{ name: 'dense/MatMul' }]);
      await s.stopped();
      const seen: string[] = [];
      const step = async (request: () => Promise<unknown>) => {
        await request();
        const stop = await s.stopped();
        const top = await topFrame(s);
        seen.push(`${stop.body.description} @ ${top.name}:${top.line}`);
      };
      await step(() => s.dc.nextRequest({ threadId: THREAD }));
      await step(() => s.dc.stepInRequest({ threadId: THREAD }));
      await step(() => s.dc.nextRequest({ threadId: THREAD }));
      await step(() => s.dc.stepOutRequest({ threadId: THREAD }));
      await step(() => s.dc.nextRequest({ threadId: THREAD }));
      assert.deepEqual(seen, [
        `Paused after node dense/Relu (Relu) @ dense-model › dense/Relu (Relu):${lineOfNode('dense/Relu')}`,
        'Stepped into callback scale (node scale, EagerPyFunc) @ scale:2',
        'Paused after step @ scale:3',
        `Paused after node scale (EagerPyFunc) @ dense-model › scale (EagerPyFunc):${lineOfNode('scale')}`,
        `Paused after node out (Neg) @ dense-model › out (Neg):${lineOfNode('out')}`,
      ]);
      // The run ends after `out`: a step from there leaves the graph, and the program ends.
      await s.dc.nextRequest({ threadId: THREAD });
      assert.equal(await s.nextStop(), undefined, s.summary());
    }),
  );

  test('step over from the node before a callback node passes the callback by and stops after that node', T, () =>
    withSession(async (s) => {
      await launchWith(s, [{ name: 'dense/Relu' }]);
      await s.stopped();
      await s.dc.nextRequest({ threadId: THREAD });
      const stop = await s.stopped();
      const top = await topFrame(s);
      assert.equal(
        `${stop.body.description} @ ${top.name}:${top.line}`,
        `Paused after node scale (EagerPyFunc) @ dense-model › scale (EagerPyFunc):${lineOfNode('scale')}`,
      );
      await s.dc.continueRequest({ threadId: THREAD });
      assert.equal((await s.terminated())?.body.exitCode, 0, s.output());
      assert.equal(s.all('stopped').length, 2, s.summary());
    }),
  );

  test('a glob over node names with a condition on the Node scope stops only where it holds; a hit count counts matches', T, () =>
    withSession(async (s) => {
      await launchWith(s, [
        { name: 'dense/*', condition: 'outputs[0].shape[0] === 2 && op === "Relu"' },
        { name: 'Neg', hitCondition: '2' },
      ]);
      const stop = await s.stopped();
      assert.equal(stop.body.description, 'Paused on node dense/Relu (Relu)');
      await s.dc.continueRequest({ threadId: THREAD });
      assert.equal((await s.terminated())?.body.exitCode, 0, s.output());
      assert.equal(s.all('stopped').length, 1, `Neg runs once, so its hit count 2 never stops: ${s.summary()}`);
    }),
  );

  test('a node breakpoint is verified once its model loads; an op with a typo says which ops the model has', T, () =>
    withSession(async (s) => {
      let set: DebugProtocol.SetFunctionBreakpointsResponse | undefined;
      await s.launch({ model, callbacks, inputs }, async (dc) => {
        set = await dc.setFunctionBreakpointsRequest({ breakpoints: [{ name: 'Relu' }, { name: 'Matmull' }] });
      });
      assert.ok(set);
      await s.stopped();
      const changed = s.all('breakpoint').map((e) => (e as DebugProtocol.BreakpointEvent).body.breakpoint);
      const relu = set.body.breakpoints[0]!;
      const typo = set.body.breakpoints[1]!;
      assert.ok(relu.verified || changed.some((b) => b.id === relu.id && b.verified), s.summary());
      const typoStatus = [typo, ...changed.filter((b) => b.id === typo.id)].at(-1)!;
      assert.equal(typoStatus.verified, false);
      assert.match(typoStatus.message ?? '', /No callback or model node answers to 'Matmull'.*Model 'dense-model' has 6 nodes.*closest first: MatMul,/s);
      await s.waitForOutput(/Function breakpoint 'Matmull' matches no callback or model node\. Did you mean 'MatMul'\?/, 'console');
      await s.dc.continueRequest({ threadId: THREAD });
      await s.terminated();
    }),
  );
});

describe('what the graph view reads', () => {
  test('graphRun at the end of a watched run that never stops: every node ran, none paused', T, () =>
    withSession(async (s) => {
      await launchWith(s, [], true);
      const run = (await s.next(['graphRun'])).body as GraphRunRecord;
      assert.equal(run.graph, 'dense-model');
      assert.deepEqual(
        run.nodes.map((n) => n.node),
        ['dense/MatMul', 'dense/Relu', 'scale', 'out'],
      );
      assert.ok(run.nodes.every((n) => n.status === 'ran'));
      assert.equal(run.paused, undefined);
      await s.terminated();
    }),
  );

  test('graphRun at each stop while watched: the nodes that ran and the paused one; nodeInfo of an earlier node; tensorData of the paused one', T, () =>
    withSession(async (s) => {
      await launchWith(s, [{ name: 'out' }], true);
      await s.stopped();
      const run = (await s.next(['graphRun'])).body as GraphRunRecord;
      assert.equal(run.graph, 'dense-model');
      assert.equal(run.modelPath, model);
      assert.deepEqual(run.nodes, [
        { node: 'dense/MatMul', status: 'ran' },
        { node: 'dense/Relu', status: 'ran' },
        { node: 'scale', status: 'ran' },
        { node: 'out', status: 'ran' },
      ]);
      assert.equal(run.paused, 'out');
      const node = (await s.next(['graphNode'])).body as { node: NodeSnapshot; reason: string };
      assert.equal(node.node.node, 'out');
      assert.equal(node.node.live, true);
      const earlier = (await s.dc.customRequest('nodeInfo', { graph: 'dense-model', node: 'dense/Relu' })).body as NodeSnapshot;
      assert.equal(earlier.live, false);
      assert.equal(earlier.outputs[0]!.min, 0);
      assert.equal(earlier.outputs[0]!.max, 3);
      const page = (await s.dc.customRequest('tensorData', { graph: 'dense-model', node: 'out', side: 'inputs', index: 0, start: 1, count: 3 }))
        .body as ValuePage;
      assert.deepEqual(page.values, [0, 30, 0]);
      await assert.rejects(
        s.dc.customRequest('tensorData', { graph: 'dense-model', node: 'dense/Relu', side: 'outputs', index: 0 }),
        /not the node the program is stopped at/,
      );
      await assert.rejects(s.dc.customRequest('nodeInfo', { graph: 'dense-model', node: 'nope' }), /did not run/);

      await s.dc.continueRequest({ threadId: THREAD });
      await s.terminated();
    }),
  );

  test('a stop inside the callback of a node: that node is the paused one, the nodes before it ran', T, () =>
    withSession(async (s) => {
      await launchWith(s, [{ name: 'scale' }], true);
      await s.stopped();
      const run = (await s.next(['graphRun'])).body as GraphRunRecord;
      assert.equal(run.paused, 'scale');
      assert.deepEqual(
        run.nodes.map((n) => n.node),
        ['dense/MatMul', 'dense/Relu'],
      );
      await s.dc.continueRequest({ threadId: THREAD });
      await s.terminated();
    }),
  );

  test('not watched: no graphRun events, and models run with no node observer', T, () =>
    withSession(async (s) => {
      await launchWith(s, [{ name: 'scale' }]);
      await s.stopped();
      assert.equal(s.all('graphRun').length, 0);
      assert.equal(s.all('graphNode').length, 0, 'a callback stop is not a node stop');
      const observers = await s.evaluate('globalThis[Symbol.for("tfjs-callback-debugger.runtime.state")].nodeObservers?.length ?? 0');
      assert.equal(observers.result, '0');
      await s.dc.continueRequest({ threadId: THREAD });
      await s.terminated();
    }),
  );
});

/** The 1-based line of a node's name in the written model.json (one node field per line). */
function lineOfNode(name: string): number {
  const lines = readFileSync(model, 'utf8').split('\n');
  return lines.findIndex((l) => l.includes(`"name": ${JSON.stringify(name)}`)) + 1;
}
