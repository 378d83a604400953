/**
 * Which JSON documents the language server takes for graph models, and where it finds their
 * callbacks module: the same answers as F5 (runtime/graph-model/model-path.ts). `lonely.model.json`
 * is a model as `model.json` is; `mymodel.json` is not; a `callbacks.cjs` beside the model binds it.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { tempDir } from '../fixtures/callback-models.js';
import { LspClient, lspFixture, messages, WAIT_MS } from '../helpers/lsp.js';

const MODEL_TEXT = fs.readFileSync(lspFixture('models', 'none', 'model.json'), 'utf8');
const { dir, cleanup } = tempDir('lsp-model-names-');
let client: LspClient | undefined;
after(async () => {
  await client?.stop();
  cleanup();
});

function write(...parts: string[]): (text: string) => string {
  return (text) => {
    const file = path.join(dir, ...parts);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
    return file;
  };
}

describe('model.json names', { timeout: WAIT_MS * 2 }, () => {
  test('a *.model.json is a model: its unbound node is a diagnostic and the callbacks request lists it', async () => {
    client = await LspClient.start({ workspaceFolder: dir });
    const notModel = await client.open(write('plain', 'mymodel.json')(MODEL_TEXT));
    const uri = await client.open(write('named', 'lonely.model.json')(MODEL_TEXT));
    const diagnostics = await client.diagnostics(uri);
    assert.deepEqual(
      diagnostics.map((d) => d.code),
      ['unbound-callback'],
    );
    assert.match(messages(diagnostics)[0]!, /^Callback node 'lonely' \(PyFunc, token 'pyfunc_9'\) has no binding: no callbacks module found\./);
    assert.deepEqual(
      (await client.callbacks(uri)).map((c) => [c.name, c.token]),
      [['lonely', 'pyfunc_9']],
    );
    // Answered after the model's diagnostics: mymodel.json was opened first and is not a model.
    assert.deepEqual(await client.callbacks(notModel), []);
  });

  test('a callbacks.cjs beside the model binds its node, as F5 finds it', async () => {
    client ??= await LspClient.start({ workspaceFolder: dir });
    write('bound', 'callbacks.cjs')('module.exports = { lonely(x) { return x; } };\n');
    const uri = await client.open(write('bound', 'lonely.model.json')(MODEL_TEXT));
    assert.deepEqual(messages(await client.diagnostics(uri)), []);
  });
});
