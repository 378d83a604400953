/**
 * The graph view's mapping of the adapter's `graphRun` records (extension/graph-run-status.ts):
 * the statuses a run gives, whether a run is of the model shown (real paths, or the folder's name
 * without a path), and what a click on a node can show.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import type { GraphRunRecord } from '../../debug-adapter/extension-protocol.js';
import { modelFolderName, planNodeClick, runIsOfModel, statusUpdatesOfRun, type ShownRun } from '../../extension/graph-run-status.js';

const RUN: GraphRunRecord = {
  graph: 'mlp',
  modelPath: '/abs/mlp/model.json',
  nodes: [
    { node: 'x', status: 'ran' },
    { node: 'dense/MatMul', status: 'ran' },
    { node: 'loss/Log', status: 'nan' },
  ],
  paused: 'loss/Log',
};

test('a run gives ran/NaN to the nodes it lists, in order, then paused to the node the program is at', () => {
  assert.deepEqual(statusUpdatesOfRun(RUN), [
    { node: 'x', status: 'ran' },
    { node: 'dense/MatMul', status: 'ran' },
    { node: 'loss/Log', status: 'nan' },
    { node: 'loss/Log', status: 'paused' },
  ]);
  assert.deepEqual(statusUpdatesOfRun({ graph: 'mlp', nodes: [{ node: 'x', status: 'ran' }] }), [{ node: 'x', status: 'ran' }], 'not paused in it: no paused');
  assert.deepEqual(statusUpdatesOfRun({ graph: 'mlp', nodes: [] }), [], 'an empty run leaves everything not run (sent with reset)');
});

test('a run is of the shown model when their real paths agree, or by the folder name when the run has no path', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'graph-run-'));
  mkdirSync(path.join(dir, 'mlp'));
  mkdirSync(path.join(dir, 'other'));
  const file = path.join(dir, 'mlp', 'model.json');
  writeFileSync(file, '{}');
  writeFileSync(path.join(dir, 'other', 'model.json'), '{}');
  symlinkSync(path.join(dir, 'mlp'), path.join(dir, 'linked'));
  const shown = { file };
  assert.equal(await runIsOfModel({ graph: 'anything', modelPath: file }, shown), true);
  assert.equal(await runIsOfModel({ graph: 'mlp', modelPath: path.join(dir, 'linked', 'model.json') }, shown), true, 'through a symlink');
  assert.equal(await runIsOfModel({ graph: 'mlp', modelPath: path.join(dir, 'mlp', '..', 'mlp', 'model.json') }, shown), true, 'with ..');
  assert.equal(await runIsOfModel({ graph: 'mlp', modelPath: path.join(dir, 'other', 'model.json') }, shown), false, 'same name, other file');
  assert.equal(await runIsOfModel({ graph: 'mlp', modelPath: path.join(dir, 'gone', 'model.json') }, shown), false, 'a path that is not there');
  assert.equal(await runIsOfModel({ graph: 'mlp' }, shown), true, 'no path: the folder name');
  assert.equal(await runIsOfModel({ graph: 'other' }, shown), false);
  assert.equal(modelFolderName(file), 'mlp');
});

test('a click shows tensors only while the session is stopped and the node ran in the run shown; else says why not', () => {
  const shown: ShownRun = { sessionId: 's1', run: RUN, stopped: true, ended: false };
  assert.deepEqual(planNodeClick('loss/Log', shown), { kind: 'inspect', sessionId: 's1', graph: 'mlp', paused: true });
  assert.deepEqual(planNodeClick('dense/MatMul', shown), { kind: 'inspect', sessionId: 's1', graph: 'mlp', paused: false });
  const why = (node: string, s: ShownRun | undefined) => {
    const plan = planNodeClick(node, s);
    assert.equal(plan.kind, 'reveal');
    return plan.kind === 'reveal' ? plan.why : '';
  };
  assert.match(why('dense/BiasAdd', shown), /did not run in the run shown/);
  assert.match(why('x', { ...shown, stopped: false }), /the program is running/);
  assert.match(why('x', { ...shown, ended: true }), /session of the run shown has ended/);
  assert.match(why('x', undefined), /no debug session has run this model/);
});
