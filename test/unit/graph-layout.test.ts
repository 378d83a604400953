/**
 * The graph view's model: a converted model.json's top graph as nodes, inputs and callback marks;
 * name scopes and their collapsing; the dagre layout of what is visible; and the panel's reader.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { loadGraph } from '../../extension/graph-load.js';
import { layoutGraph } from '../../media/src/graph/layout.js';
import { graphFromModelJson, parseInput } from '../../media/src/graph/model.js';
import { ancestorsOf, buildScopes, scopeStatus } from '../../media/src/graph/scopes.js';
import { initialExpansion, openScopes, visibleGraph } from '../../media/src/graph/visible.js';
import { BIG_CALLBACK, bigModel, convertedModel, convertedModelPath } from '../webview/graph-fixtures.js';

test('parses inputs: data, output index, control', () => {
  assert.deepEqual(parseInput('a/b'), { node: 'a/b', output: 0, control: false });
  assert.deepEqual(parseInput('a/b:1'), { node: 'a/b', output: 1, control: false });
  assert.deepEqual(parseInput('^a/b'), { node: 'a/b', output: 0, control: true });
  assert.deepEqual(parseInput('a:b'), { node: 'a:b', output: 0, control: false }, 'only a numeric suffix is an output index');
});

test('reads a converted model: every node, its op and inputs, callback nodes marked', () => {
  const graph = graphFromModelJson(convertedModel('cond_callback'), 'cond_callback/model.json');
  assert.equal(graph.nodes.length, 17);
  assert.deepEqual(graph.warnings, []);
  const callbacks = graph.nodes.filter((n) => n.callback).map((n) => `${n.name} (${n.op})`);
  assert.deepEqual(callbacks, ['StatefulPartitionedCall/cond/then/_3/cond/double_np (PyFunc)']);
  const identity = graph.nodes.find((n) => n.name === 'Identity')!;
  assert.deepEqual(identity.inputs, [
    { node: 'StatefulPartitionedCall/cond/output/_9', output: 0, control: false },
    { node: 'StatefulPartitionedCall/cond/branch_executed/_10', output: 0, control: true },
  ]);
  const float64 = graphFromModelJson(convertedModel('float64'), 'float64');
  assert.deepEqual(
    float64.nodes.filter((n) => n.callback).map((n) => n.op),
    ['PyFunc', 'EagerPyFunc'],
  );
});

test('says what it left out, and refuses what is not a graph model', () => {
  const graph = graphFromModelJson(
    {
      modelTopology: {
        node: [
          { name: 'a', op: 'Placeholder' },
          { name: 'b', op: 'Neg', input: ['a', 'ghost:1'] },
          { name: 'a', op: 'Const' },
        ],
        library: { function: [{}, {}] },
      },
    },
    'm.json',
  );
  assert.deepEqual(
    graph.nodes.map((n) => [n.name, n.op, n.inputs.length]),
    [
      ['a', 'Placeholder', 0],
      ['b', 'Neg', 1],
    ],
  );
  assert.equal(graph.functions, 2);
  assert.match(graph.warnings.join('\n'), /'a' appears twice \(modelTopology\.node\[2\]\)/);
  assert.match(graph.warnings.join('\n'), /'b' has input 'ghost', which names no node/);
  assert.throws(
    () => graphFromModelJson({ modelTopology: { class_name: 'Sequential' } }, 'layers.json'),
    /layers.json: modelTopology\.node is missing.*layers model/,
  );
  assert.throws(() => graphFromModelJson([], 'x.json'), /model\.json is a list, not an object/);
  assert.throws(() => graphFromModelJson({ modelTopology: { node: [{ name: 'a' }] } }, 'x.json'), /modelTopology\.node\[0\] is not a node/);
  assert.throws(() => graphFromModelJson({ modelTopology: { node: [{ name: 'a', op: 'X', input: 'b' }] } }, 'x.json'), /node\[0\]\.input \(node 'a'\)/);
});

test('small graphs open fully expanded; scopes count their nodes and callbacks', () => {
  const graph = graphFromModelJson(convertedModel('cond_callback'), 'm');
  const tree = buildScopes(graph);
  assert.equal(tree.root.total, 17);
  assert.equal(tree.root.callbacks, 1);
  const visible = visibleGraph(graph, tree, openScopes(tree, initialExpansion(tree)).open);
  assert.equal(visible.items.length, 17, 'every node drawn');
  assert.ok(visible.items.every((i) => i.kind === 'node'));
  const nested = buildScopes({ nodes: ['a/b/c', 'a/x', 'a/b/y'].map((name) => ({ name, op: 'Relu', inputs: [], callback: false })) });
  assert.deepEqual(
    ancestorsOf(nested, 'a/b/c').map((s) => s.path),
    ['a', 'a/b'],
  );
});

test('a 1,001-node graph opens collapsed by whole scope levels within the box budget', () => {
  const graph = graphFromModelJson(bigModel(), 'big');
  assert.equal(graph.nodes.length, 1001);
  const tree = buildScopes(graph);
  const expanded = initialExpansion(tree);
  // x + model: 2 boxes; model's 20 blocks: 21; all blocks' 10 layers each would be 201 > 150.
  assert.deepEqual(
    expanded.map((s) => s.path),
    ['model'],
  );
  const visible = visibleGraph(graph, tree, openScopes(tree, expanded).open);
  assert.equal(visible.items.length, 21);
  const block7 = visible.items.find((i) => i.kind === 'scope' && i.scope.path === 'model/block_7');
  assert.ok(block7?.kind === 'scope');
  assert.equal(block7.scope.total, 50);
  assert.equal(block7.scope.callbacks, 1);
  // Blocks chain one to the next: 19 block→block edges and x→block_0, each standing for one node edge.
  assert.equal(visible.edges.length, 20);
  assert.ok(visible.edges.every((e) => e.count === 1 && !e.control));
  // Expanding the callback's scopes draws it; its collapsed scope's status is the most telling one.
  const open = openScopes(tree, [...expanded, ...ancestorsOf(tree, BIG_CALLBACK)]);
  assert.deepEqual(open.heldBack, []);
  const more = visibleGraph(graph, tree, open.open);
  assert.equal(more.itemOf.get(BIG_CALLBACK), `n:${BIG_CALLBACK}`);
  const status = (name: string) => (name === BIG_CALLBACK ? 'paused' : name.startsWith('model/block_7/dense_0/') ? 'nan' : 'ran');
  assert.equal(scopeStatus(block7.scope, status), 'paused');
});

test('dagre lays out every visible item, top to bottom along the data flow', () => {
  const graph = graphFromModelJson(convertedModel('float64'), 'm');
  const tree = buildScopes(graph);
  const visible = visibleGraph(graph, tree, openScopes(tree, initialExpansion(tree)).open);
  const layout = layoutGraph(visible);
  assert.equal(layout.boxes.size, graph.nodes.length);
  for (const box of layout.boxes.values()) assert.ok(Number.isFinite(box.x) && Number.isFinite(box.y) && box.width > 0, box.item.id);
  const y = (name: string) => layout.boxes.get(`n:${name}`)!.y;
  assert.ok(y('x') < y('StatefulPartitionedCall/Cast'));
  assert.ok(y('StatefulPartitionedCall/log1p64') < y('StatefulPartitionedCall/cube_plus'));
  assert.equal(layout.routes.length, visible.edges.length);
  assert.ok(layout.routes.every((r) => r.points.length >= 2));
  assert.ok(layout.width > 0 && layout.height > 0);
});

test("the panel's reader: bounded, parsed, with the file named in every error", async () => {
  const loaded = await loadGraph(convertedModelPath('cond_callback'), 'cond_callback/model.json');
  assert.equal(loaded.graph.nodes.length, 17);
  assert.match(loaded.text, /double_np/);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'graph-load-'));
  const bad = path.join(dir, 'model.json');
  writeFileSync(bad, '{"modelTopology": ');
  await assert.rejects(loadGraph(bad, 'bad/model.json'), /bad\/model\.json is not valid JSON/);
  await assert.rejects(loadGraph(path.join(dir, 'none.json'), 'none.json'), /none\.json does not exist/);
  await assert.rejects(loadGraph(dir, 'dir'), /is a folder, not a regular file/);
});
