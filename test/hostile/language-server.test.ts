/**
 * Issue 11, the language server against a hostile workspace, over the real server process
 * (out/server.cjs) with a real LSP client: files it must not read whole or block on (/dev/zero,
 * a FIFO) given as the callbacks module, next to model.json, as an import or as the trace; a
 * 4,000-node model.json and a multi-MB program, whose work must grow linearly; and hover
 * Markdown with names chosen by the attacker, rendered with a CommonMark renderer.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import ts from 'typescript';
import { LogMessageNotification, type LogMessageParams, type MarkupContent } from 'vscode-languageserver-protocol';
import { CheckBudget, statementsBefore, TYPE_CHECK_BUDGET } from '../../extension/server/check-budget.js';
import { LineIndex } from '../../extension/server/line-index.js';
import { codeBlock, codeSpan, escapeMarkdown } from '../../extension/server/markdown.js';
import { checkModel } from '../../extension/server/model-checks.js';
import { generateProgram } from '../fixtures/lsp/generate.js';
import { repoRoot } from '../fixtures/spawn.js';
import { LspClient, messages, WAIT_MS } from '../helpers/lsp.js';

// Inside the repository (.scratch/ is git-ignored), so the tsconfig resolves the runtime's types.
fs.mkdirSync(path.join(repoRoot, '.scratch'), { recursive: true });
const scratch = fs.mkdtempSync(path.join(repoRoot, '.scratch', 'hostile-lsp-'));
const clients: LspClient[] = [];
after(async () => {
  for (const c of clients) await c.stop();
  fs.rmSync(scratch, { recursive: true, force: true });
});

interface Logged {
  readonly logs: string[];
  readonly client: LspClient;
}

/** A client whose server's log lines (window/logMessage) are kept. */
async function start(options: Parameters<typeof LspClient.start>[0] = {}): Promise<Logged> {
  const client = await LspClient.start(options);
  clients.push(client);
  const logs: string[] = [];
  client.connection.onNotification(LogMessageNotification.method, (...params: unknown[]) => {
    logs.push((params[0] as LogMessageParams).message);
  });
  return { client, logs };
}

async function until(what: string, check: () => boolean): Promise<void> {
  const deadline = Date.now() + WAIT_MS;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`waited in vain for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function mkfifo(file: string): void {
  execFileSync('mkfifo', [file]);
}

/** A graph model whose callback nodes sit in library functions (no signature name), `n` of them. */
function modelWithNodes(n: number, inFunctions = true): string {
  const node = (i: number) => ({
    name: `cb_${i}`,
    op: 'EagerPyFunc',
    input: ['x'],
    attr: { token: { s: Buffer.from(`pyfunc_${i}`).toString('base64') }, Tin: { list: { type: ['DT_FLOAT'] } }, Tout: { list: { type: ['DT_FLOAT'] } } },
  });
  const nodes = Array.from({ length: n }, (_, i) => node(i));
  const topology = inFunctions
    ? { node: [{ name: 'x', op: 'Placeholder', attr: { dtype: { type: 'DT_FLOAT' } } }], library: { function: nodes.map((nd) => ({ nodeDef: [nd] })) } }
    : { node: [{ name: 'x', op: 'Placeholder', attr: { dtype: { type: 'DT_FLOAT' } } }, ...nodes] };
  return JSON.stringify({ format: 'graph-model', generatedBy: '2.16.1', modelTopology: topology, weightsManifest: [] }, null, 2);
}

function writeModel(dir: string, nodes = 1): string {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'model.json');
  fs.writeFileSync(file, modelWithNodes(nodes, false));
  return file;
}

describe('files the server must not read whole or block on', { timeout: WAIT_MS * 4 }, () => {
  test('tfjsCallbacks.callbacksModule set to /dev/zero: a diagnostic says why, and other files are served', async () => {
    const dir = path.join(scratch, 'dev-zero-setting');
    const model = writeModel(dir);
    const { client, logs } = await start({ workspaceFolder: dir, configuration: { tfjsCallbacks: { callbacksModule: '/dev/zero' } } });
    const diagnostics = await client.diagnostics(await client.open(model));
    assert.equal(diagnostics.length, 1, messages(diagnostics).join('\n'));
    assert.equal(diagnostics[0]!.code, 'callbacks-module-unreadable');
    assert.match(messages(diagnostics)[0]!, /the callbacks module \/dev\/zero is a character device, not a regular file/);
    assert.ok(
      logs.some((l) => l.includes('/dev/zero is a character device')),
      logs.join('\n'),
    );
    const other = writeModel(path.join(dir, 'other'));
    assert.equal((await client.diagnostics(await client.open(other))).length, 1, 'the server still answers for another model');
  });

  test('callbacks.ts next to model.json a symlink to /dev/zero, no setting: refused, not read', async () => {
    const dir = path.join(scratch, 'dev-zero-link');
    const model = writeModel(dir);
    fs.symlinkSync('/dev/zero', path.join(dir, 'callbacks.ts'));
    const { client } = await start({ workspaceFolder: dir });
    const diagnostics = await client.diagnostics(await client.open(model));
    assert.match(messages(diagnostics).join('\n'), /callbacks\.ts is a character device, not a regular file/);
    assert.equal(client.child.exitCode, null, 'the server is alive');
  });

  test('callbacks.ts a FIFO: refused at once; the server keeps serving every other file', async () => {
    const dir = path.join(scratch, 'fifo-callbacks');
    const model = writeModel(dir);
    mkfifo(path.join(dir, 'callbacks.ts'));
    const { client } = await start({ workspaceFolder: dir });
    const diagnostics = await client.diagnostics(await client.open(model));
    assert.match(messages(diagnostics).join('\n'), /callbacks\.ts is a named pipe \(FIFO\), not a regular file/);
    const fine = writeModel(path.join(dir, 'fine'));
    fs.writeFileSync(path.join(dir, 'fine', 'callbacks.ts'), 'export function cb_0() {}\n');
    assert.deepEqual(messages(await client.diagnostics(await client.open(fine))), [], 'bound from a readable module');
  });

  test("a program importing a 9 MB module: TypeScript's host does not read it, and the log says why", async () => {
    const dir = path.join(scratch, 'huge-import');
    fs.mkdirSync(dir, { recursive: true });
    // (A FIFO or device import never reaches the reader: TypeScript's fileExists wants a regular file.)
    const line = `// ${'x'.repeat(1020)}\n`;
    fs.writeFileSync(path.join(dir, 'helpers.ts'), `export function helper(x: unknown): void {}\n${line.repeat(9 * 1024)}`);
    const program = path.join(dir, 'program.ts');
    fs.writeFileSync(
      program,
      [
        "import { numpyFunction, tf } from 'tfjs-callback-debugger/runtime';",
        "import { helper } from './helpers.js';",
        'const x = tf.tensor1d([1, 2]);',
        "export const y = numpyFunction((): Float64Array => new Float64Array(2), [], 'float32', { name: 'wide' });",
        'helper(x);',
        '',
      ].join('\n'),
    );
    const { client, logs } = await start();
    const diagnostics = await client.diagnostics(await client.open(program));
    assert.deepEqual(
      messages(diagnostics).map((m) => m.split('\n')[0]),
      ['0-th value returned by wide is double, but expects float'],
    );
    await until('the refusal in the log', () =>
      logs.some((l) => /helpers\.ts is 9\.0 MB, over the 8\.0 MB this reads: it was not read\..*TypeScript analysis treats it as missing/.test(l)),
    );
  });

  test('the trace a FIFO or /dev/zero: a log line says why, and hovers still answer', async () => {
    const dir = path.join(scratch, 'fifo-trace');
    fs.mkdirSync(dir, { recursive: true });
    const program = path.join(dir, 'program.ts');
    fs.writeFileSync(
      program,
      "import { numpyFunction, tf } from 'tfjs-callback-debugger/runtime';\nexport const y = numpyFunction((a) => a, [tf.scalar(1)], 'float32');\n",
    );
    mkfifo(path.join(dir, 'trace.json'));
    const { client, logs } = await start();
    const uri = await client.open(program);
    await client.diagnostics(uri);
    await client.traceUpdated(path.join(dir, 'trace.json'));
    await until('the FIFO refusal', () => logs.some((l) => /cannot read the trace .*trace\.json: the trace .* is a named pipe \(FIFO\)/.test(l)));
    await client.traceUpdated('/dev/zero');
    await until('the device refusal', () => logs.some((l) => l.includes('the trace /dev/zero is a character device')));
    const hover = await client.hover(uri, 1, 'export const y = numpyFunction'.length - 2);
    assert.match((hover!.contents as MarkupContent).value, /Not called in the last run/);
  });
});

describe('work that grows linearly', { timeout: WAIT_MS * 4 }, () => {
  test('line lookups for 4,000 nodes without a location scan the text once (was one split per node: 35 s)', () => {
    const text = modelWithNodes(4000);
    const before = LineIndex.scans;
    const diagnostics = checkModel(text, { modelFile: '/m/model.json', located: { missing: '/m/callbacks.ts', via: 'convention' }, relativeTo: '/m' });
    assert.equal(diagnostics.length, 4000);
    assert.equal(LineIndex.scans - before, 1, 'one pass over the text for every node');
  });

  test('LineIndex: ranges and lines as a split would give them', () => {
    const text = 'ab\r\ncde\n\nf';
    const lines = new LineIndex(text);
    const split = text.split('\n');
    for (let i = 0; i < split.length + 1; i++) assert.equal(lines.lineRange(i).end.character, (split[i] ?? '').replace(/\r$/, '').length, `line ${i}`);
    assert.deepEqual(
      [0, 3, 4, 5, 7, 8, 9, 10].map((o) => lines.lineOf(o)),
      [0, 0, 1, 1, 1, 2, 3, 3],
    );
  });

  test('a 4,000-node model.json gets its diagnostics from the real server', async () => {
    const dir = path.join(scratch, 'big-model');
    fs.mkdirSync(dir, { recursive: true });
    const model = path.join(dir, 'model.json');
    fs.writeFileSync(model, modelWithNodes(4000));
    const { client } = await start({ workspaceFolder: dir });
    const diagnostics = await client.diagnostics(await client.open(model));
    assert.equal(diagnostics.length, 4000);
    assert.ok(diagnostics.every((d) => d.code === 'unbound-callback'));
  });

  test('the type-check budget: each call is charged the statements before it, and the charge is bounded', () => {
    const program = generateProgram(20_000);
    const sf = ts.createSourceFile('p.ts', program.text, ts.ScriptTarget.Latest, true);
    const calls: ts.CallExpression[] = [];
    const visit = (n: ts.Node): void => {
      if (ts.isCallExpression(n) && ts.isIdentifier(n.expression) && /^(numpyFunction|pyFunction)$/.test(n.expression.text)) calls.push(n);
      ts.forEachChild(n, visit);
    };
    visit(sf);
    assert.equal(
      statementsBefore(calls[0]!),
      sf.statements.findIndex((s) => s.getText().includes('numpyFunction(callback_0,')),
    );
    const budget = new CheckBudget();
    let charged = 0;
    for (const call of calls) if (budget.spend(call)) charged += statementsBefore(call) + 1;
    assert.ok(charged <= TYPE_CHECK_BUDGET, `${charged} statement steps charged`);
    assert.ok(budget.typed > 0 && budget.untyped > 0 && budget.typed + budget.untyped === calls.length);
  });

  test('a 5 MB program gets its diagnostics, and says where the type-based checks stopped', async () => {
    const program = generateProgram(100_000);
    assert.ok(program.text.length > 5_000_000);
    const dir = path.join(scratch, 'big-program');
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, 'program.ts');
    fs.writeFileSync(file, program.text);
    const { client } = await start();
    const diagnostics = await client.diagnostics(await client.open(file, program.text));
    const budget = diagnostics.filter((d) => d.code === 'type-check-budget');
    assert.equal(budget.length, 1, messages(diagnostics).join('\n'));
    assert.match(messages(budget)[0]!, /Return-type checks stop here: \d+ of 19998 wrapper calls were checked with types/);
    const lines = program.text.split('\n');
    const stoppedAt = budget[0]!.range.start.line;
    const mismatches = diagnostics.filter((d) => d.code === 'tout-dtype');
    assert.ok(mismatches.length > 0 && mismatches.every((d) => d.range.start.line < stoppedAt));
    // Every mismatch before the cut is reported: the generator's blocks 19, 39, 59, … return float64.
    const expected = lines.slice(0, stoppedAt).filter((l) => Number(/numpyFunction\(callback_(\d+),/.exec(l)?.[1] ?? -1) % 20 === 19).length;
    assert.equal(mismatches.length, expected);
  });
});

describe('hover Markdown shows names from the program and the trace literally', { timeout: WAIT_MS * 2 }, () => {
  const PAYLOAD = '[x](command:workbench.action.terminal.new) <img src=x onerror=alert(1)> *bold* `tick';
  // markdown-it (CommonMark; here through @vscode/vsce) with HTML and linkify on: the strictest renderer.
  const MarkdownIt = createRequire(import.meta.url)('markdown-it') as new (options: object) => { render(text: string): string };
  const md = new MarkdownIt({ html: true, linkify: true });

  function rendered(markdown: string): { html: string; text: string } {
    const html = md.render(markdown);
    const text = html
      .replace(/<[^>]*>/g, '')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&amp;/g, '&');
    return { html, text };
  }

  function assertLiteral(markdown: string, payload: string): void {
    const { html, text } = rendered(markdown);
    assert.doesNotMatch(html, /<a |<img|<em>/, html);
    assert.ok(text.includes(payload), `${payload} literally in:\n${text}`);
  }

  test('escapeMarkdown, codeSpan, codeBlock', () => {
    for (const payload of [PAYLOAD, '**x**', '_y_', '# h', '<b>&amp;</b>', 'a\nb']) {
      assertLiteral(`x ${escapeMarkdown(payload)} y`, payload.replace('\n', ' '));
      assertLiteral(`x ${codeSpan(payload)} y`, payload.replace('\n', ' '));
    }
    const block = ['```', '[a](command:x)', '````'].join('\n');
    assertLiteral(['before', '', ...codeBlock(block), '', 'after'].join('\n'), block);
    assert.equal(escapeMarkdown('cb [pyfunc_0]'), 'cb [pyfunc_0]', 'plain names read as they are');
  });

  test('a callback named with a link, HTML and emphasis; a trace naming it so', async () => {
    const dir = path.join(scratch, 'hover');
    fs.mkdirSync(dir, { recursive: true });
    const program = path.join(dir, 'program.ts');
    const name = PAYLOAD.replace(/'/g, '');
    const text = [
      "import { numpyFunction, tf } from 'tfjs-callback-debugger/runtime';",
      `export const y = numpyFunction((a) => a, [tf.scalar(1)], 'float32', { name: '${name}' });`,
      '',
    ].join('\n');
    fs.writeFileSync(program, text);
    const { client } = await start();
    const uri = await client.open(program);
    await client.diagnostics(uri);
    const column = text.split('\n')[1]!.indexOf('numpyFunction') + 2;
    assertLiteral(((await client.hover(uri, 1, column))!.contents as MarkupContent).value, name);

    const traceFile = path.join(dir, 'trace.json');
    const summary = { dtype: 'float32 <img src=y onerror=alert(2)>', shape: [1], size: 1 };
    fs.writeFileSync(
      traceFile,
      JSON.stringify({
        version: 1,
        cwd: dir,
        invocations: [
          {
            id: 1,
            callback: { name: `${PAYLOAD} (trace)`, token: '*tok*', kind: 'numpy_function', stateful: true },
            callSite: { file: program, line: 2, column: 20 },
            inputs: [summary],
            outputs: [summary],
            durationMs: 1,
            toutCheck: { ok: false, mismatches: [{ message: '```\n[m](command:x)' }], narrowed: [] },
            error: { name: '<img src=z onerror=alert(3)>', message: '[e](command:y)' },
          },
        ],
      }),
    );
    const mark = client.mark();
    await client.traceUpdated(traceFile);
    await client.diagnostics(uri, { after: mark });
    const markdown = ((await client.hover(uri, 1, column))!.contents as MarkupContent).value;
    for (const literal of [
      `${PAYLOAD} (trace) [*tok*]`,
      'float32 <img src=y onerror=alert(2)>[1]',
      '```\n[m](command:x)',
      '<img src=z onerror=alert(3)>: [e](command:y)',
    ]) {
      assertLiteral(markdown, literal);
    }
  });
});

describe('Restricted Mode', () => {
  test('the callbacks module setting is a restricted configuration', () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as {
      capabilities: { untrustedWorkspaces: { supported: string; restrictedConfigurations?: string[] } };
      contributes: { configuration: { properties: Record<string, { type: string }> } };
    };
    const restricted = manifest.capabilities.untrustedWorkspaces.restrictedConfigurations ?? [];
    assert.ok(restricted.includes('tfjsCallbacks.callbacksModule'), JSON.stringify(restricted));
    for (const key of restricted) assert.ok(manifest.contributes.configuration.properties[key], `${key} is a contributed setting`);
  });
});

before(() => {
  assert.ok(fs.existsSync('/dev/zero'), 'these tests need /dev/zero and mkfifo (Linux or macOS)');
});
