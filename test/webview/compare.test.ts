/**
 * Compare in the tensor inspector, in Chromium: two stops of one callback with a known Δ. The
 * stub answers `tensorDiff` with what the agent's own comparison (value-diff.ts) makes of the two
 * stops' values; the test reads back what is drawn: the verdict, the largest |Δ| and where, both
 * stops' statistics, the Δ grid's cells and the heatmap's pixels.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { diffKept, type KeptValue } from '../../debug-adapter/debuggee/agent/value-diff.js';
import type { TensorCallbackEvent, TensorInfo } from '../../media/src/protocol.js';
import { summarizeValues } from '../../runtime/summary.js';
import {
  assertClean,
  diffFixtureKey,
  fixtureKey,
  posted,
  screenshot,
  sendInvocation,
  startHarness,
  waitForTensor,
  type Fixtures,
  type Harness,
} from './harness.js';

const SESSION = 'session-cmp';
const SHAPE = [2, 3];
/** Stop #3, then stop #7: x moved by −0.25 at [0, 1] and +0.5 at [1, 2]; the output moved at [0, 1] and [1, 2] and gained a NaN at [0, 0]. */
const X = { 3: [1, 2, 3, 4, 5, 6], 7: [1, 1.75, 3, 4, 5, 6.5] };
const Y = { 3: [2, 4, 6, 8, 10, 12], 7: [Number.NaN, 3.5, 6, 8, 10, 13] };

function infoOf(values: readonly number[]): TensorInfo {
  const s = summarizeValues({ dtype: 'float32', shape: SHAPE, flat: Float32Array.from(values) });
  return { ...s, kind: 'Tensor', shape: [...SHAPE], disposed: false, preview: [...(s.preview ?? [])] } as TensorInfo;
}

function stop(id: 3 | 7 | 9, name = 'shift'): TensorCallbackEvent {
  const x = X[id === 9 ? 3 : id];
  const y = Y[id === 9 ? 3 : id];
  return {
    reason: 'breakpoint',
    description: `Paused on breakpoint in ${name}`,
    invocation: {
      id,
      callback: { name, token: `pyfunc_${name}`, kind: 'py_function', stateful: true, functionName: name },
      op: 'EagerPyFunc',
      Tout: ['float32'],
      parameterNames: ['x'],
      phase: 'returned',
    },
    inputs: [infoOf(x)],
    outputs: [infoOf(y)],
  };
}

const kept = (values: readonly number[]): KeptValue => ({
  info: infoOf(values) as KeptValue['info'],
  shape: SHAPE,
  source: undefined,
  copy: { values: Float32Array.from(values), stride: 1 },
});

const fixtures: Fixtures = {
  [fixtureKey(SESSION, 7, 'inputs', 0)]: { info: infoOf(X[7]), values: X[7] },
  [fixtureKey(SESSION, 7, 'outputs', 0)]: { info: infoOf(Y[7]), values: Y[7] },
  [diffFixtureKey(SESSION, 3, 7, 'inputs', 0)]: { info: infoOf(X[7]), diff: diffKept({ id: 3, kept: kept(X[3]) }, { id: 7, kept: kept(X[7]) }, 'inputs', 0) },
  [diffFixtureKey(SESSION, 3, 7, 'outputs', 0)]: { info: infoOf(Y[7]), diff: diffKept({ id: 3, kept: kept(Y[3]) }, { id: 7, kept: kept(Y[7]) }, 'outputs', 0) },
};

let h: Harness;
before(async () => {
  h = await startHarness({ viewport: { width: 1280, height: 900 } });
});
after(async () => {
  await h?.close();
});

async function waitCompared(page: Page): Promise<void> {
  await page.waitForFunction(() => document.querySelector<HTMLElement>('.compare-view')?.dataset.state === 'ready', undefined, { timeout: 10_000 });
}

/** The compare table's rows: verdict and statistics by column. */
async function compareRows(page: Page): Promise<Record<string, { verdict: string; a: Record<string, string>; b: Record<string, string> }>> {
  const rows = await page.$$eval('table.compare-table tr.compare-row', (trs) =>
    trs.map((tr) => ({
      name: tr.querySelector('th')?.textContent ?? '',
      verdict: tr.querySelector('td.verdict')?.textContent ?? '',
      a: Array.from(tr.querySelectorAll<HTMLElement>('td.stat-a'), (td) => [td.dataset.stat ?? '', td.textContent ?? '']),
      b: Array.from(tr.querySelectorAll<HTMLElement>('td.stat-b'), (td) => [td.dataset.stat ?? '', td.textContent ?? '']),
    })),
  );
  return Object.fromEntries(rows.map((r) => [r.name, { verdict: r.verdict, a: Object.fromEntries(r.a), b: Object.fromEntries(r.b) }]));
}

/** The Δ grid's cells by "row,col" of the map. */
async function deltaCells(page: Page): Promise<Record<string, string>> {
  return Object.fromEntries(await page.$$eval('table.delta-grid td', (tds) => tds.map((td) => [td.dataset.cell ?? '', td.textContent ?? ''])));
}

/** The heatmap canvas's pixel of map cell (r, c) (one canvas pixel per cell). */
async function pixel(page: Page, r: number, c: number): Promise<number[]> {
  return page.$eval(
    '.delta-heatmap canvas.heatmap-canvas',
    (canvas, [y, x]) => Array.from((canvas as HTMLCanvasElement).getContext('2d')!.getImageData(x!, y!, 1, 1).data),
    [r, c],
  );
}

test('Compare: two stops of a callback with a known Δ, drawn as numbers, a grid and a diverging heatmap', async () => {
  const page = await h.open(fixtures);
  await sendInvocation(page, SESSION, stop(3), false);
  await sendInvocation(page, SESSION, stop(9, 'other'), false);
  await sendInvocation(page, SESSION, stop(7));
  await waitForTensor(page);

  // Only the stop of the same callback offers Compare in the history; the shown stop offers its previous one.
  const offered = await page.$$eval('.history-item', (items) => items.map((li) => [li.getAttribute('data-key'), !!li.querySelector('button.compare-with')]));
  assert.deepEqual(offered, [
    [`${SESSION}#7`, false],
    [`${SESSION}#9`, false],
    [`${SESSION}#3`, true],
  ]);
  assert.equal(await page.textContent('.compare-bar button'), 'Compare with the previous stop (#3)');

  // By keyboard: focus the button and press Enter (the history item around it must not take the key).
  await page.focus('.compare-bar button');
  await page.keyboard.press('Enter');
  await waitCompared(page);
  const requests = (await posted(page)).filter((m) => m.type === 'tensorDiff');
  assert.deepEqual(
    requests.map((r) => ({ ...r, requestId: 0 })),
    [
      { type: 'tensorDiff', requestId: 0, sessionId: SESSION, a: { invocationId: 3 }, b: { invocationId: 7 }, side: 'inputs', index: 0 },
      { type: 'tensorDiff', requestId: 0, sessionId: SESSION, a: { invocationId: 3 }, b: { invocationId: 7 }, side: 'outputs', index: 0 },
    ],
  );
  assert.match((await page.textContent('.compare-header h1')) ?? '', /Compare #3 → #7 · shift/);

  const rows = await compareRows(page);
  assert.equal(rows.x!.verdict, '2 of 6 changed · max |Δ| 0.5 at [1, 2] (6 → 6.5)');
  assert.equal(rows['output 0']!.verdict, '3 of 6 changed · max |Δ| 1 at [1, 2] (12 → 13) · 1 NaN appeared');
  assert.deepEqual(rows.x!.a, { min: '1', max: '6', mean: '3.5', 'NaN/Inf': '0' });
  assert.deepEqual(rows.x!.b, { min: '1', max: '6.5', mean: '3.54167', 'NaN/Inf': '0' });
  assert.deepEqual(rows['output 0']!.b, { min: '3.5', max: '13', mean: '8.1', 'NaN/Inf': '1 NaN' });

  // The first input that changed is drawn: its exact Δ, cell by cell.
  assert.match((await page.textContent('.compare-delta h3')) ?? '', /Δ of x \(#7 − #3\)/);
  assert.match((await page.textContent('.map-note')) ?? '', /Exact: every Δ of the 2 × 3 view/);
  assert.deepEqual(await deltaCells(page), { '0,0': '0', '0,1': '-0.25', '0,2': '0', '1,0': '0', '1,1': '0', '1,2': '0.5' });
  assert.match((await page.textContent('.delta-scale')) ?? '', /−0\.5 … 0 … \+0\.5/);
  // Diverging around 0: +0.5 (the largest |Δ|) the gold end, −0.25 halfway to teal, 0 the editor's background (#1f1f1f).
  assert.deepEqual(await pixel(page, 1, 2), [223, 194, 125, 255]);
  // (−0.25 + 0.5) / 1 × 255 → entry 64: 64/255 × 2 ≈ 0.502 of the way from teal (53, 151, 143) to the background (31, 31, 31).
  assert.deepEqual(await pixel(page, 0, 1), [42, 91, 87, 255]);
  assert.deepEqual(await pixel(page, 0, 0), [31, 31, 31, 255]);
  await screenshot(page, 'compare.png');

  // The output's Δ: its NaN marked in the grid and in the heatmap's own color, named under the scale.
  await page.click('tr.compare-row[data-side="outputs"] button.compare-pick');
  await waitCompared(page);
  const out = await deltaCells(page);
  assert.equal(out['0,0'], 'NaN');
  assert.equal(out['1,2'], '1');
  assert.equal(await page.getAttribute('table.delta-grid td[data-cell="0,0"]', 'class'), 'nan');
  assert.match((await page.textContent('.delta-scale')) ?? '', /NaN/);
  await screenshot(page, 'compare-output.png');

  // Back to the stop; a pair whose values are not kept says which and why.
  await page.click('button.compare-close');
  await waitForTensor(page);
  await page.click(`.history-item[data-key="${SESSION}#3"]`);
  await waitForTensor(page);
  assert.equal(await page.$('.compare-bar'), null, '#3 has no earlier stop');
  await page.click(`.history-item[data-key="${SESSION}#7"] .history-name`);
  await waitForTensor(page);
  await page.evaluate(() => document.querySelector<HTMLButtonElement>('.history-item button.compare-with')?.click());
  await waitCompared(page);
  assert.match((await page.textContent('table.compare-table')) ?? '', /2 of 6 changed/, 'the same pair, from the history');
  await assertClean(h, page);
});

test('Compare says why a pair cannot be compared: values not kept', async () => {
  const page = await h.open({});
  await sendInvocation(page, SESSION, stop(3), false);
  await sendInvocation(page, SESSION, stop(7));
  await page.click('.compare-bar button');
  await waitCompared(page);
  const rows = await compareRows(page);
  assert.match(rows.x!.verdict, /^Not compared: invocation 3's values are not kept: the program never stopped in it/);
  assert.equal(rows.x!.a.max, '6', 'the statistics still show, from the history');
  assert.match((await page.textContent('.compare-detail')) ?? '', /Not compared: invocation 3's values are not kept/);
  await assertClean(h, page);
});
