/**
 * The graph view against graphs as large and as deep as a model or an export can hold (issue 28),
 * in Chromium from the panel's real HTML and built script (test/webview/graph-harness.ts). Before:
 * 5,000 and 20,000 top-level nodes named as tfFunction's export names them, and one name 10,000
 * scopes deep, threw "RangeError: Maximum call stack size exceeded" (dagre's and the scope tree's
 * recursion) and left the panel blank; a graph the view could not draw said nothing. Counts are
 * asserted (boxes drawn, nodes they stand for, lines shown), never durations.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import type { GraphData } from '../../media/src/graph-protocol.js';
import { graphFromModelJson } from '../../media/src/graph/model.js';
import { MAX_BOXES } from '../../media/src/graph/visible.js';
import { deepPath, deepScope, flatChain, staircase } from '../webview/graph-fixtures.js';
import { sendGraphHost, startGraphHarness, type GraphHarness } from '../webview/graph-harness.js';

let h: GraphHarness;

before(async () => {
  h = await startGraphHarness();
});

after(async () => {
  await h?.close();
});

interface Drawn {
  readonly node?: string;
  readonly scope?: string;
  readonly group?: string;
  readonly count: number;
  readonly status: string;
  readonly texts: string[];
}

/** The view's state after it took a message: 'ready' once drawn again, 'error' when it said it cannot; fails at once on a page error. */
async function settled(page: Page, renders: number): Promise<string> {
  for (let waited = 0; waited < 60_000; waited += 100) {
    const errors = h.problems(page).pageErrors;
    assert.deepEqual(errors, [], 'no uncaught errors in the page');
    const state = await page.evaluate(() => {
      const app = document.getElementById('graph-app')!;
      return app.dataset.state === 'error' || Number(app.dataset.renders ?? 0) > Number(app.dataset.before) ? app.dataset.state : undefined;
    });
    if (state) return state;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the view neither drew nor said why within 60 s (renders ${renders})`);
}

async function mark(page: Page): Promise<number> {
  return page.evaluate(() => {
    const app = document.getElementById('graph-app')!;
    app.dataset.before = app.dataset.renders ?? '0';
    return Number(app.dataset.before);
  });
}

async function show(page: Page, graph: GraphData): Promise<string> {
  const renders = await mark(page);
  await sendGraphHost(page, { type: 'graph', graph });
  return settled(page, renders);
}

async function drawn(page: Page): Promise<Drawn[]> {
  return page.$$eval('g.item', (gs) =>
    gs.map((g) => {
      const d = (g as SVGGElement).dataset;
      return {
        ...(d.node !== undefined ? { node: d.node } : {}),
        ...(d.scope !== undefined ? { scope: d.scope } : {}),
        ...(d.group !== undefined ? { group: d.group } : {}),
        count: d.node !== undefined ? 1 : Number(d.count),
        status: d.status ?? '',
        texts: Array.from(g.querySelectorAll('text'), (t) => t.textContent ?? ''),
      };
    }),
  );
}

/** Opens a box found by a data attribute's value as the keyboard does (focus, Enter: it may be out of view), then waits for the view to draw again. */
async function open(page: Page, attr: 'node' | 'scope' | 'group', value: string, redraws = true): Promise<void> {
  const renders = await mark(page);
  const handle = await page.evaluateHandle(([a, v]) => Array.from(document.querySelectorAll<SVGGElement>('g.item')).find((g) => g.dataset[a as 'node'] === v), [
    attr,
    value,
  ] as const);
  const el = handle.asElement();
  assert.ok(el, `a box with data-${attr} ${value.slice(0, 80)} among ${JSON.stringify((await drawn(page)).slice(0, 6))}`);
  await el.focus();
  await page.keyboard.press('Enter');
  if (redraws) assert.equal(await settled(page, renders), 'ready');
}

const total = (boxes: readonly Drawn[]) => boxes.reduce((sum, b) => sum + b.count, 0);

test('2,000, 5,000 and 20,000 flat nodes named as the export names them draw, in groups of consecutive nodes with counts', async () => {
  // x and n nodes: groups of 100 (of 10,000 past 10,000 items); one item left over is drawn as itself.
  for (const [count, boxes] of [
    [2_000, 21],
    [5_000, 51],
    [20_000, 3],
  ] as const) {
    const page = await h.open();
    assert.equal(await show(page, graphFromModelJson(flatChain(count), `flat-${count}/model.json`)), 'ready', `${count} nodes drawn`);
    const items = await drawn(page);
    assert.equal(items.length, boxes, `${count} nodes: boxes`);
    assert.equal(total(items), count + 1, `${count} nodes: the boxes stand for every node`);
    assert.deepEqual(items.find((b) => b.group === '1-100' || b.group === '1-10000')?.texts[0]?.startsWith('▸ 1–'), true);
    assert.match((await page.textContent('.counts')) ?? '', new RegExp(`^${count + 1} nodes · ${boxes} boxes$`));
    await page.close();
  }
});

test('20,000 flat nodes: groups open to groups, then nodes; past the box limit the least recently opened group closes again', async () => {
  const page = await h.open();
  await show(page, graphFromModelJson(flatChain(20_000), 'flat/model.json'));
  assert.deepEqual(
    (await drawn(page)).map((b) => [b.group ?? b.node, b.count, b.texts[1]]),
    [
      ['n19999_Mul', 1, 'n19999_Mul'],
      ['1-10000', 10_000, '10000 nodes'],
      ['10001-20000', 10_000, '10000 nodes'],
    ],
  );
  await open(page, 'group', '1-10000');
  let items = await drawn(page);
  assert.equal(items.length, 102);
  assert.equal(total(items), 20_001);
  await open(page, 'group', '1-100');
  items = await drawn(page);
  assert.equal(items.length, 201);
  assert.ok(items.some((b) => b.node === 'x') && items.some((b) => b.node === 'n98_Relu'));
  for (const group of ['101-200', '201-300', '301-400']) await open(page, 'group', group);
  assert.equal((await drawn(page)).length, 498);
  assert.equal(await page.isVisible('.limit'), false);
  await open(page, 'group', '401-500');
  items = await drawn(page);
  assert.ok(items.length <= MAX_BOXES, `${items.length} boxes`);
  assert.equal(total(items), 20_001);
  assert.ok(
    items.some((b) => b.group === '1-100'),
    'the first group opened is closed again',
  );
  assert.ok(
    items.some((b) => b.node === 'n498_Relu'),
    'the last one opened is open',
  );
  assert.equal(await page.isVisible('.limit'), true);
  assert.match((await page.textContent('.limit')) ?? '', new RegExp(`1 expanded scope\\(s\\) closed again: the view draws at most ${MAX_BOXES} boxes`));
  assert.deepEqual(h.problems(page).consoleErrors, []);
});

test('a name 10,000 scopes deep draws; collapsed, its one scope box counts the node and the levels', async () => {
  const page = await h.open();
  const name = `${deepPath(10_000)}/Relu`;
  assert.equal(await show(page, graphFromModelJson(deepScope(10_000), 'deep/model.json')), 'ready');
  assert.deepEqual(
    (await drawn(page)).map((b) => b.node),
    ['x', name],
  );
  await open(page, 'node', name, false);
  assert.equal(await page.textContent('.detail-name'), name);
  const renders = await mark(page);
  await page.click('[data-action="collapse"]');
  assert.equal(await settled(page, renders), 'ready');
  const items = await drawn(page);
  assert.deepEqual(
    items.map((b) => [b.node ?? b.scope?.length, b.count, b.texts]),
    [
      ['x', 1, ['Placeholder', 'x']],
      [deepPath(10_000).length, 1, ['▸ s0/s1/s2/s3/s4/s…s9997/s9998/s9999', '1 node · 10000 levels']],
    ],
  );
  assert.deepEqual(h.problems(page).consoleErrors, []);
});

test('2,000 nested scopes that cannot merge open within the budget; a pause at the deepest node is followed up to the box limit, and said', async () => {
  const page = await h.open();
  const graph = graphFromModelJson(staircase(2_000), 'stairs/model.json');
  assert.equal(await show(page, graph), 'ready');
  let items = await drawn(page);
  assert.ok(items.length <= 150, `${items.length} boxes`);
  assert.equal(total(items), 2_001);
  const deepest = graph.nodes.at(-1)!.name;
  const renders = await mark(page);
  await sendGraphHost(page, { type: 'status', updates: [{ node: deepest, status: 'paused' }] });
  assert.equal(await settled(page, renders), 'ready');
  items = await drawn(page);
  assert.equal(items.length, MAX_BOXES);
  assert.equal(total(items), 2_001);
  const paused = items.filter((b) => b.status === 'paused');
  assert.equal(paused.length, 1, 'one box stands for the paused node');
  assert.equal(paused[0]!.count, 2_001 - (MAX_BOXES - 1), 'the innermost scope drawn holds the rest');
  assert.match(
    (await page.textContent('.limit')) ?? '',
    /The paused node is inside '[a/]+', drawn collapsed: its 2000 enclosing scopes would draw more than 500 boxes/,
  );
  assert.deepEqual(h.problems(page).consoleErrors, []);
});

test('200,000 warnings (inputs naming no node) are listed as 20 and a count; the 200,000 nodes draw', async () => {
  const node = Array.from({ length: 200_000 }, (_, i) => ({ name: `n${i}`, op: 'Relu', input: [`ghost${i}`] }));
  const graph = graphFromModelJson({ modelTopology: { node } }, 'ghosts/model.json');
  assert.equal(graph.warnings.length, 200_000);
  const page = await h.open();
  assert.equal(await show(page, graph), 'ready');
  assert.equal(await page.locator('.warnings .warn').count(), 21);
  assert.equal(await page.textContent('.warnings .warn:last-child'), '… and 199980 more warnings like these.');
  assert.equal(total(await drawn(page)), 200_000);
});

test('a graph the view cannot draw says so in the panel, not a blank one', async () => {
  const page = await h.open();
  // Not what the panel sends (model.ts checks inputs), but what a bug in it or in the layout would look like.
  const broken = {
    title: 'broken/model.json',
    nodes: [{ name: 'a', op: 'Relu', inputs: null, callback: false }],
    functions: 0,
    warnings: [],
  } as unknown as GraphData;
  assert.equal(await show(page, broken), 'error');
  assert.match((await page.textContent('.warnings .error')) ?? '', /^This graph cannot be drawn \(.+\)\. Its 1 nodes are in the model\.json/);
  assert.equal(await page.isVisible('.warnings .error'), true);
  assert.deepEqual(h.problems(page).pageErrors, []);
  // The next graph draws as usual.
  assert.equal(await show(page, graphFromModelJson(flatChain(3), 'small/model.json')), 'ready');
  assert.equal((await drawn(page)).length, 4);
});
