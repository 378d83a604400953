/**
 * The line chart view of the selected tensor, in Chromium: a 1-D tensor's values drawn where they
 * belong (read back from the SVG with line-chart.ts's `chartValueAt`), NaN and +Inf marked at their
 * index, a long tensor drawn exactly up to 100,000 values and as a labelled strided sample beyond,
 * and a row or a column of a 2-D slice.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { chartValueAt } from '../../media/src/line-chart.js';
import type { TensorCallbackEvent, TensorInfo } from '../../media/src/protocol.js';
import { summarizeValues } from '../../runtime/summary.js';
import { cubeEvent, cubeFixtures, SESSION } from './fixtures.js';
import { assertClean, fixtureKey, screenshot, sendInvocation, startHarness, waitForTensor, type Harness } from './harness.js';

let h: Harness;

before(async () => {
  h = await startHarness();
});

after(async () => {
  await h?.close();
});

const VALUES = [0.5, -1, 2, Number.NaN, 3.25, 4, -2.5, Infinity, 1, 0, 6, -3];

function oneD(id: number, values: readonly number[] | undefined, size = values?.length ?? 0): TensorCallbackEvent {
  const info = values
    ? ({ kind: 'Tensor', disposed: false, ...summarizeValues({ dtype: 'float32', shape: [size], flat: [...values] }) } as TensorInfo)
    : ({
        kind: 'Tensor',
        dtype: 'float32',
        shape: [size],
        size,
        disposed: false,
        min: 0,
        max: size - 1,
        mean: (size - 1) / 2,
        nanCount: 0,
        infCount: 0,
      } as TensorInfo);
  return {
    reason: 'breakpoint',
    description: 'Paused on breakpoint in losses',
    invocation: {
      id,
      callback: { name: 'losses', token: 'pyfunc_1', kind: 'numpy_function', stateful: true, functionName: 'losses' },
      op: 'PyFunc',
      Tout: ['float32'],
      parameterNames: ['x'],
      phase: 'running',
    },
    inputs: [info],
    outputs: [],
  };
}

/** The line's drawn points as values (x, y), read from the path and the SVG's data-domain and data-plot. */
async function drawn(page: Page): Promise<{ points: { x: number; y: number }[]; count: number; marks: { kind: string; x: number; at: number }[] }> {
  const raw = await page.$eval('.line-view svg.line-chart', (svg) => ({
    domain: svg.getAttribute('data-domain') ?? '',
    plot: svg.getAttribute('data-plot') ?? '',
    d: svg.querySelector('path.series')?.getAttribute('d') ?? '',
    count: Number(svg.querySelector('path.series')?.getAttribute('data-points')),
    marks: Array.from(svg.querySelectorAll('.non-finite .mark'), (m) => ({
      kind: m.getAttribute('data-kind') ?? '',
      x: Number(m.getAttribute('data-x')),
      // The mark's centre in SVG units: the middle of its path's x coordinates.
      px: (() => {
        const xs = (m.getAttribute('d') ?? '')
          .match(/-?\d+(\.\d+)?/g)!
          .map(Number)
          .filter((_, i) => i % 2 === 0);
        return (Math.min(...xs) + Math.max(...xs)) / 2;
      })(),
    })),
  }));
  const domain = raw.domain.split(' ').map(Number);
  const plot = raw.plot.split(' ').map(Number);
  const points = [...raw.d.matchAll(/[ML](-?[\d.]+) (-?[\d.]+)/g)].map((m) => chartValueAt(domain, plot, Number(m[1]), Number(m[2])));
  const marks = raw.marks.map((m) => ({ kind: m.kind, x: m.x, at: chartValueAt(domain, plot, m.px, 0).x }));
  return { points, count: raw.count, marks };
}

/** Within what one pixel of the plot stands for. */
function near(actual: number, expected: number, pixel: number, what: string): void {
  assert.ok(Math.abs(actual - expected) <= pixel, `${what}: drawn ${actual}, expected ${expected} (±${pixel})`);
}

test('a 1-D tensor as a line: each value drawn at its index, NaN and +Inf marked where they are', async () => {
  const page = await h.open({ [fixtureKey(SESSION, 31, 'inputs', 0)]: { info: oneD(31, VALUES).inputs[0]!, values: VALUES } });
  await sendInvocation(page, SESSION, oneD(31, VALUES));
  await waitForTensor(page);
  const { points, count, marks } = await drawn(page);
  assert.equal(count, VALUES.length);
  const finite = VALUES.map((y, x) => ({ x, y })).filter((p) => Number.isFinite(p.y));
  assert.equal(points.length, finite.length, 'one drawn point per finite value');
  // The plot spans x 0–11 over 418 px and y −3–6 over 142 px: a pixel is 0.03 in x, 0.07 in y.
  points.forEach((p, k) => {
    near(p.x, finite[k]!.x, 0.05, `x of point ${k}`);
    near(p.y, finite[k]!.y, 0.01, `y of point ${k}`);
  });
  assert.deepEqual(
    marks.map((m) => [m.kind, m.x]),
    [
      ['NaN', 3],
      ['+Inf', 7],
    ],
  );
  for (const m of marks) near(m.at, m.x, 0.05, `${m.kind} mark's position`);
  assert.equal(await page.textContent('.line-view h3'), 'Line');
  assert.equal(await page.textContent('.line-view .line-extent'), '12 values, all drawn');
  const axisLabels = await page.$$eval('.line-view .axis-label', (els) => els.map((e) => e.textContent));
  assert.deepEqual(axisLabels, ['index', 'value']);
  const file = await screenshot(page, 'line-view-1d.png');
  assert.ok(file.endsWith('line-view-1d.png'));
  await assertClean(h, page);
});

test('a long 1-D tensor: 100,000 values drawn exactly, 250,000 as a strided sample that says so', async () => {
  const exact = oneD(32, undefined, 100_000);
  let page = await h.open({ [fixtureKey(SESSION, 32, 'inputs', 0)]: { info: exact.inputs[0]!, affine: { scale: 0.5, offset: -10 } } });
  await sendInvocation(page, SESSION, exact);
  await waitForTensor(page);
  let line = await drawn(page);
  assert.equal(line.count, 100_000);
  assert.equal(await page.textContent('.line-view .line-extent'), '100,000 values, all drawn');
  near(line.points[0]!.y, -10, 0.5, 'first value');
  near(line.points.at(-1)!.y, -10 + 0.5 * 99_999, 400, 'last value');
  near(line.points.at(-1)!.x, 99_999, 300, 'last index');

  const long = oneD(33, undefined, 250_000);
  page = await h.open({ [fixtureKey(SESSION, 33, 'inputs', 0)]: { info: long.inputs[0]!, affine: { scale: 2, offset: 1 } } });
  await sendInvocation(page, SESSION, long);
  await waitForTensor(page);
  line = await drawn(page);
  // Every 3rd value: indices 0, 3, …, 249,999.
  assert.equal(line.count, 83_334);
  assert.equal(await page.textContent('.line-view .line-extent'), '250,000 values: a sample of 1 in every 3 (83,334 points) is drawn');
  assert.equal(await page.locator('.line-view .line-extent.sampled').count(), 1);
  near(line.points[0]!.y, 1, 5, 'first value');
  near(line.points.at(-1)!.x, 249_999, 700, 'last sampled index');
  await assertClean(h, page);
});

test('a row, then a column, of a 2-D slice of an N-D tensor as a line', async () => {
  const page = await h.open(cubeFixtures);
  await sendInvocation(page, SESSION, cubeEvent);
  let renders = await waitForTensor(page);
  // [2, 3, 4] = flat index; the slice [0, :, :], row 0 first.
  const ys = async () => (await drawn(page)).points.map((p) => Math.round(p.y * 100) / 100);
  assert.equal(await page.textContent('.line-view h3'), 'Line: row 0');
  assert.deepEqual(await ys(), [0, 1, 2, 3]);
  await page.click('.line-view button[aria-label="next line"]');
  renders = await waitForTensor(page, renders);
  assert.equal(await page.textContent('.line-view h3'), 'Line: row 1');
  assert.deepEqual(await ys(), [4, 5, 6, 7]);
  await page.selectOption('select[aria-label="line along"]', 'col');
  renders = await waitForTensor(page, renders);
  await page.fill('input[aria-label="line column"]', '2');
  await page.press('input[aria-label="line column"]', 'Enter');
  renders = await waitForTensor(page, renders);
  assert.equal(await page.textContent('.line-view h3'), 'Line: column 2');
  assert.deepEqual(await ys(), [2, 6, 10]);
  assert.deepEqual(await page.$$eval('.line-view .axis-label', (els) => els.map((e) => e.textContent)), ['row', 'value']);
  // Another slice of axis 0: the same column of [1, :, :].
  await page.fill('input[aria-label="index on axis 0"]', '1');
  await page.press('input[aria-label="index on axis 0"]', 'Enter');
  await waitForTensor(page, renders);
  assert.deepEqual(await ys(), [14, 18, 22]);
  await screenshot(page, 'line-view-row.png');
  await assertClean(h, page);
});
