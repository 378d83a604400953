/**
 * What a stop in a callback costs in round trips to the debuggee: the controller and the variable
 * store, in this process, against a real program (started with --inspect, the agent injected as
 * attach does), every CDP command counted. The Callback scope of a callback with three tensor
 * inputs must come in at most 2 round trips (issue 12: it took 2 + 2N). A function breakpoint's hit
 * that does not stop costs no pause at all (issue 26): its hit count and condition are decided in
 * the debuggee, so V8 pauses only where it stops.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { CdpConnection } from '../../debug-adapter/cdp/connection.js';
import { connectAttached } from '../../debug-adapter/connect.js';
import { Controller } from '../../debug-adapter/pauses/controller.js';
import type { PausedState } from '../../debug-adapter/state/pause-state.js';
import { buildStack } from '../../debug-adapter/state/stack.js';
import { VariableStore } from '../../debug-adapter/values/variables.js';
import { writeGraphModel, placeholder, unary } from '../../scripts/lib/graph-model-writer.js';
import { root } from '../helpers/dap.js';

const dir = mkdtempSync(path.join(tmpdir(), 'tfjs-cb-round-trips-'));
let program: ChildProcess | undefined;
after(() => {
  if (program?.exitCode === null) program.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

const PROGRAM = `
import { numpyFunction, selectBackend, tf } from ${JSON.stringify(path.join(root, 'runtime', 'index.ts'))};
await selectBackend({ backend: 'cpu', quiet: true });
function triple(a, b, c) {
  return a.map((v, i) => v + b.data[i] * c.data[i]);
}
const [a, b, c] = [tf.tensor([1, 2]), tf.tensor([3, 4]), tf.tensor([5, 6])];
const timer = setInterval(() => numpyFunction(triple, [a, b, c], 'float32').dispose(), 50);
setTimeout(() => clearInterval(timer), 20_000);
`;

function startInspected(file: string): Promise<number> {
  const child = spawn(process.execPath, ['--inspect=127.0.0.1:0', '--import', 'tsx', file], { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] });
  program = child;
  return new Promise((resolve, reject) => {
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => {
      stderr += d.toString();
      const match = /Debugger listening on ws:\/\/127\.0\.0\.1:(\d+)\//.exec(stderr);
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', () => reject(new Error(`the program exited before listening: ${stderr}`)));
  });
}

/** Every CDP command this process sends, by method, while `counting` is on. */
const sent: string[] = [];
let counting = false;
const send = CdpConnection.prototype.send;
CdpConnection.prototype.send = function (this: CdpConnection, ...args: Parameters<typeof send>) {
  if (counting) sent.push(args[0]);
  return send.apply(this, args) as ReturnType<typeof send>;
} as typeof send;

test('the Callback scope of a stop with 3 tensor inputs takes at most 2 round trips', { timeout: 60_000 }, async () => {
  const file = path.join(dir, 'three-inputs.mts');
  writeFileSync(file, PROGRAM);
  const port = await startInspected(file);
  const controller = new Controller();
  const stopped = new Promise<PausedState>((resolve) => controller.once('stopped', resolve));
  await connectAttached(controller, '127.0.0.1', port, {
    filters: { breakOnCallbacks: ['triple'], breakOnToutMismatch: true, breakOnNonFinite: false, breakOnGraphNonFinite: false, breakOnOpNonFinite: false },
    configure: async () => {},
  });
  const paused = await stopped;
  try {
    const store = new VariableStore(() => controller.connection());
    const stack = await buildStack(controller.connection(), paused);
    const own = stack.find((f) => f.kind === 'js' && f.active);
    assert.ok(own?.active, `the callback's frame: ${stack.map((f) => f.name).join(' | ')}`);
    const scope = store.callbackScope(own.active);

    counting = true;
    const variables = await store.variables(scope.variablesReference);
    counting = false;
    assert.deepEqual(
      variables.slice(0, 3).map((v) => [v.name, v.value.replace(/ min=.*/, '')]),
      [
        ['a', 'NdArray float32[2]'],
        ['b', 'NdArray float32[2]'],
        ['c', 'NdArray float32[2]'],
      ],
    );
    assert.ok(sent.length <= 2, `the Callback scope took ${sent.length} round trips: ${sent.join(', ')}`);

    // Expanding an input and paging its values: each one more call, the summary not fetched again.
    sent.length = 0;
    counting = true;
    const rows = await store.variables(variables[1]!.variablesReference);
    const values = await store.variables(rows.find((r) => r.name === 'values')!.variablesReference, 0, 2);
    counting = false;
    assert.deepEqual(
      values.map((v) => v.value),
      ['3', '4'],
    );
    assert.equal(sent.length, 1, `an input's rows and one page: ${sent.join(', ')}`);
  } finally {
    counting = false;
    controller.setFunctionBreakpoints([]).catch(() => {});
    await controller.setFilters({ breakOnCallbacks: [] }).catch(() => {});
    await controller.resume().catch(() => {});
    await controller.detach();
  }
});

/** A controller attached to the program as attach does (the agent injected), no filter on. */
async function attachedTo(port: number): Promise<Controller> {
  const controller = new Controller();
  await connectAttached(controller, '127.0.0.1', port, {
    filters: { breakOnCallbacks: [], breakOnToutMismatch: true, breakOnNonFinite: false, breakOnGraphNonFinite: false, breakOnOpNonFinite: false },
    configure: async () => {},
  });
  return controller;
}

/** Phases the test starts one by one (`globalThis.phase = n`): a model run 1,000 times, then a callback. */
const PHASED_PROGRAM = (model: string) => `
import { loadCallbackModel, numpyFunction, selectBackend, tf } from ${JSON.stringify(path.join(root, 'runtime', 'index.ts'))};
await selectBackend({ backend: 'cpu', quiet: true });
const model = await loadCallbackModel(${JSON.stringify(model)});
function double_it(values) {
  return values.map((v) => v * 2);
}
const x = tf.tensor1d([1, -2, 3, -4]);
globalThis.runs = 0;
globalThis.done = 0;
const phases = {
  1: () => {
    for (let i = 0; i < 1000; i++) {
      globalThis.runs = i + 1;
      tf.dispose(model.execute({ x }));
    }
  },
  2: () => {
    for (let i = 0; i < 200; i++) tf.dispose(numpyFunction(double_it, [x], 'float32'));
  },
};
const timer = setInterval(() => {
  const phase = globalThis.phase;
  if (!phases[phase]) return;
  globalThis.phase = 0;
  phases[phase]();
  globalThis.done = phase;
}, 10);
setTimeout(() => clearInterval(timer), 60_000);
`;

test('function breakpoints: a hit that does not stop costs no pause; a condition that throws stops and says why', { timeout: 90_000 }, async () => {
  const model = writeGraphModel(path.join(dir, 'chain'), [placeholder('x', [-1]), unary('n0', 'Neg', 'x'), unary('n1', 'Abs', 'n0')]);
  const file = path.join(dir, 'phases.mts');
  writeFileSync(file, PHASED_PROGRAM(model));
  const controller = await attachedTo(await startInspected(file));
  const { cdp } = controller.connection();
  let pauses = 0;
  cdp.on('Debugger.paused', () => pauses++);
  const stderr: string[] = [];
  controller.on('output', (category, text) => category === 'stderr' && stderr.push(text));
  const read = async (expression: string) => (await cdp.send('Runtime.evaluate', { expression, returnByValue: true })).result.value as unknown;
  const run = async (phase: number) => {
    await read(`globalThis.phase = ${phase}`);
    while ((await read('globalThis.done')) !== phase) await new Promise((r) => setTimeout(r, 20));
  };
  try {
    // The node runs 1,000 times: one pause, at its 1,000th run.
    await controller.setFunctionBreakpoints([{ name: 'n1', hitCondition: '>= 1000' }]);
    const stopped = new Promise<PausedState>((resolve) => controller.once('stopped', resolve));
    const ran = run(1);
    const paused = await stopped;
    assert.deepEqual([paused.node?.node, await read('globalThis.runs')], ['n1', 1000]);
    await controller.resume();
    await ran;
    assert.equal(pauses, 1, 'one V8 pause for 1,000 hits');

    // A callback breakpoint whose condition is false: 200 calls, no pause.
    await controller.setFunctionBreakpoints([{ name: 'double_it', condition: 'values.data[0] > 100' }]);
    await run(2);
    assert.equal(pauses, 1, 'no pause for a false condition');

    // A condition that throws stops, once per hit, and the Debug Console says why.
    await controller.setFunctionBreakpoints([{ name: 'double_it', condition: 'values.nope.length', hitCondition: '== 3' }]);
    const failed = new Promise<PausedState>((resolve) => controller.once('stopped', resolve));
    const ranAgain = run(2);
    const stop = await failed;
    assert.equal(stop.stop.reason, 'function breakpoint');
    assert.match(
      stderr.join(''),
      /The condition of function breakpoint 'double_it' failed in callback double_it: TypeError: Cannot read properties of undefined \(reading 'length'\)/,
    );
    await controller.resume();
    await ranAgain;
    assert.equal(pauses, 3, 'the stop, and the pause that steps into the callback’s first line');
  } finally {
    await controller.setFunctionBreakpoints([]).catch(() => {});
    await controller.resume().catch(() => {});
    await controller.detach();
  }
});

/** A loop the test starts (`globalThis.go = true`); its line `@hit` runs 1,000 times. */
const LOOP_PROGRAM = `
globalThis.runs = 0;
globalThis.done = false;
const timer = setInterval(() => {
  if (!globalThis.go) return;
  globalThis.go = false;
  for (let i = 0; i < 1000; i++) {
    globalThis.runs = i + 1; // @hit
  }
  globalThis.done = true;
}, 10);
setTimeout(() => clearInterval(timer), 60_000);
`;

test('source breakpoints: a hit that does not stop costs no pause (the hit count is kept in the debuggee)', { timeout: 90_000 }, async () => {
  const file = path.join(dir, 'loop.mjs');
  writeFileSync(file, LOOP_PROGRAM);
  const line = LOOP_PROGRAM.split('\n').findIndex((l) => l.includes('// @hit')) + 1;
  const controller = await attachedTo(await startInspected(file));
  const { cdp } = controller.connection();
  let pauses = 0;
  // Pauses at the line (a pause that binds the breakpoint, when the attach came before V8 told the
  // script, is at the file's start).
  cdp.on('Debugger.paused', (e) => {
    if (e.callFrames[0]?.location.lineNumber === line - 1) pauses++;
  });
  const read = async (expression: string) => (await cdp.send('Runtime.evaluate', { expression, returnByValue: true })).result.value as unknown;
  const loop = async (set: () => Promise<unknown>, stopsExpected: number): Promise<unknown[]> => {
    await set();
    await read('globalThis.done = false; globalThis.go = true');
    const runsAtStops: unknown[] = [];
    for (let s = 0; s < stopsExpected; s++) {
      await new Promise<PausedState>((resolve) => controller.once('stopped', resolve));
      runsAtStops.push(await read('globalThis.runs'));
      await controller.resume();
    }
    while ((await read('globalThis.done')) !== true) await new Promise((r) => setTimeout(r, 20));
    return runsAtStops;
  };
  try {
    // Paused before the line runs, `runs` is the i of the hit (i + 1 written the hit before).
    // `>= 1000`: one pause, at the 1,000th hit, i = 999 (it used to pause 1,000 times).
    assert.deepEqual(await loop(() => controller.setSourceBreakpoints(file, [{ line, hitCondition: '>= 1000' }]), 1), [999]);
    assert.equal(pauses, 1, 'one V8 pause for 1,000 hits');
    // A condition, then the hit count of the hits where it held: the third even i, then every 250th.
    const even = { line, condition: 'i % 2 === 0', hitCondition: '== 3' };
    assert.deepEqual(await loop(() => controller.setSourceBreakpoints(file, [even]), 1), [4]);
    assert.equal(pauses, 2, 'one more pause');
    assert.deepEqual(await loop(() => controller.setSourceBreakpoints(file, [{ line, hitCondition: '% 250' }]), 4), [249, 499, 749, 999]);
    assert.equal(pauses, 6, 'a pause per stop, none for the hits between');

    // Logpoints write their line where it runs: no pause at all, each hit its line, linked to the logpoint.
    const lines: { text: string; line: number }[] = [];
    controller.on('logpoint', (text, where) => lines.push({ text, line: where.line }));
    const logged = async (count: number) => {
      while (lines.length < count) await new Promise((r) => setTimeout(r, 20));
      return lines.splice(0).map((l) => l.text.trim());
    };
    await loop(() => controller.setSourceBreakpoints(file, [{ line, logMessage: 'i={i} {i.nope.deeper}', hitCondition: '% 250' }]), 0);
    assert.deepEqual(
      await logged(4),
      [249, 499, 749, 999].map((i) => `i=${i} {TypeError: Cannot read properties of undefined (reading 'deeper')}`),
    );
    await loop(() => controller.setSourceBreakpoints(file, [{ line, logMessage: 'run {i + 1}' }]), 0);
    const all = await logged(1000);
    assert.deepEqual([all.length, all[0], all[999]], [1000, 'run 1', 'run 1000']);
    assert.equal(pauses, 6, 'no pause for 1,004 logpoint hits');
  } finally {
    await controller.setSourceBreakpoints(file, []).catch(() => {});
    await controller.resume().catch(() => {});
    await controller.detach();
    if (program?.exitCode === null) program.kill('SIGKILL');
  }
});
