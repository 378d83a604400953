/**
 * What the Callback scope shows can be evaluated and watched (debug console, watch, hover) in the
 * callback's frame and its graph frame, without hiding the frame's own names; a parameter tsx
 * renamed (`beta` → `beta2`, shadowing a module-level `beta`) keeps its source name. Real adapter,
 * real debuggee, real TF.js.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { describeFrames, fixture, useDebugAdapter, withSession } from '../helpers/dap.js';
import { lineOf } from '../helpers/markers.js';

useDebugAdapter();

const NUMPY = fixture('numpy-program.ts');
const RENAME = fixture('rename-program.ts');
const T = { timeout: 60_000 };
const CONTEXTS = ['repl', 'watch', 'hover'] as const;

describe('the Callback scope, evaluated', () => {
  test('at a Tout mismatch, every name the graph frame’s Callback scope shows evaluates, in the console, watch and hover', T, () =>
    withSession(async (s) => {
      await s.launch({ program: NUMPY });
      await s.stopped();
      const frames = await s.stack();
      const graph = frames[0]!;
      assert.equal(graph.presentationHint, 'label', describeFrames(frames));
      const cb = await s.scope(graph.id, 'Callback');
      assert.deepEqual(
        cb.list.map((v) => v.name),
        ['x', 'Tin', 'Tout', 'returned', 'mismatch[0]', 'node attrs'],
      );
      for (const v of cb.list) {
        for (const context of CONTEXTS) {
          const byName = await s.evaluate(v.name, graph.id, context).catch((err: Error) => assert.fail(`${v.name} (${context}): ${err.message}`));
          assert.ok(byName.result !== undefined);
        }
        assert.ok(v.evaluateName, `${v.name} has an evaluateName`);
        await s.evaluate(v.evaluateName, graph.id, 'watch').catch((err: Error) => assert.fail(`${v.evaluateName}: ${err.message}`));
      }
      for (const context of CONTEXTS) {
        assert.match((await s.evaluate('returned', graph.id, context)).result, /^Float64Array/);
        assert.equal((await s.evaluate('returned[5]', graph.id, context)).result, '6');
        assert.equal((await s.evaluate('Tout[0]', graph.id, context)).result, '"float32"');
        assert.equal((await s.evaluate('Tin.join()', graph.id, context)).result, '"float32"');
        assert.match((await s.evaluate('mismatch[0]', graph.id, context)).result, /0-th value returned by \S+ is double, but expects float/);
        assert.equal((await s.evaluate('x.shape.join("x")', graph.id, context)).result, '"2x3"');
        assert.equal((await s.evaluate('nodeAttrs.op', graph.id, context)).result, '"PyFunc"');
      }
      const attrs = await s.evaluate('node attrs', graph.id, 'repl');
      assert.ok(attrs.variablesReference > 0);
      const children = await s.variables(attrs.variablesReference);
      assert.equal(children.get('token').value, '"pyfunc_2"');
      // Statements still run as they are; names the program has still resolve in its frame.
      assert.equal((await s.evaluate('input.shape.length', graph.id, 'repl')).result, '2');
      assert.equal((await s.evaluate('typeof returned === "object" ? 1 : 0', graph.id, 'watch')).result, '1');
    }),
  );

  test('in the callback’s own frame: Tout and friends are bound, its locals win, a renamed parameter has its source name', T, () =>
    withSession(async (s) => {
      const line = lineOf(RENAME, '@smooth-return');
      await s.launch({ program: RENAME }, (dc) => dc.setBreakpointsRequest({ source: { path: RENAME }, breakpoints: [{ line }] }));
      assert.equal((await s.stopped()).body.reason, 'breakpoint');
      const frames = await s.stack();
      const top = frames[0]!;
      assert.equal(top.name, 'smooth', describeFrames(frames));
      const cb = await s.scope(top.id, 'Callback');
      assert.deepEqual(
        cb.list.map((v) => v.name),
        ['x', 'beta', 'Tin', 'Tout', 'node attrs'],
        'beta, as written, not beta2',
      );
      assert.match(cb.get('beta').value, /^NdArray float32\[\] min=2 max=2 /);
      const tc = await s.waitFor('tensorCallback');
      assert.deepEqual((tc.body.invocation as { parameterNames: string[] }).parameterNames, ['x', 'beta']);

      const graph = frames.find((f) => f.presentationHint === 'label')!;
      for (const frameId of [top.id, graph.id]) {
        for (const context of CONTEXTS) {
          // The parameter, not the module-level `beta` (0.5) it shadows.
          assert.match((await s.evaluate('beta', frameId, context)).result, /^NdArray float32\[\] /);
          assert.equal((await s.evaluate('beta.data[0]', frameId, context)).result, '2');
          // x was reassigned in the callback: the frame's x wins over the input the scope shows.
          assert.equal((await s.evaluate('x.data[0]', frameId, context)).result, '2');
          assert.equal((await s.evaluate('Tout[0]', frameId, context)).result, '"float32"');
          assert.equal((await s.evaluate('b', frameId, context)).result, '2');
        }
      }
      assert.equal(cb.get('beta').evaluateName, 'beta');
    }),
  );
});
