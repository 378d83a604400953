/**
 * The "NaN/Inf in any op" filter's controls under the real adapter: Continue goes from birth to
 * birth (never to the ops that carry one on), the filter's condition (`filterOptions`) stops only
 * where it holds, refuses one that does not compile and says when one throws, "don't stop here
 * again" (`ignoreOpBirth`) dismisses an op or a line for the session, and the inspector reads the
 * op's tensors as a node of `NaN/Inf birth` (`nodeInfo`, `tensorData`).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, test } from 'node:test';
import { DebugClient } from '@vscode/debugadapter-testsupport';
import { OP_BIRTH_GRAPH } from '../../debug-adapter/debuggee/agent-protocol.js';
import { IGNORE_OP_BIRTH_REQUEST, NODE_INFO_REQUEST, TENSOR_DATA_REQUEST } from '../../debug-adapter/extension-protocol.js';
import { adapterMain, firstUserFrame, fixture, rawRequest, root, type Session, THREAD, useDebugAdapter, withSession } from '../helpers/dap.js';
import { FakeExtension, runInTerminal, runToEnd, useDebugTerminal, waitUntil } from '../helpers/terminal.js';
import { lineOf } from '../helpers/markers.js';

useDebugAdapter();
useDebugTerminal();

const PROGRAM = fixture('op-births-program.ts');
const T = { timeout: 120_000 };
const at = (marker: string) => lineOf(PROGRAM, marker);

async function launch(s: Session, condition?: string) {
  let answer: Awaited<ReturnType<Session['dc']['setExceptionBreakpointsRequest']>> | undefined;
  await s.launch({ program: PROGRAM, backend: 'cpu' }, async (dc) => {
    answer = await dc.setExceptionBreakpointsRequest({
      filters: ['toutMismatch'],
      filterOptions: [{ filterId: 'opNonFinite', ...(condition ? { condition } : {}) }],
    });
  });
  return answer!;
}

/** Each stop's top frame line and the op it names, to the program's end. */
async function stopsToEnd(s: Session): Promise<string[]> {
  const seen: string[] = [];
  for (let stop = await s.nextStop(); stop; stop = await s.nextStop()) {
    const top = firstUserFrame(await s.stack());
    seen.push(`${top?.line} ${top?.name}`);
    await s.dc.continueRequest({ threadId: THREAD });
  }
  return seen;
}

describe('NaN/Inf in any op: its controls', () => {
  test('Continue goes from birth to birth: each Log at its line, the sqrt, the data; never the where or the ops downstream', T, () =>
    withSession(async (s) => {
      await launch(s);
      assert.deepEqual(await stopsToEnd(s), [
        `${at('@masked')} Log (forward)`,
        `${at('@masked')} Log (forward)`,
        `${at('@masked')} Log (forward)`,
        `${at('@roots')} Sqrt (forward)`,
        `${at('@data')} tf.tensor1d (data)`,
      ]);
      assert.match(s.output('stdout'), /done: 2 1/);
    }),
  );

  test('a condition over the birth stops only where it holds', T, () =>
    withSession(async (s) => {
      const answer = await launch(s, "op === 'Sqrt' && pass === 'forward' && inputs[0].shape[0] === 2");
      assert.deepEqual(
        answer.body?.breakpoints?.map((b) => b.verified),
        [true, true],
      );
      assert.deepEqual(await stopsToEnd(s), [`${at('@roots')} Sqrt (forward)`]);
    }),
  );

  test('a condition that does not compile is refused, saying why and what it sees', T, () =>
    withSession(async (s) => {
      const answer = await launch(s, "op === 'Sqrt' &&");
      const refused = answer.body?.breakpoints?.find((b) => !b.verified);
      assert.match(refused?.message ?? '', /^The condition `op === 'Sqrt' &&` does not compile: .* It sees op, layer, pass/);
    }),
  );

  test('a condition that throws stops, saying so', T, () =>
    withSession(async (s) => {
      await launch(s, 'layer.name === "head"');
      const stop = await s.stopped();
      assert.match(
        stop.body.description ?? '',
        /\(the condition `layer\.name === "head"` threw TypeError: .*: it stops at every birth until the condition is fixed\)$/,
      );
    }),
  );

  test("don't stop here again: dismissing the op goes on past its later births to the next other one", T, () =>
    withSession(async (s) => {
      await launch(s);
      await s.stopped();
      const answer = await rawRequest(s.dc, IGNORE_OP_BIRTH_REQUEST, { what: 'op' });
      assert.ok(answer.answered && answer.response.success, JSON.stringify(answer));
      assert.deepEqual((answer as { response: { body: unknown } }).response.body, { ignored: 'no more stops at `Log` this session' });
      await s.dc.continueRequest({ threadId: THREAD });
      assert.deepEqual(await stopsToEnd(s), [`${at('@roots')} Sqrt (forward)`, `${at('@data')} tf.tensor1d (data)`]);
    }),
  );

  test('the inspector reads the op as a node of `NaN/Inf birth`: its facts and its output’s values', T, () =>
    withSession(async (s) => {
      await launch(s);
      await s.stopped();
      const info = await s.dc.customRequest(NODE_INFO_REQUEST, { graph: OP_BIRTH_GRAPH, node: 'Log' });
      assert.equal(info.body.live, true);
      assert.match(String(info.body.attrs.birth), /^first NaN: op `Log` \(forward\) at .*op-births-program\.ts:\d+:\d+, input 0 has negatives \(min -1\)$/);
      assert.equal(info.body.attrs['first non-finite'], 'NaN at output 0[0]');
      const page = await s.dc.customRequest(TENSOR_DATA_REQUEST, { graph: OP_BIRTH_GRAPH, node: 'Log', side: 'outputs', index: 0 });
      assert.deepEqual(page.body.values[0], { nonFinite: 'NaN' });
      assert.ok(Math.abs(Number(page.body.values[1]) - Math.log(4)) < 1e-6, JSON.stringify(page.body.values));
      const refused = await rawRequest(s.dc, IGNORE_OP_BIRTH_REQUEST, { what: 'everything' });
      assert.ok(refused.answered && !refused.response.success, 'a bad `what` is refused');
    }),
  );

  test('in the Debug Terminal: `node program.ts` with the filter on stops at each birth', T, async () => {
    const ext = await FakeExtension.start((dc) => dc.setExceptionBreakpointsRequest({ filters: [], filterOptions: [{ filterId: 'opNonFinite' }] }));
    try {
      const run = runInTerminal(process.execPath, [PROGRAM], ext.env());
      await waitUntil(() => ext.sessions.length === 1, 30_000, 'the program asked for a session');
      const s = ext.sessions[0]!;
      const first = await s.stopped();
      assert.match(first.body.description ?? '', /^NaN\/Inf in any op: first NaN: op `Log` \(forward\) at /);
      assert.equal(firstUserFrame(await s.stack())?.line, at('@masked'));
      await s.dc.continueRequest({ threadId: THREAD });
      assert.deepEqual(await runToEnd(s), ['exception', 'exception', 'exception', 'exception']);
      assert.equal(await run.exited, 0, run.stderr());
    } finally {
      await ext.dispose();
    }
  });

  test('attached to a program started with --inspect: stops at a birth, and disconnect leaves it running', T, async () => {
    const program = fixture('attach-nan-program.ts');
    const child = spawn(
      process.execPath,
      ['--inspect=127.0.0.1:0', '--import', 'tsx', '--import', path.join(root, 'dist', 'runtime', 'loader', 'register.js'), program],
      {
        cwd: root,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
    const exited = new Promise<number>((resolve) => child.once('exit', (code) => resolve(code ?? -1)));
    const port = await new Promise<number>((resolve, reject) => {
      let stderr = '';
      child.stderr!.on('data', (d: Buffer) => {
        stderr += d.toString();
        const match = /Debugger listening on ws:\/\/127\.0\.0\.1:(\d+)\//.exec(stderr);
        if (match) resolve(Number(match[1]));
      });
      child.once('exit', () => reject(new Error(`the program exited before listening: ${stderr}`)));
    });
    const dc = new DebugClient('node', adapterMain, 'tfjs-callbacks');
    dc.defaultTimeout = 30_000;
    await dc.start();
    try {
      await Promise.all([
        dc.waitForEvent('initialized').then(async () => {
          await dc.setExceptionBreakpointsRequest({ filters: ['opNonFinite'] });
          await dc.configurationDoneRequest();
        }),
        dc.initializeRequest().then(() => dc.attachRequest({ port } as never)),
      ]);
      const stopped = await dc.waitForEvent('stopped');
      assert.match(stopped.body.description, /^NaN\/Inf in any op: first (NaN|Inf): op `Log` \(forward\) at .*attach-nan-program\.ts:\d+:\d+/);
      const frames = (await dc.stackTraceRequest({ threadId: 1 })).body.stackFrames;
      assert.equal(firstUserFrame(frames)?.line, lineOf(program, '@attach-log'));
      await dc.setExceptionBreakpointsRequest({ filters: [] });
      await dc.continueRequest({ threadId: 1 });
      await dc.disconnectRequest({});
    } finally {
      await dc.stop();
    }
    assert.equal(await exited, 0);
    assert.match(stdout, /^steps \d+, last /m);
  });
});
