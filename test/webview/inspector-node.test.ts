/**
 * The tensor inspector showing a model node (the adapter's `graphNode` event, or a node clicked in
 * the graph view), in Chromium from the panel's real HTML and built script: its title, place in the
 * run, attrs and named inputs as text (a hostile name stays text), a live output's page fetched
 * with the node's `tensorData` arguments, the not-live note with summaries only, and the history
 * holding nodes beside invocations across a reload.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { GraphNodeEventBody, ValueInfo } from '../../debug-adapter/extension-protocol.js';
import type { WebviewMessage } from '../../media/src/protocol.js';
import { mismatchEvent, mismatchFixtures, SESSION, XSS } from './fixtures.js';
import {
  assertClean,
  gridCells,
  nodeFixtureKey,
  posted,
  screenshot,
  sendInvocation,
  sendNode,
  startHarness,
  waitForTensor,
  type Fixtures,
  type Harness,
} from './harness.js';

let h: Harness;

before(async () => {
  h = await startHarness();
});

after(async () => {
  await h?.close();
});

function info(dtype: string, shape: number[], extra: Partial<ValueInfo> = {}): ValueInfo {
  return { kind: 'Tensor', dtype, shape, size: shape.reduce((a, b) => a * b, 1), disposed: false, ...extra };
}

/** A stop after `dense/MatMul` ran: [4, 3] × [3, 2] → [4, 2], its output's values not in the summary. */
function matMulStop(live: boolean): GraphNodeEventBody {
  return {
    reason: 'breakpoint',
    description: "Paused after node dense/MatMul (MatMul): breakpoint 'MatMul'",
    node: {
      graph: 'mlp',
      modelPath: '/abs/mlp/model.json',
      node: 'dense/MatMul',
      op: 'MatMul',
      index: 4,
      inputNames: ['x', 'dense/kernel'],
      attrs: { transpose_a: false, transpose_b: false, T: 'float32', value: { dtype: 'float32', shape: [3, 2] } },
      inputs: [info('float32', [4, 3], { min: 0, max: 11, mean: 5.5, preview: [0, 1, 2] }), info('float32', [3, 2], { min: -1, max: 1, mean: 0 })],
      outputs: [info('float32', [4, 2], { min: 0, max: 70, mean: 35, nanCount: 0, infCount: 0, zeroCount: 1, preview: [0, 10] })],
      live,
      location: { file: '/abs/mlp/model.json', line: 40, column: 7, endLine: 40, endColumn: 28 },
    },
  };
}

const OUTPUT = Array.from({ length: 8 }, (_, i) => i * 10);
const liveFixtures: Fixtures = { [nodeFixtureKey(SESSION, 'mlp', 'dense/MatMul', 'outputs', 0)]: { info: matMulStop(true).node.outputs[0]!, values: OUTPUT } };

type DataRequest = Extract<WebviewMessage, { type: 'tensorData' }>;

async function dataRequests(page: import('playwright-core').Page): Promise<DataRequest[]> {
  return (await posted(page)).filter((m): m is DataRequest => m.type === 'tensorData');
}

test("a live node: title, place in the run, attrs, inputs by name; its output's page fetched with the node's tensorData arguments", async () => {
  const page = await h.open(liveFixtures);
  await sendNode(page, SESSION, matMulStop(true));
  await waitForTensor(page);
  assert.equal(await page.textContent('header .node-name'), 'mlp › dense/MatMul (MatMul)');
  const facts = (await page.textContent('header .facts')) ?? '';
  assert.match(facts, /in its runnode 5model/, 'index 4 is the 5th node of its run');
  assert.match(facts, /model\.json:40/);
  const attrs = await page.$$eval('table.attrs tr', (trs) => trs.map((tr) => [tr.querySelector('th')?.textContent, tr.querySelector('td')?.textContent]));
  assert.deepEqual(attrs, [
    ['transpose_a', 'false'],
    ['transpose_b', 'false'],
    ['T', 'float32'],
    ['value', 'tensor float32 [3, 2]'],
  ]);
  const names = await page.$$eval('table.summary tr.tensor-row td[data-col="name"]', (tds) => tds.map((td) => td.textContent));
  assert.deepEqual(names, ['x', 'dense/kernel', 'output 0']);
  assert.equal(await page.locator('.banner.not-live').count(), 0, 'no not-live note at a live stop');
  // The output is selected and its values beyond the preview are asked of the paused node.
  const requests = await dataRequests(page);
  assert.ok(requests.length > 0, 'a page was fetched');
  for (const r of requests) {
    const { requestId: _, ...args } = r;
    assert.deepEqual(args, { type: 'tensorData', sessionId: SESSION, graph: 'mlp', node: 'dense/MatMul', side: 'outputs', index: 0, start: 0, count: 8 });
  }
  assert.deepEqual(await gridCells(page), [
    ['0', '10'],
    ['20', '30'],
    ['40', '50'],
    ['60', '70'],
  ]);
  await screenshot(page, 'inspector-node-live.png');
  await assertClean(h, page);
});

test('a node that is not live: summaries only, the one-line note, nothing fetched', async () => {
  const page = await h.open(liveFixtures);
  await sendNode(page, SESSION, { ...matMulStop(false), reason: 'graph view', description: 'shown from the graph view' }, false);
  await waitForTensor(page);
  assert.match((await page.textContent('.banner.not-live')) ?? '', /tfjs freed these tensors after their last use; the summaries were taken when the node ran/);
  assert.equal(await page.locator('.banner.stale:not(.not-live)').count(), 0, 'not the "program moved on" banner as well');
  assert.deepEqual(await dataRequests(page), [], 'no tensorData for a freed tensor');
  const cells = await gridCells(page);
  assert.deepEqual(cells[0], ['0', '10'], 'the preview is shown');
  assert.match((await page.textContent('.tensor-view .problem')) ?? '', /tfjs freed this tensor/);
  assert.match((await page.textContent('table.summary')) ?? '', /70/, 'the summary is shown');
  await screenshot(page, 'inspector-node-not-live.png');
  await assertClean(h, page);
});

test('names, ops and attrs from the model file stay text', async () => {
  const page = await h.open();
  const stop = matMulStop(false);
  await sendNode(
    page,
    SESSION,
    {
      ...stop,
      description: XSS,
      node: { ...stop.node, graph: XSS, node: XSS, op: `<script>alert(2)</script>`, inputNames: [XSS, 'b'], attrs: { [XSS]: XSS, list: [XSS, 1] } },
    },
    false,
  );
  await page.waitForSelector('header .node-name');
  assert.equal(await page.textContent('header .node-name'), `${XSS} › ${XSS} (<script>alert(2)</script>)`);
  assert.equal(await page.textContent('table.attrs th'), XSS);
  assert.equal(await page.textContent('table.summary td[data-col="name"]'), XSS);
  assert.equal(await page.textContent('.history-name'), `${XSS} › ${XSS} (<script>alert(2)</script>)`);
  assert.equal(await page.$$eval('img', (els) => els.length), 0, 'no element made from a name');
  assert.equal(await page.$$eval('script:not([nonce])', (els) => els.length), 0);
  await assertClean(h, page);
});

test('the history holds nodes beside invocations; a later stop marks the node no longer live; both survive a reload', async () => {
  const page = await h.open({ ...liveFixtures, ...mismatchFixtures });
  await sendNode(page, SESSION, matMulStop(true));
  await waitForTensor(page);
  await sendInvocation(page, SESSION, mismatchEvent);
  await page.waitForFunction(() => document.querySelectorAll('.history-item').length === 2);
  const items = await page.$$eval('.history-item', (els) =>
    els.map((e) => [e.querySelector('.history-name')?.textContent, e.querySelector('.badge.live') !== null]),
  );
  assert.deepEqual(items, [
    ['standardize › standardize/normalize', true],
    ['mlp › dense/MatMul (MatMul)', false],
  ]);
  await page.reload();
  await page.waitForSelector('.history-item');
  await page.click('.history-item:nth-child(2)');
  await page.waitForFunction(() => document.querySelector('header .node-name')?.textContent === 'mlp › dense/MatMul (MatMul)');
  // The program moved on: the node's values can no longer be fetched.
  assert.match((await page.textContent('.banner.moved-on')) ?? '', /The program has moved on from this node/);
  await assertClean(h, page);
});
