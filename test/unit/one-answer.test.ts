/**
 * Facts the runtime, F5, the language server and package.json must agree on, each written once:
 * the backends, which files are models, and where a model's callbacks module is.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { BACKENDS, callbacksModuleFor, configurationForFile, type EditorContext } from '../../extension/config-resolution.js';
import { locateCallbacksModule } from '../../extension/server/callbacks-module.js';
import { isModelJson } from '../../extension/server/model-checks.js';
import { BACKEND_CHOICES } from '../../runtime/backend.js';
import { CALLBACKS_MODULE_NAMES, isModelJsonPath, isModelTarget } from '../../runtime/graph-model/model-path.js';
import { tempDir } from '../fixtures/callback-models.js';
import { repoRoot } from '../fixtures/spawn.js';

const { dir, cleanup } = tempDir('one-answer-');
after(cleanup);
const context: EditorContext = { workspaceFolder: dir, trusted: true, backend: 'auto' };

describe('the backend list', () => {
  test("package.json's launch and setting enums, and the extension's list, are the runtime's BACKEND_CHOICES", () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
    const launch = manifest.contributes.debuggers[0].configurationAttributes.launch.properties.backend.enum;
    const setting = manifest.contributes.configuration.properties['tfjsCallbacks.backend'].enum;
    assert.deepEqual(launch, [...BACKEND_CHOICES]);
    assert.deepEqual(setting, [...BACKEND_CHOICES]);
    assert.equal(BACKENDS, BACKEND_CHOICES);
  });
});

describe('is this a model.json?', () => {
  test('model.json and *.model.json are models, for F5 and the language server alike; other JSON is not', () => {
    for (const name of ['model.json', 'lonely.model.json', 'Model.JSON']) {
      const file = path.join(dir, name);
      assert.ok(isModelJsonPath(file), name);
      assert.ok(isModelJson(`file://${file}`, 'json'), `the language server: ${name}`);
      const f5 = configurationForFile(file, context);
      assert.ok('config' in f5 && f5.config.model === file, `F5: ${name}`);
    }
    for (const name of ['mymodel.json', 'model.json.bak', 'weights.json']) {
      const file = path.join(dir, name);
      assert.ok(!isModelJsonPath(file), name);
      assert.ok(!isModelJson(`file://${file}`, 'json'), `the language server: ${name}`);
      assert.ok('error' in configurationForFile(file, context), `F5: ${name}`);
    }
  });

  test('the CLI runs any JSON target it is given as a model (the user named it)', () => {
    assert.ok(isModelTarget('/m/weights.json'));
    assert.ok(!isModelTarget('/m/main.ts'));
  });
});

describe("a model's callbacks module", () => {
  for (const name of CALLBACKS_MODULE_NAMES) {
    test(`${name} beside the model: F5 and the language server find the same file`, () => {
      const folder = fs.mkdtempSync(path.join(dir, 'm-'));
      const model = path.join(folder, 'model.json');
      fs.writeFileSync(path.join(folder, name), 'export {};\n');
      const f5 = callbacksModuleFor(model, context);
      assert.equal(f5, path.join(folder, name));
      assert.deepEqual(locateCallbacksModule(model, undefined, dir), { file: f5, via: 'convention' });
    });
  }

  test('a blank setting is no setting, for both', () => {
    const folder = fs.mkdtempSync(path.join(dir, 'blank-'));
    const model = path.join(folder, 'model.json');
    fs.writeFileSync(path.join(folder, 'callbacks.ts'), 'export {};\n');
    assert.equal(callbacksModuleFor(model, { ...context, callbacksModule: '  ' }), path.join(folder, 'callbacks.ts'));
    assert.deepEqual(locateCallbacksModule(model, '  ', dir), { file: path.join(folder, 'callbacks.ts'), via: 'convention' });
  });
});
