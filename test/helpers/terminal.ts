/**
 * The Debug Terminal without VS Code, for tests: this module plays the extension
 * (extension/terminal-listener.ts, the module the extension's glue uses, and the real adapter,
 * dist/debug-adapter/main.js, attached with the configuration the extension builds), and runs
 * commands with the terminal's environment (NODE_OPTIONS loading the built bootloader), as a shell
 * in that terminal would start them.
 *
 * Usage, at the top of a test file: `useDebugAdapter(); useDebugTerminal();`.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after } from 'node:test';
import type { DebugClient } from '@vscode/debugadapter-testsupport';
import type { DebugProtocol } from '@vscode/debugprotocol';
import {
  TERMINAL_BRIDGE_EVENT,
  type TerminalBridgeEventBody,
  type TerminalDebugRequest,
  type TerminalSession,
} from '../../debug-adapter/debuggee/terminal-protocol.js';
import { DebugTerminalListener, terminalConfiguration } from '../../extension/terminal-listener.js';
import type { BackendChoice } from '../../runtime/backend-choice.js';
import { cleanEnv } from '../fixtures/spawn.js';
import { root, Session, THREAD } from './dap.js';

export const BOOTLOADER = path.join(root, 'dist', 'debug-adapter', 'debuggee', 'boot.cjs');
/** The line the bootloader writes when a program runs undebugged. */
export const BOOT_LINE = /^tfjs-callbacks debug terminal: /;

const programs = new Set<ChildProcess>();
const sessions = new Set<Session>();
const temps: string[] = [];

/** Registers the after() that ends what the tests left running and removes their folders. */
export function useDebugTerminal(): void {
  after(async () => {
    for (const p of programs) if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
    for (const s of sessions) await s.close().catch(() => {});
    for (const dir of temps) fs.rmSync(dir, { recursive: true, force: true });
  });
}

/** The extension's side: the listener, and for each request a real adapter attached as the extension attaches it. */
export class FakeExtension {
  readonly requests: TerminalDebugRequest[] = [];
  readonly sessions: Session[] = [];
  private constructor(
    readonly listener: DebugTerminalListener,
    private readonly configure: (dc: DebugClient) => Promise<unknown>,
    /** The `tfjsCallbacks.backend` setting of the program's folder, as debug-terminal.ts reads it. */
    private readonly backend: BackendChoice,
  ) {}

  /** `backend`: the setting the extension answers with (VS Code's default: auto). */
  static async start(configure: (dc: DebugClient) => Promise<unknown> = async () => {}, options: { backend?: BackendChoice } = {}): Promise<FakeExtension> {
    let self: FakeExtension | undefined;
    const listener = await DebugTerminalListener.start((request) => self!.startSession(request));
    self = new FakeExtension(listener, configure, options.backend ?? 'auto');
    return self;
  }

  /** What debug-terminal.ts does with vscode.debug.startDebugging: the bridge socket from the adapter's event, and the setting. */
  private async startSession(request: TerminalDebugRequest): Promise<TerminalSession> {
    this.requests.push(request);
    const s = await Session.start();
    sessions.add(s);
    this.sessions.push(s);
    const id = randomUUID();
    const bridge = s.dc.waitForEvent(TERMINAL_BRIDGE_EVENT);
    void s.waitFor('initialized').then(async () => {
      await this.configure(s.dc);
      await s.dc.configurationDoneRequest();
    });
    await s.dc.initializeRequest();
    s.dc.attachRequest(terminalConfiguration(request, id) as unknown as DebugProtocol.AttachRequestArguments).catch(() => {});
    const body = (await bridge).body as TerminalBridgeEventBody;
    assert.equal(body.id, id, 'the event names the session the extension started');
    return { bridgeSocket: body.bridgeSocket, backend: this.backend };
  }

  /** A terminal's environment (TFJS_BACKEND=cpu unless `extra` says otherwise; undefined removes a variable); `nodeOptions`: what NODE_OPTIONS held in VS Code's. */
  env(extra: Record<string, string | undefined> = {}, nodeOptions?: string): NodeJS.ProcessEnv {
    return cleanEnv({ ...this.listener.terminalEnv(BOOTLOADER, nodeOptions), TFJS_BACKEND: 'cpu', ...extra });
  }

  async dispose(): Promise<void> {
    for (const s of this.sessions) await s.close().catch(() => {});
    this.listener.dispose();
  }
}

export interface Run {
  readonly child: ChildProcess;
  readonly exited: Promise<number | null>;
  stdout(): string;
  stderr(): string;
}

/** A command as the terminal's shell starts it: its output is the terminal's. */
export function runInTerminal(command: string, args: string[], env: NodeJS.ProcessEnv, cwd = root): Run {
  const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  programs.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  return { child, exited, stdout: () => stdout, stderr: () => stderr };
}

/** `program` run in a terminal whose extension sets a breakpoint at `line`, paused there: the extension, the run, its session. */
export async function pausedInTerminal(program: string, line: number): Promise<{ ext: FakeExtension; run: Run; s: Session }> {
  const ext = await FakeExtension.start((dc) => dc.setBreakpointsRequest({ source: { path: program }, breakpoints: [{ line }] }));
  try {
    const run = runInTerminal(process.execPath, [program], ext.env());
    await waitUntil(() => ext.sessions.length === 1, 30_000, 'the program asked for a session');
    const s = ext.sessions[0]!;
    assert.equal((await s.stopped()).body.reason, 'breakpoint');
    return { ext, run, s };
  } catch (err) {
    await ext.dispose();
    throw err;
  }
}

/** A fresh folder, removed after the tests. */
export function tempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  temps.push(dir);
  return dir;
}

/** Continues from every stop until the session ends; returns the stops' reasons. */
export async function runToEnd(s: Session): Promise<string[]> {
  const reasons: string[] = [];
  for (let stop = await s.nextStop(); stop; stop = await s.nextStop()) {
    reasons.push(stop.body.reason);
    await s.dc.continueRequest({ threadId: THREAD });
  }
  return reasons;
}

export async function waitUntil(check: () => boolean, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
