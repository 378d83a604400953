/**
 * The inspector's Training section in Chromium (issue 44): `trainingCurve` events drawn as they
 * come, live and at a stop. The drawn values are read back from the SVG (line-chart.ts
 * `chartValueAt` over each chart's data-domain and data-plot) and compared with the events' losses;
 * a NaN batch is a mark at its step, not a point of the line; the batch stopped in is highlighted.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import type { TrainingCurveEvent } from '../../media/src/protocol.js';
import { chartValueAt } from '../../media/src/line-chart.js';
import { logValue } from '../../runtime/fit-log-types.js';
import { assertClean, screenshot, sendHost, startHarness, type Harness } from './harness.js';

let h: Harness;

before(async () => {
  h = await startHarness();
});

after(async () => {
  await h?.close();
});

const SESSION = 'session-training';
/** 2 epochs × 4 batches; the loss is NaN at step 5 (epoch 2, batch 2). */
const LOSSES = [0.9, 0.7, 0.55, 0.5, 0.45, Number.NaN, 0.42, 0.4];
const ACC = [0.5, 0.55, 0.6, 0.62, 0.65, 0.66, 0.7, 0.72];
const wire = logValue;
const FIT = { id: 1, epochs: 2, initialEpoch: 0, batchesPerEpoch: 4, metrics: ['loss', 'acc', 'val_loss', 'val_acc'] };

function batchPoint(step: number) {
  return { fit: 1, epoch: Math.floor(step / 4), batch: step % 4, step, logs: { loss: wire(LOSSES[step]!), acc: ACC[step]! } };
}

/** A chart's drawn line, as the values its path's points stand for, and its NaN marks' x. */
async function drawn(page: Page, metric: string, kind: 'batch' | 'epoch') {
  const chart = await page.$eval(`figure.training-chart[data-metric="${metric}"][data-kind="${kind}"] svg.line-chart`, (svg) => ({
    domain: (svg.getAttribute('data-domain') ?? '').split(' ').map(Number),
    plot: (svg.getAttribute('data-plot') ?? '').split(' ').map(Number),
    paths: Array.from(svg.querySelectorAll('path.series'), (p) => ({ name: p.getAttribute('data-series'), d: p.getAttribute('d') ?? '' })),
    nan: Array.from(svg.querySelectorAll('.non-finite .mark.nan'), (m) => Number(m.getAttribute('data-x'))),
    highlight: svg.querySelector('line.highlight')?.getAttribute('data-x') ?? null,
    label: svg.getAttribute('aria-label'),
    xLabel: svg.querySelector('.axis-label.x')?.textContent ?? null,
  }));
  const series = chart.paths.map(({ name, d }) => ({
    name,
    points: [...d.matchAll(/[ML](-?[\d.]+) (-?[\d.]+)/g)].map((m) => chartValueAt(chart.domain, chart.plot, Number(m[1]), Number(m[2]))),
  }));
  return { ...chart, series };
}

const near = (a: number, b: number, what: string, within = 1e-3) => assert.ok(Math.abs(a - b) <= within, `${what}: drawn ${a}, sent ${b}`);
/** What a drawn coordinate can be off by: x is drawn on whole pixel columns, y to 1/100 pixel (allowed: one step of that). */
const pixel = (chart: { domain: number[]; plot: number[] }) => ({
  x: (0.5 * (chart.domain[1]! - chart.domain[0]!)) / chart.plot[2]!,
  y: (0.01 * (chart.domain[3]! - chart.domain[2]!)) / chart.plot[3]!,
});

test('a training curve with a NaN batch: the losses drawn, the NaN marked at its batch, the batch stopped in highlighted', async () => {
  const page = await h.open();
  // While running: the first 3 batches (no highlight of a stop, the section says running).
  const running: TrainingCurveEvent = {
    paused: false,
    fits: [FIT],
    from: 0,
    dropped: 0,
    points: [0, 1, 2].map(batchPoint),
    current: { fit: 1, epoch: 0, batch: 3, step: 3 },
  };
  await sendHost(page, { type: 'training', sessionId: SESSION, event: running });
  await page.waitForSelector('section.training:not([hidden]) figure.training-chart[data-metric="loss"][data-kind="batch"]');
  assert.match((await page.textContent('.training-status')) ?? '', /fit 1 · epoch 1\/2 · batch 4\/4 · running/);

  // At a stop in step 6 (epoch 2, batch 3): the rest of epoch 1, its epoch point, and epoch 2 so far.
  const stop: TrainingCurveEvent = {
    paused: true,
    fits: [FIT],
    from: 3,
    dropped: 0,
    points: [
      batchPoint(3),
      { fit: 1, epoch: 0, batch: null, step: 0, logs: { loss: 0.66, acc: 0.57, val_loss: 0.7, val_acc: 0.5 } },
      ...[4, 5, 6].map(batchPoint),
    ],
    current: { fit: 1, epoch: 1, batch: 2, step: 6 },
  };
  await sendHost(page, { type: 'training', sessionId: SESSION, event: stop });
  await page.waitForFunction(() => document.querySelector('.training-status')?.textContent?.includes('stopped'));
  assert.equal(await page.textContent('.training-status'), 'fit 1 · epoch 2/2 · batch 3/4 · stopped in this batch (step 6)');

  const loss = await drawn(page, 'loss', 'batch');
  assert.equal(loss.label, 'loss per batch, fit 1');
  assert.equal(loss.xLabel, 'step: batch across epochs, from 0');
  const sent = LOSSES.slice(0, 7)
    .map((y, x) => ({ x, y }))
    .filter((p) => !Number.isNaN(p.y));
  assert.equal(loss.series.length, 1);
  assert.equal(loss.series[0]!.points.length, sent.length, `drawn ${JSON.stringify(loss.series[0]!.points)}`);
  const off = pixel(loss);
  loss.series[0]!.points.forEach((p, i) => {
    near(p.x, sent[i]!.x, `x of point ${i}`, off.x);
    near(p.y, sent[i]!.y, `loss at step ${sent[i]!.x}`, off.y);
  });
  assert.deepEqual(loss.nan, [5], 'the NaN batch is marked at its step');
  assert.match(
    loss.paths[0]!.d,
    /L[\d.]+ [\d.]+M[\d.]+ [\d.]+m-3 0a3 3 0 1 0 6 0a3 3 0 1 0 -6 0m3 0$/,
    'the line breaks at the NaN; the point alone after it is drawn as a ring',
  );
  assert.equal(loss.highlight, '6', 'the batch stopped in is highlighted');

  const acc = await drawn(page, 'acc', 'batch');
  assert.deepEqual(acc.nan, []);
  acc.series[0]!.points.forEach((p, i) => near(p.y, ACC[i]!, `acc at step ${i}`, pixel(acc).y));

  const epochLoss = await drawn(page, 'loss', 'epoch');
  assert.deepEqual(
    epochLoss.series.map((s) => s.name),
    ['loss', 'val_loss'],
  );
  near(epochLoss.series[0]!.points[0]!.y, 0.66, 'epoch 1 loss', pixel(epochLoss).y);
  near(epochLoss.series[1]!.points[0]!.y, 0.7, 'epoch 1 val_loss', pixel(epochLoss).y);
  // Epoch 2 has not ended, so it has no point yet; it is where the program is, marked past the last point.
  assert.equal(epochLoss.highlight, '1');

  assert.match((await page.textContent('.training-note.non-finite')) ?? '', /^loss is NaN or ±Inf in 1 batch; first at epoch 2 batch 2 \(step 5\): NaN$/);
  assert.match((await page.textContent('.training-last')) ?? '', /last batch \(epoch 2 batch 3 \(step 6\)\): loss 0\.42 · acc 0\.7/);
  assert.equal(await page.$('.training-note.error'), null, 'every value was read');
  await screenshot(page, 'training-curve-nan.png');

  // A point clicked: its values in words.
  const box = (await page.$('figure.training-chart[data-metric="loss"][data-kind="batch"] rect.click-layer'))!;
  const rect = (await box.boundingBox())!;
  const [x0, x1] = loss.domain as [number, number];
  await page.mouse.click(rect.x + ((1 - x0) / (x1 - x0)) * rect.width, rect.y + rect.height / 2);
  await page.waitForSelector('.training-clicked');
  assert.equal(await page.textContent('.training-clicked'), 'loss at epoch 1 batch 2 (step 1): 0.7');
  await assertClean(h, page);
});

test('points that never arrived are counted; a malformed value is said, not drawn', async () => {
  const page = await h.open();
  const event = {
    paused: false,
    fits: [FIT],
    from: 2,
    dropped: 1,
    points: [batchPoint(2), { fit: 1, epoch: 0, batch: 3, step: 3, logs: { loss: 'lots' } }],
  } as unknown as TrainingCurveEvent;
  await sendHost(page, { type: 'training', sessionId: SESSION, event });
  await page.waitForSelector('section.training:not([hidden])');
  const notes = await page.$$eval('.training-note', (ps) => ps.map((p) => p.textContent));
  assert.ok(
    notes.includes('3 points were not received (sent before the inspector opened, or more than the debugger keeps between two sends).'),
    notes.join('\n'),
  );
  assert.ok(notes.includes('1 value from the debugger could not be read and are not drawn.'), notes.join('\n'));
  await assertClean(h, page);
});

test('a hostile curve: a metric named with markup is drawn as text; wrong kinds of fields are counted, not drawn', async () => {
  const page = await h.open();
  const name = '<img src=x onerror=window.__pwned=1>';
  const event = {
    paused: true,
    fits: [{ id: 1, epochs: 'many', batchesPerEpoch: -1, metrics: [name, 7] }, { id: 'x' }],
    from: 0,
    dropped: 0,
    points: [
      { fit: 1, epoch: 0, batch: 0, step: 0, logs: { [name]: 0.5 } },
      { fit: 1, epoch: 0, batch: 1, step: 1, logs: { [name]: 'Infinity' } },
      { fit: 1, epoch: 0, batch: 2, step: 'two', logs: { [name]: 1 } },
      null,
    ],
    current: { fit: 1, epoch: 0, batch: 1, step: 1 },
  } as unknown as TrainingCurveEvent;
  await sendHost(page, { type: 'training', sessionId: SESSION, event });
  await page.waitForSelector('section.training:not([hidden]) figure.training-chart');
  assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined);
  assert.equal(await page.$('section.training img'), null, 'the name is text, not an element');
  assert.equal(await page.$eval('figure.training-chart[data-kind="batch"]', (f) => f.dataset.metric), name);
  const chart = await drawn(page, name, 'batch');
  assert.equal(chart.series[0]!.points.length, 1);
  assert.equal(
    await page.$$eval('figure.training-chart[data-kind="batch"] .mark.inf', (m) => m.map((x) => x.getAttribute('data-x'))).then((x) => x.join()),
    '1',
  );
  assert.equal(await page.textContent('.training-note.error'), '3 values from the debugger could not be read and are not drawn.');
  await assertClean(h, page);
});
