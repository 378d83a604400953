/**
 * The language server on what tensorflowjs_converter writes (test/fixtures/tf-converted/: one
 * line per model.json, `StatefulPartitionedCall/<name>` nodes, DT_DOUBLE) and on the wrappers'
 * dtype rules that converted models brought in: Problems sit on each node's name, not on line 1
 * as a whole; py_function's conversions are warnings; what TF.js holds float64 as passes.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import { tempDir } from '../fixtures/callback-models.js';
import { LspClient, messages, WAIT_MS } from '../helpers/lsp.js';

const converted = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'tf-converted');
const clients: LspClient[] = [];
const { dir, cleanup } = tempDir('lsp-converted-');
after(async () => {
  for (const c of clients) await c.stop();
  cleanup();
});

async function start(workspaceFolder?: string): Promise<LspClient> {
  const client = await LspClient.start(workspaceFolder ? { workspaceFolder } : {});
  clients.push(client);
  return client;
}

/** The text a diagnostic's range covers in a one-line document. */
function covered(text: string, d: Diagnostic): string {
  assert.equal(d.range.start.line, 0);
  assert.equal(d.range.end.line, 0);
  return text.slice(d.range.start.character, d.range.end.character);
}

describe('converted model.json files', { timeout: WAIT_MS * 3 }, () => {
  test('bound by their names in TensorFlow (callbacks.ts exports log1p64 and cube_plus for StatefulPartitionedCall/…): no diagnostics', async () => {
    const client = await start();
    const uri = await client.open(path.join(converted, 'float64', 'model.json'));
    assert.deepEqual(messages(await client.diagnostics(uri)), []);
  });

  test('unbound nodes: one warning per node, each on that node’s name in the single line, suggesting its TensorFlow name', async () => {
    const copy = path.join(dir, 'float64', 'model.json');
    fs.mkdirSync(path.dirname(copy), { recursive: true });
    fs.copyFileSync(path.join(converted, 'float64', 'model.json'), copy);
    const client = await start(dir);
    const text = fs.readFileSync(copy, 'utf8');
    const uri = await client.open(copy, text);
    const diagnostics = [...(await client.diagnostics(uri))].sort((a, b) => a.range.start.character - b.range.start.character);
    assert.deepEqual(
      diagnostics.map((d) => covered(text, d)),
      ['"StatefulPartitionedCall/log1p64"', '"StatefulPartitionedCall/cube_plus"'],
    );
    assert.deepEqual(
      diagnostics.map((d) => d.severity),
      [2, 2],
    );
    assert.match(
      messages(diagnostics)[0]!,
      /export a function named 'log1p64' \(its name in TensorFlow\), 'StatefulPartitionedCall\/log1p64' \(the node name\) or 'pyfunc_15' \(the token\)/,
    );
    assert.match(messages(diagnostics)[0]!, /It receives 1 NdArray inputs \(numpy_function\) \[float64\] and must return Tout \[float64\]/);
    assert.match(messages(diagnostics)[0]!, /loadCallbackModel\(path, \{ callbacks: \{ log1p64\(…\) \{ … \} \} \}\)/, 'code that parses');
  });

  test("the last run's mismatches in two nodes of one line are two diagnostics, each on its node", async () => {
    const model = path.join(converted, 'float64', 'model.json');
    const text = fs.readFileSync(model, 'utf8');
    const client = await start();
    const uri = await client.open(model, text);
    await client.diagnostics(uri);
    const site = (node: string) => {
      const column = text.indexOf(JSON.stringify(node)) + 1;
      return { file: model, line: 1, column, endLine: 1, endColumn: column + JSON.stringify(node).length };
    };
    const invocation = (id: number, node: string, message: string) => ({
      id,
      callback: { name: node, token: `pyfunc_${id}`, kind: 'numpy_function', stateful: true },
      op: 'PyFunc',
      graph: 'float64',
      node,
      Tout: ['float64'],
      Tin: ['float64'],
      callSite: site(node),
      inputs: [],
      parameterNames: ['a'],
      outputs: [],
      durationMs: 0.1,
      toutCheck: { ok: false, mismatches: [{ problem: 'dtype', index: 0, expected: 'float64', actual: 'int32', message }], narrowed: [], conversions: [] },
      memoized: false,
    });
    const trace = {
      version: 1,
      tool: 'tfjs-callbacks',
      target: model,
      cwd: dir,
      startedAt: new Date().toISOString(),
      invocations: [
        invocation(15, 'StatefulPartitionedCall/log1p64', '0-th value returned by StatefulPartitionedCall/log1p64 is int32, but expects double'),
        invocation(16, 'StatefulPartitionedCall/cube_plus', 'Cannot convert [1] to EagerTensor of dtype double'),
      ],
      summary: { invocations: 2, callbacks: 2, toutMismatches: 2, errors: 0, reused: 0, nonFinite: 0, callbackMs: 0.2 },
    };
    const traceFile = path.join(dir, 'trace.json');
    fs.writeFileSync(traceFile, JSON.stringify(trace));
    const mark = client.mark();
    await client.traceUpdated(traceFile);
    const diagnostics = (await client.diagnostics(uri, { after: mark })).filter((d) => d.source === 'tfjs-callbacks (last run)');
    const byNode = Object.fromEntries(diagnostics.map((d) => [covered(text, d), messages([d])[0]!.split('\n')[0]]));
    assert.deepEqual(byNode, {
      '"StatefulPartitionedCall/log1p64"': '0-th value returned by StatefulPartitionedCall/log1p64 is int32, but expects double',
      '"StatefulPartitionedCall/cube_plus"': 'Cannot convert [1] to EagerTensor of dtype double',
    });
  });
});

describe('static dtype rules shared with the runtime', { timeout: WAIT_MS * 2 }, () => {
  const program = (body: string) => `import { numpyFunction, pyFunction, tf } from 'tfjs-callback-debugger/runtime';\nconst x = tf.tensor([1, 2]);\n${body}\n`;

  test('a Float64Array from pyFunction for float32 is a warning (converted, as TensorFlow does); from numpyFunction an error', async () => {
    const file = path.join(dir, 'conversions.ts');
    const text = program(
      [
        "export const a = pyFunction(function widen(t: tf.Tensor) { return Float64Array.from(t.dataSync()); }, [x], 'float32');",
        "export const b = numpyFunction(function strict() { return new Float64Array([1]); }, [x], 'float32');",
      ].join('\n'),
    );
    fs.writeFileSync(file, text);
    const client = await start();
    const diagnostics = await client.diagnostics(await client.open(file, text));
    const summary = diagnostics.map((d) => [d.range.start.line, d.severity, d.code, messages([d])[0]!.split('\n')[0]]);
    assert.deepEqual(summary, [
      [
        2,
        2,
        'tout-conversion',
        "output 0: py_function converts a Float64Array (float64) to float32, as TensorFlow's convert_to_tensor does. Return float32 data to skip the conversion.",
      ],
      [3, 1, 'tout-dtype', '0-th value returned by strict is double, but expects float'],
    ]);
  });

  test('what TF.js holds a dtype as passes: a Float32Array for Tout float64, an Int32Array for int64', async () => {
    const file = path.join(dir, 'held-as.ts');
    const text = program(
      [
        "export const a = numpyFunction(() => new Float32Array([1]), [], 'float64');",
        "export const b = numpyFunction(() => new Int32Array([1]), [], 'int64');",
        "export const c = numpyFunction(() => new Float64Array([1]), [], 'float64');",
      ].join('\n'),
    );
    fs.writeFileSync(file, text);
    const client = await start();
    assert.deepEqual(messages(await client.diagnostics(await client.open(file, text))), []);
  });
});
