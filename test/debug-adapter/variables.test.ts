/**
 * Variables and evaluate at stops inside callbacks: tensors described and paged (a 10M-element
 * one included), evaluate in the callback frame, errors, setVariable. Real adapter, real debuggee,
 * real TF.js.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { fixture, THREAD, useDebugAdapter, withSession, type Session } from '../helpers/dap.js';
import { lineOf } from '../helpers/markers.js';

useDebugAdapter();

const NUMPY = fixture('numpy-program.ts');
const BIG = fixture('big-tensor-program.ts');
const T = { timeout: 60_000 };
const SIZE = 10_000_000;

async function stopInScaleRows(s: Session): Promise<number> {
  const line = lineOf(NUMPY, '@scale-rows-body');
  await s.launch({ program: NUMPY }, (dc) => dc.setBreakpointsRequest({ source: { path: NUMPY }, breakpoints: [{ line }] }));
  assert.equal((await s.stopped()).body.reason, 'breakpoint');
  const top = (await s.stack())[0]!;
  assert.equal(top.name, 'scale_rows');
  return top.id;
}

describe('a 10M-element tensor', () => {
  test('is described, opens on its first 100 values, then all 10000000 (indexedVariables), paged from its end', T, () =>
    withSession(async (s) => {
      const line = lineOf(BIG, '@total-body');
      await s.launch({ program: BIG }, (dc) => dc.setBreakpointsRequest({ source: { path: BIG }, breakpoints: [{ line }] }));
      assert.equal((await s.stopped()).body.reason, 'breakpoint');
      const top = (await s.stack())[0]!;
      assert.equal(top.name, 'total');
      assert.equal(top.line, line);

      const cb = await s.scope(top.id, 'Callback');
      const x = cb.get('x');
      assert.match(x.value, /^Tensor float32\[10000000\] /);
      assert.ok(x.variablesReference > 0);

      const children = await s.variables(x.variablesReference);
      assert.equal(children.get('shape').value, '[10000000]');
      assert.equal(children.get('size').value, String(SIZE));
      // A long tensor's values open on the first 100 (one click), then all of them, paged.
      const opened = await s.variables(children.get('values').variablesReference);
      assert.equal(children.get('values').indexedVariables, undefined);
      assert.equal(opened.list.length, 101);
      assert.deepEqual(
        opened.list.slice(0, 100).map((v) => [v.name, Number(v.value)]),
        Array.from({ length: 100 }, (_, i) => [`[${i}]`, i]),
      );
      const values = opened.get('all values');
      assert.equal(values.indexedVariables, SIZE);

      const tail = await s.variables(values.variablesReference, 9_999_900, 100);
      assert.equal(tail.list.length, 100);
      assert.equal(tail.list[0]!.name, '[9999900]');
      assert.equal(tail.list[99]!.name, '[9999999]');
      assert.deepEqual(
        tail.list.map((v) => Number(v.value)),
        Array.from({ length: 100 }, (_, i) => 9_999_900 + i),
      );

      const head = await s.variables(values.variablesReference, 0, 3);
      assert.deepEqual(
        head.list.map((v) => v.value),
        ['0', '1', '2'],
      );

      // A page asked for past the end is cut at the end.
      const past = await s.variables(values.variablesReference, SIZE - 2, 100);
      assert.deepEqual(
        past.list.map((v) => v.value),
        ['9999998', '9999999'],
      );

      // The same through tensorData.
      const data = await s.dc.customRequest('tensorData', { expression: 'x', frameId: top.id, start: 9_999_990, count: 10 });
      assert.deepEqual(
        data.body.values,
        Array.from({ length: 10 }, (_, i) => 9_999_990 + i),
      );
      assert.equal(data.body.info.size, SIZE);

      await s.dc.continueRequest({ threadId: THREAD });
      await s.terminated();
      assert.match(s.output('stdout'), /total \d/);
    }),
  );
});

describe('evaluate in a callback frame', () => {
  test('x.data[4] + factor in the repl is 7', T, () =>
    withSession(async (s) => {
      const frameId = await stopInScaleRows(s);
      const r = await s.evaluate('x.data[4] + factor', frameId, 'repl');
      assert.equal(r.result, '7');
      assert.equal(r.variablesReference, 0);
    }),
  );

  test('a tensor expression is described as a Tensor and expands', T, () =>
    withSession(async (s) => {
      const frameId = await stopInScaleRows(s);
      const r = await s.evaluate('tf.tensor(Array.from(x.data), [...x.shape], x.dtype)', frameId, 'repl');
      assert.match(r.result, /^Tensor float32\[2,3\] min=1 max=6 /);
      assert.ok(r.variablesReference > 0);
      const children = await s.variables(r.variablesReference);
      assert.equal(children.get('dtype').value, 'float32');
      assert.equal(children.get('values').indexedVariables, 6);
      const made = await s.evaluate('tf.tidy(() => tf.ones([2, 2]).mul(3))', frameId, 'watch');
      assert.match(made.result, /^Tensor float32\[2,2\] min=3 max=3 /);
    }),
  );

  test('an expression that throws answers with an error carrying the ReferenceError', T, () =>
    withSession(async (s) => {
      const frameId = await stopInScaleRows(s);
      await assert.rejects(s.evaluate('nope.x', frameId, 'repl'), /ReferenceError: nope is not defined/);
      // The session goes on.
      assert.equal((await s.evaluate('factor * 3', frameId, 'repl')).result, '6');
    }),
  );

  test('evaluate on the graph frame runs in the callback', T, () =>
    withSession(async (s) => {
      await stopInScaleRows(s);
      const frames = await s.stack();
      const graph = frames.find((f) => f.presentationHint === 'label');
      assert.ok(graph, 'a graph frame');
      assert.equal((await s.evaluate('x.shape.join("x")', graph.id, 'repl')).result, '"2x3"');
    }),
  );

  test('setVariable changes a local the callback then uses', T, () =>
    withSession(async (s) => {
      const frameId = await stopInScaleRows(s);
      const scopes = await s.scopes(frameId);
      const locals = scopes.find((x) => x.name === 'Locals')!;
      const r = await s.dc.setVariableRequest({ variablesReference: locals.variablesReference, name: 'factor', value: '10' });
      assert.equal(r.body.value, '10');
      assert.equal((await s.evaluate('factor', frameId)).result, '10');
      await s.dc.setExceptionBreakpointsRequest({ filters: [] });
      await s.dc.continueRequest({ threadId: THREAD });
      await s.terminated();
      assert.match(s.output('stdout'), /scaled 10,20,30,40,50,60/);
    }),
  );
});
