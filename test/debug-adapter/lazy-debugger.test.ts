/**
 * A launch with no source breakpoint and no exception pauses runs with V8's debugger off (it costs
 * ~80 ms of script hashing on TF.js's load); whatever needs it later turns it on: a breakpoint set
 * while the program runs, a pause, a stop the agent decides on. Real adapter, real program.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { fixture, THREAD, useDebugAdapter, withSession } from '../helpers/dap.js';
import { lineOf } from '../helpers/markers.js';

useDebugAdapter();

const TICKING = fixture('ticking-program.ts');
const TICK_BODY = lineOf(TICKING, '@tick-body'); // const next = x.map((v) => v + 1);
const T = { timeout: 60_000 };

describe('the debugger, off until needed', () => {
  test('a breakpoint set while the program runs binds at once (verified) and is hit', T, () =>
    withSession(async (s) => {
      await s.launch({ program: TICKING });
      await s.waitForOutput(/tick 3\n/, 'stdout');
      const set = await s.dc.setBreakpointsRequest({ source: { path: TICKING }, breakpoints: [{ line: TICK_BODY }] });
      assert.equal(set.body.breakpoints[0]?.verified, true, JSON.stringify(set.body.breakpoints));
      const stop = await s.stopped();
      assert.equal(stop.body.reason, 'breakpoint');
      const [top] = await s.stack();
      assert.equal(top?.name, 'tick');
      assert.equal(top?.source?.path, TICKING);
      assert.equal(top?.line, TICK_BODY);
      const cb = await s.scope(top!.id, 'Callback');
      assert.match(cb.get('x').value, /^NdArray float32\[2\] /);
    }),
  );

  test('pause while it runs stops the program in its code', T, () =>
    withSession(async (s) => {
      await s.launch({ program: TICKING });
      await s.waitForOutput(/tick 3\n/, 'stdout');
      await s.dc.pauseRequest({ threadId: THREAD });
      const stop = await s.stopped();
      assert.equal(stop.body.reason, 'pause');
      assert.ok((await s.stack()).length > 0, 'a paused program has frames');
    }),
  );

  test('a function breakpoint set while it runs stops in the callback, inputs bound', T, () =>
    withSession(async (s) => {
      await s.launch({ program: TICKING });
      await s.waitForOutput(/tick 3\n/, 'stdout');
      await s.dc.setFunctionBreakpointsRequest({ breakpoints: [{ name: 'tick' }] });
      const stop = await s.stopped();
      assert.equal(stop.body.reason, 'function breakpoint');
      const [top] = await s.stack();
      assert.equal(top?.name, 'tick');
      assert.equal(top?.line, TICK_BODY);
      const cb = await s.scope(top!.id, 'Callback');
      assert.match(cb.get('x').value, /^NdArray float32\[2\] min=\d+ max=\d+/);
    }),
  );
});
