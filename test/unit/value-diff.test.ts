/**
 * The agent's comparison of two kept values (debug-adapter/debuggee/agent/value-diff.ts, what
 * `tensorDiff` answers): tiled maps keep NaN and ±Inf over numbers, sampled copies compare only
 * their sample and say so, ±Inf that appears or goes is counted, and what cannot be compared
 * element-wise says why.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { diffKept, type KeptValue } from '../../debug-adapter/debuggee/agent/value-diff.js';

function kept(shape: number[], values: ArrayLike<number>, stride = 1, dtype = 'float32'): KeptValue {
  const size = shape.reduce((a, b) => a * b, 1);
  return { info: { kind: 'Tensor', dtype, shape, size, disposed: false }, shape, source: undefined, copy: { values: Float64Array.from(values), stride } };
}

test('a tiled map: each cell its tile’s NaN, else ±Inf, else largest |Δ|; the largest finite |Δ| and its coordinates', () => {
  const shape = [2, 600]; // 600 columns: tiles of 1 × 3, a 2 × 200 map
  const a = new Float64Array(1200).fill(1);
  const b = Float64Array.from(a);
  b[0] = Number.NaN; // cell (0, 0): NaN wins over the 5 beside it
  b[1] = 6;
  b[3] = Number.POSITIVE_INFINITY; // cell (0, 1): +Inf wins over −2
  b[4] = -1;
  b[600 + 599] = -9; // cell (1, 199): the largest finite |Δ|
  const d = diffKept({ id: 1, kept: kept(shape, a) }, { id: 2, kept: kept(shape, b) }, 'inputs', 0).elementwise!;
  assert.equal(d.changed, 5);
  assert.deepEqual([d.map.tileRows, d.map.tileCols, d.map.rows, d.map.cols], [1, 3, 2, 200]);
  assert.ok(Number.isNaN(d.map.values[0] as number));
  assert.equal(d.map.values[1], Number.POSITIVE_INFINITY);
  assert.equal(d.map.values[200 + 199], -10);
  assert.deepEqual(d.largest, { abs: 10, flatIndex: 1199, coords: [1, 599], a: 1, b: -9 });
  assert.deepEqual([d.nanAppeared, d.nanGone, d.infAppeared, d.infGone], [1, 0, 1, 0]);
});

test('sampled copies compare their sample, at the flat indices it stands for', () => {
  // Every 4th value of 16: indices 0, 4, 8, 12; index 12 changed.
  const d = diffKept({ id: 1, kept: kept([4, 4], [0, 4, 8, 12], 4) }, { id: 2, kept: kept([4, 4], [0, 4, 8, 13], 4) }, 'outputs', 1).elementwise!;
  assert.deepEqual([d.compared, d.changed, d.stride], [4, 1, 4]);
  assert.deepEqual(d.largest?.coords, [3, 0]);
  assert.equal(d.map.values[12], 1);
});

test('±Inf that goes is counted; NaN and NaN are the same; nothing finite changed means no largest', () => {
  const d = diffKept({ id: 1, kept: kept([3], [Number.NEGATIVE_INFINITY, Number.NaN, 2]) }, { id: 2, kept: kept([3], [0, Number.NaN, 2]) }, 'inputs', 0)
    .elementwise!;
  assert.deepEqual([d.changed, d.infGone, d.nanGone], [1, 1, 0]);
  assert.equal(d.largest, undefined);
});

test('what cannot be compared element-wise says why, and the dtype change is flagged', () => {
  const other = diffKept({ id: 1, kept: kept([2], [1, 2]) }, { id: 2, kept: kept([2], [1, 2], 1, 'int32') }, 'inputs', 0);
  assert.equal(other.dtypeChanged, true);
  assert.equal(other.elementwise?.changed, 0);
  const strings: KeptValue = {
    info: { kind: 'Tensor', dtype: 'string', shape: [2], size: 2, disposed: false },
    shape: [2],
    source: undefined,
    copy: undefined,
  };
  assert.match(diffKept({ id: 1, kept: kept([2], [1, 2]) }, { id: 2, kept: strings }, 'inputs', 0).notElementwise ?? '', /second is not numeric \(string\)/);
  const sampled = diffKept({ id: 1, kept: kept([8], [1, 2], 4) }, { id: 2, kept: kept([8], [1, 2, 3, 4], 2) }, 'inputs', 0);
  assert.match(sampled.notElementwise ?? '', /samples of different strides \(4, 2\)/);
});
