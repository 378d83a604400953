/**
 * The selected tensor in Chromium: paging a 1M-element 2-D tensor by slices, slicing an N-D one
 * along chosen axes, the heatmap and histogram, "Copy as JSON", and what is left after the
 * session ended.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import type { WebviewMessage } from '../../media/src/protocol.js';
import { bigEvent, bigFixtures, cubeEvent, cubeFixtures, SESSION } from './fixtures.js';
import { assertClean, gridCells, posted, screenshot, sendHost, sendInvocation, startHarness, waitForTensor, type Harness } from './harness.js';

type DataRequest = Extract<WebviewMessage, { type: 'tensorData' }>;

let h: Harness;

before(async () => {
  h = await startHarness();
});

after(async () => {
  await h?.close();
});

async function dataRequests(page: Page): Promise<DataRequest[]> {
  return (await posted(page)).filter((m): m is DataRequest => m.type === 'tensorData');
}

const row = (r: number, c0: number, n: number) => Array.from({ length: n }, (_, k) => String(r * 1000 + c0 + k));

test('pages a 1M-element 2-D tensor: requests only slices, and the next page shows the right values', async () => {
  const page = await h.open(bigFixtures());
  await sendInvocation(page, SESSION, bigEvent());
  let renders = await waitForTensor(page);

  // First page: rows 0–31, columns 0–15 of [1000, 1000]; value = flat index.
  let cells = await gridCells(page);
  assert.equal(cells.length, 32);
  assert.deepEqual(cells[0], row(0, 0, 16));
  assert.deepEqual(cells[31], row(31, 0, 16));
  assert.match((await page.textContent('.pager-rows .range')) ?? '', /rows 0–31 of 1,000/);
  assert.match((await page.textContent('.pager-cols .range')) ?? '', /columns 0–15 of 1,000/);
  let requests = await dataRequests(page);
  assert.ok(requests.length > 0);
  const requested = requests.reduce((n, r) => n + r.count, 0);
  assert.ok(requested < 100_000, `only slices are requested (${requested} values of 1,000,000)`);
  for (const r of requests) assert.deepEqual([r.sessionId, 'invocationId' in r ? r.invocationId : r.node, r.side, r.index], [SESSION, 7, 'inputs', 0]);
  assert.equal(await page.locator('canvas.heatmap-canvas').count(), 1, 'heatmap drawn');
  assert.equal(await page.locator('canvas.histogram-canvas').count(), 1, 'histogram drawn');
  assert.match((await page.textContent('.charts h3')) ?? '', /This page/);
  await screenshot(page, 'large-tensor.png');

  // Next rows.
  const before = requests.length;
  await page.click('.pager-rows button[aria-label="next rows"]');
  renders = await waitForTensor(page, renders);
  cells = await gridCells(page);
  assert.deepEqual(cells[0], row(32, 0, 16));
  assert.deepEqual(cells[31], row(63, 0, 16));
  requests = await dataRequests(page);
  const fresh = requests.slice(before);
  assert.ok(fresh.length > 0, 'the next page is fetched');
  for (const r of fresh) {
    assert.ok(r.start >= 32_000 && r.start + r.count <= 64_000, `a slice of rows 32–63: ${r.start}+${r.count}`);
  }

  // Next columns, then the last page of both.
  await page.click('.pager-cols button[aria-label="next columns"]');
  renders = await waitForTensor(page, renders);
  assert.deepEqual((await gridCells(page))[0], row(32, 16, 16));
  await page.click('.pager-rows button[aria-label="last rows"]');
  renders = await waitForTensor(page, renders);
  await page.click('.pager-cols button[aria-label="last columns"]');
  renders = await waitForTensor(page, renders);
  cells = await gridCells(page);
  // 1000 = 31·32 + 8 rows; 1000 = 62·16 + 8 columns.
  assert.equal(cells.length, 8);
  assert.deepEqual(cells[7], row(999, 992, 8));
  assert.match((await page.textContent('.pager-rows .range')) ?? '', /rows 992–999 of 1,000/);

  // Bigger pages still fetch slices only.
  await page.selectOption('select[aria-label="rows per page"]', '256');
  renders = await waitForTensor(page, renders);
  assert.equal((await gridCells(page)).length, 1000 - 768);
  for (const r of await dataRequests(page)) assert.ok(r.count < 1_000_000);
  await assertClean(h, page);
});

test('slices an N-D tensor: two axes as rows and columns, an index for the others', async () => {
  const page = await h.open(cubeFixtures);
  await sendInvocation(page, SESSION, cubeEvent);
  let renders = await waitForTensor(page);
  // [2, 3, 4], default rows = axis 1, columns = axis 2, axis 0 at 0.
  assert.deepEqual(await gridCells(page), [
    ['0', '1', '2', '3'],
    ['4', '5', '6', '7'],
    ['8', '9', '10', '11'],
  ]);
  assert.equal(await page.textContent('.slice-desc'), 'slice [0, :, :]');
  await page.fill('input[aria-label="index on axis 0"]', '1');
  await page.press('input[aria-label="index on axis 0"]', 'Enter');
  renders = await waitForTensor(page, renders);
  assert.deepEqual((await gridCells(page))[0], ['12', '13', '14', '15']);
  assert.equal(await page.textContent('.slice-desc'), 'slice [1, :, :]');
  // Rows = axis 0, columns = axis 2, axis 1 fixed at 2: t[r, 2, c] = 12r + 8 + c.
  await page.selectOption('select[aria-label="axis shown as rows"]', '0');
  renders = await waitForTensor(page, renders);
  assert.equal(await page.textContent('.slice-desc'), 'slice [:, 0, :]');
  await page.fill('input[aria-label="index on axis 1"]', '2');
  await page.press('input[aria-label="index on axis 1"]', 'Enter');
  renders = await waitForTensor(page, renders);
  assert.deepEqual(await gridCells(page), [
    ['8', '9', '10', '11'],
    ['20', '21', '22', '23'],
  ]);
  // Choosing the column axis as rows swaps them (a transpose).
  await page.selectOption('select[aria-label="axis shown as rows"]', '2');
  renders = await waitForTensor(page, renders);
  assert.deepEqual(await gridCells(page), [
    ['8', '20'],
    ['9', '21'],
    ['10', '22'],
    ['11', '23'],
  ]);
  // The whole 2-D slice is small: the heatmap shows all of it.
  assert.match((await page.textContent('.charts h3')) ?? '', /Whole slice \[:, 2, :\]/);
  await assertClean(h, page);
});

test('Copy as JSON fetches the values by slices and posts them nested by shape', async () => {
  const page = await h.open(cubeFixtures);
  await sendInvocation(page, SESSION, cubeEvent);
  await waitForTensor(page);
  await page.click('button.copy');
  await page.waitForFunction(() => (window as unknown as { __posted: { type: string }[] }).__posted.some((m) => m.type === 'copy'));
  const copy = (await posted(page)).find((m) => m.type === 'copy') as Extract<WebviewMessage, { type: 'copy' }>;
  const json = JSON.parse(copy.text) as { dtype: string; shape: number[]; values: number[][][] };
  assert.equal(json.dtype, 'int32');
  assert.deepEqual(json.shape, [2, 3, 4]);
  assert.deepEqual(json.values[1]![2], [20, 21, 22, 23]);
  assert.match((await page.textContent('.copy-status')) ?? '', /Copied 24 values/);

  // A 1M-element tensor: the whole of it, in slices of at most 1,000,000.
  const big = await h.open(bigFixtures(9, 1000, 1000));
  await sendInvocation(big, SESSION, bigEvent(9));
  await waitForTensor(big);
  await big.click('button.copy');
  await big.waitForFunction(() => (window as unknown as { __posted: { type: string }[] }).__posted.some((m) => m.type === 'copy'), undefined, {
    timeout: 30_000,
  });
  const bigCopy = (await posted(big)).find((m) => m.type === 'copy') as Extract<WebviewMessage, { type: 'copy' }>;
  const parsed = JSON.parse(bigCopy.text) as { values: number[][]; truncated?: boolean };
  assert.equal(parsed.truncated, undefined);
  assert.equal(parsed.values.length, 1000);
  assert.equal(parsed.values[999]![999], 999_999);
  for (const r of await dataRequests(big)) assert.ok(r.count <= 1_000_000);
  await assertClean(h, page);
  await assertClean(h, big);
});

test('after the session ended: nothing more is requested; fetched pages and the preview stay', async () => {
  const page = await h.open(bigFixtures());
  await sendInvocation(page, SESSION, bigEvent());
  let renders = await waitForTensor(page);
  await sendHost(page, { type: 'sessionEnded', sessionId: SESSION });
  await page.waitForSelector('.banner.ended');
  renders = await waitForTensor(page, renders);
  const before = (await dataRequests(page)).length;
  // The first page was fetched before the end: still shown.
  assert.deepEqual((await gridCells(page))[31], row(31, 0, 16));
  assert.equal(await page.textContent('.problem'), '');
  // The next one never was: no values, and the reason.
  await page.click('.pager-rows button[aria-label="next rows"]');
  renders = await waitForTensor(page, renders);
  assert.ok((await gridCells(page))[0]!.every((c) => c === '·'));
  assert.match((await page.textContent('.problem')) ?? '', /session ended: values can no longer be fetched/);
  assert.equal((await dataRequests(page)).length, before, 'nothing requested for an ended session');
  // Back to the first page: from what was fetched before the end.
  await page.click('.pager-rows button[aria-label="first rows"]');
  await waitForTensor(page, renders);
  assert.deepEqual((await gridCells(page))[0], row(0, 0, 16));
  await assertClean(h, page);
});

test('an error from the debugger is shown, with what the preview knows', async () => {
  const page = await h.open(); // no fixtures: the stub answers every request with an error
  await sendInvocation(page, SESSION, bigEvent(50));
  await waitForTensor(page);
  assert.match((await page.textContent('.problem')) ?? '', /Values not available: no tensor inputs\[0\] in invocation 50/);
  const cells = await gridCells(page);
  assert.deepEqual(cells[0], row(0, 0, 16), 'the first 16 values come from the summary preview');
  assert.ok(cells[1]!.every((c) => c === '·'));
  await assertClean(h, page);
});
