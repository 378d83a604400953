/**
 * The graph view webview in Chromium, from the panel's real HTML (strict CSP with a nonce) and the
 * real built script and stylesheet: a converted model drawn with every node and its callback
 * marked, hostile names as text, statuses, the paused node followed, clicks posted, and a
 * 1,001-node model collapsed by scope (its first render timed, not asserted).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import type { GraphRunRecord } from '../../debug-adapter/extension-protocol.js';
import { statusUpdatesOfRun } from '../../extension/graph-run-status.js';
import { graphFromModelJson } from '../../media/src/graph/model.js';
import { BIG_CALLBACK, bigModel, convertedModel, hostileModel, XSS_NAME } from './graph-fixtures.js';
import { graphPosted, sendGraphHost, startGraphHarness, waitForRender, type GraphHarness } from './graph-harness.js';
import { artifactsDir, cspViolations } from './harness.js';

let h: GraphHarness;

before(async () => {
  h = await startGraphHarness();
});

after(async () => {
  await h?.close();
});

const COND_CALLBACK = 'StatefulPartitionedCall/cond/then/_3/cond/double_np';

async function showModel(page: Page, json: unknown, title: string): Promise<number> {
  const renders = await page.evaluate(() => Number(document.getElementById('graph-app')?.dataset.renders ?? 0));
  await sendGraphHost(page, { type: 'graph', graph: graphFromModelJson(json, title) });
  return waitForRender(page, renders);
}

/** The drawn boxes: node name (or `scope:path`) → classes and texts. */
async function boxes(page: Page): Promise<Map<string, { cls: string; texts: string[]; status: string }>> {
  const rows = await page.$$eval('g.item', (gs) =>
    gs.map((g) => ({
      key: (g as SVGGElement).dataset.node ?? `scope:${(g as SVGGElement).dataset.scope}`,
      cls: g.getAttribute('class') ?? '',
      status: (g as SVGGElement).dataset.status ?? '',
      texts: Array.from(g.querySelectorAll('text'), (t) => t.textContent ?? ''),
    })),
  );
  return new Map(rows.map((r) => [r.key, r]));
}

/** Clicks the box of a node or scope, found by its data attribute (no selector built from a model's text). */
async function clickBox(page: Page, attr: 'node' | 'scope', value: string): Promise<void> {
  const handle = await page.evaluateHandle(([a, v]) => Array.from(document.querySelectorAll<SVGGElement>('g.item')).find((g) => g.dataset[a as 'node'] === v), [
    attr,
    value,
  ] as const);
  const el = handle.asElement();
  assert.ok(el, `a box with data-${attr} ${value}`);
  await el.click();
}

async function assertClean(page: Page): Promise<void> {
  const p = h.problems(page);
  assert.deepEqual(p.pageErrors, [], 'no uncaught errors');
  assert.deepEqual(p.consoleErrors, [], 'no console errors');
  assert.deepEqual(p.dialogs, [], 'no dialogs');
  assert.deepEqual(await cspViolations(page), [], 'no CSP violations');
}

async function shot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(artifactsDir, { recursive: true });
  await page.screenshot({ path: path.join(artifactsDir, name) });
}

test('draws a converted model: every node with its op, the callback node marked, edges for inputs', async () => {
  const page = await h.open();
  assert.deepEqual((await graphPosted(page))[0], { type: 'ready' });
  const model = convertedModel('cond_callback');
  await showModel(page, model, 'cond_callback/model.json');
  const drawn = await boxes(page);
  assert.deepEqual([...drawn.keys()].sort(), model.modelTopology.node.map((n) => n.name).sort());
  for (const n of model.modelTopology.node) assert.equal(drawn.get(n.name)!.texts[0], n.op, `${n.name} shows its op`);
  const callbacks = [...drawn].filter(([, b]) => /\bcallback\b/.test(b.cls)).map(([name, b]) => [name, b.texts]);
  assert.deepEqual(callbacks, [[COND_CALLBACK, ['PyFunc', 'double_np', 'callback']]]);
  // One edge per distinct producer → consumer pair; control inputs dashed.
  const edges = await page.$$eval('path.edge', (ps) => ps.map((p) => p.getAttribute('class')));
  assert.equal(edges.length, 23);
  assert.equal(edges.filter((c) => c === 'edge control').length, 6);
  assert.match((await page.textContent('.counts')) ?? '', /17 nodes · all shown/);
  await shot(page, 'graph-cond-callback.png');
  await assertClean(page);
});

test('renders hostile node names and ops as text', async () => {
  const page = await h.open();
  await showModel(page, hostileModel(), 'hostile/model.json');
  const drawn = await boxes(page);
  assert.deepEqual(drawn.get(XSS_NAME)?.texts, ['<script>alert(2)</script>', XSS_NAME]);
  assert.equal(await page.$$eval('img, script:not([src]):not([nonce])', (els) => els.length), 0, 'no element made from a name');
  await clickBox(page, 'node', XSS_NAME);
  assert.equal(await page.textContent('.detail-name'), XSS_NAME);
  assert.equal(await page.$$eval('.details img', (els) => els.length), 0);
  await assertClean(page);
});

test('colours nodes by status; the paused node is highlighted, one at a time; reset starts a new run', async () => {
  const page = await h.open();
  await showModel(page, convertedModel('float64'), 'float64/model.json');
  let drawn = await boxes(page);
  // Before any run: inputs and constants are given (they never run as ops), every other node not run.
  const graph = graphFromModelJson(convertedModel('float64'), 'float64/model.json');
  const given = new Set(graph.nodes.filter((n) => ['Placeholder', 'Const'].includes(n.op)).map((n) => n.name));
  assert.ok(given.has('x'), 'the model has its input x');
  for (const [key, box] of drawn) {
    if (!key.startsWith('scope:')) assert.equal(box.status, given.has(key) ? 'given' : 'not-run', key);
  }
  assert.match(drawn.get('x')!.cls, /status-given/);
  await clickBox(page, 'node', 'x');
  assert.equal(await page.textContent('.detail-status'), 'input');
  await sendGraphHost(page, {
    type: 'status',
    updates: [
      { node: 'x', status: 'ran' },
      { node: 'StatefulPartitionedCall/Cast', status: 'ran' },
      { node: 'StatefulPartitionedCall/log1p64', status: 'nan' },
      { node: 'StatefulPartitionedCall/cube_plus', status: 'paused' },
      { node: 'no such node', status: 'ran' },
    ],
  });
  await page.waitForFunction(() => document.getElementById('graph-app')?.dataset.paused === 'StatefulPartitionedCall/cube_plus');
  drawn = await boxes(page);
  assert.match(drawn.get('x')!.cls, /status-ran/);
  assert.match(drawn.get('StatefulPartitionedCall/log1p64')!.cls, /status-nan/);
  assert.match(drawn.get('StatefulPartitionedCall/cube_plus')!.cls, /status-paused/);
  assert.match(drawn.get('Identity')!.cls, /status-not-run/);
  // The status is a colour the user sees, not only a class.
  const fill = (name: string) =>
    page.evaluate((n) => {
      const g = Array.from(document.querySelectorAll<SVGGElement>('g.item')).find((e) => e.dataset.node === n)!;
      return getComputedStyle(g.querySelector('rect.frame')!).fill;
    }, name);
  assert.notEqual(await fill('StatefulPartitionedCall/log1p64'), await fill('Identity'));
  assert.notEqual(await fill('StatefulPartitionedCall/cube_plus'), await fill('x'));
  await shot(page, 'graph-status.png');
  // A new pause moves the highlight: the last paused node has run.
  await sendGraphHost(page, { type: 'status', updates: [{ node: 'Identity_1', status: 'paused' }] });
  await page.waitForFunction(() => document.getElementById('graph-app')?.dataset.paused === 'Identity_1');
  drawn = await boxes(page);
  assert.match(drawn.get('StatefulPartitionedCall/cube_plus')!.cls, /status-ran/);
  assert.equal([...drawn.values()].filter((b) => b.status === 'paused').length, 1);
  await sendGraphHost(page, { type: 'status', updates: [{ node: 'x', status: 'ran' }], reset: true });
  await page.waitForFunction(() => document.getElementById('graph-app')?.dataset.paused === '');
  drawn = await boxes(page);
  assert.deepEqual(
    [...drawn].filter(([, b]) => b.status !== 'not-run').map(([n]) => n),
    ['x'],
  );
  await assertClean(page);
});

test('clicking a node posts nodeClicked and shows it; "Break on this node" and "Break on every <op>" on every node', async () => {
  const page = await h.open();
  await showModel(page, convertedModel('cond_callback'), 'cond_callback/model.json');
  await clickBox(page, 'node', 'StatefulPartitionedCall/Sum');
  assert.deepEqual((await graphPosted(page)).at(-1), { type: 'nodeClicked', node: 'StatefulPartitionedCall/Sum' });
  assert.match((await page.textContent('.details')) ?? '', /inputs: x, StatefulPartitionedCall\/Const/);
  await page.click('.details [data-action="break"]');
  assert.deepEqual((await graphPosted(page)).at(-1), { type: 'breakOnNode', node: 'StatefulPartitionedCall/Sum' });
  assert.equal(await page.textContent('.details [data-action="break-op"]'), 'Break on every Sum');
  await page.click('.details [data-action="break-op"]');
  assert.deepEqual((await graphPosted(page)).at(-1), { type: 'breakOnOp', op: 'Sum' });
  await clickBox(page, 'node', COND_CALLBACK);
  assert.deepEqual((await graphPosted(page)).at(-1), { type: 'nodeClicked', node: COND_CALLBACK });
  await page.click('.details [data-action="break"]');
  assert.deepEqual((await graphPosted(page)).at(-1), { type: 'breakOnNode', node: COND_CALLBACK });
  await page.click('.details [data-action="break-op"]');
  assert.deepEqual((await graphPosted(page)).at(-1), { type: 'breakOnOp', op: 'PyFunc' });
  await shot(page, 'graph-break-buttons.png');
  await assertClean(page);
});

test('applies a graphRun as the panel maps it: listed nodes ran or NaN, the rest not run, the paused node followed; a notice line', async () => {
  const page = await h.open();
  await showModel(page, bigModel(), 'generated/model.json');
  const first: GraphRunRecord = {
    graph: 'generated',
    nodes: [
      { node: 'x', status: 'ran' },
      { node: 'model/block_0/dense_0/MatMul', status: 'ran' },
      { node: 'model/block_2/dense_1/MatMul', status: 'nan' },
    ],
    paused: 'model/block_2/dense_1/MatMul',
  };
  await sendGraphHost(page, { type: 'status', updates: statusUpdatesOfRun(first), reset: true });
  await page.waitForFunction(() => document.getElementById('graph-app')?.dataset.paused === 'model/block_2/dense_1/MatMul');
  let drawn = await boxes(page);
  assert.match(drawn.get('model/block_2/dense_1/MatMul')!.cls, /status-paused/, 'the paused node is drawn (its scopes opened) and paused');
  assert.match(drawn.get('scope:model/block_0')!.cls, /status-ran/);
  assert.match(drawn.get('scope:model/block_9')!.cls, /status-not-run/);
  await shot(page, 'graph-run-paused.png');
  // The next stop's run replaces the statuses: what it does not list is not run, and the highlight follows.
  const second: GraphRunRecord = { graph: 'generated', nodes: [{ node: 'x', status: 'ran' }], paused: 'model/block_9/dense_9/MatMul' };
  await sendGraphHost(page, { type: 'status', updates: statusUpdatesOfRun(second), reset: true });
  await page.waitForFunction(() => document.getElementById('graph-app')?.dataset.paused === 'model/block_9/dense_9/MatMul');
  drawn = await boxes(page);
  assert.match(drawn.get('model/block_9/dense_9/MatMul')!.cls, /status-paused/);
  assert.match(drawn.get('model/block_2/dense_1/MatMul')?.cls ?? drawn.get('scope:model/block_2')!.cls, /status-not-run/);
  const box = await page.evaluate(() => {
    const g = Array.from(document.querySelectorAll<SVGGElement>('g.item')).find((e) => e.dataset.node === 'model/block_9/dense_9/MatMul')!;
    const r = g.getBoundingClientRect();
    const s = document.querySelector('svg.graph')!.getBoundingClientRect();
    return r.left >= s.left && r.right <= s.right && r.top >= s.top && r.bottom <= s.bottom;
  });
  assert.ok(box, 'the newly paused node is scrolled into view');
  // A notice (another model paused, a session ended) is a text line; empty hides it.
  assert.equal(await page.isVisible('.notice'), false);
  await sendGraphHost(page, { type: 'notice', text: `Paused in another model: ${XSS_NAME}` });
  assert.equal(await page.textContent('.notice'), `Paused in another model: ${XSS_NAME}`);
  assert.equal(await page.isVisible('.notice'), true);
  assert.equal(await page.$$eval('img', (els) => els.length), 0);
  await sendGraphHost(page, { type: 'notice', text: '' });
  assert.equal(await page.isVisible('.notice'), false);
  await assertClean(page);
});

test('a 1,001-node model opens collapsed by scope, expands on click, and follows the paused node', async () => {
  const page = await h.open();
  const graph = graphFromModelJson(bigModel(), 'generated/model.json');
  const started = performance.now();
  await sendGraphHost(page, { type: 'graph', graph });
  const renders = await waitForRender(page);
  const wall = performance.now() - started;
  const timing = await page.evaluate(() => ({ ...document.getElementById('graph-app')!.dataset }));
  // Measured, not asserted (issue 13 targets ≤ 500 ms): reported by the test run. In the page: from
  // the message to the frame after it was drawn; the test's wall clock adds the CDP round trips.
  console.log(
    `graph view first render, 1,001 nodes (21 boxes): ${timing.shownMs} ms message to frame (layout ${timing.layoutMs} ms, ` +
      `layout + draw ${timing.renderMs} ms); ${wall.toFixed(0)} ms as the test saw it`,
  );
  let drawn = await boxes(page);
  assert.equal(drawn.size, 21);
  assert.ok(drawn.has('x'));
  assert.deepEqual(drawn.get('scope:model/block_7')!.texts, ['▸ block_7', '50 nodes · 1 callback']);
  assert.match(drawn.get('scope:model/block_7')!.cls, /callback/);
  assert.match((await page.textContent('.counts')) ?? '', /1001 nodes · 21 boxes/);
  await shot(page, 'graph-1000-collapsed.png');

  await clickBox(page, 'scope', 'model/block_3');
  await waitForRender(page, renders);
  drawn = await boxes(page);
  assert.equal(drawn.size, 30);
  assert.ok(drawn.has('scope:model/block_3/dense_0'));
  assert.ok(!drawn.has('scope:model/block_3'));
  assert.equal((await graphPosted(page)).filter((m) => m.type === 'nodeClicked').length, 0, 'a scope click is not a node click');

  // A pause deep inside a collapsed scope opens its scopes and brings the node to the middle.
  await sendGraphHost(page, {
    type: 'status',
    updates: [
      { node: 'model/block_0/dense_0/MatMul', status: 'ran' },
      { node: BIG_CALLBACK, status: 'paused' },
    ],
  });
  await page.waitForFunction((n) => document.getElementById('graph-app')?.dataset.paused === n, BIG_CALLBACK);
  drawn = await boxes(page);
  assert.match(drawn.get(BIG_CALLBACK)!.cls, /status-paused/);
  assert.match(drawn.get(BIG_CALLBACK)!.cls, /callback/);
  assert.match(drawn.get('scope:model/block_0')!.cls, /status-ran/, 'a collapsed scope shows its nodes’ status');
  const inView = await page.evaluate((n) => {
    const g = Array.from(document.querySelectorAll<SVGGElement>('g.item')).find((e) => e.dataset.node === n)!;
    const box = g.getBoundingClientRect();
    const svg = document.querySelector('svg.graph')!.getBoundingClientRect();
    return { box: [box.left, box.top, box.right, box.bottom], svg: [svg.left, svg.top, svg.right, svg.bottom] };
  }, BIG_CALLBACK);
  assert.ok(
    inView.box[0]! >= inView.svg[0]! && inView.box[1]! >= inView.svg[1]! && inView.box[2]! <= inView.svg[2]! && inView.box[3]! <= inView.svg[3]!,
    `the paused node is in view: ${JSON.stringify(inView)}`,
  );
  await shot(page, 'graph-1000-paused.png');
  await assertClean(page);
});

test('a reloaded view (hidden and shown again) keeps its expanded scopes and selection', async () => {
  const page = await h.open();
  let renders = await showModel(page, bigModel(), 'generated/model.json');
  await clickBox(page, 'scope', 'model/block_5');
  renders = await waitForRender(page, renders);
  await clickBox(page, 'node', 'x');
  await page.reload();
  await page.waitForFunction(() => (window as unknown as { __posted?: { type: string }[] }).__posted?.some((m) => m.type === 'ready'));
  await showModel(page, bigModel(), 'generated/model.json');
  const drawn = await boxes(page);
  assert.equal(drawn.size, 30);
  assert.ok(drawn.has('scope:model/block_5/dense_9'));
  assert.match(drawn.get('x')!.cls, /selected/);
  assert.equal(await page.textContent('.detail-name'), 'x');
  await assertClean(page);
});
