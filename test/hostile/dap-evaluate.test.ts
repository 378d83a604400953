/**
 * Evaluations that go wrong: one that never ends is stopped after its time and the session goes
 * on; what was thrown shows in the error, whatever it was; setVariable's new value is evaluated
 * in the paused frame; a result over the cap is cut with a note. And the framer that assembles
 * the debuggee's messages does linear work.
 * Real adapter (dist/), real debuggee, real TF.js; the framer directly.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, test } from 'node:test';
import { createLineFramer } from '../../debug-adapter/debuggee/line-framer.js';
import { MAX_RESULT_CHARS } from '../../debug-adapter/evaluate-requests.js';
import { REPL_EVALUATION_TIMEOUT_MS } from '../../debug-adapter/values/evaluation.js';
import { root, THREAD, useDebugAdapter, withSession, type Session } from '../helpers/dap.js';
import { lineOf } from '../helpers/markers.js';

useDebugAdapter();

const HOSTILE = path.join(root, 'test', 'fixtures', 'hostile', 'hostile-program.ts');
const STOP_LINE = lineOf(HOSTILE, '@stop');
const T = { timeout: 120_000 };
const SECONDS = REPL_EVALUATION_TIMEOUT_MS / 1000;

async function stopInHold(s: Session): Promise<number> {
  await s.launch({ program: HOSTILE }, (dc) => dc.setBreakpointsRequest({ source: { path: HOSTILE }, breakpoints: [{ line: STOP_LINE }] }));
  await s.stopped();
  const top = (await s.stack())[0]!;
  assert.equal(top.line, STOP_LINE);
  return top.id;
}

function evaluateError(s: Session, expression: string, frameId?: number): Promise<string> {
  return s.evaluate(expression, frameId, 'repl').then(
    (r) => assert.fail(`${expression} should fail; it gave ${r.result}`),
    (err: Error) => err.message,
  );
}

describe('evaluate', () => {
  test('an evaluation that never ends is stopped after its time; evaluate and continue work after', T, () =>
    withSession(async (s) => {
      const frameId = await stopInHold(s);
      assert.match(
        await evaluateError(s, 'while (true) {}', frameId),
        new RegExp(`evaluation ran over ${SECONDS} s and was stopped .*the program is still paused`),
      );
      // Without a frame too (a global evaluation while paused).
      assert.match(await evaluateError(s, 'for (;;) {}'), new RegExp(`evaluation ran over ${SECONDS} s and was stopped`));
      assert.equal((await s.evaluate('factor * 3', frameId)).result, '21');
      assert.equal((await s.stack())[0]!.line, STOP_LINE);
      await s.dc.continueRequest({ threadId: THREAD });
      const exited = await s.terminated();
      assert.equal(exited?.body.exitCode, 0);
      assert.match(s.output('stdout'), /hold 7\n/);
    }),
  );

  test('a thrown string, number, object or Error shows in the error', T, () =>
    withSession(async (s) => {
      const frameId = await stopInHold(s);
      assert.equal(await evaluateError(s, 'throw "boom"', frameId), "Uncaught 'boom'");
      assert.equal(await evaluateError(s, 'throw 42', frameId), 'Uncaught 42');
      assert.equal(await evaluateError(s, 'throw { code: factor, why: "no" }', frameId), "Uncaught {code: 7, why: 'no'}");
      assert.equal(await evaluateError(s, 'throw [1, 2]', frameId), 'Uncaught [1, 2]');
      assert.equal(await evaluateError(s, 'throw new RangeError("bad " + factor)', frameId), 'Uncaught RangeError: bad 7');
      assert.equal(await evaluateError(s, 'throw null'), 'Uncaught null');
    }),
  );

  test('a result over the cap is cut with a note saying how long it was and how to see more; Copy Value refuses one too long', T, () =>
    withSession(async (s) => {
      const frameId = await stopInHold(s);
      const { result } = await s.evaluate("'ab'.repeat(1_000_000)", frameId);
      assert.ok(result.length <= MAX_RESULT_CHARS + 200, `cut near ${MAX_RESULT_CHARS} characters, got ${result.length}`);
      assert.ok(result.startsWith('"abab'), result.slice(0, 20));
      assert.match(
        result,
        /… \(cut: the first 100,000 of 2,000,002 characters; evaluate \('ab'\.repeat\(1_000_000\)\)\.slice\(100000, 200000\) for the next\)$/,
      );
      assert.equal((await s.evaluate("'ab'.repeat(1_000_000).length", frameId)).result, '2000000', 'the value itself is whole in the program');
      const copy = await s.dc.evaluateRequest({ expression: "'x'.repeat(11_000_000)", frameId, context: 'clipboard' }).then(
        (r) => `copied ${r.body.result.length} characters`,
        (err: Error) => err.message,
      );
      assert.match(copy, /'x'\.repeat\(11_000_000\) is 11,000,002 characters; Copy Value takes at most 10,000,000: copy a slice of it/);
      // Under the caps, whole.
      assert.equal((await s.evaluate("'ab'.repeat(1000)", frameId)).result.length, 2002);
    }),
  );

  test('setVariable evaluates the new value in the paused frame: factor * 3 sees factor', T, () =>
    withSession(async (s) => {
      const frameId = await stopInHold(s);
      const scopes = await s.scopes(frameId);
      const locals = scopes.find((sc) => sc.name === 'Locals')!;
      const set = await s.dc.setVariableRequest({ variablesReference: locals.variablesReference, name: 'factor', value: 'factor * 3' });
      assert.equal(set.body.value, '21');
      assert.equal((await s.evaluate('factor', frameId)).result, '21');
    }),
  );
});

describe('the line framer', () => {
  test('a 1M-character message in 1-byte to 64 KB chunks: each character scanned and copied once', () => {
    const message = JSON.stringify({ id: 1, result: { value: 'x'.repeat(1_000_000) } });
    for (const size of [1, 7, 1000, 65_536]) {
      const framer = createLineFramer();
      const out: string[] = [];
      const stream = `${message}\n{"id":2}\n\n${message}\n`;
      for (let i = 0; i < stream.length; i += size) out.push(...framer.push(stream.slice(i, i + size)));
      assert.deepEqual(
        out.map((m) => m.length),
        [message.length, 8, message.length],
      );
      assert.equal(out[0], message);
      assert.equal(framer.scanned, stream.length, `chunks of ${size}: each character scanned once`);
      assert.equal(framer.copied, 2 * message.length + 8, `chunks of ${size}: each message character copied once`);
    }
  });
});
