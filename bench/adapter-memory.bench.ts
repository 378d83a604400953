/**
 * The debug adapter's own memory over a long session (issue 42): 2,000 stops of
 * bench/programs/long-session.ts, each looked at as VS Code does (stackTrace, scopes, variables
 * one level down), the adapter's heap and RSS read after a forced full GC at stops 100, 500, 1000,
 * 1500 and 2000. The GC and the reading come from a preload (bench/adapter-gc-hook.cjs, on SIGUSR2):
 * the adapter has no hook of its own for it. A heap that grows with the stops is a leak; an RSS that
 * grows while the heap after GC does not is V8 and malloc keeping pages, not objects.
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { DebugClient } from '@vscode/debugadapter-testsupport';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const adapter = path.join(root, 'dist', 'debug-adapter', 'main.js');
const program = path.join(root, 'bench', 'programs', 'long-session.ts');
const hook = path.join(root, 'bench', 'adapter-gc-hook.cjs');
/** `BENCH_SESSION_STOPS` sets another count (a quick check); the marks past it are left out. */
const STOPS = Number(process.env.BENCH_SESSION_STOPS ?? 2000);
/** Stop 1 too: the adapter's memory before V8 has sized its heap for the session. */
const MARKS = [1, 100, 500, 1000, 1500, 2000].filter((m) => m <= STOPS);
/** `BENCH_ADAPTER_NODE_OPTIONS`: more Node options for the adapter alone (`--max-semi-space-size=1`: is the RSS V8's young generation?). */
const MORE_OPTIONS = process.env.BENCH_ADAPTER_NODE_OPTIONS ?? '';
const THREAD = 1;

interface Reading {
  readonly heapUsed: number;
  /** Buffers and other memory outside V8's heap that JS objects hold. */
  readonly external: number;
  readonly rss: number;
}

/** Forces a GC in the adapter and reads its memory (the hook appends one line per signal). */
async function readAdapter(pid: number, file: string, count: number): Promise<Reading> {
  process.kill(pid, 'SIGUSR2');
  for (let waited = 0; waited < 30_000; waited += 20) {
    const lines = existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n') : [];
    if (lines.length >= count) return JSON.parse(lines[count - 1]!) as Reading;
    await sleep(20);
  }
  throw new Error(`the adapter (pid ${pid}) wrote no memory reading to ${file} in 30 s: was ${hook} preloaded?`);
}

/** One stop looked at as VS Code looks: the stack, its top frame's scopes, each cheap scope's variables and their children. */
async function lookAround(dc: DebugClient): Promise<void> {
  const frame = (await dc.stackTraceRequest({ threadId: THREAD, startFrame: 0, levels: 20 })).body.stackFrames[0]!;
  for (const scope of (await dc.scopesRequest({ frameId: frame.id })).body.scopes) {
    if (scope.expensive) continue;
    const vars = (await dc.variablesRequest({ variablesReference: scope.variablesReference })).body.variables;
    for (const v of vars) if (v.variablesReference > 0) await dc.variablesRequest({ variablesReference: v.variablesReference });
  }
}

/** Launched and at its first stop (DebugClient.hitBreakpoint checks where it stopped); the breakpoint is verified once the program loads its file. */
async function launchToFirstStop(dc: DebugClient): Promise<void> {
  const line =
    readFileSync(program, 'utf8')
      .split('\n')
      .findIndex((l) => l.includes('BENCH-STOP')) + 1;
  // NODE_OPTIONS: null, so the program does not get the adapter's hook.
  await dc.hitBreakpoint(
    { program, cwd: root, env: { BENCH_STOPS: String(STOPS), NODE_OPTIONS: null } } as never,
    { path: program, line, verified: false },
    { path: program, line },
  );
}

export async function adapterMemoryBenchmarks(print: (line: string) => void): Promise<void> {
  if (!existsSync(adapter)) throw new Error('build first: npm run build');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'adapter-memory-'));
  const file = path.join(dir, 'memory.jsonl');
  print(
    `\n— the adapter's memory after a forced GC over ${STOPS} stops (stackTrace, scopes, variables at each)${MORE_OPTIONS ? ` (adapter: ${MORE_OPTIONS})` : ''} —`,
  );
  const env = { ...process.env, NODE_OPTIONS: `--require "${hook}" ${MORE_OPTIONS}`.trim(), TFJS_BENCH_ADAPTER_MEMORY: file };
  const dc = new DebugClient('node', adapter, 'tfjs-callbacks', { env });
  dc.defaultTimeout = 60_000;
  await dc.start();
  const pid = (dc as unknown as { _adapterProcess: ChildProcess | null })._adapterProcess?.pid;
  if (pid === undefined) throw new Error('the adapter was started in this process, not its own: no memory to read apart');
  const readings = new Map<number, Reading>();
  const started = performance.now();
  try {
    await launchToFirstStop(dc);
    let stopped: Promise<unknown> = Promise.resolve();
    const terminated = dc.waitForEvent('terminated', 30 * 60_000);
    for (let stop = 1; stop <= STOPS; stop++) {
      await stopped;
      await lookAround(dc);
      // Read while the program is paused and the adapter idle: nothing of the next stop is in flight.
      if (MARKS.includes(stop)) readings.set(stop, await readAdapter(pid, file, readings.size + 1));
      if (stop < STOPS) stopped = dc.waitForEvent('stopped');
      await dc.continueRequest({ threadId: THREAD });
    }
    await terminated;
  } finally {
    await dc.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MB`;
  // Ratios against stop 100 where there is one: stop 1 is before the session's working set exists.
  const first = readings.get(100) ?? readings.get(MARKS[0]!)!;
  const cell = (now: number, then: number) => `${mb(now)} (${(now / then).toFixed(3)}x)`;
  print('| stop | adapter heapUsed after GC | external | RSS after GC |');
  print('|---|---|---|---|');
  for (const [stop, r] of readings)
    print(`| ${stop} | ${cell(r.heapUsed, first.heapUsed)} | ${cell(r.external, first.external)} | ${cell(r.rss, first.rss)} |`);
  print(`${STOPS} stops in ${((performance.now() - started) / 1000).toFixed(0)} s`);
}
