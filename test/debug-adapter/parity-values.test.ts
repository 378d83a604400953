/**
 * js-debug parity, values: evaluate results previewed as js-debug previews them (`(1) [1048576]`,
 * `Float32Array(4) [1, 2, 3, 4]`, `{a: 1, b: 'x'}`), tensors still by their summaries, and an
 * `evaluateName` on every variable (Copy as Expression, Add to Watch) that evaluates to the same
 * value again: Callback scope inputs and their values pages, V8 scopes, children of objects and
 * arrays, pages of long arrays. Real adapter, real debuggee, real TF.js.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { describeFrames, fixture, type Session, useDebugAdapter, withSession } from '../helpers/dap.js';
import { lineOf } from '../helpers/markers.js';

useDebugAdapter();

const PROGRAM = fixture('parity-program.ts');
const T = { timeout: 90_000 };

async function stopAt(s: Session, marker: string): Promise<DebugProtocol.StackFrame> {
  const line = lineOf(PROGRAM, marker);
  await s.launch({ program: PROGRAM }, (dc) => dc.setBreakpointsRequest({ source: { path: PROGRAM }, breakpoints: [{ line }] }));
  const stop = await s.stopped();
  assert.equal(stop.body.reason, 'breakpoint');
  const frames = await s.stack();
  assert.equal(frames[0]!.line, line, describeFrames(frames));
  return frames[0]!;
}

/** The variable's evaluateName, evaluated as a watch on `frameId`, shows the variable's value. */
async function reEvaluates(s: Session, v: DebugProtocol.Variable, frameId: number): Promise<void> {
  assert.ok(v.evaluateName, `${v.name} (${v.value}) should have an evaluateName`);
  const again = await s.evaluate(v.evaluateName, frameId, 'watch').catch((err: Error) => assert.fail(`${v.evaluateName}: ${err.message}`));
  // Rows that show text (a dtype, a shape) show it bare: `float32`, `[2, 3]`.
  const bare = (text: string) => text.replace(/^"(.*)"$/, '$1').replace(/^\(\d+\) /, '');
  assert.equal(bare(again.result), bare(v.value), `${v.name}: ${v.evaluateName} gives ${again.result}, the variable shows ${v.value}`);
}

describe('parity: previews and evaluateName', () => {
  test('evaluate previews arrays, typed arrays and objects as js-debug does; tensors keep their summaries', T, () =>
    withSession(async (s) => {
      const top = await stopAt(s, '@scale-return');
      for (const context of ['repl', 'watch', 'hover'] as const) {
        assert.equal((await s.evaluate('arr', top.id, context)).result, '(1) [1048576]', context);
        assert.equal((await s.evaluate('x.shape', top.id, context)).result, '(2) [2, 3]', context);
        assert.equal((await s.evaluate('typed', top.id, context)).result, 'Float32Array(4) [1, 2, 3, 4]', context);
        assert.equal((await s.evaluate('obj', top.id, context)).result, "{a: 1, b: 'x'}", context);
        assert.match((await s.evaluate('x', top.id, context)).result, /^NdArray float32\[2,3\] min=1 max=6 /, context);
        assert.match((await s.evaluate('weights', top.id, context)).result, /^Tensor float32\[2,3\] min=1 max=6 /, context);
      }
      const nested = await s.evaluate('nested', top.id, 'repl');
      assert.equal(nested.result, "{inner: {…}, 'odd key': 3, list: Array(250)}");
      const list = await s.evaluate('nested.list', top.id, 'repl');
      assert.match(list.result, /^\(250\) \[0, 2, 4, 6, .*…$/);
      assert.equal(list.indexedVariables, 250, 'a long array still pages');
      const page = await s.variables(list.variablesReference, 200, 50);
      assert.equal(page.list.length, 50);
      assert.equal(page.get('[210]').value, '420');
      // Variables: a small array and an object previewed; a typed array keeps the agent's summary.
      const locals = await s.scope(top.id, 'Locals');
      assert.equal(locals.get('arr').value, '(1) [1048576]');
      assert.equal(locals.get('obj').value, "{a: 1, b: 'x'}");
      assert.match(locals.get('typed').value, /^Float32Array float32\[4\] min=1 max=4 /);
    }),
  );

  test('every variable has an evaluateName that evaluates to the same value: Callback scope, tensors, V8 scopes, children, pages', T, () =>
    withSession(async (s) => {
      const top = await stopAt(s, '@scale-return');
      const frameId = top.id;
      // Callback scope: the input, its rows and a value of its values page.
      const cb = await s.scope(frameId, 'Callback');
      const x = cb.get('x');
      assert.equal(x.evaluateName, 'x');
      await reEvaluates(s, x, frameId);
      const rows = await s.variables(x.variablesReference);
      for (const name of ['dtype', 'size', 'shape']) await reEvaluates(s, rows.get(name), frameId);
      const values = rows.get('values');
      assert.equal(values.evaluateName, 'x.data');
      assert.match((await s.evaluate(values.evaluateName!, frameId, 'watch')).result, /^Float32Array\(6\) \[1, 2, 3, 4, 5, 6\]$/);
      const items = await s.variables(values.variablesReference, 0, 6);
      for (const v of items.list) await reEvaluates(s, v, frameId);
      assert.equal(items.get('[1, 1]').evaluateName, 'x.data[4]');
      const attrs = await s.variables(cb.get('node attrs').variablesReference);
      for (const v of attrs.list) await reEvaluates(s, v, frameId);

      // V8 scopes: each local, and children of objects and arrays (a.b, a["odd key"], a[0]).
      const locals = await s.scope(frameId, 'Locals');
      for (const name of ['factor', 'arr', 'obj']) await reEvaluates(s, locals.get(name), frameId);
      const nested = locals.get('nested');
      assert.equal(nested.evaluateName, 'nested');
      const children = await s.variables(nested.variablesReference);
      assert.equal(children.get('inner').evaluateName, 'nested.inner');
      assert.equal(children.get('odd key').evaluateName, 'nested["odd key"]');
      await reEvaluates(s, children.get('odd key'), frameId);
      const inner = await s.variables(children.get('inner').variablesReference);
      const deep = inner.get('deep');
      assert.equal(deep.evaluateName, 'nested.inner.deep');
      const deepItems = await s.variables(deep.variablesReference);
      assert.equal(deepItems.get('1').evaluateName, 'nested.inner.deep[1]');
      await reEvaluates(s, deepItems.get('1'), frameId);
      const list = children.get('list');
      assert.equal(list.indexedVariables, 250);
      const page = await s.variables(list.variablesReference, 100, 100);
      assert.equal(page.get('[150]').evaluateName, 'nested.list[150]');
      await reEvaluates(s, page.get('[150]'), frameId);
      const arr = await s.variables(locals.get('arr').variablesReference);
      await reEvaluates(s, arr.get('0'), frameId);

      // A tensor from an evaluate: its values are dataSync()'s.
      const input = await s.evaluate('weights', frameId, 'repl');
      const tensorRows = await s.variables(input.variablesReference);
      const tensorValues = tensorRows.get('values');
      assert.equal(tensorValues.evaluateName, 'weights.dataSync()');
      const flat = await s.variables(tensorValues.variablesReference, 0, 6);
      assert.equal(flat.get('[1, 0]').evaluateName, 'weights.dataSync()[3]');
      await reEvaluates(s, flat.get('[1, 0]'), frameId);
      await reEvaluates(s, tensorRows.get('dtype'), frameId);

      // The Module scope's names too.
      const module = await s.scope(frameId, 'Module');
      const plain = module.list.filter((v) => v.variablesReference === 0 && v.value !== '(getter)');
      assert.ok(plain.length > 0, module.list.map((v) => v.name).join(', '));
      for (const v of plain.slice(0, 5)) await reEvaluates(s, v, frameId);
    }),
  );
});
