/**
 * How sessions end: normal exit, process.exit(code), a debuggee killed while paused, disconnect
 * and terminate, the adapter itself killed; what is left behind (nothing, not even a child process
 * the program spawned); the program's stdout and stderr as output events.
 * Real adapter, real debuggee (under its guardian), real TF.js.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { eventually, fixture, isAlive, processesWithCommandLine, THREAD, useDebugAdapter, withSession, type Session } from '../helpers/dap.js';
import { lineOf } from '../helpers/markers.js';

useDebugAdapter();

const NUMPY = fixture('numpy-program.ts');
const EXIT = fixture('exit-program.ts');
const CHILD = fixture('child-program.ts');
const T = { timeout: 60_000 };

/** Launches child-program.ts, stops in its callback `hold`, and returns the pids it printed. */
async function pausedInChildProgram(s: Session): Promise<{ debuggee: number; child: number }> {
  await s.launch({ program: CHILD }, (dc) => dc.setFunctionBreakpointsRequest({ breakpoints: [{ name: 'hold' }] }));
  const stop = await s.stopped();
  assert.equal(stop.body.reason, 'function breakpoint');
  const top = (await s.stack())[0]!;
  assert.equal(top.name, 'hold');
  assert.equal(top.line, lineOf(CHILD, '@hold-first'));
  await s.waitForOutput(/PIDS debuggee=\d+ child=\d+/, 'stdout');
  const m = /PIDS debuggee=(\d+) child=(\d+)/.exec(s.output('stdout'))!;
  const pids = { debuggee: Number(m[1]), child: Number(m[2]) };
  assert.ok(isAlive(pids.debuggee) && isAlive(pids.child), 'both are running while paused');
  return pids;
}

function leftovers(): string {
  return processesWithCommandLine(CHILD)
    .map((p) => `${p.pid}: ${p.cmdline}`)
    .join('\n');
}

describe('the session ends with the program', () => {
  test("a program that runs to its end: 'exited' with exitCode 0, then 'terminated'", T, () =>
    withSession(async (s) => {
      await s.launch({ program: NUMPY }, (dc) => dc.setExceptionBreakpointsRequest({ filters: [] }));
      const exited = await s.terminated();
      assert.ok(exited, `an 'exited' event: ${s.summary()}`);
      assert.equal(exited.body.exitCode, 0);
      const order = s.events.filter((e) => e.event === 'exited' || e.event === 'terminated').map((e) => e.event);
      assert.deepEqual(order, ['exited', 'terminated']);
      assert.match(s.output('stdout'), /done\n/);
    }),
  );

  test('process.exit(3): exitCode 3', T, () =>
    withSession(async (s) => {
      await s.launch({ program: EXIT, args: ['3'] });
      const exited = await s.terminated();
      assert.equal(exited?.body.exitCode, 3);
    }),
  );

  test("the program's stdout and stderr arrive as output events of those categories", T, () =>
    withSession(async (s) => {
      await s.launch({ program: EXIT, args: ['0'] });
      const exited = await s.terminated();
      assert.equal(exited?.body.exitCode, 0);
      assert.match(s.output('stdout'), /^stdout line from exit-program$/m);
      assert.match(s.output('stderr'), /^stderr line from exit-program$/m);
      assert.doesNotMatch(s.output('stdout'), /stderr line/);
      assert.doesNotMatch(s.output('stderr'), /stdout line/);
    }),
  );

  test('console.log of a TF.js program (and the backend line, on stdout) arrive while it runs', T, () =>
    withSession(async (s) => {
      await s.launch({ program: NUMPY }, (dc) => dc.setFunctionBreakpointsRequest({ breakpoints: [{ name: 'log_huber' }] }));
      await s.stopped();
      // scale_rows ran before log_huber: its line is out while the program is paused.
      await s.waitForOutput('scaled 2,4,6,8,10,12\n', 'stdout');
      await s.waitForOutput('[tfjs-callbacks] backend: cpu', 'stdout');
      await s.dc.continueRequest({ threadId: THREAD });
      await s.waitFor('stopped'); // the Tout mismatch
      await s.dc.continueRequest({ threadId: THREAD });
      await s.terminated();
      assert.match(s.output('stdout'), /log_huber 1\n[\s\S]*done\n/);
    }),
  );
});

describe('launch errors', () => {
  test('a program that does not exist: the launch fails with an error naming it', T, () =>
    withSession(async (s) => {
      const missing = fixture('no-such-program.ts');
      await assert.rejects(s.launch({ program: missing }), (err: Error) => err.message.includes(missing) && /does not exist/.test(err.message));
      // The adapter still answers.
      const threads = await s.dc.threadsRequest();
      assert.equal(threads.body.threads.length, 1);
    }),
  );

  test('program and model together are refused', T, () =>
    withSession(async (s) => {
      await assert.rejects(s.launch({ program: NUMPY, model: 'examples/models/standardize/model.json' }), /either program or model/);
    }),
  );
});

describe('killing and disconnecting', () => {
  test('a debuggee killed (SIGKILL) while paused in a callback ends the session cleanly', T, () =>
    withSession(async (s) => {
      const pids = await pausedInChildProgram(s);
      process.kill(pids.debuggee, 'SIGKILL');
      const exited = await s.terminated();
      assert.ok(exited, `an 'exited' event: ${s.summary()}`);
      assert.notEqual(exited.body.exitCode, 0);
      // The adapter outlives its debuggee (it exits on the client's disconnect only) and still answers.
      assert.ok(isAlive(s.adapterPid), `the adapter ${s.adapterPid} is still running after its debuggee was killed`);
      const threads = await s.dc.threadsRequest();
      assert.deepEqual(
        threads.body.threads.map((t) => t.id),
        [THREAD],
      );
      // A client disconnects after 'terminated'; then nothing of the program is left, its child included.
      await s.dc.disconnectRequest({});
      assert.ok(await eventually(() => !isAlive(pids.child)), `the child process ${pids.child} the program spawned is gone`);
      assert.ok(await eventually(() => leftovers() === ''), `nothing of the program is left:\n${leftovers()}`);
    }),
  );

  test('disconnect while paused in a callback leaves no process behind, the spawned child included', T, () =>
    withSession(async (s) => {
      const pids = await pausedInChildProgram(s);
      assert.notEqual(leftovers(), '', 'the guardian and the debuggee show up with the program path');
      const tree = [...s.pids].filter((p) => p !== s.adapterPid);
      await s.dc.disconnectRequest({});
      assert.ok(await eventually(() => !isAlive(pids.debuggee)), `the debuggee ${pids.debuggee} is gone`);
      assert.ok(await eventually(() => !isAlive(pids.child)), `the child process ${pids.child} is gone`);
      assert.ok(await eventually(() => leftovers() === ''), `nothing of the program is left:\n${leftovers()}`);
      assert.ok(await eventually(() => tree.every((p) => !isAlive(p))), `every process the adapter started is gone: ${tree.filter(isAlive).join(', ')}`);
    }),
  );

  test('terminate while paused in a callback ends the program and the session', T, () =>
    withSession(async (s) => {
      const pids = await pausedInChildProgram(s);
      await s.dc.terminateRequest({});
      const exited = await s.terminated();
      assert.ok(exited, `an 'exited' event: ${s.summary()}`);
      assert.ok(await eventually(() => !isAlive(pids.debuggee) && !isAlive(pids.child)));
      assert.ok(await eventually(() => leftovers() === ''), `nothing of the program is left:\n${leftovers()}`);
    }),
  );

  test('the adapter killed (SIGKILL) while the debuggee is paused leaves no debuggee, guardian or child behind', T, () =>
    withSession(async (s) => {
      const pids = await pausedInChildProgram(s);
      process.kill(s.adapterPid, 'SIGKILL');
      assert.ok(await eventually(() => !isAlive(s.adapterPid)), 'the adapter is gone');
      assert.ok(await eventually(() => !isAlive(pids.debuggee)), `the debuggee ${pids.debuggee} is gone`);
      assert.ok(await eventually(() => !isAlive(pids.child)), `the child process ${pids.child} is gone`);
      assert.ok(await eventually(() => leftovers() === ''), `nothing of the program is left:\n${leftovers()}`);
      const tree = [...s.pids];
      assert.ok(tree.length >= 2, `the adapter started the debuggee and its watchdog: ${tree.join(', ')}`);
      assert.ok(await eventually(() => tree.every((p) => !isAlive(p))), `every process the adapter started is gone: ${tree.filter(isAlive).join(', ')}`);
    }),
  );
});
