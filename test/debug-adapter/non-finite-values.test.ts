/**
 * NaN, −Inf and +Inf as they leave the debuggee: JSON has none of them (CDP's by-value results, DAP's
 * messages and the webview's postMessage write them null), so the adapter's summaries and pages
 * carry them as NonFiniteValue (agent-protocol.ts), −Inf counted apart. Real adapter, real debuggee.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { fixture, THREAD, useDebugAdapter, withSession } from '../helpers/dap.js';

useDebugAdapter();

const PROGRAM = fixture('signed-nonfinite-program.ts');
const T = { timeout: 60_000 };
/** logit([-0.5, 0, 0, 1, 0.5, 0.25]) as the program's output holds it (float32). */
const LOGIT = [{ nonFinite: 'NaN' }, { nonFinite: '-Infinity' }, { nonFinite: '-Infinity' }, { nonFinite: 'Infinity' }, 0, Math.fround(Math.log(1 / 3))];

interface Info {
  nanCount?: number;
  infCount?: number;
  negInfCount?: number;
  preview?: unknown[];
}

describe('non-finite values on the wire', () => {
  test('the tensorCallback summary, the tensorData page and the Variables view tell NaN, −Inf and +Inf apart', T, () =>
    withSession(async (s) => {
      await s.launch({ program: PROGRAM }, (dc) => dc.setExceptionBreakpointsRequest({ filters: ['nonFinite'] }));
      const stop = await s.stopped();
      assert.equal(stop.body.reason, 'exception', s.summary());
      const tc = await s.waitFor('tensorCallback');
      const output = (tc.body.outputs as Info[])[0]!;
      assert.deepEqual([output.nanCount, output.infCount, output.negInfCount], [1, 3, 2], 'counts, −Inf apart');
      assert.deepEqual(output.preview, LOGIT, 'the summary’s preview');

      const id = (tc.body.invocation as { id: number }).id;
      const page = await s.dc.customRequest('tensorData', { invocationId: id, side: 'outputs', index: 0, start: 0, count: 10 });
      assert.deepEqual(page.body.values, LOGIT, 'a tensorData page');
      assert.deepEqual(page.body.info.preview, LOGIT, 'the page’s summary');

      // The Variables view pages the same values: JS's own words for them, not "null" or "[object Object]".
      const frames = await s.stack();
      const cb = await s.scope(frames[0]!.id, 'Callback');
      const tensor = await s.variables(cb.get('outputs[0]').variablesReference);
      const values = await s.variables(tensor.get('values').variablesReference, 0, 6);
      assert.deepEqual(
        [0, 1, 2, 3, 4].map((i) => values.get(`[${i}]`).value),
        ['NaN', '-Infinity', '-Infinity', 'Infinity', '0'],
      );
      await s.dc.continueRequest({ threadId: THREAD });
      await s.terminated();
      assert.match(s.output('stdout'), /logit NaN,-Infinity,-Infinity,Infinity,0,-1\.09/);
    }),
  );
});
