/**
 * A long session stays flat (issue 26): 2,000 stops in a callback, each with Variables expanded as
 * a user opens them (every cheap scope, each expandable value one level, the tensor's first values),
 * a watch expanded and 5 expressions pinned in the inspector (issue 44: evaluated at every stop). The debuggee's heap after a full GC, the adapter's RSS and the program's
 * tensor count after the first 100 stops and at the end, as ratios: the remote objects a stop
 * shows are released when the program runs on (debug-adapter/cdp/object-groups.ts), so nothing grows with the stops.
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DebugClient } from '@vscode/debugadapter-testsupport';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const adapter = path.join(root, 'dist', 'debug-adapter', 'main.js');
const program = path.join(root, 'bench', 'programs', 'long-session.ts');
/** `BENCH_SESSION_STOPS` sets another count (a quick check). */
const STOPS = Number(process.env.BENCH_SESSION_STOPS ?? 2000);
/**
 * `BENCH_ADAPTER_NODE_OPTIONS`: Node options for the adapter's process alone (the program runs
 * without them), to weigh a V8 setting such as `--max-semi-space-size` against the per-stop time.
 */
const ADAPTER_NODE_OPTIONS = process.env.BENCH_ADAPTER_NODE_OPTIONS;
const MARK = 100;
/** A later mark: V8 grows the adapter's young generation once (16 → 32 MB) a little after MARK. */
const LATE_MARK = 500;
const THREAD = 1;
/** Pinned as the inspector pins them (`setPins`): tensors, arrays, a number, one the frame does not see. */
const PINS = ['x', 'x.data', 'meta.history', 'scale', 'notInThisFrame'];

interface Sample {
  readonly heap: number;
  readonly tensors: number;
  readonly rss: number | undefined;
}

/** The resident set of a process, in bytes (Linux: /proc); undefined where it cannot be read. */
function rssOf(pid: number | undefined): number | undefined {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? undefined : Number(kb) * 1024;
  } catch {
    return undefined;
  }
}

/** One stop looked at: every cheap scope's variables, each expandable one a level down, a watch expanded. */
async function lookAround(dc: DebugClient): Promise<void> {
  const frame = (await dc.stackTraceRequest({ threadId: THREAD })).body.stackFrames[0]!;
  for (const scope of (await dc.scopesRequest({ frameId: frame.id })).body.scopes) {
    if (scope.expensive) continue;
    const vars = (await dc.variablesRequest({ variablesReference: scope.variablesReference })).body.variables;
    for (const v of vars) if (v.variablesReference > 0) await dc.variablesRequest({ variablesReference: v.variablesReference });
  }
  const watch = (await dc.evaluateRequest({ expression: 'meta', frameId: frame.id, context: 'watch' })).body;
  const children = (await dc.variablesRequest({ variablesReference: watch.variablesReference })).body.variables;
  const history = children.find((v) => v.name === 'history');
  if (history) await dc.variablesRequest({ variablesReference: history.variablesReference, start: 0, count: 100 });
}

export async function longSessionBenchmarks(print: (line: string) => void): Promise<void> {
  if (!existsSync(adapter)) throw new Error('build first: npm run build');
  print(
    `\n— a long session: ${STOPS} stops with Variables expanded and ${PINS.length} pins${ADAPTER_NODE_OPTIONS ? ` (adapter: ${ADAPTER_NODE_OPTIONS})` : ''} —`,
  );
  const dc = new DebugClient(
    'node',
    adapter,
    'tfjs-callbacks',
    ADAPTER_NODE_OPTIONS ? { env: { ...process.env, NODE_OPTIONS: ADAPTER_NODE_OPTIONS } } : undefined,
  );
  dc.defaultTimeout = 60_000;
  await dc.start();
  const adapterPid = (dc as unknown as { _adapterProcess: ChildProcess | null })._adapterProcess?.pid;
  const samples = new Map<number, Sample>();
  const stopMs: number[] = [];
  let pinnedEvents = 0;
  dc.on('pinnedValues', () => pinnedEvents++);
  let stdout = '';
  dc.on('output', (e) => {
    if (e.body.category !== 'stdout') return;
    stdout += e.body.output;
    for (const m of stdout.matchAll(/mark (\d+) heap (\d+) tensors (\d+)\n/g)) {
      if (!samples.has(Number(m[1]))) samples.set(Number(m[1]), { heap: Number(m[2]), tensors: Number(m[3]), rss: rssOf(adapterPid) });
    }
  });
  try {
    const line =
      readFileSync(program, 'utf8')
        .split('\n')
        .findIndex((l) => l.includes('BENCH-STOP')) + 1;
    await Promise.all([
      dc.waitForEvent('initialized').then(async () => {
        await dc.setBreakpointsRequest({ source: { path: program }, breakpoints: [{ line }] });
        await dc.customRequest('setPins', { expressions: PINS });
        await dc.configurationDoneRequest();
      }),
      dc.launch({
        program,
        cwd: root,
        env: {
          BENCH_STOPS: String(STOPS),
          BENCH_MARK: String(MARK),
          BENCH_LATE_MARK: String(LATE_MARK),
          ...(ADAPTER_NODE_OPTIONS ? { NODE_OPTIONS: null } : {}),
        },
      } as never),
    ]);
    // Each wait is set before the command that leads to its event.
    let stopped = dc.waitForEvent('stopped');
    const terminated = dc.waitForEvent('terminated', 30 * 60_000);
    let continued = performance.now();
    for (let stop = 1; stop <= STOPS; stop++) {
      await stopped;
      await lookAround(dc);
      // Continue → stopped → Variables looked at: what a user waits for at each stop.
      stopMs.push(performance.now() - continued);
      if (stop < STOPS) stopped = dc.waitForEvent('stopped');
      continued = performance.now();
      await dc.continueRequest({ threadId: THREAD });
    }
    await terminated;
  } finally {
    await dc.stop();
  }
  print(`pins: ${PINS.length} pinned, ${pinnedEvents} pinnedValues events for ${STOPS} stops`);
  const first = samples.get(MARK);
  const last = samples.get(STOPS);
  if (!first || !last) throw new Error(`the program printed no marks: ${stdout.slice(-500)}`);
  const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MB`;
  const row = (what: string, a: number, b: number, max: number) => {
    const ratio = b / a;
    print(
      `${what.padEnd(44)} ${mb(b).padStart(9)} vs ${mb(a)} after ${MARK}  ratio ${ratio.toFixed(3)}x  target ≤ ${max}x: ${ratio <= max ? 'met' : 'MISSED'}`,
    );
  };
  row(`debuggee heap after GC, after ${STOPS} stops`, first.heap, last.heap, 1.1);
  if (first.rss !== undefined && last.rss !== undefined) row(`adapter RSS, after ${STOPS} stops`, first.rss, last.rss, 1.1);
  else print('adapter RSS: not readable here (no /proc)');
  const late = samples.get(LATE_MARK);
  if (late?.rss !== undefined && last.rss !== undefined && LATE_MARK < STOPS) {
    print(
      `adapter RSS, stop ${LATE_MARK} → ${STOPS} (its young generation grown)  ${mb(last.rss).padStart(9)} vs ${mb(late.rss)}  ratio ${(last.rss / late.rss).toFixed(3)}x`,
    );
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
  print(
    `per stop (continue → stopped → Variables): median ${median(stopMs.slice(1)).toFixed(1)} ms; stops 2-${MARK} ${median(stopMs.slice(1, MARK)).toFixed(1)} ms, last ${MARK} ${median(stopMs.slice(-MARK)).toFixed(1)} ms`,
  );
  print(
    `tf.memory().numTensors after ${STOPS} stops    ${String(last.tensors).padStart(9)} vs ${first.tensors} after ${MARK}  target unchanged: ${last.tensors === first.tensors ? 'met' : 'MISSED'}`,
  );
}
