/**
 * The inspector's Compare (`tensorDiff`): a callback stopped at again and again with inputs that
 * differ by known amounts; the agent keeps each stop's values, and the request compares two stops
 * after the program has moved on. Real adapter, real debuggee, real TF.js (cpu).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  TENSOR_DIFF_REQUEST,
  type TensorCallbackEventBody,
  type TensorDiffArguments,
  type TensorDiffResponseBody,
} from '../../debug-adapter/extension-protocol.js';
import { fixture, THREAD, useDebugAdapter, withSession, type Session } from '../helpers/dap.js';
import { lineOf } from '../helpers/markers.js';

useDebugAdapter();

const PROGRAM = fixture('compare-program.ts');
const T = { timeout: 180_000 };

/** Continues (unless first) to the next stop in `shift`: its invocation id, and the program's live tensor count there. */
async function nextStop(s: Session, first: boolean): Promise<{ id: number; tensors: number }> {
  if (!first) await s.dc.continueRequest({ threadId: THREAD });
  await s.stopped();
  const event = (await s.waitFor('tensorCallback')).body as TensorCallbackEventBody;
  const frameId = (await s.stack())[0]!.id;
  return { id: event.invocation.id, tensors: Number((await s.evaluate('numTensors()', frameId)).result) };
}

async function diff(s: Session, a: number, b: number, side: 'inputs' | 'outputs' = 'inputs', index = 0): Promise<TensorDiffResponseBody> {
  const args: TensorDiffArguments = { a: { invocationId: a }, b: { invocationId: b }, side, index };
  return (await s.dc.customRequest(TENSOR_DIFF_REQUEST, args)).body as TensorDiffResponseBody;
}

describe('tensorDiff', () => {
  test('compares stops after the program moved on: changes, largest |Δ|, NaN, shapes, 10M values, let-go stops', T, () =>
    withSession(async (s) => {
      const line = lineOf(PROGRAM, '@shift-body');
      await s.launch({ program: PROGRAM }, (dc) => dc.setBreakpointsRequest({ source: { path: PROGRAM }, breakpoints: [{ line }] }));
      const stops = [await nextStop(s, true)];
      for (let i = 1; i < 4; i++) stops.push(await nextStop(s, false));
      const [x, moved, nan, reshaped] = stops.map((t) => t.id) as [number, number, number, number];

      // x → x with [0,1] −0.25 and [1,2] +0.5: asked at the 4th stop, long after both.
      const d = await diff(s, x, moved);
      assert.equal(d.shapeChanged, false);
      assert.equal(d.dtypeChanged, false);
      const e = d.elementwise!;
      assert.ok(e, `element-wise: ${JSON.stringify(d)}`);
      assert.equal(e.compared, 6);
      assert.equal(e.changed, 2);
      assert.equal(e.stride, 1);
      assert.deepEqual(e.largest, { abs: 0.5, flatIndex: 5, coords: [1, 2], a: 6, b: 6.5 });
      assert.deepEqual({ ...e.map, values: undefined }, { viewRows: 2, viewCols: 3, tileRows: 1, tileCols: 1, rows: 2, cols: 3, values: undefined });
      assert.deepEqual(e.map.values, [0, -0.25, 0, 0, 0, 0.5]);
      assert.equal(d.a.info.max, 6);
      assert.equal(d.b.info.max, 6.5);
      assert.equal(d.a.info.mean, 3.5);

      // A NaN that appears is counted and marked in the map (tagged: JSON has no NaN).
      const n = await diff(s, moved, nan);
      assert.equal(n.elementwise?.changed, 1);
      assert.equal(n.elementwise?.nanAppeared, 1);
      assert.equal(n.elementwise?.largest, undefined);
      assert.deepEqual(n.elementwise?.map.values[0], { nonFinite: 'NaN' });
      assert.equal(n.b.info.nanCount, 1);

      // Another shape: said, statistics only.
      const r = await diff(s, nan, reshaped);
      assert.equal(r.shapeChanged, true);
      assert.equal(r.elementwise, undefined);
      assert.match(r.notElementwise ?? '', /shape changed from \[2,3\] to \[3,2\]/);

      // At a stop at the callback's first line there are no outputs yet: said, not guessed.
      await assert.rejects(diff(s, x, moved, 'outputs', 0), /invocation \d+ has no output 0 \(it has 0 outputs\)/);
      await assert.rejects(diff(s, x, 99_999), /invocation 99999's values are not kept: the program never stopped in it/);

      // Two 10M-element inputs one element apart: exact counts, a tiled map that says its tile size.
      const bigA = await nextStop(s, false);
      const bigB = await nextStop(s, false);
      const big = (await diff(s, bigA.id, bigB.id)).elementwise!;
      assert.equal(big.compared, 10_000_000);
      assert.equal(big.changed, 1);
      assert.deepEqual(big.largest, { abs: 3, flatIndex: 777 * 10_000 + 4321, coords: [777, 4321], a: 1, b: 4 });
      assert.deepEqual([big.map.tileRows, big.map.tileCols, big.map.rows, big.map.cols], [4, 40, 250, 250]);
      assert.equal(big.map.values[Math.floor(777 / 4) * 250 + Math.floor(4321 / 40)], 3);
      assert.equal(big.map.values.filter((v) => v !== 0).length, 1);

      // The copies make no tensors: the count at each stop is the first stop's.
      const later: number[] = [];
      for (let i = 0; i < 14; i++) later.push((await nextStop(s, false)).tensors);
      for (const count of [...stops, bigA, bigB].map((t) => t.tensors).concat(later)) assert.equal(count, stops[0]!.tensors);

      // 20 stops: the first ones were let go (16 are kept), and the error says why.
      await assert.rejects(diff(s, x, moved), new RegExp(`invocation ${x}'s values are not kept: the agent keeps the values of the last 16 stops`));
      await s.dc.continueRequest({ threadId: THREAD });
      await s.terminated();
      await assert.rejects(diff(s, bigA.id, bigB.id), /debug session has ended|not running|closed/);
    }),
  );
});
