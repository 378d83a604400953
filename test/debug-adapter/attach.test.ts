/**
 * attach: to a Node program started with --inspect (random loopback port) that uses the runtime.
 * The adapter injects its agent, stops in a callback, and on disconnect leaves the program running.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { after, test } from 'node:test';
import { DebugClient } from '@vscode/debugadapter-testsupport';
import { adapterMain, fixture, root, useDebugAdapter } from '../helpers/dap.js';
import { lineOf } from '../helpers/markers.js';

useDebugAdapter();

let program: ChildProcess | undefined;
after(() => {
  if (program?.exitCode === null) program.kill('SIGKILL');
});

/** Starts the fixture under --inspect on a random port; resolves with the port it listens on. */
function startInspected(): Promise<{ port: number; output: () => string; exited: Promise<number> }> {
  const child = spawn(
    process.execPath,
    ['--inspect=127.0.0.1:0', '--import', 'tsx', '--import', path.join(root, 'dist', 'runtime', 'loader', 'register.js'), fixture('attach-program.ts')],
    {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  program = child;
  let stdout = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  const exited = new Promise<number>((resolve) => child.once('exit', (code) => resolve(code ?? -1)));
  return new Promise((resolve, reject) => {
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => {
      stderr += d.toString();
      const match = /Debugger listening on ws:\/\/127\.0\.0\.1:(\d+)\//.exec(stderr);
      if (match) resolve({ port: Number(match[1]), output: () => stdout, exited });
    });
    child.once('exit', () => reject(new Error(`the program exited before listening: ${stderr}`)));
  });
}

test('attach by port stops in a callback with its inputs, and disconnect leaves the program running', { timeout: 60_000 }, async () => {
  const inspected = await startInspected();
  const dc = new DebugClient('node', adapterMain, 'tfjs-callbacks');
  dc.defaultTimeout = 30_000;
  await dc.start();
  try {
    await Promise.all([
      dc.waitForEvent('initialized').then(async () => {
        await dc.setFunctionBreakpointsRequest({ breakpoints: [{ name: 'tick' }] });
        await dc.configurationDoneRequest();
      }),
      dc.initializeRequest().then(() => dc.attachRequest({ port: inspected.port } as never)),
    ]);
    const stopped = await dc.waitForEvent('stopped');
    assert.equal(stopped.body.reason, 'function breakpoint');
    assert.match(stopped.body.description, /Paused on callback tick \(PyFunc\)/);

    const frames = (await dc.stackTraceRequest({ threadId: 1 })).body.stackFrames;
    assert.equal(frames[0]!.name, 'tick');
    assert.equal(frames[0]!.line, lineOf(fixture('attach-program.ts'), '@tick-body'));
    assert.ok(
      frames.some((f) => f.name === 'eager › tick (PyFunc)'),
      frames.map((f) => f.name).join(' | '),
    );
    const scopes = (await dc.scopesRequest({ frameId: frames[0]!.id })).body.scopes;
    assert.equal(scopes[0]!.name, 'Callback');
    const vars = (await dc.variablesRequest({ variablesReference: scopes[0]!.variablesReference })).body.variables;
    assert.match(vars.find((v) => v.name === 'x')?.value ?? '', /^NdArray float32\[2\] min=\d+ max=\d+/);

    await dc.setFunctionBreakpointsRequest({ breakpoints: [] });
    await dc.continueRequest({ threadId: 1 });
    await dc.disconnectRequest({});
  } finally {
    await dc.stop();
  }
  // Attached, not launched: the program goes on and ends by itself.
  assert.equal(await inspected.exited, 0);
  assert.match(inspected.output(), /^final \d+,\d+$/m);
});
