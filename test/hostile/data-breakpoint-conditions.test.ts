/**
 * A data breakpoint's condition that never returns (issue 28 point 6): it runs inside the
 * program's `assign`, so a loop there hung the program for good. It is stopped after its time
 * (1 s), the program stops at that assign saying so, and it goes on afterwards with TF.js's
 * scopes as they were (no tensor kept by a tf.tidy the stop cut short). Real adapter, real TF.js.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { fixture, THREAD, useDebugAdapter, withSession } from '../helpers/dap.js';
import { lineOf } from '../helpers/markers.js';

useDebugAdapter();

const PROGRAM = fixture('data-breakpoint-program.ts');

describe('a data breakpoint condition that loops', () => {
  test('is stopped after its time limit; the program stops there saying so, then runs on and leaks nothing', { timeout: 120_000 }, () =>
    withSession(async (s) => {
      await s.launch({ program: PROGRAM }, (dc) => dc.setBreakpointsRequest({ source: { path: PROGRAM }, breakpoints: [{ line: lineOf(PROGRAM, '@ready') }] }));
      assert.equal((await s.stopped()).body.reason, 'breakpoint');
      await s.dc.setBreakpointsRequest({ source: { path: PROGRAM }, breakpoints: [] });
      const [bp] = (await s.dc.setDataBreakpointsRequest({ breakpoints: [{ dataId: 'dense_w', condition: '(() => { for (;;) {} })()' }] })).body.breakpoints;
      assert.equal(bp!.verified, true, bp!.message);
      await s.dc.continueRequest({ threadId: THREAD });
      const stop = await s.nextStop();
      assert.ok(stop, `it stops at the assign; events: ${s.summary()}`);
      assert.equal(stop.body.reason, 'data breakpoint');
      assert.match(stop.body.description ?? '', /the condition `\(\(\) => \{ for \(;;\) \{\} \}\)\(\)` ran over 1 s and was stopped/);
      await s.dc.setDataBreakpointsRequest({ breakpoints: [] });
      await s.dc.continueRequest({ threadId: THREAD });
      await s.terminated();
      const line = /tensors start=(\d+) end=(\d+) assign=(\w+)/.exec(s.output('stdout'));
      assert.ok(line, s.output('stdout'));
      assert.equal(line[2], line[1], 'tf.memory().numTensors did not grow');
    }),
  );
});
