/**
 * A callback's durationMs leaves out the time the debugger held it paused; the program's exit code
 * is written to the Debug Console when it ends, as js-debug does. Real adapter, real debuggee.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { fixture, sleep, THREAD, useDebugAdapter, withSession } from '../helpers/dap.js';
import { lineOf } from '../helpers/markers.js';

useDebugAdapter();

const TIMING = fixture('timing-program.ts');
const EXIT = fixture('exit-program.ts');
const T = { timeout: 60_000 };
const PAUSE_MS = 1500;
/** What the printed times' rounding (0.1 ms each) and a timer firing up to 1 ms early may take off. */
const SLACK_MS = 3;

describe('callback timings under the debugger', () => {
  test(`a stop of ${PAUSE_MS} ms inside a callback (and a step) is not in its durationMs`, T, () =>
    withSession(async (s) => {
      const line = lineOf(TIMING, '@doubled-body');
      await s.launch({ program: TIMING }, (dc) => dc.setBreakpointsRequest({ source: { path: TIMING }, breakpoints: [{ line }] }));
      assert.equal((await s.stopped()).body.reason, 'breakpoint');
      await sleep(PAUSE_MS / 2);
      await s.dc.nextRequest({ threadId: THREAD });
      assert.equal((await s.stopped()).body.reason, 'step');
      await sleep(PAUSE_MS / 2);
      await s.dc.continueRequest({ threadId: THREAD });
      await s.terminated();
      const duration = Number(/duration doubled (\d+\.\d)/.exec(s.output('stdout'))?.[1]);
      const wall = Number(/wall doubled (\d+\.\d)/.exec(s.output('stdout'))?.[1]);
      assert.ok(Number.isFinite(duration) && Number.isFinite(wall), s.output());
      // No bound on time: the call took `wall`, of which the test held it paused at least PAUSE_MS;
      // durationMs leaves that out however long anything took on this machine.
      assert.ok(duration <= wall - PAUSE_MS + SLACK_MS, `durationMs ${duration} of a ${wall} ms call leaves out the ${PAUSE_MS} ms paused`);
      assert.match(s.output('stdout'), /doubled 2,4,6/);
    }),
  );
});

describe('the exit code in the Debug Console', () => {
  test('a non-zero code on stderr (red), after the program’s own output', T, () =>
    withSession(async (s) => {
      await s.launch({ program: EXIT, args: ['3'] });
      const exited = await s.terminated();
      assert.equal(exited?.body.exitCode, 3);
      assert.match(s.output('stderr'), /stderr line from exit-program\n[\s\S]*Program exited with code 3\n$/);
      const last = s.all('output').at(-1)!;
      assert.deepEqual([last.body.category, last.body.output], ['stderr', 'Program exited with code 3\n']);
    }),
  );

  test('Stop (terminate) says the program was stopped as asked, with the signal, not as a failure in red', T, () =>
    withSession(async (s) => {
      const line = lineOf(TIMING, '@doubled-body');
      await s.launch({ program: TIMING }, (dc) => dc.setBreakpointsRequest({ source: { path: TIMING }, breakpoints: [{ line }] }));
      await s.stopped();
      await s.dc.terminateRequest({});
      const exited = await s.terminated();
      assert.equal(exited?.body.exitCode, 137, s.summary());
      assert.match(s.output('console'), /^Program stopped by SIGKILL, as asked \(exit code 137\)$/m, s.summary());
      assert.doesNotMatch(s.output('stderr'), /Program exited/, s.summary());
    }),
  );

  test('code 0 in the console category', T, () =>
    withSession(async (s) => {
      await s.launch({ program: EXIT, args: ['0'] });
      await s.terminated();
      assert.equal(s.output('console').match(/Program exited with code 0\n/g)?.length, 1, s.summary());
      assert.doesNotMatch(s.output('stderr'), /Program exited/);
    }),
  );
});
