/**
 * The inspector's Pinned section in Chromium (the panel's real HTML, strict CSP, the real built
 * script): a pinned expression over 5 stops, its chart's drawn min/mean/max read back from the SVG
 * (line-chart.ts chartValueAt), its NaN count, a click on a point opening that stop's values, the
 * values bound (last 20 stops), Unpin, and the page's memory over a 2,000-stop session with 5 pins.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { chartValueAt } from '../../media/src/line-chart.js';
import type { PinnedValue, PinnedValuesEvent } from '../../media/src/protocol.js';
import { assertClean, posted, screenshot, sendHost, startHarness, type Harness } from './harness.js';

const SESSION = 'pins-session';
let h: Harness;

before(async () => {
  h = await startHarness();
});

after(async () => {
  await h?.close();
});

/** `w` at stops 1–5: its values, and the summary the agent makes of them. */
const STOPS: readonly (readonly number[])[] = [
  [1, 2, 3, 4],
  [2, 3, 4, 5],
  [0, 1, 2, 9],
  [Number.NaN, 3, 4, 5],
  [-1, 0, 1, 2],
];

function summary(values: readonly number[]): PinnedValue {
  const finite = values.filter(Number.isFinite);
  const info = {
    kind: 'Tensor',
    dtype: 'float32',
    shape: [values.length],
    size: values.length,
    disposed: false,
    min: Math.min(...finite),
    max: Math.max(...finite),
    mean: finite.reduce((a, b) => a + b, 0) / finite.length,
    nanCount: values.filter(Number.isNaN).length,
    infCount: 0,
    negInfCount: 0,
  };
  return { expression: 'w', status: 'value', info, values };
}

function stopEvent(stop: number, values: readonly number[]): PinnedValuesEvent {
  return { stop, valueLimit: 1024, pins: [summary(values), { expression: 'missing', status: 'unresolved' }] };
}

/** The points a chart's series is drawn through, as the values they stand for. */
async function drawn(page: Page, expression: string, series: string, chart = 0): Promise<{ x: number; y: number }[]> {
  const raw = await page.$$eval(
    `.pin[data-expression="${expression}"] svg.line-chart`,
    (svgs, [name, index]) => {
      const svg = svgs[Number(index)]!;
      const d = svg.querySelector(`path.series[data-series="${name}"]`)?.getAttribute('d') ?? '';
      return { domain: svg.dataset.domain ?? '', plot: svg.dataset.plot ?? '', d };
    },
    [series, String(chart)] as const,
  );
  const domain = raw.domain.split(' ').map(Number);
  const plot = raw.plot.split(' ').map(Number);
  return [...raw.d.matchAll(/[ML](-?[\d.]+) (-?[\d.]+)/g)].map((m) => chartValueAt(domain, plot, Number(m[1]), Number(m[2])));
}

function near(actual: readonly { x: number; y: number }[], expected: readonly [number, number][], what: string): void {
  assert.equal(actual.length, expected.length, `${what}: ${JSON.stringify(actual)}`);
  actual.forEach((p, i) => {
    assert.ok(Math.abs(p.x - expected[i]![0]) < 0.05 && Math.abs(p.y - expected[i]![1]) < 0.05, `${what} point ${i}: ${JSON.stringify(p)} ≠ ${expected[i]}`);
  });
}

/** Clicks the chart where a value is drawn (SVG coordinates from its data-domain and data-plot). */
async function clickAt(page: Page, expression: string, x: number, y: number): Promise<void> {
  const svg = page.locator(`.pin[data-expression="${expression}"] svg.line-chart`).first();
  const domain = (await svg.getAttribute('data-domain'))!.split(' ').map(Number);
  const plot = (await svg.getAttribute('data-plot'))!.split(' ').map(Number);
  const [x0, x1, y0, y1] = domain as [number, number, number, number];
  const [left, top, width, height] = plot as [number, number, number, number];
  await svg.click({ position: { x: left + ((x - x0) / (x1 - x0)) * width, y: top + ((y1 - y) / (y1 - y0)) * height } });
}

async function pinsFor(page: Page, expressions: string[], events: readonly PinnedValuesEvent[]): Promise<void> {
  await sendHost(page, { type: 'pins', expressions });
  for (const event of events) await sendHost(page, { type: 'pinned', sessionId: SESSION, event });
}

test('a pinned expression over 5 stops: its latest summary, min/mean/max drawn per stop, the NaN count, a click opens that stop', async () => {
  const page = await h.open();
  await pinsFor(
    page,
    ['w', 'missing'],
    STOPS.map((v, i) => stopEvent(i + 1, v)),
  );
  await page.waitForSelector('.pin[data-expression="w"] svg.line-chart');
  assert.equal(await page.textContent('.pins h2'), 'Pinned (2)');
  const latest = (await page.textContent('.pin[data-expression="w"] .pin-latest')) ?? '';
  assert.equal(latest, 'stop 5: Tensor float32[4] min -1 · mean 0.5 · max 2 · NaN/Inf 0');
  assert.equal(await page.textContent('.pin[data-expression="missing"] .pin-latest'), 'stop 5: not in scope in this frame');

  const expected = (pick: (s: PinnedValue & { status: 'value' }) => number | undefined) =>
    STOPS.map((v, i) => [i + 1, pick(summary(v) as PinnedValue & { status: 'value' })!] as [number, number]);
  near(
    await drawn(page, 'w', 'min'),
    expected((s) => s.info.min),
    'min',
  );
  near(
    await drawn(page, 'w', 'mean'),
    expected((s) => s.info.mean),
    'mean',
  );
  near(
    await drawn(page, 'w', 'max'),
    expected((s) => s.info.max),
    'max',
  );
  // The NaN at stop 4: counted under the chart and drawn in the counts chart.
  assert.match((await page.textContent('.pin[data-expression="w"] .pin-counts')) ?? '', /^NaN at 1 of 5 stops, ±Inf at 0/);
  near(
    await drawn(page, 'w', 'NaN', 1),
    [
      [1, 0],
      [2, 0],
      [3, 0],
      [4, 1],
      [5, 0],
    ],
    'NaN count',
  );
  // The current stop is highlighted.
  assert.equal(await page.getAttribute('.pin[data-expression="w"] svg.line-chart line.highlight', 'data-x'), '5');

  await clickAt(page, 'w', 4, 5);
  await page.waitForSelector('.pin-values[data-stop="4"]');
  assert.equal(await page.textContent('.pin-values-head'), 'w at stop 4: all 4 values Close');
  assert.deepEqual(await page.$$eval('.pin-values-list li', (lis) => lis.map((li) => li.textContent)), ['NaN', '3', '4', '5']);
  await screenshot(page, 'pins.png');
  await assertClean(h, page);
});

test('values are kept for the last 20 stops: an older point says so; Unpin asks the extension', async () => {
  const page = await h.open();
  await pinsFor(
    page,
    ['w'],
    Array.from({ length: 25 }, (_, i) => stopEvent(i + 1, [i, i + 1, i + 2, i + 3])).map((e) => ({ ...e, pins: e.pins.slice(0, 1) })),
  );
  await page.waitForSelector('.pin[data-expression="w"] svg.line-chart');
  await clickAt(page, 'w', 1, 0);
  await page.waitForSelector('.pin-values.gone');
  assert.match((await page.textContent('.pin-values.gone')) ?? '', /^The values of stop 1 are no longer kept \(values are kept for the last 20 stops/);
  await clickAt(page, 'w', 6, 5);
  await page.waitForSelector('.pin-values[data-stop="6"]');
  assert.deepEqual(await page.$$eval('.pin-values-list li', (lis) => lis.map((li) => li.textContent)), ['5', '6', '7', '8']);

  await page.click('.pin[data-expression="w"] .pin-head button');
  assert.deepEqual((await posted(page)).at(-1), { type: 'unpin', expression: 'w' });
  await sendHost(page, { type: 'pins', expressions: [] });
  await page.waitForSelector('.pins', { state: 'detached' });
  await assertClean(h, page);
});

/**
 * After 2,000 stops with 5 pins of 1,024 values each: the saved state (summaries only) under 500 KB,
 * the JS heap after a GC under 16 MiB (measured: 373 KB and about 5 MiB).
 */
const STATE_BOUND = 500_000;
const HEAP_BOUND = 16 * 1024 * 1024;

test('2,000 stops with 5 pins: the saved state and the JS heap stay within their bounds', { timeout: 240_000 }, async () => {
  const page = await h.open();
  const pins = ['a', 'b', 'c', 'd', 'e'];
  await sendHost(page, { type: 'pins', expressions: pins });
  // Posted in the page (one round trip per 100 stops), as the panel would post them.
  for (let from = 1; from <= 2000; from += 100) {
    await page.evaluate(
      ([first, names]) => {
        for (let stop = first; stop < first + 100; stop++) {
          const info = {
            kind: 'Tensor',
            dtype: 'float32',
            shape: [1024],
            size: 1024,
            disposed: false,
            min: -1 + 1 / stop,
            max: 1 - 1 / stop,
            mean: Math.sin(stop) / 7,
            nanCount: stop % 50 === 0 ? 1 : 0,
            infCount: 0,
          };
          const event = {
            stop,
            valueLimit: 1024,
            pins: (names as string[]).map((expression, k) => ({
              expression,
              status: 'value',
              info,
              values: Array.from({ length: 1024 }, (_, i) => Math.sin(stop + i + k)),
            })),
          };
          (window as unknown as { __host: (m: unknown) => void }).__host({ type: 'pinned', sessionId: 'bench', event });
        }
      },
      [from, pins] as const,
    );
  }
  await page.waitForFunction(() => document.querySelector('.pin[data-expression="e"] .pin-latest')?.textContent?.startsWith('stop 2000:'), null, {
    timeout: 60_000,
  });
  const stateBytes = await page.evaluate(() => sessionStorage.getItem('vscode-state')?.length ?? 0);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = await cdp.send('Runtime.getHeapUsage');
  console.log(`2,000 stops × 5 pins: saved state ${stateBytes} bytes, JS heap ${(usedSize / 1048576).toFixed(1)} MiB`);
  assert.ok(stateBytes > 100_000, `the state holds the summaries (${stateBytes} bytes)`);
  assert.ok(stateBytes < STATE_BOUND, `saved state ${stateBytes} bytes ≥ ${STATE_BOUND}`);
  assert.ok(usedSize < HEAP_BOUND, `JS heap ${usedSize} bytes ≥ ${HEAP_BOUND}`);
  near((await drawn(page, 'a', 'max')).slice(-1), [[2000, 1 - 1 / 2000]], 'the last stop drawn');
  await assertClean(h, page);
});
