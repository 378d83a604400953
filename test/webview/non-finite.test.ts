/**
 * NaN, −Inf and +Inf in the inspector, in Chromium: the summary table, the grid and the histogram
 * tell the same counts with the same words as the CLI (runtime/non-finite-text.ts), both from the
 * event's preview and from tensorData pages. The summaries are the runtime's own, and the harness
 * sends them as the adapter does (debug-adapter/cdp/wire-values.ts, then JSON).
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { summarizeValues } from '../../runtime/summary.js';
import type { TensorCallbackEvent, TensorInfo } from '../../media/src/protocol.js';
import { SESSION } from './fixtures.js';
import { assertClean, fixtureKey, gridCells, posted, screenshot, sendInvocation, startHarness, waitForTensor, type Harness } from './harness.js';

let h: Harness;

before(async () => {
  h = await startHarness();
});

after(async () => {
  await h?.close();
});

/** 2 NaN, 5 −Inf, 1 +Inf; the last four past the summary's preview of 8, so they come by tensorData. */
const VALUES = [Number.NaN, -Infinity, -Infinity, Infinity, 0, -1.5, -Infinity, -Infinity, -Infinity, 2, Number.NaN, 3];
const WORDS = ['NaN', '−Inf', '−Inf', '+Inf', '0', '-1.5', '−Inf', '−Inf', '−Inf', '2', 'NaN', '3'];

/** The agent's ValueInfo: the kind beside the runtime's summary. */
function valueInfo(kind: string, dtype: 'float32' | 'string', shape: number[], flat: unknown[]): TensorInfo {
  return { kind, disposed: false, ...summarizeValues({ dtype, shape, flat }) } as TensorInfo;
}

const logs = valueInfo('Tensor', 'float32', [2, 6], VALUES);
const words = valueInfo('Tensor', 'string', [2], ['NaN', '-Infinity']);

const event: TensorCallbackEvent = {
  reason: 'exception',
  description: 'NaN/Inf in output 0 of log_ratio',
  invocation: {
    id: 9,
    callback: { name: 'log_ratio', token: 'pyfunc_0', kind: 'numpy_function', stateful: true, functionName: 'log_ratio' },
    op: 'PyFunc',
    Tout: ['float32', 'string'],
    parameterNames: ['x'],
    phase: 'returned',
    toutCheck: { ok: true, mismatches: [], narrowed: [] },
  },
  inputs: [],
  outputs: [logs, words],
};

const fixtures = {
  [fixtureKey(SESSION, 9, 'outputs', 0)]: { info: logs, values: VALUES },
  [fixtureKey(SESSION, 9, 'outputs', 1)]: { info: words, values: ['NaN', '-Infinity'] },
};

test('the table, the grid and the histogram tell NaN, −Inf and +Inf apart, in the CLI’s words', async () => {
  const page = await h.open(fixtures);
  await sendInvocation(page, SESSION, event);
  let renders = await waitForTensor(page);
  await page.click('tr.tensor-row[data-side="outputs"][data-index="0"]');
  renders = await waitForTensor(page, renders);

  const counts = await page.$$eval('table.summary tr.tensor-row td[data-col="nonfinite"]', (tds) => tds.map((td) => td.textContent));
  assert.deepEqual(counts, ['2 NaN, 5 −Inf, 1 +Inf', '—'], 'the table: counts with signs; none for strings');
  assert.deepEqual((await gridCells(page)).flat(), WORDS, 'the grid: each value as itself');
  // It returned, with NaN/Inf in an output: the header and the history mark it ⚠, not ✓.
  assert.equal(await page.textContent('.invocation-header h1 .status-mark'), '⚠');
  assert.equal(await page.getAttribute('.invocation-header h1 .status-mark', 'aria-label'), 'returned NaN/Inf');
  assert.equal(await page.textContent('.history-item .status-mark'), '⚠');
  assert.equal(await page.textContent('figure.histogram p.note'), 'not shown: 2 NaN, 5 −Inf, 1 +Inf', 'the histogram’s footnote');
  // The heatmap: −Inf is not the finite minimum's color, +Inf not the maximum's, NaN neither; its caption names both marks.
  const pixel = (r: number, c: number) =>
    page.$eval(
      'canvas.heatmap-canvas',
      (canvas, [r, c]) => {
        const el = canvas as HTMLCanvasElement;
        const x = Math.floor(((c! + 0.5) * el.width) / 6);
        const y = Math.floor(((r! + 0.5) * el.height) / 2);
        return [...el.getContext('2d')!.getImageData(x, y, 1, 1).data.slice(0, 3)].join(',');
      },
      [r, c],
    );
  const [minusInf, finiteMin, plusInf, finiteMax, nan] = await Promise.all([pixel(0, 1), pixel(0, 5), pixel(0, 3), pixel(1, 5), pixel(0, 0)]);
  assert.notEqual(minusInf, finiteMin, '−Inf is not painted as the finite minimum');
  assert.notEqual(plusInf, finiteMax, '+Inf is not painted as the finite maximum');
  assert.equal(minusInf, plusInf, '±Inf share one color');
  assert.notEqual(nan, minusInf, 'NaN is told from Inf');
  assert.match((await page.textContent('figure.heatmap figcaption')) ?? '', /-1\.5 … 3\s*NaN\s*±Inf/);
  await screenshot(page, 'non-finite.png');
  await page.click('button.copy-numpy');
  await page.waitForFunction(() => (window as unknown as { __posted: { type: string }[] }).__posted.some((m) => m.type === 'copy'));
  const copy = (await posted(page)).find((m) => m.type === 'copy');
  assert.equal(
    copy?.type === 'copy' && copy.text,
    'np.array([[np.nan, -np.inf, -np.inf, np.inf, 0.0, -1.5], [-np.inf, -np.inf, -np.inf, 2.0, np.nan, 3.0]], dtype=np.float32)',
    'NumPy: each as itself',
  );

  await page.click('tr.tensor-row[data-side="outputs"][data-index="1"]');
  await waitForTensor(page, renders);
  assert.deepEqual((await gridCells(page)).flat(), ['"NaN"', '"-Infinity"'], 'strings stay strings');
  await assertClean(h, page);
});
