/**
 * Hostile model files (issue 11): weight paths that leave the model's folder, weight files that are
 * not what the manifest declares, garbled model.json fields, cyclic graphs and callback nodes
 * without Tout. Each is a ModelFormatError naming the model.json, never a raw TypeError, a hang,
 * or a run that silently skips a callback.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadCallbackModel, ModelFormatError, selectBackend, tf } from '../../runtime/index.js';
import { findCallbackNodes } from '../../runtime/graph-model/callback-nodes.js';
import { sideEffectModel, tempDir, weightedModel } from '../fixtures/callback-models.js';

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'tf-converted');
const { dir: root, cleanup } = tempDir('hostile-model-files-');
after(cleanup);
before(async () => {
  await selectBackend({ backend: 'cpu', quiet: true });
});

/** A copy of a converted fixture in its own folder; returns its model.json. */
function copyFixture(name: string, as = name): string {
  const dir = path.join(root, as);
  fs.cpSync(path.join(fixtures, name), dir, { recursive: true });
  return path.join(dir, 'model.json');
}

function editJson(file: string, edit: (json: Record<string, any>) => void): void {
  const json = JSON.parse(fs.readFileSync(file, 'utf8'));
  edit(json);
  fs.writeFileSync(file, JSON.stringify(json));
}

async function rejectsWithModelFormatError(file: string, ...patterns: RegExp[]): Promise<ModelFormatError> {
  let caught: unknown;
  try {
    const model = await loadCallbackModel(file);
    model.dispose();
  } catch (err) {
    caught = err;
  }
  assert.ok(
    caught instanceof ModelFormatError,
    `expected a ModelFormatError, got ${caught === undefined ? 'a model that loaded' : `${(caught as Error).name}: ${(caught as Error).message}`}`,
  );
  assert.ok(caught.message.includes(file), `names the model.json: ${caught.message}`);
  for (const pattern of patterns) assert.match(caught.message, pattern);
  return caught;
}

describe('weight paths stay inside the model folder', () => {
  test('"../../etc/passwd" is refused, not loaded as weights', async () => {
    const file = copyFixture('multi_out_numpy', 'passwd');
    editJson(file, (json) => {
      json.weightsManifest[0].paths = ['../../../../../../../../etc/passwd'];
    });
    const err = await rejectsWithModelFormatError(file, /outside the model's folder/, /etc\/passwd/, /Keep the \.bin files in the model's folder/);
    assert.doesNotMatch(err.message, /root:/, 'no file content in the message');
  });

  test('"../dev/zero" (which grows without bound) is refused before it is read', async () => {
    const file = copyFixture('multi_out_numpy', 'dev-zero');
    const depth = path.dirname(file).split(path.sep).length;
    editJson(file, (json) => {
      json.weightsManifest[0].paths = [`${'../'.repeat(depth)}dev/zero`];
    });
    await rejectsWithModelFormatError(file, /resolves to \/dev\/zero, outside the model's folder/);
  });

  test('a symbolic link inside the folder that points out of it counts as outside', async () => {
    const file = copyFixture('multi_out_numpy', 'symlink-out');
    const outside = path.join(root, 'secret.bin');
    fs.writeFileSync(outside, Buffer.alloc(8));
    fs.symlinkSync(outside, path.join(path.dirname(file), 'linked.bin'));
    editJson(file, (json) => {
      json.weightsManifest[0].paths = ['linked.bin'];
    });
    await rejectsWithModelFormatError(file, /"linked\.bin"/, /through a symbolic link/, /secret\.bin/);
  });

  test('a symbolic link that stays inside the folder still loads', async () => {
    const file = copyFixture('multi_out_numpy', 'symlink-in');
    const dir = path.dirname(file);
    fs.renameSync(path.join(dir, 'group1-shard1of1.bin'), path.join(dir, 'real.bin'));
    fs.symlinkSync('real.bin', path.join(dir, 'group1-shard1of1.bin'));
    const model = await loadCallbackModel(file);
    model.dispose();
  });

  test('an absolute weight path is refused', async () => {
    const file = copyFixture('multi_out_numpy', 'absolute');
    const bin = path.join(path.dirname(file), 'group1-shard1of1.bin');
    editJson(file, (json) => {
      json.weightsManifest[0].paths = [bin];
    });
    await rejectsWithModelFormatError(file, /is an absolute path/);
  });

  test('a URL weight path is refused', async () => {
    const file = copyFixture('multi_out_numpy', 'url');
    editJson(file, (json) => {
      json.weightsManifest[0].paths = ['https://example.com/group1-shard1of1.bin'];
    });
    await rejectsWithModelFormatError(file, /is a URL/);
  });

  test('a FIFO as a weight file fails at once instead of blocking', async () => {
    const file = copyFixture('multi_out_numpy', 'fifo');
    const bin = path.join(path.dirname(file), 'group1-shard1of1.bin');
    fs.rmSync(bin);
    const { spawnSync } = await import('node:child_process');
    assert.equal(spawnSync('mkfifo', [bin]).status, 0);
    await rejectsWithModelFormatError(file, /named pipe/, /not a regular file/);
  });
});

describe('weight files hold what the manifest declares', () => {
  test('a shard larger than its weights declare is refused', async () => {
    const { file } = weightedModel(root, 'too-big');
    const bin = path.join(path.dirname(file), 'group1-shard1of1.bin');
    fs.appendFileSync(bin, Buffer.alloc(1024 * 1024));
    await rejectsWithModelFormatError(file, /larger than/, /declare/, /group1-shard1of1\.bin/);
  });

  test('a truncated shard is refused', async () => {
    const { file } = weightedModel(root, 'truncated');
    const bin = path.join(path.dirname(file), 'group1-shard1of1.bin');
    fs.truncateSync(bin, fs.statSync(bin).size - 4);
    await rejectsWithModelFormatError(file, /truncated/, /declare/);
  });

  test('the real converted models still load', async () => {
    for (const name of ['multi_out_numpy', 'cond_callback', 'float64', 'log_huber', 'sinh_square']) {
      const model = await loadCallbackModel(path.join(fixtures, name, 'model.json'));
      model.dispose();
    }
  });

  test('model.json itself must be a regular file of bounded size', async () => {
    const dir = path.join(root, 'json-fifo');
    fs.mkdirSync(dir);
    const file = path.join(dir, 'model.json');
    const { spawnSync } = await import('node:child_process');
    assert.equal(spawnSync('mkfifo', [file]).status, 0);
    await rejectsWithModelFormatError(file, /named pipe/);
  });
});

describe('graphs TF.js would run wrong', () => {
  test('a cycle of nodes (not through NextIteration) is a ModelFormatError naming the nodes on it', async () => {
    const file = copyFixture('sinh_square', 'cycle');
    let cycleNodes: string[] = [];
    editJson(file, (json) => {
      const nodes = json.modelTopology.node as { name: string; op: string; input?: string[] }[];
      const callback = nodes.find((n) => n.op === 'PyFunc')!;
      const consumer = nodes.find((n) => n.input?.includes(callback.name))!;
      callback.input = [...(callback.input ?? []), consumer.name];
      cycleNodes = [callback.name, consumer.name];
    });
    const err = await rejectsWithModelFormatError(file, /form a cycle/, /NextIteration/);
    for (const node of cycleNodes) assert.ok(err.message.includes(`'${node}'`), `names ${node}: ${err.message}`);
  });

  test('a callback node with no Tout attr is a ModelFormatError; Tout {"list": {}} (none) still loads', async () => {
    const withEmpty = sideEffectModel(root, 'tout-empty');
    const json = JSON.parse(fs.readFileSync(withEmpty, 'utf8'));
    const callback = json.modelTopology.node.find((n: { op: string }) => n.op === 'PyFunc');
    assert.deepEqual(callback.attr.Tout, { list: {} }, 'the converter writes Tout [] as {"list": {}}');
    (await loadCallbackModel(withEmpty)).dispose();

    const file = copyFixture('sinh_square', 'no-tout');
    editJson(file, (json) => {
      for (const n of json.modelTopology.node) if (n.op === 'PyFunc') delete n.attr.Tout;
    });
    await rejectsWithModelFormatError(file, /StatefulPartitionedCall\/PyFunc/, /Tout/, /is missing|no Tout/);
    assert.throws(() => findCallbackNodes(JSON.parse(fs.readFileSync(file, 'utf8'))), ModelFormatError, 'the language server gets the same error');
  });
});

/**
 * Every field of a real converted model.json deleted or replaced by null, a number, a string, a
 * list and an object: the model either loads or fails with a ModelFormatError naming the file.
 */
describe('garbled model.json fields', () => {
  const source = path.join(fixtures, 'multi_out_numpy');
  const original = JSON.parse(fs.readFileSync(path.join(source, 'model.json'), 'utf8'));
  const REPLACEMENTS: [string, unknown][] = [
    ['deleted', undefined],
    ['null', null],
    ['a number', 7],
    ['a string', 'x'],
    ['a list', [1]],
    ['an object', {}],
  ];

  function fieldPaths(value: unknown, at: (string | number)[] = []): (string | number)[][] {
    if (value === null || typeof value !== 'object') return [];
    const entries: [string | number, unknown][] = Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value);
    return entries.flatMap(([key, child]) => [[...at, key], ...fieldPaths(child, [...at, key])]);
  }

  function mutated(fieldPath: (string | number)[], replacement: unknown): unknown {
    const copy = structuredClone(original);
    let parent = copy;
    for (const key of fieldPath.slice(0, -1)) parent = parent[key];
    const last = fieldPath.at(-1)!;
    if (replacement === undefined) {
      if (Array.isArray(parent)) parent.splice(last as number, 1);
      else delete parent[last];
    } else parent[last] = replacement;
    return copy;
  }

  test('every failure is a ModelFormatError naming the file (and the field, where one is at fault)', async () => {
    const dir = path.join(root, 'fuzz');
    fs.cpSync(source, dir, { recursive: true });
    const file = path.join(dir, 'model.json');
    const wrong: string[] = [];
    let failures = 0;
    for (const fieldPath of fieldPaths(original)) {
      for (const [label, replacement] of REPLACEMENTS) {
        fs.writeFileSync(file, JSON.stringify(mutated(fieldPath, replacement)));
        const before = tf.memory().numTensors;
        try {
          const model = await loadCallbackModel(file);
          model.dispose();
        } catch (err) {
          failures++;
          const name = fieldPath.join('.');
          if (!(err instanceof ModelFormatError) || !err.message.includes(file))
            wrong.push(`${name} ${label}: ${(err as Error).name}: ${(err as Error).message}`);
        }
        const left = tf.memory().numTensors - before;
        if (left !== 0) wrong.push(`${fieldPath.join('.')} ${label}: left ${left} tensors behind`);
      }
    }
    assert.ok(failures > 100, `the mutations break the model (${failures} failed)`);
    assert.deepEqual(wrong, [], `${wrong.length} were not a ModelFormatError naming ${file}, or leaked:\n${wrong.slice(0, 20).join('\n')}`);
  });

  test('the message names the field at fault', async () => {
    const cases: [string, (json: any) => void, RegExp][] = [
      ['nodes not a list', (j) => (j.modelTopology.node = 5), /modelTopology\.node is the number 5, not a list of nodes/],
      ['a node without a name', (j) => delete j.modelTopology.node[2].name, /modelTopology\.node\[2\]\.name is missing/],
      ['a node without an op', (j) => delete j.modelTopology.node[2].op, /modelTopology\.node\[2\]\.op is missing/],
      [
        'an attr of the wrong type',
        (j) => (j.modelTopology.node[4].attr.T = 'DT_FLOAT'),
        /modelTopology\.node\[4\]\.attr\.T is the string "DT_FLOAT", not an AttrValue/,
      ],
      ['a weight entry without a shape', (j) => delete j.weightsManifest[0].weights[0].shape, /weightsManifest\[0\]\.weights\[0\]\.shape is missing/],
      ['weight paths not a list', (j) => (j.weightsManifest[0].paths = 'group1-shard1of1.bin'), /weightsManifest\[0\]\.paths is the string/],
      ['modelTopology missing', (j) => delete j.modelTopology, /has no modelTopology/],
    ];
    for (const [label, edit, pattern] of cases) {
      const file = copyFixture('multi_out_numpy', `field-${label.replace(/\W+/g, '-')}`);
      editJson(file, edit);
      await rejectsWithModelFormatError(file, pattern);
    }
  });
});
