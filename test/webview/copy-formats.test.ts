/**
 * The inspector's "NumPy" and "CSV" copy buttons (runtime/tensor-formats.ts) in Chromium, and a
 * data breakpoint stop shown as the inspector shows it (extension/data-breakpoint-node.ts): the
 * variable, its old value in and its new value and change out, each paged through tensorData.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import type { DataBreakpointEventBody } from '../../debug-adapter/extension-protocol.js';
import { dataBreakpointNode } from '../../extension/data-breakpoint-node.js';
import type { WebviewMessage } from '../../media/src/protocol.js';
import { cubeEvent, cubeFixtures, SESSION } from './fixtures.js';
import { assertClean, nodeFixtureKey, posted, sendInvocation, sendNode, startHarness, waitForTensor, type Harness } from './harness.js';

type Copy = Extract<WebviewMessage, { type: 'copy' }>;

let h: Harness;

before(async () => {
  h = await startHarness();
});

after(async () => {
  await h?.close();
});

async function copied(page: Page, n: number): Promise<Copy> {
  await page.waitForFunction((count) => (window as unknown as { __posted: { type: string }[] }).__posted.filter((m) => m.type === 'copy').length >= count, n);
  return (await posted(page)).filter((m): m is Copy => m.type === 'copy')[n - 1]!;
}

function info(dtype: string, shape: number[], values: number[]) {
  const finite = values.filter(Number.isFinite);
  return {
    kind: 'Tensor',
    dtype,
    shape,
    size: values.length,
    disposed: false,
    min: Math.min(...finite),
    max: Math.max(...finite),
    mean: finite.reduce((a, b) => a + b, 0) / finite.length,
    nanCount: 0,
    infCount: 0,
    zeroCount: 0,
    exact: true,
    counted: values.length,
    preview: values.slice(0, 2),
  };
}

test('NumPy copies a literal with its dtype; CSV refuses 3-D with a message, and copies 2-D rows', async () => {
  const page = await h.open(cubeFixtures);
  await sendInvocation(page, SESSION, cubeEvent);
  await waitForTensor(page);
  await page.click('button.copy-numpy');
  const numpy = await copied(page, 1);
  assert.equal(numpy.format, 'NumPy');
  assert.equal(numpy.text, 'np.array([[[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]], [[12, 13, 14, 15], [16, 17, 18, 19], [20, 21, 22, 23]]], dtype=np.int32)');
  assert.match((await page.textContent('.copy-status')) ?? '', /Copied 24 values as NumPy/);

  await page.click('button.copy-csv');
  await page.waitForFunction(() => document.querySelector('.copy-status.error') !== null);
  assert.match((await page.textContent('.copy-status')) ?? '', /CSV holds 1-D or 2-D tensors; .* is 3-D \(shape \[2, 3, 4\]\)/);
  assert.equal((await posted(page)).filter((m) => m.type === 'copy').length, 1, 'nothing copied');
  await assertClean(h, page);
});

test('a data breakpoint stop: old value in, new value and change out, copied as CSV', async () => {
  const hit = {
    ids: [1],
    variable: 'dense_w',
    dtype: 'float32',
    shape: [2, 2],
    old: info('float32', [2, 2], [1, 2, 3, 4]),
    new: info('float32', [2, 2], [0.9, 1.9, 2.9, 3.9]),
    change: info('float32', [2, 2], [-0.1, -0.1, -0.1, -0.1]),
    maxAbsChange: 0.1,
    why: 'assigned',
  };
  const body: DataBreakpointEventBody = {
    reason: 'data breakpoint',
    description: 'Paused on data breakpoint: dense_w assigned',
    hit,
    expressions: { old: 'o', new: 'n', change: 'c' },
  };
  const event = dataBreakpointNode(body);
  const { graph, node } = event.node;
  const page = await h.open({
    [nodeFixtureKey(SESSION, graph, node, 'inputs', 0)]: { info: hit.old, values: [1, 2, 3, 4] },
    [nodeFixtureKey(SESSION, graph, node, 'outputs', 0)]: { info: hit.new, values: [0.9, 1.9, 2.9, 3.9].map(Math.fround) },
    [nodeFixtureKey(SESSION, graph, node, 'outputs', 1)]: { info: hit.change, values: [-0.1, -0.1, -0.1, -0.1].map(Math.fround) },
  });
  await sendNode(page, SESSION, event);
  await page.waitForFunction(() => document.querySelector('.node-name')?.textContent?.includes('dense_w'));
  const text = (await page.textContent('body')) ?? '';
  assert.match(text, /AssignVariableOp/);
  assert.match(text, /old value/);
  await waitForTensor(page);
  await page.click('button.copy-csv');
  const csv = await copied(page, 1);
  assert.equal(csv.format, 'CSV');
  // Whichever tensor is selected first, it is one of the three, as rows of 2.
  assert.ok(['1.0,2.0\n3.0,4.0\n', '0.9,1.9\n2.9,3.9\n', '-0.1,-0.1\n-0.1,-0.1\n'].includes(csv.text), JSON.stringify(csv.text));
  await assertClean(h, page);
});
