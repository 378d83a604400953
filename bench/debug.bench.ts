/**
 * Debug adapter benchmarks (issue 3), against the real built adapter and plain runs of the same
 * programs in the same session: launch to the first callback stop, a run with no breakpoint hit,
 * and the first variables page of a 1M-element tensor. Issue 26: function and node breakpoints
 * whose hits do not stop, and a line breakpoint never hit in a hot callback against V8 alone.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pathToFileURL } from 'node:url';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { DebugClient } from '@vscode/debugadapter-testsupport';
import { CdpConnection } from '../debug-adapter/cdp/connection.js';
import { inspectorWebSocket } from '../debug-adapter/cdp/transports.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const adapter = path.join(root, 'dist', 'debug-adapter', 'main.js');
const register = path.join(root, 'dist', 'runtime', 'loader', 'register.js');
const program = (name: string) => path.join(root, 'bench', 'programs', name);
const ROUNDS = 5;
/** The no-hit runs move by ±10 % from run to run on 2 shared cores: more rounds for their medians. */
const BUSY_ROUNDS = 9;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** spawn → exit of `node --import tsx --import register program`, in ms, and what it printed. */
function plainRun(file: string): Promise<number> {
  return plainRunWithOutput(file).then((r) => r.ms);
}

function plainRunWithOutput(file: string, env: Record<string, string> = {}): Promise<{ ms: number; stdout: string }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--import', register, file], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.once('exit', (code) => (code === 0 ? resolve({ ms: performance.now() - started, stdout }) : reject(new Error(`${file} exited ${code}`))));
  });
}

/** The callback loop's own time, as the busy program prints it. */
function loopMs(stdout: string): number {
  return Number(/loop-ms ([\d.]+)/.exec(stdout)?.[1] ?? NaN);
}

async function withClient<T>(body: (dc: DebugClient) => Promise<T>): Promise<T> {
  const dc = new DebugClient('node', adapter, 'tfjs-callbacks');
  dc.defaultTimeout = 30_000;
  await dc.start();
  try {
    return await body(dc);
  } finally {
    await dc.stop();
  }
}

async function launch(dc: DebugClient, file: string, functionBreakpoint?: string, sourceBreakpointLine?: number, exceptionFilters?: string[]): Promise<void> {
  await Promise.all([
    dc.waitForEvent('initialized').then(async () => {
      if (functionBreakpoint) await dc.setFunctionBreakpointsRequest({ breakpoints: [{ name: functionBreakpoint }] });
      if (sourceBreakpointLine) await dc.setBreakpointsRequest({ source: { path: file }, breakpoints: [{ line: sourceBreakpointLine }] });
      if (exceptionFilters) await dc.setExceptionBreakpointsRequest({ filters: exceptionFilters });
      await dc.configurationDoneRequest();
    }),
    dc.launch({ program: file, cwd: root } as never),
  ]);
}

export async function debugBenchmarks(print: (line: string) => void): Promise<void> {
  if (!existsSync(adapter)) throw new Error('build first: npm run build');
  print('\n— debug adapter (backend auto) —');

  const plainFirst: number[] = [];
  const firstStop: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    plainFirst.push(await plainRun(program('first-callback.ts')));
    firstStop.push(
      await withClient(async (dc) => {
        const started = performance.now();
        const stopped = dc.waitForEvent('stopped');
        await launch(dc, program('first-callback.ts'), 'first_callback');
        await stopped;
        const ms = performance.now() - started;
        await dc.disconnectRequest({});
        return ms;
      }),
    );
  }
  const stopMs = median(firstStop);
  const plainMs = median(plainFirst);
  print(
    `launch → first callback stop              ${stopMs.toFixed(0).padStart(6)} ms  vs plain node --import tsx run ${plainMs.toFixed(0)} ms  ratio ${(stopMs / plainMs).toFixed(2)}x  target ≤ 1500 ms: ${stopMs <= 1500 ? 'met' : 'MISSED'}`,
  );

  // Without breakpoints the adapter leaves V8's debugger off until a stop needs it; with the
  // default filters (Errors thrown in callbacks) it comes on as the first callback starts. A source
  // breakpoint keeps it on from the start: one in a function never called shows that cost; one in
  // the hot loop (on a branch never taken) also makes V8 run the loop's function as debug code.
  const busy = program('busy.ts');
  const busyLines = readFileSync(busy, 'utf8').split('\n');
  const lineOf = (marker: string) => busyLines.findIndex((l) => l.includes(marker)) + 1;
  const variants: { label: string; line: number | undefined; filters?: string[] }[] = [
    { label: 'no breakpoint, Errors thrown in callbacks unchecked (debugger off)', line: undefined, filters: ['toutMismatch'] },
    { label: 'no breakpoint, the default filters (debugger on at the first callback)', line: undefined },
    { label: 'a breakpoint in a function never called (debugger on)', line: lineOf('BENCH-UNHIT-COLD') },
    { label: 'a breakpoint in the loop, on a branch never taken', line: lineOf('BENCH-UNHIT-HOT') },
  ];
  const plainBusy: number[] = [];
  const plainLoop: number[] = [];
  const runs = variants.map(() => ({ ms: [] as number[], loop: [] as number[] }));
  for (let r = 0; r < BUSY_ROUNDS; r++) {
    const plain = await plainRunWithOutput(busy);
    plainBusy.push(plain.ms);
    plainLoop.push(loopMs(plain.stdout));
    for (const [i, variant] of variants.entries()) {
      await withClient(async (dc) => {
        let stdout = '';
        dc.on('output', (e) => {
          if (e.body.category === 'stdout') stdout += e.body.output;
        });
        let hit = false;
        dc.on('stopped', () => (hit = true));
        const started = performance.now();
        const terminated = dc.waitForEvent('terminated');
        await launch(dc, busy, undefined, variant.line, variant.filters);
        await terminated;
        if (hit) throw new Error('busy.ts stopped: the benchmark expects no breakpoint hit');
        runs[i]!.ms.push(performance.now() - started);
        runs[i]!.loop.push(loopMs(stdout));
      });
    }
  }
  for (const [i, variant] of variants.entries()) {
    const run = runs[i]!;
    const ratio = median(run.ms) / median(plainBusy);
    const loopRatio = median(run.loop) / median(plainLoop);
    const startup = median(run.ms) - median(plainBusy) - (median(run.loop) - median(plainLoop));
    print(`10,000 callbacks, ${variant.label}:`);
    print(
      `  run ${median(run.ms).toFixed(0).padStart(6)} ms  vs plain run ${median(plainBusy).toFixed(0)} ms  ratio ${ratio.toFixed(3)}x  target ≤ 1.15x: ${ratio <= 1.15 ? 'met' : 'MISSED'}`,
    );
    print(
      `  of which the callback loop ${median(run.loop).toFixed(0)} ms vs plain ${median(plainLoop).toFixed(0)} ms  ratio ${loopRatio.toFixed(3)}x (start-up and exit: +${startup.toFixed(0)} ms)`,
    );
  }

  const pageMs: number[] = [];
  const expandMs: number[] = [];
  await withClient(async (dc) => {
    const stopped = dc.waitForEvent('stopped');
    await launch(dc, program('big-tensor.ts'), 'inspect_big');
    await stopped;
    for (let r = 0; r < ROUNDS; r++) {
      const started = performance.now();
      const frames = (await dc.stackTraceRequest({ threadId: 1 })).body.stackFrames;
      const scopes = (await dc.scopesRequest({ frameId: frames[0]!.id })).body.scopes;
      const callback = (await dc.variablesRequest({ variablesReference: scopes[0]!.variablesReference })).body.variables;
      const big = callback.find((v) => v.name === 'big');
      if (!big) throw new Error(`no 'big' in the Callback scope: ${callback.map((v) => v.name).join(', ')}`);
      const children = (await dc.variablesRequest({ variablesReference: big.variablesReference })).body.variables;
      const values = children.find((v) => v.name === 'values')!;
      const pageStart = performance.now();
      const page = (await dc.variablesRequest({ variablesReference: values.variablesReference, filter: 'indexed', start: 0, count: 100 })).body.variables;
      const done = performance.now();
      // The first 100 values, and the row that opens all of them.
      const indexed = page.filter((v) => /^\[?\d+\]?$/.test(v.name));
      if (indexed.length !== 100) throw new Error(`expected 100 values, got ${indexed.length}: ${page.map((v) => v.name).join(', ')}`);
      pageMs.push(done - pageStart);
      expandMs.push(done - started);
      // A new stop would reset references; stay on this one and repeat.
    }
    await dc.disconnectRequest({});
  });
  print(
    `1M-element tensor: first values page       ${median(pageMs).toFixed(1).padStart(6)} ms  (stack → scopes → tensor → page: ${median(expandMs).toFixed(1)} ms)  target ≤ 100 ms: ${median(expandMs) <= 100 ? 'met' : 'MISSED'}`,
  );

  await largeEvaluateBench(print);
  await functionBreakpointBench(print);
  await conditionMemoryBench(print);
  await hotCallbackBench(print);
  await logpointBench(print);
  await hotConditionBench(print);
}

/**
 * Issue 28's risk row: 100,000 calls of a callback under a function breakpoint whose condition never
 * holds (the agent counts and evaluates it in the program, where the hit happens). The program's heap
 * after a forced GC at 1,000, 10,000 and 100,000 calls (bench/programs/many-calls.mjs), against the
 * same run under the adapter with no breakpoint. Figures, not asserted.
 */
export async function conditionMemoryBench(print: (line: string) => void): Promise<void> {
  const file = program('many-calls.mjs');
  const heapsUnder = (functionBreakpoints?: DebugProtocol.FunctionBreakpoint[]) =>
    withClient(async (dc) => {
      let stdout = '';
      dc.on('output', (e) => {
        if (e.body.category === 'stdout') stdout += e.body.output;
      });
      let stops = 0;
      dc.on('stopped', () => {
        stops++;
        void dc.continueRequest({ threadId: 1 }).catch(() => {});
      });
      const terminated = dc.waitForEvent('terminated', 600_000);
      await Promise.all([
        dc.waitForEvent('initialized').then(async () => {
          if (functionBreakpoints) await dc.setFunctionBreakpointsRequest({ breakpoints: functionBreakpoints });
          await dc.configurationDoneRequest();
        }),
        dc.launch({ program: file, cwd: root, env: { NODE_OPTIONS: '--expose-gc', BENCH_CALLS: '100000' } } as never),
      ]);
      await terminated;
      const heaps = new Map([...stdout.matchAll(/^heap-after-gc (\d+) (\d+)$/gm)].map((m) => [Number(m[1]), Number(m[2]) / 2 ** 20]));
      if (stops > 0) throw new Error(`many-calls.mjs stopped ${stops} times: the condition is meant never to hold`);
      return heaps;
    });
  print('\n100,000 callback calls under the adapter: program heap after forced GC (MB)');
  for (const [label, bps] of [
    ['no breakpoint', undefined],
    ["function breakpoint 'double', condition never true", [{ name: 'double', condition: 'false' }]],
  ] as const) {
    const heaps = await heapsUnder(bps ? [...bps] : undefined);
    const at = (n: number) => (heaps.get(n) ?? Number.NaN).toFixed(1);
    print(
      `  ${label.padEnd(52)} 1,000: ${at(1_000).padStart(6)}  10,000: ${at(10_000).padStart(6)}  100,000: ${at(100_000).padStart(6)}  ratio ${((heaps.get(100_000) ?? NaN) / (heaps.get(1_000) ?? NaN)).toFixed(2)}x`,
    );
  }
}

/** What a debugged run is launched with. */
interface DebuggedRun {
  readonly env?: Record<string, string>;
  readonly functionBreakpoints?: DebugProtocol.FunctionBreakpoint[];
  readonly sourceLine?: number;
  /** A logpoint's message on `sourceLine`. */
  readonly logMessage?: string;
  /** A condition on `sourceLine`'s breakpoint. */
  readonly condition?: string;
}

/** The program under the adapter, continued at every stop: its loop-ms, the stops, and start → end. */
async function debuggedRun(file: string, run: DebuggedRun): Promise<{ loop: number; stops: number; ms: number; logged: number }> {
  return withClient(async (dc) => {
    let stdout = '';
    let logged = 0;
    dc.on('output', (e) => {
      if (e.body.category === 'stdout') stdout += e.body.output;
      if (e.body.category === 'console' && e.body.line === run.sourceLine) logged++;
    });
    let stops = 0;
    dc.on('stopped', () => {
      stops++;
      void dc.continueRequest({ threadId: 1 }).catch(() => {});
    });
    const started = performance.now();
    const terminated = dc.waitForEvent('terminated');
    await Promise.all([
      dc.waitForEvent('initialized').then(async () => {
        if (run.functionBreakpoints) await dc.setFunctionBreakpointsRequest({ breakpoints: run.functionBreakpoints });
        if (run.sourceLine) {
          const logMessage = run.logMessage === undefined ? {} : { logMessage: run.logMessage };
          const condition = run.condition === undefined ? {} : { condition: run.condition };
          await dc.setBreakpointsRequest({ source: { path: file }, breakpoints: [{ line: run.sourceLine, ...logMessage, ...condition }] });
        }
        await dc.configurationDoneRequest();
      }),
      dc.launch({ program: file, cwd: root, ...(run.env ? { env: run.env } : {}) } as never),
    ]);
    await terminated;
    return { loop: loopMs(stdout), stops, ms: performance.now() - started, logged };
  });
}

/** The 1-based line of `file` that holds `marker`. */
function markerLine(file: string, marker: string): number {
  return (
    readFileSync(file, 'utf8')
      .split('\n')
      .findIndex((l) => l.includes(marker)) + 1
  );
}

/** Medians of the loop over ROUNDS alternating runs of each variant (drift hits all alike). */
async function loopMedians(
  variants: readonly (() => Promise<{ loop: number; stops?: number }>)[],
  rounds = ROUNDS,
): Promise<{ loop: number; stops: number; loops: number[] }[]> {
  const loops = variants.map(() => [] as number[]);
  const stops = variants.map(() => 0);
  for (let r = 0; r < rounds; r++) {
    for (const [i, variant] of variants.entries()) {
      const result = await variant();
      loops[i]!.push(result.loop);
      stops[i] = result.stops ?? 0;
    }
  }
  return loops.map((l, i) => ({ loop: median(l), stops: stops[i]!, loops: l }));
}

/**
 * Issue 26: a function breakpoint's hit that does not stop costs no pause (the agent counts hits and
 * evaluates conditions in the debuggee). A node breakpoint `>= 1000` on a node run 1,000 times
 * (the loop: the 999 runs before the stop), and one node breakpoint matching a single node whose
 * condition never holds, on models of 100 and 5,000 nodes; each against the same run under the
 * adapter with no breakpoint.
 */
export async function functionBreakpointBench(print: (line: string) => void): Promise<void> {
  const file = program('model-runs.ts');
  const cases = [
    {
      label: "node breakpoint '>= 1000', a node run 1,000 times",
      env: { BENCH_NODES: '10', BENCH_RUNS: '1000' },
      bp: { name: 'n5', hitCondition: '>= 1000' },
      target: 1.1,
      // Its loop lasts ~125 ms, mostly before V8 has compiled tfjs's executor, and moves by ±15 %
      // from run to run: 9 rounds' median ratio still moved from 0.94x to 1.16x.
      rounds: 21,
    },
    {
      label: '100-node model, one node breakpoint never true',
      env: { BENCH_NODES: '100', BENCH_RUNS: '300' },
      bp: { name: 'n50', condition: 'outputs.length === 0' },
      target: 1.3,
    },
    {
      label: '5,000-node model, one node breakpoint never true',
      env: { BENCH_NODES: '5000', BENCH_RUNS: '10' },
      bp: { name: 'n2500', condition: 'outputs.length === 0' },
      target: 1.3,
    },
  ];
  for (const c of cases) {
    const [none, withBreakpoint] = await loopMedians(
      [() => debuggedRun(file, { env: c.env }), () => debuggedRun(file, { env: c.env, functionBreakpoints: [c.bp] })],
      c.rounds ?? BUSY_ROUNDS,
    );
    // Each round's two runs back to back, as a ratio: the machine's load drifts between rounds.
    const ratio = median(withBreakpoint!.loops.map((loop, r) => loop / none!.loops[r]!));
    print(
      `${c.label}: loop ${withBreakpoint!.loop.toFixed(0)} ms vs ${none!.loop.toFixed(0)} ms with no breakpoint  ratio ${ratio.toFixed(3)}x (median of ${c.rounds ?? BUSY_ROUNDS} rounds' ratios)  (stops: ${withBreakpoint!.stops})  target ≤ ${c.target}x: ${ratio <= c.target ? 'met' : 'MISSED'}`,
    );
  }
}

/**
 * Issue 26: a line breakpoint never hit inside a callback called 10,000 times. V8 runs the
 * callback as debug code under any debugger; "V8 alone" is that floor (a bare CDP client: the
 * debugger on and the one breakpoint, as js-debug has it), what ours adds is the difference.
 */
export async function hotCallbackBench(print: (line: string) => void): Promise<void> {
  const file = program('hot-callback.mjs');
  const line = markerLine(file, 'BENCH-UNHIT-IN-CALLBACK');
  const [plain, v8, ours, oursNone] = await loopMedians([
    async () => ({ loop: loopMs((await plainRunWithOutput(file)).stdout) }),
    () => v8AloneRun(file, line),
    () => debuggedRun(file, { sourceLine: line }),
    () => debuggedRun(file, {}),
  ]);
  if (ours!.stops > 0) throw new Error('hot-callback.mjs stopped: the benchmark expects no breakpoint hit');
  print(`10,000 calls of a callback with a line breakpoint never hit: loop plain ${plain!.loop.toFixed(0)} ms`);
  print(`  V8 alone (debugger on, that breakpoint)   ${v8!.loop.toFixed(0).padStart(6)} ms  ratio to plain ${(v8!.loop / plain!.loop).toFixed(3)}x`);
  print(
    `  ours                                      ${ours!.loop.toFixed(0).padStart(6)} ms  ratio to plain ${(ours!.loop / plain!.loop).toFixed(3)}x  ours / V8 alone ${(ours!.loop / v8!.loop).toFixed(3)}x  target ≤ 1.0x: ${ours!.loop <= v8!.loop * 1.02 ? 'met' : 'MISSED'}`,
  );
  print(
    `  ours, no breakpoint (debugger off)        ${oursNone!.loop.toFixed(0).padStart(6)} ms  ratio to plain ${(oursNone!.loop / plain!.loop).toFixed(3)}x`,
  );
}

/**
 * Issue 43: a breakpoint whose condition never holds on the hot line of a tf.data map function
 * (20,000 rows), against V8's own condition on the same line (a bare CDP client, as js-debug sets
 * it) and the plain run. Target: ours ≤ 1.1x V8's.
 */
export async function hotConditionBench(print: (line: string) => void): Promise<void> {
  const file = program('data-map.mjs');
  const line = markerLine(file, 'BENCH-CONDITION');
  const [plain, v8, ours] = await loopMedians(
    [
      async () => ({ loop: loopMs((await plainRunWithOutput(file)).stdout) }),
      () => v8AloneRun(file, line, 'false'),
      () => debuggedRun(file, { sourceLine: line, condition: 'false' }),
    ],
    BUSY_ROUNDS,
  );
  if (ours!.stops > 0) throw new Error('data-map.mjs stopped: the condition is meant never to hold');
  const ratio = ours!.loop / v8!.loop;
  print(`20,000 rows of a tf.data map, condition \`false\` on its hot line: loop plain ${plain!.loop.toFixed(0)} ms`);
  print(`  V8's own condition                        ${v8!.loop.toFixed(0).padStart(6)} ms  ratio to plain ${(v8!.loop / plain!.loop).toFixed(3)}x`);
  print(
    `  ours                                      ${ours!.loop.toFixed(0).padStart(6)} ms  ratio to plain ${(ours!.loop / plain!.loop).toFixed(3)}x  ours / V8's ${ratio.toFixed(3)}x  target ≤ 1.1x: ${ratio <= 1.1 ? 'met' : 'MISSED'}`,
  );
}

/**
 * Issue 26: a logpoint on a line of a callback called 10,000 times writes 10,000 lines. It used to
 * pause at each hit (two round trips); now its line is written where it runs. Against the same run
 * with no breakpoint (the debugger off).
 */
export async function logpointBench(print: (line: string) => void): Promise<void> {
  const file = program('hot-callback.mjs');
  const line = markerLine(file, 'BENCH-LOGPOINT');
  let logged = 0;
  const [none, logpoint] = await loopMedians([
    () => debuggedRun(file, {}),
    async () => {
      const run = await debuggedRun(file, { sourceLine: line, logMessage: 'out[0] = {out[0]}' });
      logged = run.logged;
      return run;
    },
  ]);
  if (logged !== 10_000) throw new Error(`the logpoint wrote ${logged} lines, not 10,000`);
  print(
    `10,000 hits of a logpoint in a callback: loop ${logpoint!.loop.toFixed(0)} ms vs ${none!.loop.toFixed(0)} ms with no breakpoint  ratio ${(logpoint!.loop / none!.loop).toFixed(2)}x  (stops: ${logpoint!.stops}, lines: ${logged})`,
  );
}

/** The program under a bare CDP client: the debugger on from the start and one line breakpoint; its loop-ms. */
async function v8AloneRun(file: string, line: number, condition?: string): Promise<{ loop: number }> {
  const child = spawn(process.execPath, ['--inspect-brk=127.0.0.1:0', '--import', 'tsx', '--import', register, file], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  const port = await new Promise<number>((resolve, reject) => {
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      const match = /Debugger listening on ws:\/\/127\.0\.0\.1:(\d+)\//.exec(stderr);
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', () => reject(new Error(`the program exited before listening: ${stderr}`)));
  });
  const cdp = new CdpConnection(await inspectorWebSocket('127.0.0.1', port));
  const printed = new Promise<void>((resolve) => {
    child.stdout.on('data', () => {
      if (stdout.includes('loop-ms')) resolve();
    });
  });
  // --inspect-brk also pauses at the program's first line: go on.
  cdp.on('Debugger.paused', () => void cdp.send('Debugger.resume', {}).catch(() => {}));
  try {
    await cdp.send('Debugger.enable', {});
    await cdp.send('Debugger.setBreakpointByUrl', { url: pathToFileURL(file).href, lineNumber: line - 1, ...(condition ? { condition } : {}) });
    await cdp.send('Runtime.runIfWaitingForDebugger');
    await printed;
  } finally {
    cdp.close();
  }
  await new Promise((resolve) => (child.exitCode !== null ? resolve(undefined) : child.once('exit', resolve)));
  return { loop: loopMs(stdout) };
}

/**
 * Issue 11: a 10M, 30M and 100M-character string evaluated while paused, its time as a ratio to
 * the 10M one: linear reads ~3x and ~10x (the adapter once framed the debuggee's messages in
 * quadratic time: 1.2 s, 8 s, 97 s). The DAP client here reads linearly, so the ratios are the
 * adapter's (the test DebugClient's own reader re-copies its buffer on every chunk). The client
 * is sent the first 100,000 characters and the whole length; the whole string crosses from the
 * program to the adapter.
 */
async function largeEvaluateBench(print: (line: string) => void): Promise<void> {
  const sizes = [10_000_000, 30_000_000, 100_000_000];
  const ms = sizes.map(() => [] as number[]);
  await withClient(async (dc) => {
    readLinearly(dc);
    const stopped = dc.waitForEvent('stopped');
    await launch(dc, program('big-tensor.ts'), 'inspect_big');
    await stopped;
    const frameId = (await dc.stackTraceRequest({ threadId: 1 })).body.stackFrames[0]!.id;
    for (let r = 0; r < 3; r++) {
      for (const [i, n] of sizes.entries()) {
        const started = performance.now();
        const result = (await dc.evaluateRequest({ expression: `'x'.repeat(${n})`, frameId, context: 'repl' })).body.result;
        ms[i]!.push(performance.now() - started);
        // The Debug Console gets the first 100,000 characters (MAX_RESULT_CHARS) and a note with the
        // whole length: the whole string still came from the program, which is what this times.
        const whole = Number(/ of ([\d,]+) characters;/.exec(result)?.[1]?.replaceAll(',', '') ?? result.length);
        if (whole !== n + 2) throw new Error(`expected a ${n}-character string, got ${whole} characters: ${result.slice(-200)}`);
      }
    }
    await dc.disconnectRequest({});
  });
  const base = median(ms[0]!);
  for (const [i, n] of sizes.entries()) {
    const ratio = median(ms[i]!) / base;
    const linear = n / sizes[0]!;
    print(
      `evaluate a ${(n / 1e6).toFixed(0)}M-character string      ${median(ms[i]!).toFixed(0).padStart(6)} ms  ratio to 10M ${ratio.toFixed(1)}x  (linear: ${linear}x)${i > 0 ? `  target ≤ ${(linear * 1.5).toFixed(0)}x: ${ratio <= linear * 1.5 ? 'met' : 'MISSED'}` : ''}`,
    );
  }
}

/** Replaces the DebugClient's reader (Buffer.concat of everything on each chunk) with one that copies each byte once. */
function readLinearly(dc: DebugClient): void {
  const client = dc as unknown as { handleData(data: Buffer): void; dispatch(message: string): void };
  let chunks: Buffer[] = [];
  let have = 0;
  let want = -1;
  client.handleData = (data: Buffer) => {
    chunks.push(data);
    have += data.length;
    for (;;) {
      if (want < 0) {
        const buffer = Buffer.concat(chunks);
        const end = buffer.indexOf('\r\n\r\n');
        chunks = [buffer];
        if (end < 0) return;
        want = Number(/Content-Length: (\d+)/.exec(buffer.toString('utf8', 0, end))?.[1] ?? 0);
        chunks = [buffer.subarray(end + 4)];
        have = buffer.length - end - 4;
      }
      if (have < want) return;
      const buffer = Buffer.concat(chunks);
      const message = buffer.toString('utf8', 0, want);
      chunks = [buffer.subarray(want)];
      have = buffer.length - want;
      want = -1;
      client.dispatch(message);
    }
  };
}
