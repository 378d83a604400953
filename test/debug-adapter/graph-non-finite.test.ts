/**
 * The "NaN/Inf in the graph" exception filter: a model where `Log` of a zero feeds a callback
 * stops at the Log node, naming it and what its input held, not in the callback that received
 * the -Inf. Real adapter, real debuggee, a model file written by the test.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { callbackNode, placeholder, unary, writeGraphModel } from '../../scripts/lib/graph-model-writer.js';
import { tempDir } from '../fixtures/callback-models.js';
import { firstUserFrame, THREAD, useDebugAdapter, withSession } from '../helpers/dap.js';

useDebugAdapter();

const tmp = tempDir('tfjs-cb-graph-nan-');
after(() => tmp.cleanup());
const model = writeGraphModel(path.join(tmp.dir, 'log-then-callback'), [
  placeholder('x', [-1]),
  unary('log', 'Log', 'x'),
  callbackNode('scale', 'EagerPyFunc', ['log'], 'pyfunc_scale', ['DT_FLOAT'], ['DT_FLOAT']),
  unary('out', 'Neg', 'scale'),
]);
const callbacks = path.join(tmp.dir, 'callbacks.ts');
writeFileSync(callbacks, 'export function scale(t: { mul(n: number): unknown }) {\n  return t.mul(10);\n}\n');
const inputs = path.join(tmp.dir, 'inputs.json');
writeFileSync(inputs, JSON.stringify({ x: [0, 1] }));
const T = { timeout: 60_000 };

describe('NaN/Inf in the graph', () => {
  test('stops at the first node that made Inf from finite inputs (Log of a zero), not in the callback it feeds', T, () =>
    withSession(async (s) => {
      await s.launch({ model, callbacks, inputs }, (dc) => dc.setExceptionBreakpointsRequest({ filters: ['toutMismatch', 'graphNonFinite'] }));
      const stop = await s.stopped();
      assert.equal(stop.body.reason, 'exception');
      assert.match(stop.body.description ?? '', /first Inf: node `log` \(Log\), input 0 has 1 zero/);
      const info = await s.dc.exceptionInfoRequest({ threadId: THREAD });
      assert.equal(info.body.exceptionId, 'GraphNonFinite');
      assert.match(info.body.description ?? '', /node `log` \(Log\)/);
      // The widget says how many, in which output, out of how many elements.
      assert.match(info.body.description ?? '', /\nnode `log`: output 0 has 1 −Inf of 2 elements$/);
      // The node is the top frame, with its Node scope: the zero in, the -Inf out.
      const [top] = await s.stack();
      assert.equal(top?.name, 'log-then-callback › log (Log)');
      assert.equal(top?.source?.path, model);
      const scope = await s.scope(top!.id, 'Node');
      assert.match(scope.get('x (input 0)').value, /min=0 max=1/);
      assert.match(scope.get('output 0').value, /\(1 −Inf\)/);
      await s.dc.continueRequest({ threadId: THREAD });
      assert.equal((await s.terminated())?.body.exitCode, 0, s.output());
      assert.equal(s.all('stopped').length, 1, `one stop per run: ${s.summary()}`);
    }),
  );

  test('with "NaN/Inf in any op" on too: one stop, at the Log kernel the node ran, at the line that ran the model', T, () =>
    withSession(async (s) => {
      await s.launch({ model, callbacks, inputs, backend: 'cpu' }, (dc) =>
        dc.setExceptionBreakpointsRequest({ filters: ['toutMismatch', 'graphNonFinite', 'opNonFinite'] }),
      );
      const stop = await s.stopped();
      assert.match(stop.body.description ?? '', /^NaN\/Inf in any op: first Inf: op `Log` \(forward, model `log-then-callback`\)/);
      const info = await s.dc.exceptionInfoRequest({ threadId: THREAD });
      assert.match(info.body.description ?? '', /\nop `Log`: output 0 has 1 −Inf of 2 elements$/);
      const top = firstUserFrame(await s.stack());
      assert.equal(top?.name, 'Log (forward)');
      const scope = await s.scope(top!.id, 'Op');
      assert.equal(scope.get('model').value, 'log-then-callback');
      assert.match(scope.get('x (input 0)').value, /min=0 max=1/);
      assert.match(scope.get('output 0').value, /\(1 −Inf\)/);
      await s.dc.continueRequest({ threadId: THREAD });
      assert.equal((await s.terminated())?.body.exitCode, 0, s.output());
      assert.equal(s.all('stopped').length, 1, `one stop per birth: ${s.summary()}`);
    }),
  );

  test('off (the default): the same run does not stop', T, () =>
    withSession(async (s) => {
      await s.launch({ model, callbacks, inputs });
      assert.equal(await s.nextStop(), undefined, s.summary());
    }),
  );
});
