/**
 * One TensorFlow.js engine under the debugger: a fresh project (npm init -y, its own
 * @tensorflow/tfjs, in a temp folder) debugged through the real adapter, a CommonJS and an ESM
 * program and a model with a TypeScript callbacks module. The program's tfjs is the runtime's, and
 * the Debug Console gets no "already registered" line.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { tempDir } from '../fixtures/callback-models.js';
import { root, THREAD, useDebugAdapter, withSession } from '../helpers/dap.js';
import { projectWithOwnTfjs, SECOND_ENGINE } from '../helpers/projects.js';

useDebugAdapter();
const { dir, cleanup } = tempDir('dap-one-engine-');
const project = path.join(dir, 'fresh');
after(cleanup);
const T = { timeout: 90_000 };

const PROGRAM = (
  require: boolean,
) => `${require ? "const tf = require('@tensorflow/tfjs');\nconst { numpyFunction, tf: runtimeTf } = require('tfjs-callback-debugger/runtime');" : "import * as tf from '@tensorflow/tfjs';\nimport { numpyFunction, tf as runtimeTf } from 'tfjs-callback-debugger/runtime';"}
function double(a) {
  return a.map((v) => v * 2);
}
const y = numpyFunction(double, [tf.tensor([1, 2, 3])], 'float32');
console.log('ENGINE same=' + (tf.engine() === runtimeTf.engine()) + ' values=' + Array.from(y.dataSync()).join(','));
`;

before(() => {
  projectWithOwnTfjs(project);
  fs.writeFileSync(path.join(project, 'main.cjs'), PROGRAM(true));
  fs.writeFileSync(path.join(project, 'main.mjs'), PROGRAM(false));
  const converted = path.join(root, 'test', 'fixtures', 'tf-converted', 'multi_out_numpy');
  fs.mkdirSync(path.join(project, 'model'));
  for (const file of ['model.json', 'group1-shard1of1.bin', 'callbacks.ts']) fs.copyFileSync(path.join(converted, file), path.join(project, 'model', file));
});

describe('debugging a project with its own @tensorflow/tfjs', () => {
  for (const file of ['main.cjs', 'main.mjs']) {
    test(`${file}: stops in the callback; one engine; no second-copy lines in the Debug Console`, T, () =>
      withSession(async (s) => {
        await s.launch({ program: path.join(project, file), cwd: project, breakOnCallbacks: ['double'] });
        const stop = await s.stopped();
        assert.equal(stop.body.reason, 'function breakpoint');
        // Every frame names its source; Node's own (an ES module's job `run`) by its node: URL,
        // subtle, with no file to open (it was "Unknown Source").
        const frames = await s.stack();
        const listed = frames.map((f) => `${f.name} @ ${f.source?.name}`).join('\n  ');
        assert.deepEqual(
          frames.filter((f) => !f.source?.name).map((f) => f.name),
          [],
          listed,
        );
        const internal = frames.filter((f) => f.source?.name?.startsWith('node:'));
        if (file === 'main.mjs') assert.ok(internal.length > 0, listed);
        for (const f of internal) {
          assert.equal(f.source?.path, undefined);
          assert.equal(f.presentationHint, 'subtle');
        }
        await s.dc.continueRequest({ threadId: THREAD });
        const exited = await s.terminated();
        assert.equal(exited?.body.exitCode, 0, s.output());
        assert.match(s.output('stdout'), /ENGINE same=true values=2,4,6/);
        assert.deepEqual(
          s
            .output()
            .split('\n')
            .filter((l) => SECOND_ENGINE.test(l)),
          [],
        );
      }),
    );
  }

  test('a model.json with a TypeScript callbacks module in this CommonJS project: stops in the callback, runs to the end', T, () =>
    withSession(async (s) => {
      await s.launch({
        model: path.join(project, 'model', 'model.json'),
        callbacks: path.join(project, 'model', 'callbacks.ts'),
        cwd: project,
        breakOnCallbacks: ['softmax_argmax'],
      });
      const stop = await s.stopped();
      assert.equal(stop.body.reason, 'function breakpoint');
      await s.dc.continueRequest({ threadId: THREAD });
      const exited = await s.terminated();
      assert.equal(exited?.body.exitCode, 0, s.output());
      assert.match(s.output('stdout'), /✓ model › StatefulPartitionedCall\/softmax_argmax/);
      assert.deepEqual(
        s
          .output()
          .split('\n')
          .filter((l) => SECOND_ENGINE.test(l)),
        [],
      );
    }),
  );
});
