/**
 * The Model section in Chromium: opened at a live stop it asks the panel for `modelInfo`, draws a
 * 3-layer model's layers (class, output shape, parameter count) and each weight's dtype, shape,
 * min/mean/max and NaN/Inf as the answer has them, sends a weight's Inspect and Break… to the
 * panel (`modelWeight`), asks again at the next stop while open, and says why when there is no model.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import type { ModelSummary, TensorInfo, WebviewMessage } from '../../media/src/protocol.js';
import { summarizeValues } from '../../runtime/summary.js';
import { cubeEvent, cubeFixtures, SESSION } from './fixtures.js';
import { assertClean, posted, screenshot, sendHost, sendInvocation, startHarness, waitForTensor, type Harness } from './harness.js';

let h: Harness;

before(async () => {
  h = await startHarness();
});

after(async () => {
  await h?.close();
});

type ModelRequest = Extract<WebviewMessage, { type: 'modelInfo' }>;

function weight(name: string, shape: number[], flat: number[]) {
  return { name, trainable: true, info: { kind: 'Variable', disposed: false, ...summarizeValues({ dtype: 'float32', shape, flat }) } as TensorInfo };
}

const MODEL: ModelSummary = {
  name: 'sequential_1',
  className: 'Sequential',
  where: 'closure `_this` of totalLossFunction',
  totalParams: 30,
  trainableParams: 30,
  layers: [
    {
      name: 'hidden',
      className: 'Dense',
      outputShape: '[null,4]',
      params: 16,
      weights: [
        weight(
          'hidden/kernel',
          [3, 4],
          Array.from({ length: 12 }, (_, i) => i - 5),
        ),
        weight('hidden/bias', [4], [0, 0, 0, 0]),
      ],
    },
    { name: 'shift', className: 'Shift', outputShape: '[null,4]', params: 4, weights: [weight('shift/offset', [4], [1, 2, 3, 4])] },
    {
      name: 'out',
      className: 'Dense',
      outputShape: '[null,2]',
      params: 10,
      weights: [weight('out/kernel', [4, 2], [1, 1, 1, 1, 1, 1, 1, 1]), weight('out/bias', [2], [Number.NaN, 0.5])],
    },
  ],
};

async function modelRequests(page: Page): Promise<ModelRequest[]> {
  return (await posted(page)).filter((m): m is ModelRequest => m.type === 'modelInfo');
}

async function waitForModel(page: Page, renders: number): Promise<number> {
  const handle = await page.waitForFunction(
    (after) => {
      const el = document.querySelector<HTMLElement>('.model-view');
      const n = Number(el?.dataset.renders ?? 0);
      return el?.dataset.state !== 'loading' && n > after ? n : false;
    },
    renders,
    { timeout: 10_000 },
  );
  return (await handle.jsonValue()) as number;
}

const cells = (page: Page, selector: string) =>
  page.$$eval(selector, (rows) => rows.map((tr) => Array.from(tr.querySelectorAll('td'), (td) => td.textContent ?? '').slice(0, 8)));

test('the Model section: layers and weights drawn from modelInfo, a weight inspected or offered Break…, asked again at the next stop', async () => {
  const page = await h.open(cubeFixtures);
  await sendInvocation(page, SESSION, cubeEvent);
  await waitForTensor(page);
  assert.deepEqual(await modelRequests(page), [], 'nothing asked while the section is closed');

  await page.click('.model-view > summary');
  await page.waitForFunction(() => (window as unknown as { __posted: { type: string }[] }).__posted.some((m) => m.type === 'modelInfo'));
  const [asked] = await modelRequests(page);
  assert.equal(asked!.sessionId, SESSION);
  await sendHost(page, { type: 'modelInfo', requestId: asked!.requestId, model: MODEL });
  let renders = await waitForModel(page, 0);

  assert.deepEqual(await cells(page, '.model-table tr.layer'), [
    ['hidden', 'Dense', '[null,4]', '16', ''],
    ['shift', 'Shift', '[null,4]', '4', ''],
    ['out', 'Dense', '[null,2]', '10', ''],
  ]);
  // Weights: name, dtype, shape, size, min, mean, max, NaN/Inf.
  assert.deepEqual(await cells(page, '.model-table tr.weight'), [
    ['hidden/kernel', 'float32', '[3, 4]', '12', '-5', '0.5', '6', ''],
    ['hidden/bias', 'float32', '[4]', '4', '0', '0', '0', ''],
    ['shift/offset', 'float32', '[4]', '4', '1', '2.5', '4', ''],
    ['out/kernel', 'float32', '[4, 2]', '8', '1', '1', '1', ''],
    ['out/bias', 'float32', '[2]', '2', '0.5', '0.5', '0.5', '1 NaN'],
  ]);
  assert.equal(await page.textContent('.model-totals'), 'Total params: 30 · trainable: 30 · non-trainable: 0');
  assert.match((await page.textContent('.model-title')) ?? '', /^sequential_1 \(Sequential\) · found as closure `_this` of totalLossFunction$/);
  await screenshot(page, 'model-view.png');

  // A weight's Inspect and Break… go to the panel with its tf.Variable.
  await page.click('button[aria-label="inspect hidden/kernel"]');
  await page.click('button[aria-label="break on a change of out/bias"]');
  const picks = (await posted(page)).filter((m) => m.type === 'modelWeight');
  assert.deepEqual(
    picks.map((m) => [m.sessionId, m.action, m.weight.name, m.weight.info.shape]),
    [
      [SESSION, 'inspect', 'hidden/kernel', [3, 4]],
      [SESSION, 'actions', 'out/bias', [2]],
    ],
  );

  // The next stop, while open: asked again; an error answer is said.
  await sendInvocation(page, SESSION, { ...cubeEvent, reason: 'step', description: 'Paused after step' });
  await page.waitForFunction(() => (window as unknown as { __posted: { type: string }[] }).__posted.filter((m) => m.type === 'modelInfo').length === 2);
  const second = (await modelRequests(page))[1]!;
  assert.notEqual(second.requestId, asked!.requestId);
  await sendHost(page, { type: 'modelInfo', requestId: second.requestId, error: 'no tf.LayersModel is reachable from this stop' });
  renders = await waitForModel(page, renders);
  assert.equal(await page.textContent('.model-view .problem'), 'No model: no tf.LayersModel is reachable from this stop');
  // A late answer to the first request changes nothing.
  await sendHost(page, { type: 'modelInfo', requestId: asked!.requestId, model: MODEL });
  assert.equal(await page.locator('.model-table').count(), 0);
  await assertClean(h, page);
});
