/**
 * Every kind of value a callback can return, at a Tout-mismatch stop, in Chromium: typed arrays
 * of each type, nested arrays of numbers, booleans and strings, scalars, NdArrays, tensors
 * (disposed and string ones too), and what is no tensor value (a Promise, an object). Each row
 * has its kind, TensorFlow dtype, shape, statistics and Tout verdict; each value with values
 * shows them in the grid, with a heatmap where numeric.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { formatNumber, formatValue } from '../../media/src/format.js';
import { SESSION } from './fixtures.js';
import { assertClean, gridCells, screenshot, sendInvocation, startHarness, waitForTensor, type Harness } from './harness.js';
import { KIND_CASES, kindsEvent, kindsFixtures } from './value-fixtures.js';

let h: Harness;

before(async () => {
  h = await startHarness();
});

after(async () => {
  await h?.close();
});

/** Cell texts of each output row, by column name. */
async function outputRows(page: Page): Promise<Record<string, string>[]> {
  const rows = await page.$$eval('table.summary tr.tensor-row[data-side="outputs"]', (trs) =>
    trs.map((tr) => ({ cls: tr.className, cells: Array.from(tr.querySelectorAll('td'), (td) => [td.dataset.col ?? '', td.textContent ?? '']) })),
  );
  return rows.map((r) => ({ ...Object.fromEntries(r.cells), class: r.cls }));
}

test('the summary has a row for every kind: kind, TensorFlow dtype, shape, statistics and the Tout verdict', async () => {
  const page = await h.open(kindsFixtures);
  await sendInvocation(page, SESSION, kindsEvent);
  await waitForTensor(page);
  const rows = await outputRows(page);
  assert.equal(rows.length, KIND_CASES.length);
  KIND_CASES.forEach((c, i) => {
    const row = rows[i]!;
    const what = `output ${i} (${c.kind} ${c.dtype})`;
    assert.equal(row.tout, c.Tout, what);
    if (c.opaque) {
      assert.equal(row.kind, c.kind, `${what}: says what it is`);
      assert.match(row.none ?? '', /not a tensor value/, what);
      assert.doesNotMatch(row.class, /selectable/, what);
    } else {
      assert.equal(row.kind, c.disposed ? `${c.kind} (disposed)` : c.kind, what);
      assert.equal(row.dtype, c.dtype, what);
      assert.equal(row.shape, `[${c.shape.join(', ')}]`, what);
      assert.match(row.class, /selectable/, what);
      const numbers = (c.values ?? [])
        .filter((v): v is number | boolean => typeof v !== 'string')
        .map(Number)
        .filter(Number.isFinite);
      assert.equal(row.min, numbers.length > 0 ? formatNumber(Math.min(...numbers)) : '—', `${what}: min`);
      assert.equal(row.max, numbers.length > 0 ? formatNumber(Math.max(...numbers)) : '—', `${what}: max`);
    }
    if (c.mismatch) {
      assert.match(row.class, new RegExp(`flag-${c.mismatch.problem}`), what);
      assert.match(row.check ?? '', c.mismatch.problem === 'dtype' ? /dtype mismatch/ : /not a tensor value/, what);
    } else {
      assert.match(row.check ?? '', /matches Tout/, what);
    }
  });
  // TensorFlow's messages under the flagged rows.
  const messages = await page.$$eval('tr.check-message .message', (els) => els.map((e) => e.textContent ?? ''));
  for (const c of KIND_CASES) if (c.mismatch) assert.ok(messages.includes(c.mismatch.message), c.mismatch.message);
  await screenshot(page, 'value-kinds.png');
  await assertClean(h, page);
});

test('each value renders: its values in the grid (nested arrays row by row), a heatmap where numeric', async () => {
  const page = await h.open(kindsFixtures);
  await sendInvocation(page, SESSION, kindsEvent);
  let renders = await waitForTensor(page);
  for (const [i, c] of KIND_CASES.entries()) {
    if (c.opaque) continue;
    const what = `output ${i} (${c.kind} ${c.dtype} [${c.shape.join(', ')}])`;
    await page.click(`tr.tensor-row[data-side="outputs"][data-index="${i}"]`);
    await page.waitForFunction((name) => document.querySelector('.tensor-name')?.textContent === name, `output ${i}`);
    renders = await waitForTensor(page, renders);
    assert.match((await page.textContent('.tensor-sig')) ?? '', new RegExp(`^${c.kind} ${c.dtype} \\[${c.shape.join(', ')}\\]`), what);
    if (c.disposed) {
      assert.match((await page.textContent('.data-area')) ?? '', /Disposed: this tensor was disposed before the stop/, what);
      assert.equal(await page.locator('table.grid').count(), 0, `${what}: no grid of nothing`);
      continue;
    }
    const cells = await gridCells(page);
    // Nested arrays and tensors of rank 2 keep their rows; 1-D values and scalars are one row.
    assert.equal(cells.length, c.shape.length === 2 ? c.shape[0] : 1, `${what}: rows`);
    assert.deepEqual(
      cells.flat(),
      c.values!.map((v) => formatValue(v)),
      `${what}: values`,
    );
    const numeric = c.dtype !== 'string';
    assert.equal(await page.locator('canvas.heatmap-canvas').count(), numeric ? 1 : 0, `${what}: heatmap`);
    if (!numeric) assert.match((await page.textContent('.charts')) ?? '', /Not numeric: no heatmap/, what);
    assert.equal((await page.textContent('.problem')) ?? '', '', `${what}: no problem`);
  }
  await page.click('tr.tensor-row[data-side="outputs"][data-index="11"]');
  renders = await waitForTensor(page, renders);
  await screenshot(page, 'value-kinds-nested-array.png');
  await assertClean(h, page);
});
