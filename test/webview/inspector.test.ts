/**
 * The tensor inspector webview in Chromium, from the panel's real HTML (strict CSP with a nonce)
 * and the real built script and stylesheet: summary table, Tout flags, escaping, history and
 * state restore.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import {
  countEvent,
  DTYPE_MESSAGE,
  maliciousEvent,
  maliciousFixtures,
  mismatchEvent,
  mismatchFixtures,
  narrowingEvent,
  conversionEvent,
  CONVERSION_MESSAGE,
  SESSION,
  XSS,
} from './fixtures.js';
import { assertClean, gridCells, posted, screenshot, sendHost, sendInvocation, startHarness, waitForTensor, type Harness } from './harness.js';

let h: Harness;

before(async () => {
  h = await startHarness();
});

after(async () => {
  await h?.close();
});

/** Row texts of the summary table, keyed by the name column. */
async function summaryRows(page: Page): Promise<Record<string, Record<string, string>>> {
  // (No named functions inside page callbacks: tsx would wrap them in a helper the page lacks.)
  const rows = await page.$$eval('table.summary tr.tensor-row', (trs) =>
    trs.map((tr) => ({ cls: tr.className, cells: Array.from(tr.querySelectorAll('td'), (td) => [td.dataset.col ?? '', td.textContent ?? '']) })),
  );
  const out: Record<string, Record<string, string>> = {};
  for (const row of rows) {
    const cells: Record<string, string> = Object.fromEntries(row.cells);
    out[cells.name ?? ''] = { ...cells, class: row.cls };
  }
  return out;
}

test('posts ready on load and waits for a stop', async () => {
  const page = await h.open();
  assert.deepEqual((await posted(page))[0], { type: 'ready' });
  assert.match((await page.textContent('#app')) ?? '', /Waiting for a stop/);
  await assertClean(h, page);
});

test('renders the invocation: node, op, Tout, reason, and every input and output', async () => {
  const page = await h.open(mismatchFixtures);
  await sendInvocation(page, SESSION, mismatchEvent);
  await waitForTensor(page);
  const header = (await page.textContent('header.invocation-header')) ?? '';
  assert.match(header, /standardize › standardize\/normalize/);
  assert.match(header, /PyFunc/);
  assert.match(header, /\[float32\]/);
  assert.match(header, /exception — Tout mismatch in normalize/);
  assert.match(header, /numpy_function/);
  const rows = await summaryRows(page);
  assert.deepEqual(Object.keys(rows), ['pixels', 'output 0']);
  assert.equal(rows.pixels!.dtype, 'float32');
  assert.equal(rows.pixels!.shape, '[2, 2]');
  assert.equal(rows.pixels!.min, '0');
  assert.equal(rows.pixels!.max, '255');
  assert.equal(rows.pixels!.mean, '111.75');
  assert.equal(rows.pixels!.std, undefined, 'no std column: the adapter has no standard deviation to show');
  assert.equal(rows.pixels!.zeros, '1');
  assert.equal(rows['output 0']!.kind, 'Float64Array');
  assert.equal(rows['output 0']!.tout, 'float32');
  // The flagged output is selected first and its values fetched by slices.
  const requests = (await posted(page)).filter((m) => m.type === 'tensorData');
  assert.ok(requests.length >= 1);
  assert.deepEqual(
    { ...requests[0], requestId: 0 },
    { type: 'tensorData', requestId: 0, sessionId: SESSION, invocationId: 3, side: 'outputs', index: 0, start: 0, count: 4 },
  );
  assert.deepEqual(await gridCells(page), [
    ['-1', '-0.498039'],
    ['0.003922', '1'],
  ]);
  await assertClean(h, page);
});

test("flags a dtype mismatch with TensorFlow's message (Float64Array for float32)", async () => {
  const page = await h.open(mismatchFixtures);
  await sendInvocation(page, SESSION, mismatchEvent);
  await waitForTensor(page);
  const rows = await summaryRows(page);
  assert.match(rows['output 0']!.class, /flag-dtype/);
  assert.match(rows['output 0']!.check, /dtype mismatch/);
  assert.match(rows.pixels!.class, /flag-ok/);
  const message = await page.textContent('tr.check-message.dtype .message');
  assert.equal(message, DTYPE_MESSAGE);
  assert.match((await page.textContent('header h1')) ?? '', /✗/);
  const file = await screenshot(page, 'mismatch.png');
  assert.ok(file.endsWith('mismatch.png'));
  await assertClean(h, page);
});

test('flags silent narrowing (float64 held as float32) and a count mismatch', async () => {
  const page = await h.open();
  await sendInvocation(page, SESSION, narrowingEvent);
  await waitForTensor(page);
  let rows = await summaryRows(page);
  assert.deepEqual(Object.keys(rows), ['x', 'factor', 'output 0', 'output 1']);
  assert.match(rows['output 0']!.class, /flag-narrowed/);
  assert.match(rows['output 0']!.check, /narrowed/);
  assert.equal(rows['output 0']!.tout, 'float64');
  assert.match(rows['output 1']!.class, /flag-ok/);
  assert.match((await page.textContent('tr.check-message.narrowed')) ?? '', /float64 in TensorFlow, held as float32 in TF\.js/);
  assert.match((await page.textContent('header h1')) ?? '', /✓/);
  await screenshot(page, 'narrowing.png');

  await sendInvocation(page, SESSION, countEvent);
  await page.waitForSelector('.count-mismatch');
  rows = await summaryRows(page);
  assert.match((await page.textContent('.count-mismatch')) ?? '', /split returns 2 values, but expects to see 1 values/);
  assert.equal(rows['output 1']!.tout, '—');
  assert.match(rows['output 1']!.class, /flag-extra/);
  assert.match(rows['output 1']!.check, /not in Tout/);
  await assertClean(h, page);
});

test("flags py_function's conversion of a returned Float64Array as a warning, and a float64 input (Tin) held as float32", async () => {
  const page = await h.open();
  await sendInvocation(page, SESSION, conversionEvent);
  await waitForTensor(page);
  const rows = await summaryRows(page);
  assert.deepEqual(Object.keys(rows), ['a', 'output 0']);
  assert.match(rows.a!.class, /flag-narrowed/);
  assert.equal(rows.a!.tout, 'float64');
  assert.match(rows['output 0']!.class, /flag-converted/);
  assert.match(rows['output 0']!.check, /converted to Tout/);
  assert.equal(rows['output 0']!.tout, 'float32');
  assert.equal((await page.textContent('tr.check-message.converted')) ?? '', CONVERSION_MESSAGE);
  assert.match((await page.textContent('tr.check-message.narrowed')) ?? '', /float64 in TensorFlow, held as float32 in TF\.js/);
  assert.match((await page.textContent('header h1')) ?? '', /✓/, 'a conversion is not a failure');
  await screenshot(page, 'conversion.png');
  await assertClean(h, page);
});

test('escapes every text: a string tensor holding <img src=x onerror=alert(1)> renders as text', async () => {
  const page = await h.open(maliciousFixtures);
  await sendInvocation(page, SESSION, maliciousEvent);
  await waitForTensor(page);
  // The output (a "string" tensor with a markup dtype) is selected: its value is in the grid.
  assert.deepEqual(await gridCells(page), [[JSON.stringify(XSS)]]);
  // Select the input: its preview holds the values.
  await page.click('tr.tensor-row[data-side="inputs"]');
  await page.waitForFunction(() => document.querySelector('.tensor-name')?.textContent === '<img src=x onerror=alert(1)>');
  await waitForTensor(page, 1);
  const cells = (await gridCells(page)).flat();
  assert.deepEqual(
    cells,
    [XSS, '<b>bold</b>', 'x" onmouseover="alert(4)', "'); alert(5); //"].map((s) => JSON.stringify(s)),
  );
  const text = (await page.textContent('#app')) ?? '';
  assert.ok(text.includes(XSS), 'the markup is shown as text');
  assert.ok(text.includes('<svg onload=alert(3)>'));
  assert.ok(text.includes('<script>alert(2)</script>'));
  assert.ok(text.includes('<i>evil-dtype</i>'));
  assert.ok(text.includes(`bad input ${XSS}`));
  assert.equal(await page.locator('img').count(), 0, 'no <img> element');
  assert.equal(await page.locator('svg, b, i').count(), 0, 'no element from the data');
  assert.equal(await page.locator('script').count(), 2, 'only the stub and the inspector script');
  await page.hover('table.grid td');
  await page.waitForTimeout(50);
  await screenshot(page, 'escaping.png');
  await assertClean(h, page);
});

test('history: every invocation with its status; click one to show it again; ended sessions marked', async () => {
  const page = await h.open(mismatchFixtures);
  await sendInvocation(page, SESSION, mismatchEvent);
  await sendInvocation(page, SESSION, narrowingEvent);
  await sendInvocation(page, 'session-2', countEvent);
  await page.waitForFunction(() => document.querySelectorAll('.history-item').length === 3);
  const items = await page.$$eval('.history-item', (els) => els.map((e) => ({ text: e.textContent ?? '', cls: e.className })));
  // Newest first.
  assert.match(items[0]!.text, /^✗ model › split/);
  assert.match(items[1]!.text, /^✓ model › model\/scale/);
  assert.match(items[2]!.text, /^✗ standardize › standardize\/normalize/);
  assert.match(items[0]!.cls, /current/);
  assert.match(items[0]!.text, /stopped/);

  await page.click('.history-item:nth-child(3)');
  await page.waitForFunction(() => document.querySelector('header h1')?.textContent?.includes('standardize › standardize/normalize'));
  assert.match((await page.getAttribute('.history-item:nth-child(3)', 'class')) ?? '', /current/);

  await sendHost(page, { type: 'sessionEnded', sessionId: SESSION });
  await page.waitForFunction(() => document.querySelectorAll('.history-item.ended').length === 2);
  assert.match((await page.textContent('.history-item:nth-child(3)')) ?? '', /ended/);
  assert.doesNotMatch((await page.textContent('.history-item:nth-child(1)')) ?? '', /ended/);
  assert.match((await page.textContent('header')) ?? '', /session has ended/);

  // A later stop in the same invocation updates its entry instead of adding one.
  await sendInvocation(page, 'session-2', { ...countEvent, description: 'again' });
  await page.waitForFunction(() => document.querySelector('.reason')?.textContent?.includes('again'));
  assert.equal(await page.locator('.history-item').count(), 3);

  // A new session: the last stop is not what the program is doing now; the history stays.
  await sendHost(page, { type: 'sessionStarted', sessionId: 'session-3' });
  await page.waitForFunction(() => document.querySelector('.empty')?.textContent?.includes('Waiting for a stop'));
  assert.equal(await page.locator('.history-item').count(), 3);
  assert.equal(await page.locator('.history-item.current').count(), 0);
  await assertClean(h, page);
});

test('restores from saved state: a re-shown panel comes back with the same invocation, selection and page', async () => {
  const page = await h.open(mismatchFixtures);
  await sendInvocation(page, SESSION, mismatchEvent);
  await sendInvocation(page, SESSION, narrowingEvent);
  await waitForTensor(page);
  await page.click('.history-item:nth-child(2)'); // the first invocation
  await page.waitForFunction(() => document.querySelector('header h1')?.textContent?.includes('normalize'));
  let renders = await waitForTensor(page);
  await page.click('tr.tensor-row[data-side="inputs"]');
  renders = await waitForTensor(page, renders);
  await page.selectOption('select[aria-label="axis shown as rows"]', '1'); // transpose
  await waitForTensor(page, renders);
  const before = {
    header: await page.textContent('header h1'),
    selected: await page.getAttribute('tr.tensor-row.selected', 'data-side'),
    name: await page.textContent('.tensor-name'),
    grid: await gridCells(page),
    history: await page.$$eval('.history-item', (els) => els.map((e) => e.className)),
  };
  assert.equal(before.selected, 'inputs');
  assert.deepEqual(
    before.grid,
    [
      ['0', '128'],
      ['64', '255'],
    ],
    'transposed [[0, 64], [128, 255]]',
  );

  await page.reload();
  await page.waitForFunction(() => (window as unknown as { __posted: { type: string }[] }).__posted.some((m) => m.type === 'ready'));
  await waitForTensor(page);
  const afterReload = {
    header: await page.textContent('header h1'),
    selected: await page.getAttribute('tr.tensor-row.selected', 'data-side'),
    name: await page.textContent('.tensor-name'),
    grid: await gridCells(page),
    history: await page.$$eval('.history-item', (els) => els.map((e) => e.className)),
  };
  assert.deepEqual(afterReload, before);
  assert.equal(await page.inputValue('select[aria-label="axis shown as rows"]'), '1');
  await assertClean(h, page);
});
