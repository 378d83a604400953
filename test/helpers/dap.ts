/**
 * Helpers for protocol tests of the debug adapter: a DebugClient against the REAL built adapter
 * (dist/debug-adapter/main.js), which launches a real debuggee running real TF.js.
 *
 * Usage, at the top of a test file:
 *   useDebugAdapter();          // builds dist/ if main.js is missing; kills what the tests left behind
 *   test('…', { timeout: 60_000 }, () => withSession(async (s) => {
 *     await s.launch({ program: fixture('numpy-program.ts') }, async (dc) => { await dc.setBreakpointsRequest(…); });
 *     const stop = await s.stopped();
 *     …
 *   }));
 *
 * Every event the adapter sends is recorded from the start, so `waitFor` never misses an event
 * that arrived before it was called.
 */
import assert from 'node:assert/strict';
import { execSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before } from 'node:test';
import { DebugClient } from '@vscode/debugadapter-testsupport';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { cleanEnv, repoRoot } from '../fixtures/spawn.js';

export const root = repoRoot;
export const adapterMain = path.join(root, 'dist', 'debug-adapter', 'main.js');
export const THREAD = 1;
/** Generous: every wait in these tests is for a real process doing real work. */
export const WAIT_MS = 45_000;

export function fixture(name: string): string {
  return path.join(root, 'test', 'fixtures', 'debug', name);
}

/** Registers the before() that builds the adapter when it is missing and the after() that cleans up. */
export function useDebugAdapter(): void {
  before(() => {
    if (!fs.existsSync(adapterMain)) execSync('npm run build', { cwd: root, stdio: 'inherit', timeout: 300_000 });
    assert.ok(fs.existsSync(adapterMain), `${adapterMain} should exist after npm run build`);
  });
  after(async () => {
    for (const s of [...live]) await s.close().catch(() => {});
    // Processes the tests started (adapters, guardians, debuggees, their children) that are still there.
    for (const pid of started) if (isAlive(pid)) killQuietly(pid);
  });
}

/**
 * Runs `body` with a started session and always closes it (adapter, debuggee and their children).
 * `env`: more environment for the adapter (and so the debuggee).
 */
export async function withSession<T>(body: (s: Session) => Promise<T>, env: Record<string, string> = {}): Promise<T> {
  const s = await Session.start(env);
  try {
    return await body(s);
  } finally {
    await s.close();
  }
}

// ---- processes ----------------------------------------------------------------------------------

/** Every pid a session saw under its adapter: killed in after() if still alive. */
const started = new Set<number>();
const live = new Set<Session>();

/** Alive and not a zombie. */
export function isAlive(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

function killQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

/** pid → ppid for every process. */
function parents(): Map<number, number> {
  const out = new Map<number, number>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(Number(entry), Number(fields[1]));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** All living descendants of `pid`. */
export function descendants(pid: number): number[] {
  const ppid = parents();
  const out: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const p = queue.shift()!;
    for (const [child, parent] of ppid) {
      if (parent === p && !out.includes(child)) {
        out.push(child);
        queue.push(child);
      }
    }
  }
  return out.filter(isAlive);
}

/** Living processes (other than this one) whose command line contains `text`. */
export function processesWithCommandLine(text: string): { pid: number; cmdline: string }[] {
  const out: { pid: number; cmdline: string }[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const cmdline = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ');
      if (cmdline.includes(text) && isAlive(Number(entry))) out.push({ pid: Number(entry), cmdline });
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** Polls `check` until it returns true or `ms` pass; returns its last result. */
export async function eventually(check: () => boolean, ms = 10_000): Promise<boolean> {
  const end = Date.now() + ms;
  for (;;) {
    if (check()) return true;
    if (Date.now() > end) return false;
    await sleep(100);
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

// ---- the session --------------------------------------------------------------------------------

const EVENTS = [
  'initialized',
  'stopped',
  'continued',
  'exited',
  'terminated',
  'output',
  'breakpoint',
  'tensorCallback',
  'graphNode',
  'graphRun',
  'dataBreakpoint',
  'pinnedValues',
  'tfjsBackend',
  'trainingCurve',
  'thread',
  'process',
  'module',
  'loadedSource',
  'invalidated',
  'capabilities',
];

export interface VariableMap {
  readonly list: DebugProtocol.Variable[];
  get(name: string): DebugProtocol.Variable;
  has(name: string): boolean;
}

export class Session {
  readonly events: DebugProtocol.Event[] = [];
  private readonly consumed = new Set<DebugProtocol.Event>();
  private readonly waiters = new Set<() => void>();
  private closed = false;
  readonly adapterPid: number;
  /** Every pid seen under the adapter, kept for cleanup. */
  readonly pids = new Set<number>();

  private constructor(readonly dc: DebugClient) {
    const proc = (dc as unknown as { _adapterProcess: ChildProcess | null })._adapterProcess;
    assert.ok(proc?.pid, 'the adapter process should have started');
    this.adapterPid = proc.pid;
    started.add(this.adapterPid);
    for (const name of EVENTS) {
      dc.on(name, (e: DebugProtocol.Event) => {
        this.events.push(e);
        for (const w of [...this.waiters]) w();
      });
    }
  }

  static async start(env: Record<string, string> = {}): Promise<Session> {
    const dc = new DebugClient('node', adapterMain, 'tfjs-callbacks', { env: cleanEnv(env), cwd: root }, !!process.env.DAP_TEST_STDERR);
    dc.defaultTimeout = WAIT_MS;
    await dc.start();
    const s = new Session(dc);
    live.add(s);
    return s;
  }

  /**
   * initialize + launch; on 'initialized' runs `configure` (breakpoints, filters) and then
   * configurationDone. Resolves when the launch response arrived (the program runs by then).
   */
  async launch(args: Record<string, unknown>, configure?: (dc: DebugClient) => Promise<unknown>): Promise<DebugProtocol.LaunchResponse> {
    const configured = this.waitFor('initialized').then(async () => {
      await configure?.(this.dc);
      await this.dc.configurationDoneRequest();
    });
    const [, response] = await Promise.all([configured, this.dc.launch({ cwd: root, backend: 'cpu', ...args })]);
    this.trackProcesses();
    return response;
  }

  /** The first recorded event of `type` (matching `predicate`) not returned before; waits for it. */
  waitFor(type: string, predicate: (e: DebugProtocol.Event) => boolean = () => true, ms = WAIT_MS): Promise<DebugProtocol.Event> {
    return this.next([type], predicate, ms);
  }

  /**
   * The next stop, or undefined when the session ends first (a 'terminated' event). Use this, not
   * a race of two waits: a losing wait would still consume a later event.
   */
  async nextStop(ms = WAIT_MS): Promise<DebugProtocol.StoppedEvent | undefined> {
    const e = await this.next(['stopped', 'terminated'], () => true, ms);
    if (e.event === 'terminated') return undefined;
    this.trackProcesses();
    return e as DebugProtocol.StoppedEvent;
  }

  /** The first unreturned recorded event of any of `types` (matching `predicate`); waits for it. */
  next(types: string[], predicate: (e: DebugProtocol.Event) => boolean = () => true, ms = WAIT_MS): Promise<DebugProtocol.Event> {
    const type = types.join('|');
    return new Promise((resolve, reject) => {
      const check = (): boolean => {
        const e = this.events.find((x) => types.includes(x.event) && !this.consumed.has(x) && predicate(x));
        if (!e) return false;
        this.consumed.add(e);
        cleanup();
        resolve(e);
        return true;
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`no '${type}' event within ${ms} ms; events so far: ${this.summary()}`));
      }, ms);
      const waiter = (): void => void check();
      const cleanup = (): void => {
        clearTimeout(timer);
        this.waiters.delete(waiter);
      };
      this.waiters.add(waiter);
      check();
    });
  }

  async stopped(ms = WAIT_MS): Promise<DebugProtocol.StoppedEvent> {
    const e = (await this.waitFor('stopped', undefined, ms)) as DebugProtocol.StoppedEvent;
    this.trackProcesses();
    return e;
  }

  /** Waits for 'terminated' (and returns the 'exited' event that came before it, if any). */
  async terminated(ms = WAIT_MS): Promise<DebugProtocol.ExitedEvent | undefined> {
    await this.waitFor('terminated', undefined, ms);
    return this.events.find((e) => e.event === 'exited') as DebugProtocol.ExitedEvent | undefined;
  }

  /** Recorded events of `type` (consumed or not). */
  all(type: string): DebugProtocol.Event[] {
    return this.events.filter((e) => e.event === type);
  }

  /** Output of one category so far, concatenated. */
  output(category?: string): string {
    return this.all('output')
      .filter((e) => category === undefined || (e.body.category ?? 'console') === category)
      .map((e) => String(e.body.output))
      .join('');
  }

  /** Waits until output of `category` contains `text`. */
  async waitForOutput(text: string | RegExp, category?: string, ms = WAIT_MS): Promise<void> {
    const has = (): boolean => (typeof text === 'string' ? this.output(category).includes(text) : text.test(this.output(category)));
    await this.waitFor('output', () => has(), ms).catch((err: Error) => {
      if (!has()) throw new Error(`${err.message}\noutput (${category ?? 'all'}):\n${this.output(category)}`);
    });
  }

  summary(): string {
    return this.events
      .map((e) =>
        e.event === 'output'
          ? `output(${e.body.category}:${JSON.stringify(String(e.body.output).slice(0, 60))})`
          : `${e.event}${e.body ? JSON.stringify(e.body).slice(0, 160) : ''}`,
      )
      .join(', ');
  }

  async stack(): Promise<DebugProtocol.StackFrame[]> {
    return (await this.dc.stackTraceRequest({ threadId: THREAD })).body.stackFrames;
  }

  async scopes(frameId: number): Promise<DebugProtocol.Scope[]> {
    return (await this.dc.scopesRequest({ frameId })).body.scopes;
  }

  /** Variables of a scope (by name) of a frame. */
  async scope(frameId: number, name: string): Promise<VariableMap> {
    const scopes = await this.scopes(frameId);
    const scope = scopes.find((s) => s.name === name);
    assert.ok(scope, `frame ${frameId} should have a ${name} scope; it has ${scopes.map((s) => s.name).join(', ')}`);
    return this.variables(scope.variablesReference);
  }

  async variables(variablesReference: number, start?: number, count?: number): Promise<VariableMap> {
    const args: DebugProtocol.VariablesArguments = { variablesReference, ...(start !== undefined ? { start } : {}), ...(count !== undefined ? { count } : {}) };
    const list = (await this.dc.variablesRequest(args)).body.variables;
    return variableMap(list);
  }

  async evaluate(expression: string, frameId?: number, context: 'repl' | 'watch' | 'hover' = 'repl'): Promise<DebugProtocol.EvaluateResponse['body']> {
    return (await this.dc.evaluateRequest({ expression, context, ...(frameId !== undefined ? { frameId } : {}) })).body;
  }

  /** Remembers the adapter's descendants (guardian, debuggee, what it spawned) for cleanup. */
  trackProcesses(): void {
    for (const pid of descendants(this.adapterPid)) {
      this.pids.add(pid);
      started.add(pid);
    }
  }

  /** disconnect + stop the adapter; then kills whatever of its process tree is still there. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    live.delete(this);
    if (isAlive(this.adapterPid)) this.trackProcesses();
    await Promise.race([this.dc.stop(), sleep(10_000)]);
    if (isAlive(this.adapterPid)) killQuietly(this.adapterPid);
    await eventually(() => [...this.pids].every((p) => !isAlive(p)), 5_000);
    for (const pid of this.pids) if (isAlive(pid)) killQuietly(pid);
  }
}

export function variableMap(list: DebugProtocol.Variable[]): VariableMap {
  return {
    list,
    has: (name) => list.some((v) => v.name === name),
    get(name) {
      const v = list.find((x) => x.name === name);
      assert.ok(v, `no variable ${name} among ${list.map((x) => `${x.name}=${x.value}`).join(', ')}`);
      return v;
    },
  };
}

/** The first frame that is the program's own code (not 'subtle', not a graph 'label' frame). */
export function firstUserFrame(frames: DebugProtocol.StackFrame[]): DebugProtocol.StackFrame | undefined {
  return frames.find((f) => f.presentationHint !== 'subtle' && f.presentationHint !== 'label');
}

/** A frame's one-line description, for assertion messages. */
export function describeFrames(frames: DebugProtocol.StackFrame[]): string {
  return frames.map((f) => `${f.name} @ ${f.source?.path ?? '?'}:${f.line}${f.presentationHint ? ` [${f.presentationHint}]` : ''}`).join('\n  ');
}

// ---- raw requests (hostile-input tests) ---------------------------------------------------------

/** The outcome of a request sent with any arguments at all: the adapter's response, or no answer. */
export type RawOutcome = { answered: true; response: DebugProtocol.Response } | { answered: false; command: string; args: unknown };

/**
 * Sends `command` with `args` exactly as given (DebugClient.send drops null and empty arguments)
 * and resolves with the response, success or error, or with `answered: false` after `ms`.
 */
export function rawRequest(dc: DebugClient, command: string, args: unknown, ms = WAIT_MS): Promise<RawOutcome> {
  const client = dc as unknown as { sequence: number; pendingRequests: Map<number, (r: DebugProtocol.Response) => void>; outputStream: NodeJS.WritableStream };
  const seq = client.sequence++;
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      client.pendingRequests.delete(seq);
      resolve({ answered: false, command, args });
    }, ms);
    client.pendingRequests.set(seq, (response) => {
      clearTimeout(timer);
      resolve({ answered: true, response });
    });
    const request: Record<string, unknown> = { type: 'request', seq, command };
    if (args !== undefined) request.arguments = args;
    const json = JSON.stringify(request);
    client.outputStream.write(`Content-Length: ${Buffer.byteLength(json, 'utf8')}\r\n\r\n${json}`, 'utf8');
  });
}

/** The private socket directories (tfjs-cb-dbg-*) in the temp dir now. */
export function socketDirs(): string[] {
  const tmp = os.tmpdir();
  return fs
    .readdirSync(tmp)
    .filter((n) => n.startsWith('tfjs-cb-dbg-'))
    .map((n) => path.join(tmp, n));
}
