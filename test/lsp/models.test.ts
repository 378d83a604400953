/**
 * model.json documents over the real server process: callback nodes without a binding in the
 * callbacks module (by convention callbacks.ts next to model.json, or the
 * tfjsCallbacks.callbacksModule setting from workspace/configuration or initializationOptions),
 * and the tfjsCallbacks/callbacks request.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import { locationOfNodeName, tempDir } from '../fixtures/callback-models.js';
import { LspClient, lspFixture, messages, WAIT_MS } from '../helpers/lsp.js';

const CONFIGURED = 'test/fixtures/lsp/models/configured-callbacks.ts';
const clients: LspClient[] = [];
after(async () => {
  for (const c of clients) await c.stop();
});

async function start(options: Parameters<typeof LspClient.start>[0] = {}): Promise<LspClient> {
  const client = await LspClient.start(options);
  clients.push(client);
  return client;
}

/** 0-based line of `"name": "<node>"` in a fixture model. */
function nodeLine(model: string, node: string): number {
  return fs
    .readFileSync(lspFixture('models', model, 'model.json'), 'utf8')
    .split('\n')
    .findIndex((l) => l.includes(`"name": "${node}"`));
}

/** The 1-based line and column of a node's name value in a fixture model, as the callbacks request gives it. */
function nodeAt(model: string, node: string): { line: number; column: number } {
  const { line, column } = locationOfNodeName(lspFixture('models', model, 'model.json'), node);
  return { line, column };
}

function byLine(diagnostics: Diagnostic[]): Diagnostic[] {
  return [...diagnostics].sort((a, b) => a.range.start.line - b.range.start.line);
}

describe('callbacks.ts next to model.json', { timeout: WAIT_MS * 2 }, () => {
  test('nodes bound by name (standardize) or token (pyfunc_1) pass; the unbound one is an error on its line', async () => {
    const client = await start();
    const uri = await client.open(lspFixture('models', 'convention', 'model.json'));
    const diagnostics = await client.diagnostics(uri);
    assert.equal(diagnostics.length, 1, messages(diagnostics).join('\n'));
    const [d] = diagnostics;
    assert.equal(d!.range.start.line, nodeLine('convention', 'unbound_node'));
    assert.equal(d!.severity, 1);
    assert.equal(d!.source, 'tfjs-callbacks');
    assert.equal(d!.code, 'unbound-callback');
    const [first, second] = messages(diagnostics)[0]!.split('\n');
    assert.equal(
      first,
      "Callback node 'unbound_node' (PyFuncStateless, token 'pyfunc_2') has no binding in test/fixtures/lsp/models/convention/callbacks.ts: " +
        "export a function named 'unbound_node' (its name in TensorFlow) or 'pyfunc_2' (the token), or a default object with one of those keys.",
    );
    assert.equal(second, 'It receives 1 NdArray inputs (numpy_function) [float32] and must return Tout [float64].');
  });

  test('binding the node in the open (unsaved) callbacks module clears it', async () => {
    const client = await start();
    const modelUri = await client.open(lspFixture('models', 'convention', 'model.json'));
    assert.equal((await client.diagnostics(modelUri)).length, 1);
    const callbacksFile = lspFixture('models', 'convention', 'callbacks.ts');
    const original = fs.readFileSync(callbacksFile, 'utf8');
    // Opening the module revalidates the model a little later: wait for that publish, or it may
    // land after the mark below with the text from before the edit.
    const opened = client.mark();
    const callbacksUri = await client.open(callbacksFile, original);
    assert.equal((await client.diagnostics(modelUri, { after: opened })).length, 1);
    const mark = client.mark();
    await client.change(callbacksUri, `${original}\nexport const pyfunc_2 = (a: NdArray): NdArray => a;\n`);
    assert.deepEqual(messages(await client.diagnostics(modelUri, { after: mark })), []);
    const again = client.mark();
    await client.change(callbacksUri, original);
    assert.equal((await client.diagnostics(modelUri, { after: again })).length, 1);
  });

  test('the callbacks request lists the model’s nodes with their tokens and ops', async () => {
    const client = await start();
    const uri = await client.open(lspFixture('models', 'convention', 'model.json'));
    await client.diagnostics(uri);
    assert.deepEqual(await client.callbacks(uri), [
      { name: 'standardize', kind: 'py_function', uri, ...nodeAt('convention', 'standardize'), op: 'EagerPyFunc', token: 'pyfunc_0' },
      { name: 'clip', kind: 'numpy_function', uri, ...nodeAt('convention', 'clip'), op: 'PyFunc', token: 'pyfunc_1' },
      { name: 'unbound_node', kind: 'numpy_function', uri, ...nodeAt('convention', 'unbound_node'), op: 'PyFuncStateless', token: 'pyfunc_2' },
    ]);
    // Without a uri: every open document (here the model and a graph program).
    const program = await client.open(lspFixture('wrong-arity.ts'));
    await client.diagnostics(program);
    const all = await client.callbacks();
    assert.deepEqual(
      all.map((c) => `${c.name}@${c.uri.split('/').slice(-2).join('/')}`),
      ['standardize@convention/model.json', 'clip@convention/model.json', 'unbound_node@convention/model.json', 'add@lsp/wrong-arity.ts'],
    );
  });
});

describe('the tfjsCallbacks.callbacksModule setting', { timeout: WAIT_MS * 2 }, () => {
  const expectOtherUnbound = (diagnostics: Diagnostic[]) => {
    assert.equal(diagnostics.length, 1, messages(diagnostics).join('\n'));
    assert.equal(diagnostics[0]!.range.start.line, nodeLine('configured', 'other'));
    assert.ok(
      messages(diagnostics)[0]!.startsWith(`Callback node 'other' (EagerPyFunc, token 'pyfunc_5') has no binding in ${CONFIGURED}:`),
      messages(diagnostics)[0],
    );
  };

  test('from workspace/configuration (relative to the workspace folder): a default object’s keys bind, named exports beside it do not', async () => {
    const client = await start({ configuration: { tfjsCallbacks: { callbacksModule: CONFIGURED } } });
    const uri = await client.open(lspFixture('models', 'configured', 'model.json'));
    expectOtherUnbound(await client.diagnostics(uri));
  });

  test('from initializationOptions when the client has no workspace/configuration', async () => {
    const client = await start({ initializationOptions: { callbacksModule: lspFixture('models', 'configured-callbacks.ts') } });
    const uri = await client.open(lspFixture('models', 'configured', 'model.json'));
    const diagnostics = await client.diagnostics(uri);
    assert.equal(diagnostics.length, 1);
    assert.equal(diagnostics[0]!.range.start.line, nodeLine('configured', 'other'));
  });

  test('a setting naming a missing module says so', async () => {
    const client = await start({ configuration: { tfjsCallbacks: { callbacksModule: 'no/such/callbacks.ts' } } });
    const uri = await client.open(lspFixture('models', 'configured', 'model.json'));
    const diagnostics = byLine(await client.diagnostics(uri));
    assert.equal(diagnostics.length, 2);
    assert.match(
      messages(diagnostics)[0]!,
      /^Callback node 'standardize' \(EagerPyFunc, token 'pyfunc_0'\) has no binding: the callbacks module no\/such\/callbacks\.ts \(setting tfjsCallbacks\.callbacksModule\) does not exist\./,
    );
  });
});

describe('no callbacks module', { timeout: WAIT_MS }, () => {
  test('every node is a warning saying where to put one', async () => {
    const client = await start();
    const uri = await client.open(lspFixture('models', 'none', 'model.json'));
    const diagnostics = await client.diagnostics(uri);
    assert.equal(diagnostics.length, 1);
    assert.equal(diagnostics[0]!.severity, 2);
    assert.equal(diagnostics[0]!.range.start.line, nodeLine('none', 'lonely'));
    assert.match(
      messages(diagnostics)[0]!,
      /^Callback node 'lonely' \(PyFunc, token 'pyfunc_9'\) has no binding: no callbacks module found\. Create callbacks\.ts next to model\.json \(or set tfjsCallbacks\.callbacksModule\)/,
    );
  });

  test('a callbacks module created outside the editor takes the warning away: the server watches files through the client', async () => {
    const { dir, cleanup } = tempDir('lsp-watched-');
    try {
      const model = path.join(dir, 'model.json');
      fs.copyFileSync(lspFixture('models', 'none', 'model.json'), model);
      const client = await start({ workspaceFolder: dir, watchesFiles: true });
      const uri = await client.open(model);
      assert.equal((await client.diagnostics(uri)).length, 1, 'no callbacks module yet: one warning');
      const watch = client.registered.find((r) => r.method === 'workspace/didChangeWatchedFiles');
      const globs = (watch?.registerOptions as { watchers?: { globPattern: string }[] } | undefined)?.watchers?.map((w) => w.globPattern) ?? [];
      assert.ok(
        globs.some((g) => g.includes('ts')),
        `the server asked to watch the callbacks modules: ${JSON.stringify(client.registered)}`,
      );
      // Written by another program (a generator, git checkout), never opened in the editor.
      const callbacks = path.join(dir, 'callbacks.ts');
      fs.writeFileSync(callbacks, 'export function lonely(x: unknown) {\n  return x;\n}\n');
      const mark = client.mark();
      await client.filesChanged([{ file: callbacks, type: 1 }]);
      assert.deepEqual(messages(await client.diagnostics(uri, { after: mark })), [], 'bound now');
    } finally {
      cleanup();
    }
  });

  test('a callbacks.js created, renamed and deleted from a shell beside a model outside the workspace: the server sees each itself, with no watched-files event (issue 43)', async () => {
    const { dir, cleanup } = tempDir('lsp-own-watch-');
    const { dir: workspace, cleanup: cleanupWorkspace } = tempDir('lsp-own-watch-ws-');
    try {
      const model = path.join(dir, 'model.json');
      fs.copyFileSync(lspFixture('models', 'none', 'model.json'), model);
      // A client that sends no didChangeWatchedFiles, and a model outside its one workspace folder.
      const client = await start({ workspaceFolder: workspace });
      const uri = await client.open(model);
      assert.equal((await client.diagnostics(uri)).length, 1, 'no callbacks module yet: one warning');
      const callbacks = path.join(dir, 'callbacks.js');
      const aside = path.join(dir, 'callbacks-old.js');
      const after = async (change: () => void): Promise<string[]> => {
        const mark = client.mark();
        change();
        return messages(await client.diagnostics(uri, { after: mark }));
      };
      assert.deepEqual(await after(() => fs.writeFileSync(callbacks, 'exports.lonely = (x) => x;\n')), [], 'created: bound');
      const renamed = await after(() => fs.renameSync(callbacks, aside));
      assert.match(renamed[0] ?? '', /has no binding: no callbacks module found/, 'renamed away: the warning is back');
      assert.deepEqual(await after(() => fs.renameSync(aside, callbacks)), [], 'renamed back: bound');
      const deleted = await after(() => fs.rmSync(callbacks));
      assert.match(deleted[0] ?? '', /has no binding: no callbacks module found/, 'deleted: the warning is back');
    } finally {
      cleanup();
      cleanupWorkspace();
    }
  });

  test('a JSON file not named model.json is left alone; so is invalid JSON', async () => {
    const client = await start();
    const text = fs.readFileSync(lspFixture('models', 'none', 'model.json'), 'utf8');
    const mark = client.mark();
    const uri = await client.open(lspFixture('models', 'none', 'model.json'), text.slice(0, 200));
    assert.deepEqual(await client.diagnostics(uri, { after: mark }), []);
    const other = await client.open(lspFixture('models', 'none', 'other.json'), text);
    assert.deepEqual(await client.callbacks(other), []);
  });
});

describe('the last run on a model', { timeout: WAIT_MS }, () => {
  const { dir, cleanup } = tempDir('lsp-model-trace-');
  after(cleanup);

  test('a node’s Tout mismatch in the trace is a last-run diagnostic on the node’s line', async () => {
    const client = await start();
    const model = lspFixture('models', 'convention', 'model.json');
    const uri = await client.open(model);
    await client.diagnostics(uri);
    const line = nodeLine('convention', 'clip');
    const message = '0-th value returned by clip is double, but expects float\n  the value is a Float64Array of shape [3] and dtype float64.';
    const trace = {
      version: 1,
      tool: 'tfjs-callbacks',
      target: model,
      cwd: dir,
      startedAt: new Date().toISOString(),
      invocations: [
        {
          id: 1,
          callback: { name: 'clip', token: 'pyfunc_1', kind: 'numpy_function', stateful: true, functionName: 'pyfunc_1' },
          op: 'PyFunc',
          graph: 'convention',
          node: 'clip',
          Tout: ['float32'],
          callSite: { file: model, line: line + 1, column: 9 },
          inputs: [{ dtype: 'float32', shape: [1, 3] }],
          parameterNames: ['a'],
          outputs: [{ dtype: 'float64', shape: [3] }],
          durationMs: 0.4,
          toutCheck: { ok: false, mismatches: [{ problem: 'dtype', index: 0, expected: 'float32', actual: 'float64', message }], narrowed: [] },
          memoized: false,
        },
      ],
      summary: { invocations: 1, callbacks: 1, toutMismatches: 1, errors: 0, reused: 0, nonFinite: 0, callbackMs: 0.4 },
    };
    const traceFile = path.join(dir, 'trace.json');
    fs.writeFileSync(traceFile, JSON.stringify(trace));
    const mark = client.mark();
    await client.traceUpdated(traceFile);
    const lastRun = (await client.diagnostics(uri, { after: mark })).filter((d) => d.source === 'tfjs-callbacks (last run)');
    assert.equal(lastRun.length, 1);
    assert.equal(lastRun[0]!.range.start.line, line);
    assert.ok(messages(lastRun)[0]!.startsWith('0-th value returned by clip is double, but expects float\n'), messages(lastRun)[0]);
  });
});
