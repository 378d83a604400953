/**
 * The model at a stop (issue 44 point 4, `modelInfo`): a program paused in a custom layer's call()
 * during model.fit of a 3-layer tf.Sequential, which no frame holds in scope, gets the model whose
 * fit is under way: its layers with class, output shape and parameter count as model.summary()
 * prints them, each weight's tf.Variable with dtype, shape, min/mean/max and NaN count, paged by
 * name as Show tf.Variables' Inspect does; `tf.memory().numTensors` is unchanged by asking. Real
 * adapter, debuggee, TF.js.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MODEL_INFO_REQUEST, type ModelInfoResponseBody, VARIABLES_GRAPH } from '../../debug-adapter/extension-protocol.js';
import { fixture, THREAD, useDebugAdapter, withSession } from '../helpers/dap.js';
import { lineOf } from '../helpers/markers.js';

useDebugAdapter();

const PROGRAM = fixture('model-info-program.ts');
const T = { timeout: 120_000 };

/** summary()'s layer rows as [name, class, output shape, params], and its total. */
function summaryRows(lines: readonly string[]): { rows: string[][]; total: number } {
  const rows = lines.flatMap((line) => {
    const m = /^(\S+) \((\w+)\)\s+(\S+)\s+(\S+)\s+(\d+)\s*$/.exec(line);
    return m ? [[m[1]!, m[2]!, m[4]!, m[5]!]] : [];
  });
  const total = Number(/^Total params: (\d+)/m.exec(lines.join('\n'))?.[1]);
  return { rows, total };
}

describe('modelInfo: the model at a stop', () => {
  test('paused in a custom layer during model.fit: layers, output shapes and params as summary() has them, weight statistics, numTensors unchanged', T, () =>
    withSession(async (s) => {
      const line = lineOf(PROGRAM, '@layer-call');
      await s.launch({ program: PROGRAM }, (dc) => dc.setBreakpointsRequest({ source: { path: PROGRAM }, breakpoints: [{ line }] }));
      const stop = await s.stopped();
      const frames = await s.stack();
      assert.deepEqual([stop.body.reason, frames[0]!.line], ['breakpoint', line]);
      await assert.rejects(s.evaluate('model.layers.length', frames[0]!.id), /model is not defined/);
      const tensors = async () => (await s.evaluate('tf.memory().numTensors', frames[0]!.id)).result;
      const before = await tensors();

      const model = (await s.dc.customRequest(MODEL_INFO_REQUEST, { frameId: frames[0]!.id })).body as ModelInfoResponseBody;
      const lines = JSON.parse(JSON.parse((await s.evaluate('JSON.stringify(globalThis.__summaryLines)', frames[0]!.id)).result)) as string[];
      const expected = summaryRows(lines);
      assert.equal(expected.rows.length, 3, lines.join('\n'));
      assert.deepEqual(
        model.layers.map((l) => [l.name, l.className, l.outputShape, String(l.params)]),
        expected.rows,
      );
      assert.deepEqual(
        model.layers.map((l) => [l.name, l.className, l.outputShape, l.params]),
        [
          ['hidden', 'Dense', '[null,4]', 16],
          ['shift', 'Shift', '[null,4]', 4],
          ['out', 'Dense', '[null,2]', 10],
        ],
      );
      assert.equal(model.totalParams, expected.total);
      assert.equal(model.trainableParams, 30);
      assert.equal(model.className, 'Sequential');
      assert.match(model.name, /^sequential_\d+$/);
      // Found on the fit's own frames (tfjs-layers keeps the model as `_this` in its loss closure).
      assert.match(model.where, /^(`this`|closure `_this`) of \w+/);

      // Each weight: its tf.Variable's name, dtype, shape and statistics.
      const weights = Object.fromEntries(model.layers.flatMap((l) => l.weights.map((w) => [w.name, w])));
      assert.deepEqual(Object.keys(weights), ['hidden/kernel', 'hidden/bias', 'shift/offset', 'out/kernel', 'out/bias']);
      const kernel = weights['hidden/kernel']!.info;
      assert.deepEqual(
        [kernel.dtype, kernel.shape, kernel.min, kernel.max, kernel.mean, kernel.nanCount, kernel.infCount],
        ['float32', [3, 4], -5, 6, 0.5, 0, 0],
      );
      const bias = weights['out/bias']!.info;
      assert.deepEqual([bias.shape, bias.min, bias.max, bias.mean, bias.nanCount, bias.infCount], [[2], 0.5, 0.5, 0.5, 1, 0]);
      assert.deepEqual([weights['shift/offset']!.info.min, weights['shift/offset']!.info.max], [1, 4]);
      assert.equal(weights['hidden/kernel']!.trainable, true);

      // A weight opens in the inspector by its name (VARIABLES_GRAPH, as Show tf.Variables' Inspect).
      const page = (await s.dc.customRequest('tensorData', { graph: VARIABLES_GRAPH, node: 'hidden/kernel', side: 'outputs', index: 0, start: 0, count: 12 }))
        .body as { values: number[] };
      assert.deepEqual(
        page.values,
        Array.from({ length: 12 }, (_, i) => i - 5),
      );

      // Asked again without a frame: the same model; and no tensor was made or kept by asking.
      const again = (await s.dc.customRequest(MODEL_INFO_REQUEST)).body as ModelInfoResponseBody;
      assert.deepEqual(
        again.layers.map((l) => l.name),
        ['hidden', 'shift', 'out'],
      );
      assert.equal(await tensors(), before);
      await assert.rejects(s.dc.customRequest(MODEL_INFO_REQUEST, { frameId: 999_999 }), /frame 999999 is not a frame of this stop/);

      await s.dc.setBreakpointsRequest({ source: { path: PROGRAM }, breakpoints: [] });
      await s.dc.continueRequest({ threadId: THREAD });
      await s.waitForOutput('fitted');
    }),
  );

  test('paused where no model is reachable: an error that says so', T, () =>
    withSession(async (s) => {
      await s.launch({ program: PROGRAM, stopOnEntry: true });
      await s.stopped();
      const got = await s.dc.customRequest(MODEL_INFO_REQUEST).then(
        (r) => JSON.stringify(r.body).slice(0, 400),
        (e: Error) => e.message,
      );
      assert.match(got, /no tf\.LayersModel is reachable from this stop/);
      await s.dc.continueRequest({ threadId: THREAD });
      await s.waitForOutput('fitted');
    }),
  );
});
