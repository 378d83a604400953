/**
 * An unsupported TensorFlow.js in a graph program's project, over the real server process
 * (out/server.cjs --stdio) and a real LSP client: an error on the program's import of the runtime
 * and a warning on the package.json dependency, both with the runtime's message
 * (runtime/tfjs-version.ts); nothing in a supported project; gone once the project upgrades.
 * Projects are real folders with package.json files under node_modules (no tfjs loads).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import { LspClient, messages, scratchFolder, WAIT_MS } from '../helpers/lsp.js';

const SOURCE = 'tfjs-callbacks';
const CODE = 'unsupported-tfjs';
const scratch = scratchFolder('lsp-tfjs-version-');
let client: LspClient;

before(async () => {
  client = await LspClient.start();
});
after(async () => {
  await client?.stop();
});

const PROGRAM = [
  "import { tf } from 'tfjs-callback-debugger/runtime';",
  "import { numpyFunction } from 'tfjs-callback-debugger/runtime';",
  '',
  "const [y] = numpyFunction((x) => Float64Array.from(x.data), [tf.scalar(1)], ['float32'], { name: 'doubled' });",
  'console.log(y);',
  '',
].join('\n');

/** A project whose package.json declares `declared` and whose node_modules holds tfjs `installed`. */
function project(name: string, declared: Record<string, string>, installed: string | undefined): string {
  const dir = path.join(scratch, name);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify({ name, version: '1.0.0', private: true, dependencies: declared }, null, 2)}\n`);
  if (installed) install(dir, installed);
  fs.writeFileSync(path.join(dir, 'main.ts'), PROGRAM);
  return dir;
}

function install(dir: string, version: string): void {
  for (const pkg of ['tfjs', 'tfjs-core']) {
    fs.mkdirSync(path.join(dir, 'node_modules', '@tensorflow', pkg), { recursive: true });
    fs.writeFileSync(path.join(dir, 'node_modules', '@tensorflow', pkg, 'package.json'), JSON.stringify({ name: `@tensorflow/${pkg}`, version }));
  }
}

function tfjsDiagnostics(diagnostics: Diagnostic[]): Diagnostic[] {
  return diagnostics.filter((d) => d.code === CODE);
}

function lineOf(file: string, text: string): number {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .findIndex((l) => l.includes(text));
}

describe('an unsupported TensorFlow.js in the project', { timeout: WAIT_MS * 2 }, () => {
  test("tfjs 1.7.4: an error on the program's first import of the runtime, the Tout checks still there", async () => {
    const dir = project('old', { '@tensorflow/tfjs': '1.7.4' }, '1.7.4');
    const diagnostics = await client.diagnostics(await client.open(path.join(dir, 'main.ts')));
    const [unsupported, ...more] = tfjsDiagnostics(diagnostics);
    assert.equal(more.length, 0, 'one diagnostic per program, not one per import');
    assert.ok(unsupported, `an ${CODE} diagnostic among ${JSON.stringify(diagnostics)}`);
    assert.equal(unsupported.severity, 1);
    assert.equal(unsupported.source, SOURCE);
    const character = PROGRAM.indexOf("'tfjs-callback-debugger/runtime'");
    assert.deepEqual(unsupported.range, { start: { line: 0, character }, end: { line: 0, character: character + 32 } }, "on 'tfjs-callback-debugger/runtime'");
    assert.equal(
      unsupported.message,
      `This project has @tensorflow/tfjs 1.7.4 (${path.join(dir, 'node_modules', '@tensorflow', 'tfjs')}), which tfjs-callback-debugger does not support: ` +
        'it supports TensorFlow.js >=3.0.0 <5.0.0 (3.x and 4.x). ' +
        `Upgrade it with \`npm install @tensorflow/tfjs@^4.22.0\` in ${dir} (or @tensorflow/tfjs@^3.21.0, the last 3.x, a smaller step from 1.x).`,
    );
    assert.deepEqual(
      diagnostics.map((d) => d.code),
      [CODE, 'tout-dtype'],
      'the static checks still run',
    );
  });

  test('its package.json: a warning on the dependency line, with the same message', async () => {
    const dir = project('old-manifest', { lodash: '^4.17.21', '@tensorflow/tfjs': '1.7.4' }, '1.7.4');
    const manifest = path.join(dir, 'package.json');
    const diagnostics = await client.diagnostics(await client.open(manifest));
    assert.equal(diagnostics.length, 1, JSON.stringify(diagnostics));
    const [warning] = diagnostics;
    assert.equal(warning!.severity, 2);
    assert.equal(warning!.code, CODE);
    const line = lineOf(manifest, '"@tensorflow/tfjs": "1.7.4"');
    assert.deepEqual(warning!.range, { start: { line, character: 4 }, end: { line, character: 31 } });
    assert.match(
      messages([warning!])[0]!,
      /^This project has @tensorflow\/tfjs 1\.7\.4 .* it supports TensorFlow\.js >=3\.0\.0 <5\.0\.0 .*`npm install @tensorflow\/tfjs@\^4\.22\.0`/,
    );
  });

  test('a project that declares tfjs-node 2.x (which brings tfjs 2.8.6): the warning is on the tfjs-node line', async () => {
    const dir = project('node-2', { '@tensorflow/tfjs-node': '2.8.6' }, '2.8.6');
    const manifest = path.join(dir, 'package.json');
    const [warning, ...more] = await client.diagnostics(await client.open(manifest));
    assert.equal(more.length, 0);
    assert.equal(warning!.range.start.line, lineOf(manifest, '"@tensorflow/tfjs-node"'));
    assert.match(messages([warning!])[0]!, /^This project has @tensorflow\/tfjs 2\.8\.6 /);
  });

  test('a supported 3.x project, and a package.json that declares no tfjs: nothing', async () => {
    const dir = project('three', { '@tensorflow/tfjs': '^3.18.0' }, '3.18.0');
    assert.deepEqual(tfjsDiagnostics(await client.diagnostics(await client.open(path.join(dir, 'main.ts')))), []);
    assert.deepEqual(await client.diagnostics(await client.open(path.join(dir, 'package.json'))), []);
    const other = project('no-tfjs', { lodash: '^4.17.21' }, '1.7.4');
    assert.deepEqual(await client.diagnostics(await client.open(path.join(other, 'package.json'))), []);
  });

  test('after the upgrade (npm install rewrote node_modules and package.json) both are clean on the next edit', async () => {
    const dir = project('upgrade', { '@tensorflow/tfjs': '1.7.4' }, '1.7.4');
    const program = await client.open(path.join(dir, 'main.ts'));
    const manifestFile = path.join(dir, 'package.json');
    const manifest = await client.open(manifestFile);
    assert.equal(tfjsDiagnostics(await client.diagnostics(program)).length, 1);
    assert.equal((await client.diagnostics(manifest)).length, 1);

    install(dir, '4.22.0');
    const upgraded = fs.readFileSync(manifestFile, 'utf8').replace('"1.7.4"', '"^4.22.0"');
    const mark = client.mark();
    const version = await client.change(manifest, upgraded);
    assert.deepEqual(await client.diagnostics(manifest, { after: mark, version }), []);
    const programVersion = await client.change(program, `${PROGRAM}// edited\n`);
    assert.deepEqual(tfjsDiagnostics(await client.diagnostics(program, { after: mark, version: programVersion })), []);
  });
});
