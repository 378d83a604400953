/**
 * Source and function breakpoints, driven through the real built adapter against real programs
 * (test/fixtures/debug/*.ts) on real TF.js: where they stop, what they report, conditions, hit
 * counts, logpoints and how breakpoints set before launch get verified.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { describeFrames, fixture, THREAD, useDebugAdapter, withSession, type Session } from '../helpers/dap.js';
import { blankLineAbove, lineOf } from '../helpers/markers.js';

useDebugAdapter();

const NUMPY = fixture('numpy-program.ts');
const MAP = fixture('map-program.ts');
const T = { timeout: 60_000 };

/** numpy-program.ts lines. */
const SCALE_ROWS_BODY = lineOf(NUMPY, '@scale-rows-body'); // const scaled = x.map((v) => v * factor);
const LOG_HUBER_FIRST = lineOf(NUMPY, '@log-huber-first'); // const small = tf.abs(x).lessEqual(m).dataSync()[0];
/** map-program.ts lines. */
const MAP_COMMENT = lineOf(MAP, '@map-comment'); // // doubled: each value times two
const MAP_BODY = lineOf(MAP, '@map-body'); // const doubled = v * 2;

async function topFrame(s: Session): Promise<DebugProtocol.StackFrame> {
  const frames = await s.stack();
  assert.ok(frames.length > 0, 'a stopped program has frames');
  return frames[0]!;
}

/** Asserts the stop is in log_huber at its first line with x and m bound as scalar float32 tensors. */
async function assertInLogHuber(s: Session): Promise<void> {
  const frames = await s.stack();
  const top = frames[0]!;
  assert.equal(top.name, 'log_huber', describeFrames(frames));
  assert.equal(top.source?.path, NUMPY);
  assert.equal(top.line, LOG_HUBER_FIRST, `should stop at the first line of log_huber's own code:\n  ${describeFrames(frames)}`);
  const cb = await s.scope(top.id, 'Callback');
  assert.match(cb.get('x').value, /^Tensor float32\[\] min=1 max=1 /);
  assert.match(cb.get('m').value, /^Tensor float32\[\] min=2 max=2 /);
}

describe('source breakpoints', () => {
  for (const backend of ['cpu', 'wasm']) {
    test(`a breakpoint inside a numpyFunction callback stops there with the input bound in the Callback scope (${backend})`, T, () =>
      withSession(async (s) => {
        let setResponse: DebugProtocol.SetBreakpointsResponse | undefined;
        await s.launch({ program: NUMPY, backend }, async (dc) => {
          setResponse = await dc.setBreakpointsRequest({ source: { path: NUMPY }, breakpoints: [{ line: SCALE_ROWS_BODY }] });
        });
        const stop = await s.stopped();
        assert.equal(stop.body.reason, 'breakpoint');
        assert.deepEqual(stop.body.hitBreakpointIds, [setResponse!.body.breakpoints[0]!.id]);

        const top = await topFrame(s);
        assert.equal(top.name, 'scale_rows');
        assert.equal(top.source?.path, NUMPY);
        assert.equal(top.line, SCALE_ROWS_BODY);

        const scopes = await s.scopes(top.id);
        assert.equal(scopes[0]?.name, 'Callback', `the Callback scope comes first: ${scopes.map((x) => x.name).join(', ')}`);
        const cb = await s.scope(top.id, 'Callback');
        assert.match(cb.get('x').value, /^NdArray float32\[2,3\] min=1 max=6 /);
        assert.equal(cb.get('Tout').value, '[float32]');

        // x expands to its summary and a page of values: the input 1..6.
        const x = await s.variables(cb.get('x').variablesReference);
        assert.equal(x.get('dtype').value, 'float32');
        assert.equal(x.get('shape').value, '[2, 3]');
        const values = x.get('values');
        assert.equal(values.indexedVariables, 6);
        const page = await s.variables(values.variablesReference, 0, 6);
        assert.deepEqual(
          page.list.map((v) => Number(v.value)),
          [1, 2, 3, 4, 5, 6],
        );
        assert.deepEqual(
          page.list.map((v) => v.name),
          ['[0, 0]', '[0, 1]', '[0, 2]', '[1, 0]', '[1, 1]', '[1, 2]'],
        );

        const locals = await s.scope(top.id, 'Locals');
        assert.equal(locals.get('factor').value, '2');
        // Said on stdout: it is information, not an error (the Debug Console shows stderr in red).
        assert.match(s.output('stdout'), new RegExp(`backend: ${backend}`));
        assert.doesNotMatch(s.output('stderr'), /backend: /);
      }),
    );
  }

  test('a breakpoint set before launch is unverified at first, then a "changed" event verifies it before it is hit', T, () =>
    withSession(async (s) => {
      let bp: DebugProtocol.Breakpoint | undefined;
      await s.launch({ program: NUMPY }, async (dc) => {
        bp = (await dc.setBreakpointsRequest({ source: { path: NUMPY }, breakpoints: [{ line: SCALE_ROWS_BODY }] })).body.breakpoints[0];
      });
      assert.ok(bp?.id !== undefined, 'the breakpoint has an id, for later breakpoint events');
      assert.equal(bp.verified, false, 'the program is not loaded yet when the breakpoint is set');
      assert.equal(bp.line, SCALE_ROWS_BODY);
      await s.stopped();
      const changed = s.all('breakpoint').filter((e) => e.body.breakpoint.id === bp!.id);
      assert.ok(changed.length > 0, `a 'breakpoint' event for id ${bp.id} should arrive: ${s.summary()}`);
      assert.equal(changed[0]!.body.reason, 'changed');
      assert.equal(changed.at(-1)!.body.breakpoint.verified, true);
      assert.equal(changed.at(-1)!.body.breakpoint.line, SCALE_ROWS_BODY);
      // The verification comes before the stop.
      const order = s.events.filter((e) => e.event === 'stopped' || (e.event === 'breakpoint' && e.body.breakpoint.verified));
      assert.equal(order[0]?.event, 'breakpoint', s.summary());
    }),
  );

  test('a breakpoint set while the program runs (at a stop) is verified in its response', T, () =>
    withSession(async (s) => {
      await s.launch({ program: NUMPY }, (dc) => dc.setBreakpointsRequest({ source: { path: NUMPY }, breakpoints: [{ line: SCALE_ROWS_BODY }] }));
      await s.stopped();
      const r = await s.dc.setBreakpointsRequest({ source: { path: NUMPY }, breakpoints: [{ line: SCALE_ROWS_BODY }, { line: LOG_HUBER_FIRST }] });
      assert.deepEqual(
        r.body.breakpoints.map((b) => [b.verified, b.line]),
        [
          [true, SCALE_ROWS_BODY],
          [true, LOG_HUBER_FIRST],
        ],
      );
      await s.dc.continueRequest({ threadId: THREAD });
      const stop = await s.stopped();
      assert.equal(stop.body.reason, 'breakpoint');
      assert.deepEqual(stop.body.hitBreakpointIds, [r.body.breakpoints[1]!.id]);
      await assertInLogHuber(s);
    }),
  );

  test('a breakpoint on a comment line moves to the next line with code and stops there', T, () =>
    withSession(async (s) => {
      let bp: DebugProtocol.Breakpoint | undefined;
      await s.launch({ program: MAP }, async (dc) => {
        bp = (await dc.setBreakpointsRequest({ source: { path: MAP }, breakpoints: [{ line: MAP_COMMENT }] })).body.breakpoints[0];
      });
      const stop = await s.stopped();
      assert.equal(stop.body.reason, 'breakpoint');
      const top = await topFrame(s);
      assert.equal(top.source?.path, MAP);
      assert.equal(top.line, MAP_BODY);
      const verified = s.all('breakpoint').filter((e) => e.body.breakpoint.id === bp!.id && e.body.breakpoint.verified);
      assert.equal(verified.at(-1)?.body.breakpoint.line, MAP_BODY, 'the breakpoint event reports the line it moved to');
    }),
  );

  test('a breakpoint on a blank line moves to the next line with code (set while running)', T, () =>
    withSession(async (s) => {
      await s.launch({ program: NUMPY }, (dc) => dc.setBreakpointsRequest({ source: { path: NUMPY }, breakpoints: [{ line: SCALE_ROWS_BODY }] }));
      await s.stopped();
      // The blank lines above `await selectBackend()` and `const input = …` move to those lines.
      const [backendLine, inputLine] = [lineOf(NUMPY, '@select-backend'), lineOf(NUMPY, '@input')];
      const blank = [blankLineAbove(NUMPY, '@select-backend'), blankLineAbove(NUMPY, '@input')];
      const r = await s.dc.setBreakpointsRequest({ source: { path: NUMPY }, breakpoints: blank.map((line) => ({ line })) });
      assert.deepEqual(
        r.body.breakpoints.map((b) => b.line),
        [backendLine, inputLine],
      );
      assert.ok(r.body.breakpoints.every((b) => b.verified));
    }),
  );

  test('a conditional breakpoint (v > 3) inside the map callback stops only when the condition holds', T, () =>
    withSession(async (s) => {
      await s.launch({ program: MAP }, (dc) => dc.setBreakpointsRequest({ source: { path: MAP }, breakpoints: [{ line: MAP_BODY, condition: 'v > 3' }] }));
      const seen: number[] = [];
      for (;;) {
        const next = await s.nextStop();
        if (!next) break;
        assert.equal(next.body.reason, 'breakpoint');
        const top = await topFrame(s);
        assert.equal(top.line, MAP_BODY);
        seen.push(Number((await s.evaluate('v', top.id)).result));
        await s.dc.continueRequest({ threadId: THREAD });
      }
      assert.deepEqual(seen, [4, 5, 6]);
      assert.match(s.output('stdout'), /doubled 2,4,6,8,10,12/);
    }),
  );

  test('a hit count ("3") stops from the 3rd hit on', T, () =>
    withSession(async (s) => {
      await s.launch({ program: MAP }, (dc) => dc.setBreakpointsRequest({ source: { path: MAP }, breakpoints: [{ line: MAP_BODY, hitCondition: '3' }] }));
      const first = await s.stopped();
      assert.equal(first.body.reason, 'breakpoint');
      const top = await topFrame(s);
      assert.equal((await s.evaluate('v', top.id)).result, '3', 'the first stop is the 3rd hit (v = 3)');
      const seen = [3];
      await s.dc.continueRequest({ threadId: THREAD });
      for (;;) {
        const next = await s.nextStop();
        if (!next) break;
        seen.push(Number((await s.evaluate('v', (await topFrame(s)).id)).result));
        await s.dc.continueRequest({ threadId: THREAD });
      }
      assert.deepEqual(seen, [3, 4, 5, 6]);
    }),
  );

  test('clearing the breakpoints at a stop lets the program run to its end', T, () =>
    withSession(async (s) => {
      await s.launch({ program: MAP }, (dc) => dc.setBreakpointsRequest({ source: { path: MAP }, breakpoints: [{ line: MAP_BODY }] }));
      await s.stopped();
      assert.equal((await s.evaluate('v', (await topFrame(s)).id)).result, '1');
      const r = await s.dc.setBreakpointsRequest({ source: { path: MAP }, breakpoints: [] });
      assert.deepEqual(r.body.breakpoints, []);
      await s.dc.continueRequest({ threadId: THREAD });
      assert.equal(await s.nextStop(), undefined, `no more stops after the breakpoints were cleared: ${s.summary()}`);
      assert.match(s.output('stdout'), /doubled 2,4,6,8,10,12/);
    }),
  );

  test('stopOnEntry stops before the program runs, at its first line', T, () =>
    withSession(async (s) => {
      await s.launch({ program: NUMPY, stopOnEntry: true });
      const stop = await s.stopped();
      assert.equal(stop.body.reason, 'entry');
      const top = await topFrame(s);
      assert.equal(top.source?.path, NUMPY);
      assert.doesNotMatch(s.output('stdout'), /scaled/, 'nothing of the program ran yet');
    }),
  );

  test('a logpoint prints its message with {expressions} interpolated and does not stop', T, () =>
    withSession(async (s) => {
      await s.launch({ program: NUMPY }, async (dc) => {
        await dc.setBreakpointsRequest({ source: { path: NUMPY }, breakpoints: [{ line: SCALE_ROWS_BODY, logMessage: 'x is {x.shape}' }] });
        await dc.setExceptionBreakpointsRequest({ filters: [] });
      });
      await s.terminated();
      assert.equal(s.all('stopped').length, 0, `a logpoint must not stop: ${s.summary()}`);
      const logged = s.all('output').filter((e) => String(e.body.output).includes('x is '));
      assert.equal(logged.length, 1, s.summary());
      assert.equal(logged[0]!.body.output, 'x is [2,3]\n');
      assert.equal(logged[0]!.body.category, 'console');
      assert.match(s.output('stdout'), /done/);
    }),
  );

  test('lines a logpoint writes just before the program exits all come before the session ends', T, () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tfjs-cb-logpoint-exit-'));
    const program = path.join(dir, 'burst.mjs');
    writeFileSync(program, 'let sum = 0;\nfor (let i = 0; i < 3000; i++) {\n  sum += i;\n}\nprocess.exit(0);\n');
    return withSession(async (s) => {
      await s.launch({ program }, async (dc) => {
        await dc.setBreakpointsRequest({ source: { path: program }, breakpoints: [{ line: 3, logMessage: 'i={i}' }] });
      });
      await s.terminated();
      const logged = s.all('output').filter((e) => String(e.body.output).startsWith('i='));
      assert.equal(s.all('stopped').length, 0, s.summary());
      assert.deepEqual([logged.length, logged[0]?.body.output, logged.at(-1)?.body.output], [3000, 'i=0\n', 'i=2999\n']);
      assert.deepEqual([logged[0]?.body.source?.path, logged[0]?.body.line], [program, 3]);
    }).finally(() => rmSync(dir, { recursive: true, force: true }));
  });
});

describe('function breakpoints', () => {
  test('by the callback function name: stops at the first line of log_huber with x and m bound', T, () =>
    withSession(async (s) => {
      let response: DebugProtocol.SetFunctionBreakpointsResponse | undefined;
      await s.launch({ program: NUMPY }, async (dc) => {
        response = await dc.setFunctionBreakpointsRequest({ breakpoints: [{ name: 'log_huber' }] });
      });
      assert.equal(response!.body.breakpoints.length, 1);
      const stop = await s.stopped();
      assert.equal(stop.body.reason, 'function breakpoint');
      await assertInLogHuber(s);
      // The callback's own frame sits above a graph frame for its invocation.
      const frames = await s.stack();
      assert.match(frames[1]!.name, /› .*\(EagerPyFunc\)$/, describeFrames(frames));
      assert.equal(frames[1]!.presentationHint, 'label');
    }),
  );

  test('by token: the token the adapter reports for log_huber stops there too', T, async () => {
    // The token depends on call order; read it from a first run's tensorCallback event.
    const token = await withSession(async (s) => {
      await s.launch({ program: NUMPY }, (dc) => dc.setFunctionBreakpointsRequest({ breakpoints: [{ name: 'log_huber' }] }));
      await s.stopped();
      const tc = await s.waitFor('tensorCallback');
      const callback = tc.body.invocation.callback as { token: string; functionName?: string };
      assert.equal(callback.functionName, 'log_huber');
      assert.match(callback.token, /^pyfunc_\d+$/);
      // The Callback scope's node attrs say the same.
      const cb = await s.scope((await topFrame(s)).id, 'Callback');
      const attrs = await s.variables(cb.get('node attrs').variablesReference);
      assert.equal(attrs.get('token').value, callback.token);
      return callback.token;
    });
    await withSession(async (s) => {
      await s.launch({ program: NUMPY }, (dc) => dc.setFunctionBreakpointsRequest({ breakpoints: [{ name: token }] }));
      const stop = await s.stopped();
      assert.equal(stop.body.reason, 'function breakpoint');
      await assertInLogHuber(s);
    });
  });

  test('launch argument breakOnCallbacks: ["log_huber"] stops the same way', T, () =>
    withSession(async (s) => {
      await s.launch({ program: NUMPY, breakOnCallbacks: ['log_huber'] });
      const stop = await s.stopped();
      assert.equal(stop.body.reason, 'function breakpoint');
      await assertInLogHuber(s);
    }),
  );

  test('a function breakpoint condition sees the callback inputs by parameter name', T, async () => {
    await withSession(async (s) => {
      await s.launch({ program: NUMPY }, async (dc) => {
        await dc.setFunctionBreakpointsRequest({ breakpoints: [{ name: 'log_huber', condition: 'm.dataSync()[0] === 2' }] });
      });
      assert.equal((await s.stopped()).body.reason, 'function breakpoint');
      await assertInLogHuber(s);
    });
    await withSession(async (s) => {
      await s.launch({ program: NUMPY }, async (dc) => {
        await dc.setFunctionBreakpointsRequest({ breakpoints: [{ name: 'log_huber', condition: 'm.dataSync()[0] === 3' }] });
        await dc.setExceptionBreakpointsRequest({ filters: [] });
      });
      await s.terminated();
      assert.equal(s.all('stopped').length, 0, `a false condition does not stop: ${s.summary()}`);
    });
  });

  test('a function breakpoint for a name no callback has never stops (the Tout filter off)', T, () =>
    withSession(async (s) => {
      await s.launch({ program: NUMPY }, async (dc) => {
        await dc.setFunctionBreakpointsRequest({ breakpoints: [{ name: 'no_such_callback' }] });
        await dc.setExceptionBreakpointsRequest({ filters: [] });
      });
      const exited = await s.terminated();
      assert.equal(s.all('stopped').length, 0, s.summary());
      assert.equal(exited?.body.exitCode, 0);
    }),
  );
});
