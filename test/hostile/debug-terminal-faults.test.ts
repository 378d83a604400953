/**
 * The Debug Terminal never breaks a command: whatever happens to the session or its adapter (never
 * started, stopped before the program connected, killed, its socket removed or never there,
 * refused, the connection closed while the program waits at its bridge, the adapter killed while
 * the program is paused), the program runs to its own end undebugged, its exit code its own, with
 * one stderr line saying why. Before, its bridge killed it with SIGKILL and no word.
 * Real bootloader (dist/), real programs, the extension's real listener; a real adapter where one
 * is in the fault, a bare socket server where the fault is a peer's.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { describe, test } from 'node:test';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { TERMINAL_BRIDGE_EVENT, type TerminalBridgeEventBody, type TerminalSession } from '../../debug-adapter/debuggee/terminal-protocol.js';
import { DebugTerminalListener, terminalConfiguration } from '../../extension/terminal-listener.js';
import { cleanEnv } from '../fixtures/spawn.js';
import { eventually, fixture, isAlive, Session, useDebugAdapter } from '../helpers/dap.js';
import { lineOf } from '../helpers/markers.js';
import { BOOTLOADER, pausedInTerminal, runInTerminal, tempDir, useDebugTerminal } from '../helpers/terminal.js';

useDebugAdapter();
useDebugTerminal();

const T = { timeout: 90_000 };
const LINE = /^tfjs-callbacks debug terminal: /;

/** A program with an exit code of its own, so "ran to its end" is its code and its last line. */
function program(): string {
  const file = path.join(tempDir('tfjs-cb-term-fault-'), 'prog.mjs');
  fs.writeFileSync(file, "console.log('first');\nawait new Promise((r) => setTimeout(r, 200));\nconsole.log('last');\nprocess.exitCode = 3;\n");
  return file;
}

/**
 * Runs the program in a terminal whose extension answers every request with the socket `socketFor`
 * gives; asserts it ran to its end, undebugged, and returns its one line about the debugger.
 */
async function runsUndebugged(socketFor: () => Promise<string>): Promise<string> {
  const listener = await DebugTerminalListener.start(async (): Promise<TerminalSession> => ({ bridgeSocket: await socketFor(), backend: 'cpu' }));
  try {
    const prog = program();
    const run = runInTerminal(process.execPath, [prog], cleanEnv(listener.terminalEnv(BOOTLOADER, undefined)), path.dirname(prog));
    const code = await run.exited;
    assert.equal(run.child.signalCode, null, `ended by ${run.child.signalCode}, not by itself; stderr: ${run.stderr()}`);
    assert.equal(code, 3, run.stderr());
    assert.match(run.stdout(), /first\nlast\n$/);
    const lines = run.stderr().split('\n').filter(Boolean);
    assert.equal(lines.length, 1, `one line on stderr:\n${run.stderr()}`);
    assert.match(lines[0]!, LINE);
    assert.match(lines[0]!, / prog\.mjs runs without the debugger\.$/);
    return lines[0]!;
  } finally {
    listener.dispose();
  }
}

/** A real adapter attached as the extension attaches it, up to its bridge event; `fault` then happens to it. */
async function adapterThen(fault: (s: Session, bridgeSocket: string) => Promise<void>): Promise<string> {
  const s = await Session.start();
  const id = randomUUID();
  const bridge = s.dc.waitForEvent(TERMINAL_BRIDGE_EVENT);
  await s.dc.initializeRequest();
  const request = { version: 1 as const, pid: process.pid, program: 'prog.mjs', args: [], cwd: process.cwd() };
  s.dc.attachRequest(terminalConfiguration(request, id) as unknown as DebugProtocol.AttachRequestArguments).catch(() => {});
  const { bridgeSocket } = (await bridge).body as TerminalBridgeEventBody;
  await fault(s, bridgeSocket);
  return bridgeSocket;
}

describe('the Debug Terminal runs the program undebugged whatever happens to its session', () => {
  test('never started: the socket the extension names was never listened on', T, async () => {
    const dir = tempDir('tfjs-cb-term-none-');
    const line = await runsUndebugged(async () => path.join(dir, 'bridge.sock'));
    assert.match(line, /no debug session listens at .*bridge\.sock \(ENOENT: it ended, or never started, before the program connected\)/);
  });

  test('the socket path is missing: its folder does not exist', T, async () => {
    const line = await runsUndebugged(async () => path.join(tempDir('tfjs-cb-term-gone-'), 'no-such-folder', 'bridge.sock'));
    assert.match(line, /\(ENOENT: /);
  });

  test('connection refused: the path is no socket', T, async () => {
    const file = path.join(tempDir('tfjs-cb-term-refused-'), 'bridge.sock');
    fs.writeFileSync(file, '');
    const line = await runsUndebugged(async () => file);
    assert.match(line, /no debug session listens at .* \(ECONNREFUSED: its adapter stopped or died before the program connected\)/);
  });

  test('stopped early: the session is stopped before the program connects', T, async () => {
    const line = await runsUndebugged(() => adapterThen((s) => s.dc.disconnectRequest({}).then(() => {})));
    assert.match(line, /\(ENOENT: /);
  });

  test('the adapter died (SIGKILL) before the program connected', T, async () => {
    const line = await runsUndebugged(() =>
      adapterThen(async (s) => {
        process.kill(s.adapterPid, 'SIGKILL');
        assert.ok(await eventually(() => !isAlive(s.adapterPid)), 'the adapter is gone');
      }),
    );
    assert.match(line, /\(ECONNREFUSED: /);
  });

  test('the socket is gone: removed while the adapter waits', T, async () => {
    const line = await runsUndebugged(() => adapterThen(async (_s, socket) => fs.rmSync(socket)));
    assert.match(line, /\(ENOENT: /);
  });

  test('the connection closes while the program waits at its bridge (mid-handshake)', T, async () => {
    const socket = path.join(tempDir('tfjs-cb-term-hangup-'), 'bridge.sock');
    const server = net.createServer((peer) => {
      peer.setEncoding('utf8');
      // The bridge says Bridge.held once the preloads ran: the program waits for go, and gets a hang-up.
      peer.on('data', (text: string) => text.includes('Bridge.held') && peer.destroy());
      peer.on('error', () => {});
    });
    await new Promise<void>((resolve) => server.listen(socket, resolve));
    try {
      const line = await runsUndebugged(async () => socket);
      assert.match(line, /the debug session closed its connection before the program started \(its adapter stopped or failed\)/);
    } finally {
      server.close();
    }
  });

  test('the adapter dies (SIGKILL) while the program is paused at a breakpoint: it resumes and runs on to its end', T, async () => {
    const numpy = fixture('numpy-program.ts');
    const { ext, run, s } = await pausedInTerminal(numpy, lineOf(numpy, '@scale-rows-body'));
    try {
      process.kill(s.adapterPid, 'SIGKILL');
      assert.equal(await run.exited, 0, run.stderr());
      assert.equal(run.child.signalCode, null);
      // Its Tout mismatch (a stop under the debugger) is the program's own error again: caught, then done.
      assert.match(run.stdout(), /scaled 2,4,6,8,10,12\n[\s\S]*caught [\s\S]*done\n$/);
      const lines = run
        .stderr()
        .split('\n')
        .filter((l) => LINE.test(l));
      assert.deepEqual(lines, [
        'tfjs-callbacks debug terminal: the debug adapter went away (its connection closed). numpy-program.ts runs on without the debugger.',
      ]);
    } finally {
      await ext.dispose();
    }
  });
});
