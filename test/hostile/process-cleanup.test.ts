/**
 * Nothing outlives the session: a child the program started with `detached: true` (a process
 * group of its own) and the session's private socket directory are gone after a disconnect, a
 * terminate, an adapter killed with SIGKILL, and a client that vanished without a word.
 * Real adapter (dist/), real debuggee, a real `sleep` child. Polls with generous deadlines.
 */
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { eventually, isAlive, root, THREAD, useDebugAdapter, withSession, type Session } from '../helpers/dap.js';
import { lineOf } from '../helpers/markers.js';

useDebugAdapter();

const HOSTILE = path.join(root, 'test', 'fixtures', 'hostile', 'hostile-program.ts');
const STOP_LINE = lineOf(HOSTILE, '@stop');
const T = { timeout: 90_000 };
const DEADLINE_MS = 20_000;

interface Started {
  debuggee: number;
  detached: number;
  socketDir: string;
}

/** Launches the fixture with a detached child, stops in hold, and returns what must go at the end. */
async function pausedWithDetachedChild(s: Session): Promise<Started> {
  await s.launch({ program: HOSTILE, args: ['detached'] }, (dc) => dc.setBreakpointsRequest({ source: { path: HOSTILE }, breakpoints: [{ line: STOP_LINE }] }));
  await s.stopped();
  await s.waitForOutput(/PIDS debuggee=\d+ detached=\d+/, 'stdout');
  const m = /PIDS debuggee=(\d+) detached=(\d+)/.exec(s.output('stdout'))!;
  const debuggee = Number(m[1]);
  const detached = Number(m[2]);
  // The debuggee's environment as it started names the session's socket.
  const environ = fs.readFileSync(`/proc/${debuggee}/environ`, 'utf8').split('\0');
  const socket = environ.find((e) => e.startsWith('TFJS_CALLBACKS_DEBUG_SOCKET='))!.split('=')[1]!;
  const socketDir = path.dirname(socket);
  assert.ok(isAlive(detached), 'the detached child runs while paused');
  assert.ok(fs.existsSync(socketDir), 'the socket directory exists while the session runs');
  assert.notEqual(processGroup(detached), processGroup(debuggee), 'the child leads a process group of its own');
  return { debuggee, detached, socketDir };
}

async function assertAllGone(started: Started, how: string): Promise<void> {
  const gone = await eventually(() => !isAlive(started.debuggee) && !isAlive(started.detached) && !fs.existsSync(started.socketDir), DEADLINE_MS);
  const left = [
    isAlive(started.debuggee) ? `the debuggee ${started.debuggee}` : '',
    isAlive(started.detached) ? `the detached child ${started.detached}` : '',
    fs.existsSync(started.socketDir) ? `the socket directory ${started.socketDir}` : '',
  ].filter(Boolean);
  assert.ok(gone, `after ${how}, still there: ${left.join(', ')}`);
}

function processGroup(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
}

function adapterProcess(s: Session): ChildProcess {
  return (s.dc as unknown as { _adapterProcess: ChildProcess })._adapterProcess;
}

describe('the program and everything it started end with the session', () => {
  test('disconnect', T, () =>
    withSession(async (s) => {
      const started = await pausedWithDetachedChild(s);
      await s.dc.disconnectRequest({ terminateDebuggee: true });
      await assertAllGone(started, 'disconnect');
    }),
  );

  test('terminate', T, () =>
    withSession(async (s) => {
      const started = await pausedWithDetachedChild(s);
      await s.dc.terminateRequest({});
      await assertAllGone(started, 'terminate');
    }),
  );

  test('the adapter killed with SIGKILL', T, () =>
    withSession(async (s) => {
      const started = await pausedWithDetachedChild(s);
      process.kill(s.adapterPid, 'SIGKILL');
      await assertAllGone(started, 'the adapter was killed');
    }),
  );

  test('the client vanishes (its pipe closes with no disconnect)', T, () =>
    withSession(async (s) => {
      const started = await pausedWithDetachedChild(s);
      adapterProcess(s).stdin!.end();
      await assertAllGone(started, 'the client vanished');
    }),
  );

  test('the program ends on its own and leaves its detached child running', T, () =>
    withSession(async (s) => {
      const started = await pausedWithDetachedChild(s);
      await s.dc.continueRequest({ threadId: THREAD });
      await s.terminated();
      await assertAllGone(started, 'the program exited');
    }),
  );
});
