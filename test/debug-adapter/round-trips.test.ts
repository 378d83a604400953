/**
 * What a stop in a callback costs in round trips to the debuggee: the controller and the variable
 * store, in this process, against a real program (started with --inspect, the agent injected as
 * attach does), every CDP command counted. The Callback scope of a callback with three tensor
 * inputs must come in at most 2 round trips (issue 12: it took 2 + 2N).
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { CdpConnection } from '../../debug-adapter/cdp/connection.js';
import { connectAttached } from '../../debug-adapter/connect.js';
import { Controller, type PausedState } from '../../debug-adapter/controller.js';
import { buildStack } from '../../debug-adapter/stack.js';
import { VariableStore } from '../../debug-adapter/variables.js';
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
    filters: { breakOnCallbacks: ['triple'], breakOnToutMismatch: true, breakOnNonFinite: false, breakOnGraphNonFinite: false },
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
