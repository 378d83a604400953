/**
 * The language server starts for the documents it has something to say about, not for every
 * TypeScript, JavaScript or JSON file VS Code opens (extension/server-start.ts): a program that
 * imports the runtime, a model.json, a model's callbacks module (by convention beside the model,
 * or named by tfjsCallbacks.callbacksModule). Real folders for the convention's lookup.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { isModelJsonPath } from '../../runtime/graph-model/model-path.js';
import { isTfjsProject, needsLanguageServer, type OpenDocument, type Surroundings } from '../../extension/server-start.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'tfjs-cb-server-start-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const withModel = path.join(dir, 'model');
const plain = path.join(dir, 'plain');
mkdirSync(withModel);
mkdirSync(plain);
writeFileSync(path.join(withModel, 'model.json'), '{}');

const around: Surroundings = { holdsModel: (folder) => readdirSync(folder).some(isModelJsonPath) };
const doc = (fileName: string, text = '', languageId = fileName.endsWith('.json') ? 'json' : 'typescript', scheme = 'file'): OpenDocument => ({
  fileName,
  text,
  languageId,
  scheme,
});
const PROGRAM = "import { numpyFunction } from 'tfjs-callback-debugger/runtime';\n";

describe('which open document starts the language server', () => {
  test('a TS or JS file that imports (or requires) the runtime does; one that does not, does not', () => {
    assert.equal(needsLanguageServer(doc(path.join(plain, 'main.ts'), PROGRAM), around), true);
    assert.equal(needsLanguageServer(doc(path.join(plain, 'main.js'), "const rt = require('tfjs-callback-debugger/runtime');", 'javascript'), around), true);
    assert.equal(needsLanguageServer(doc(path.join(plain, 'app.ts'), "import * as tf from '@tensorflow/tfjs';"), around), false);
    assert.equal(needsLanguageServer(doc(path.join(plain, 'app.js'), 'console.log(1)', 'javascript'), around), false);
  });

  test('a model.json (or a *.model.json) does; any other JSON file does not', () => {
    assert.equal(needsLanguageServer(doc(path.join(plain, 'model.json'), '{}'), around), true);
    assert.equal(needsLanguageServer(doc(path.join(plain, 'encoder.model.json'), '{}'), around), true);
    for (const name of ['package.json', 'tsconfig.json', 'settings.json', 'weights_manifest.json']) {
      assert.equal(needsLanguageServer(doc(path.join(plain, name), '{}'), around), false, name);
    }
  });

  test("a callbacks module does without importing the runtime: by convention beside a model, or the setting's", () => {
    assert.equal(needsLanguageServer(doc(path.join(withModel, 'callbacks.ts'), 'export function f(x) { return x; }'), around), true);
    assert.equal(needsLanguageServer(doc(path.join(withModel, 'callbacks.mjs'), '', 'javascript'), around), true);
    assert.equal(needsLanguageServer(doc(path.join(plain, 'callbacks.ts'), ''), around), false, 'no model beside it');
    const configured = path.join(plain, 'my-bindings.ts');
    assert.equal(needsLanguageServer(doc(configured, ''), { ...around, callbacksModule: configured }), true);
    assert.equal(needsLanguageServer(doc(configured, ''), around), false);
  });

  test('a document not on disk or of another language does not', () => {
    assert.equal(needsLanguageServer(doc(path.join(plain, 'main.ts'), PROGRAM, 'typescript', 'untitled'), around), false);
    assert.equal(needsLanguageServer(doc(path.join(plain, 'model.json'), '{}', 'json', 'vscode-vfs'), around), false);
    assert.equal(needsLanguageServer(doc(path.join(plain, 'notes.md'), PROGRAM, 'markdown'), around), false);
  });
});

describe('a TF.js project, whose window starts the server before any file opens', () => {
  const project = (name: string, manifest: string | undefined, under = dir) => {
    const folder = path.join(under, name);
    mkdirSync(folder, { recursive: true });
    if (manifest !== undefined) writeFileSync(path.join(folder, 'package.json'), manifest);
    return folder;
  };
  const deps = (field: string, names: string[]) => JSON.stringify({ name: 'x', [field]: Object.fromEntries(names.map((n) => [n, '*'])) });

  test('its package.json depends on TF.js (any @tensorflow/tfjs package) or the runtime, in any dependency field', async () => {
    assert.equal(await isTfjsProject(project('tfjs', deps('dependencies', ['@tensorflow/tfjs']))), true);
    assert.equal(await isTfjsProject(project('tfjs-node-gpu', deps('dependencies', ['@tensorflow/tfjs-node-gpu']))), true);
    assert.equal(await isTfjsProject(project('runtime-dev', deps('devDependencies', ['tfjs-callback-debugger']))), true);
    assert.equal(await isTfjsProject(project('peer', deps('peerDependencies', ['@tensorflow/tfjs-core']))), true);
  });

  test('a project one level down counts (a workspace of projects); node_modules and dot folders do not, nor deeper ones', async () => {
    const outer = project('outer', deps('dependencies', ['lodash']));
    project('app', deps('dependencies', ['@tensorflow/tfjs']), outer);
    assert.equal(await isTfjsProject(outer), true);
    const installed = project('installed', deps('dependencies', ['express']));
    project(path.join('node_modules', 'some-lib'), deps('dependencies', ['@tensorflow/tfjs']), installed);
    project('.cache', deps('dependencies', ['@tensorflow/tfjs']), installed);
    project(path.join('packages', 'deep'), deps('dependencies', ['@tensorflow/tfjs']), installed);
    assert.equal(await isTfjsProject(installed), false);
  });

  test('other projects, no package.json, a package.json that is not JSON, a folder that is gone: not one', async () => {
    assert.equal(await isTfjsProject(project('express', deps('dependencies', ['express', 'tfjs-like', '@tensorflow-models/coco-ssd']))), false);
    assert.equal(await isTfjsProject(project('bare', undefined)), false);
    assert.equal(await isTfjsProject(project('broken', '{ "dependencies": { "@tensorflow/tfjs": ')), false);
    assert.equal(await isTfjsProject(project('null', 'null')), false);
    assert.equal(await isTfjsProject(path.join(dir, 'no-such-folder')), false);
  });
});
