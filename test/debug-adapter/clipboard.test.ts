/**
 * Copy Value: evaluate in the `clipboard` context on a tensor, NdArray or typed array gives its
 * values as JSON nested by shape, exactly (NaN as null, int64 beyond 2^53 to the digit); anything
 * else is copied as evaluate shows it; a tensor over the cap is refused with a message. Real
 * adapter, real debuggee, real TF.js.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { fixture, THREAD, useDebugAdapter, withSession, type Session } from '../helpers/dap.js';
import { lineOf } from '../helpers/markers.js';

useDebugAdapter();

const BYTES = fixture('tensor-bytes-program.ts');
const BIG = fixture('big-tensor-program.ts');
const T = { timeout: 90_000 };

async function stopIn(s: Session, file: string, marker: string): Promise<number> {
  await s.launch({ program: file }, (dc) => dc.setBreakpointsRequest({ source: { path: file }, breakpoints: [{ line: lineOf(file, marker) }] }));
  assert.equal((await s.stopped()).body.reason, 'breakpoint');
  return (await s.stack())[0]!.id;
}

async function copy(s: Session, expression: string, frameId: number): Promise<string> {
  return (await s.dc.evaluateRequest({ expression, frameId, context: 'clipboard' })).body.result;
}

describe('evaluate in the clipboard context', () => {
  test('the initialize response announces supportsClipboardContext', T, () =>
    withSession(async (s) => {
      const init = await s.dc.initializeRequest({ adapterID: 'tfjs-callbacks', linesStartAt1: true, columnsStartAt1: true, pathFormat: 'path' });
      assert.equal(init.body?.supportsClipboardContext, true);
    }),
  );

  test('tensors, typed arrays and N-D tensors copy as JSON nested by shape, exactly', T, () =>
    withSession(async (s) => {
      const frameId = await stopIn(s, BYTES, '@inspect-body');
      // float32 0.1 as the shortest text that reads back the same float32; NaN has no JSON form: null.
      assert.equal(await copy(s, 'x', frameId), '[[1,-2],[0.1,null]]');
      assert.equal(await copy(s, 'ids', frameId), '[1,256,-1]');
      assert.equal(await copy(s, 'wide', frameId), '[1,-1,9007199254740993]', 'int64 to the digit, past 2^53');
      assert.equal(await copy(s, 'cube', frameId), '[[[1,2],[3,4]],[[5,6],[7,8]]]');
      assert.equal(await copy(s, 'names', frameId), '["a,b","c"]');
      // The repl shows a description; Copy Value gives the values.
      assert.match((await s.evaluate('x', frameId, 'repl')).result, /^Tensor float32\[2,2\]/);
      // Anything else is copied as evaluate shows it.
      assert.equal(await copy(s, '1 + 1', frameId), '2');
      assert.equal(await copy(s, '"text"', frameId), '"text"');
      // The copy made no tensor in the program.
      const before = Number((await s.evaluate('tf.memory().numTensors', frameId)).result);
      await copy(s, 'x', frameId);
      assert.equal(Number((await s.evaluate('tf.memory().numTensors', frameId)).result), before);
      await s.dc.continueRequest({ threadId: THREAD });
      await s.terminated();
    }),
  );

  test('a tensor over the cap is refused with a message, at once', T, () =>
    withSession(async (s) => {
      const frameId = await stopIn(s, BIG, '@total-body');
      // Refused from the tensor's shape, its values never read; its time: bench/test-timings.bench.ts.
      const text = await copy(s, 'x', frameId);
      assert.match(text, /x has 10,000,000 values; a copy as JSON takes at most 1,000,000: copy a slice of it/);
      assert.equal(await copy(s, 'x.slice([9999998], [2])', frameId), '[9999998,9999999]');
    }),
  );
});
