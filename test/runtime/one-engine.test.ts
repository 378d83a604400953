/**
 * One TensorFlow.js engine per process. A user's project has its own @tensorflow/tfjs (installed
 * by npm in a temp folder, not a stand-in); its programs, ESM and CommonJS, TypeScript and JS,
 * run through the built CLI (`tfjs-callbacks run`). The runtime and the program must share that
 * copy: no "kernel … already registered" / "Platform node has already been set" lines, no tfjs
 * banner, and the program's `tf.engine()` is the runtime's.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { tempDir } from '../fixtures/callback-models.js';
import { repoRoot, runNode } from '../fixtures/spawn.js';
import { projectWithOwnTfjs, SECOND_ENGINE } from '../helpers/projects.js';
import { BACKENDS } from '../helpers/backends.js';
import { nativeRoot } from '../../runtime/native/cache.js';

const cli = path.join(repoRoot, 'dist', 'runtime', 'cli', 'main.js');
const { dir: root, cleanup } = tempDir('one-engine-');
const project = path.join(root, 'my-project');
after(cleanup);

const esmBody = (ts: boolean) => `import * as tf from '@tensorflow/tfjs';
import { numpyFunction, selectBackend, tf as runtimeTf${ts ? ', type NdArray' : ''} } from 'tfjs-callback-debugger/runtime';
const report = await selectBackend();
const y = numpyFunction((a${ts ? ': NdArray' : ''}) => a.map((v) => v * 2), [tf.tensor([1, 2, 3])], 'float32');
console.log('ENGINE ' + JSON.stringify({ same: tf.engine() === runtimeTf.engine(), values: Array.from(y.dataSync()), backend: report.backend, inProject: tf.getBackend() === report.backend }));
`;
const cjsBody = (ts: boolean) => `const tf = require('@tensorflow/tfjs');
const { numpyFunction, selectBackend, tf: runtimeTf } = require('tfjs-callback-debugger/runtime');
(async () => {
  const report = await selectBackend();
  const y = numpyFunction((a${ts ? ': { map(f: (v: number) => number): unknown }' : ''}) => a.map((v) => v * 2), [tf.tensor([1, 2, 3])], 'float32');
  console.log('ENGINE ' + JSON.stringify({ same: tf.engine() === runtimeTf.engine(), values: Array.from(y.dataSync()), backend: report.backend, inProject: tf.getBackend() === report.backend }));
})();
`;
const PROGRAMS: Record<string, string> = {
  'main.mts': esmBody(true),
  'main.mjs': esmBody(false),
  'main.cts': cjsBody(true),
  'main.cjs': cjsBody(false),
};

before(() => {
  projectWithOwnTfjs(project); // npm init's default: CommonJS (.mts/.mjs are ESM by extension)
  for (const [file, text] of Object.entries(PROGRAMS)) fs.writeFileSync(path.join(project, file), text);
  assert.ok(fs.existsSync(path.join(project, 'node_modules', '@tensorflow', 'tfjs-core', 'package.json')), 'the project has its own tfjs-core');
  assert.ok(fs.existsSync(cli), `${cli} is built (npm run build)`);
  // A converted model with a TypeScript callbacks module that makes NdArrays, in this CommonJS project.
  const converted = path.join(repoRoot, 'test', 'fixtures', 'tf-converted', 'multi_out_numpy');
  fs.mkdirSync(path.join(project, 'model'));
  for (const file of ['model.json', 'group1-shard1of1.bin', 'callbacks.ts']) fs.copyFileSync(path.join(converted, file), path.join(project, 'model', file));
});

describe('a project with its own @tensorflow/tfjs, through the CLI', { timeout: 120_000 }, () => {
  for (const [file, label] of [
    ['main.mts', 'ESM TypeScript'],
    ['main.mjs', 'ESM JavaScript'],
    ['main.cts', 'CommonJS TypeScript'],
    ['main.cjs', 'CommonJS JavaScript'],
  ] as const) {
    for (const backend of BACKENDS) {
      test(`${label} (${file}) on ${backend}: one engine, the project's; no second-copy lines`, () => {
        // On tensorflow: setup-native's tfjs-node registers its backend in the project's engine.
        const env = backend === 'tensorflow' ? { TFJS_CALLBACKS_NATIVE_DIR: nativeRoot() } : {};
        const run = runNode([cli, 'run', file, '--backend', backend], { cwd: project, timeoutMs: 60_000, env });
        const output = `${run.stdout}\n${run.stderr}`;
        assert.equal(run.status, 0, output);
        const line = run.stdout.split('\n').find((l) => l.startsWith('ENGINE '));
        assert.ok(line, output);
        assert.deepEqual(JSON.parse(line.slice('ENGINE '.length)), { same: true, values: [2, 4, 6], backend, inProject: true });
        const noise = output.split('\n').filter((l) => SECOND_ENGINE.test(l));
        assert.deepEqual(noise, [], `${noise.length} second-engine lines`);
        const callLine = PROGRAMS[file]!.split('\n').findIndex((l) => l.includes('numpyFunction(')) + 1;
        assert.match(run.stdout, new RegExp(`✓ pyfunc_0 \\[PyFunc\\] in float32\\[3\\] → out float32\\[3\\].*${file.replace('.', '\\.')}:${callLine}:`));
      });
    }
  }

  test('Run Graph on a model.json with a TypeScript callbacks module (ES syntax in a CommonJS project): runs, one engine', () => {
    const run = runNode([cli, 'run', 'model/model.json', '--callbacks', 'model/callbacks.ts', '--backend', 'cpu'], { cwd: project, timeoutMs: 60_000 });
    const output = `${run.stdout}\n${run.stderr}`;
    assert.equal(run.status, 0, output);
    assert.match(
      run.stdout,
      /✓ model › StatefulPartitionedCall\/softmax_argmax \(softmax_argmax_np\) \[PyFunc\] in float32\[1,4\] → out float32\[1,4\], int32\[1\]/,
    );
    assert.deepEqual(
      output.split('\n').filter((l) => SECOND_ENGINE.test(l)),
      [],
    );
  });
});

describe('a project with no @tensorflow package of its own', { timeout: 120_000 }, () => {
  const bare = path.join(root, 'bare');

  before(() => {
    fs.mkdirSync(bare, { recursive: true });
    fs.writeFileSync(path.join(bare, 'package.json'), JSON.stringify({ name: 'bare', version: '1.0.0', type: 'module' }));
    fs.writeFileSync(path.join(bare, 'own-import.ts'), esmBody(true));
    fs.writeFileSync(path.join(bare, 'native.cjs'), "require('@tensorflow/tfjs-node');\n");
    fs.writeFileSync(path.join(bare, 'native.mjs'), "import '@tensorflow/tfjs-node';\n");
  });

  test('its own import of @tensorflow/tfjs gets the copy shipped with the runtime: one engine', () => {
    const run = runNode([cli, 'run', 'own-import.ts', '--backend', 'cpu'], { cwd: bare, timeoutMs: 60_000 });
    assert.equal(run.status, 0, `${run.stdout}\n${run.stderr}`);
    const line = run.stdout.split('\n').find((l) => l.startsWith('ENGINE '))!;
    assert.deepEqual(JSON.parse(line.slice('ENGINE '.length)), { same: true, values: [2, 4, 6], backend: 'cpu', inProject: true });
  });

  for (const file of ['native.cjs', 'native.mjs']) {
    test(`${file}: requiring @tensorflow/tfjs-node that is not installed says what it is and how to get it`, () => {
      const run = runNode([cli, 'run', file, '--backend', 'cpu'], { cwd: bare, timeoutMs: 60_000 });
      assert.equal(run.status, 1);
      assert.match(
        run.stdout,
        /Cannot find module '@tensorflow\/tfjs-node': @tensorflow\/tfjs-node is not installed in .*bare \(nor shipped with tfjs-callback-debugger\)\. It is the native TensorFlow backend, which is optional: without it this program can run on wasm or cpu/,
      );
      assert.match(run.stdout, /npm install @tensorflow\/tfjs-node/);
    });
  }
});
