/**
 * The language server's static diagnostics, over the real server process (out/server.cjs
 * --stdio) and a real LSP client: Tout dtype and count mismatches, wrong arity and invalid
 * dtypes in TensorFlow's and the runtime's wording; none for a correct file; updates on edits;
 * and a generated 2,000-line program.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import { generateProgram } from '../fixtures/lsp/generate.js';
import { LspClient, lspFixture, messages, scratchFolder, WAIT_MS } from '../helpers/lsp.js';

const SOURCE = 'tfjs-callbacks';
const scratch = scratchFolder('lsp-test-');
let client: LspClient;

before(async () => {
  client = await LspClient.start();
});
after(async () => {
  await client?.stop();
});

async function openFixture(name: string): Promise<{ uri: string; diagnostics: Diagnostic[] }> {
  const uri = await client.open(lspFixture(name));
  return { uri, diagnostics: await client.diagnostics(uri) };
}

/** The 0-based line of the first line of `file` containing `text`. */
function lineOf(file: string, text: string): number {
  const line = fs
    .readFileSync(lspFixture(file), 'utf8')
    .split('\n')
    .findIndex((l) => l.includes(text));
  assert.ok(line >= 0, `${text} not in ${file}`);
  return line;
}

describe('static Tout diagnostics', { timeout: WAIT_MS * 2 }, () => {
  test('a numpyFunction callback returning Float64Array for Tout float32: TensorFlow’s message and the float64 hint', async () => {
    const { diagnostics } = await openFixture('float64-for-float32.ts');
    assert.deepEqual(
      messages(diagnostics).map((m) => m.split('\n')[0]),
      ['0-th value returned by normalize is double, but expects float', '0-th value returned by doubled is double, but expects float'],
    );
    for (const d of diagnostics) {
      assert.equal(d.source, SOURCE);
      assert.equal(d.code, 'tout-dtype');
      assert.equal(d.severity, 1);
      assert.match(
        messages([d])[0]!,
        /Float64Array \(dtype float64\)\. This is numpy's float64 mistake in JavaScript: .*Float32Array\.from\(values\).* or declare Tout 'float64'\./,
      );
    }
    // The referenced function: on the func argument, pointing to its return type.
    const [normalize, doubled] = diagnostics;
    assert.equal(normalize!.range.start.line, lineOf('float64-for-float32.ts', 'numpyFunction(normalize'));
    assert.equal(normalize!.relatedInformation?.[0]?.location.range.start.line, lineOf('float64-for-float32.ts', 'function normalize'));
    // The inline arrow: on its return expression.
    assert.equal(doubled!.range.start.line, lineOf('float64-for-float32.ts', "name: 'doubled'"));
    const text = fs.readFileSync(lspFixture('float64-for-float32.ts'), 'utf8').split('\n')[doubled!.range.start.line]!;
    assert.ok(text.slice(doubled!.range.start.character).startsWith('Float64Array.from('), text);
  });

  test('two values for a single-dtype Tout, one value for a list Tout of two: the count message', async () => {
    const { diagnostics } = await openFixture('pair-for-one.ts');
    assert.deepEqual(
      messages(diagnostics).map((m) => m.split('\n')[0]),
      ['split_pair returns 2 values, but expects to see 1 values.', 'square_twice returns 1 values, but expects to see 2 values.'],
    );
    assert.deepEqual(
      diagnostics.map((d) => d.code),
      ['tout-count', 'tout-count'],
    );
    assert.match(messages(diagnostics)[0]!, /returns 2 values \(NdArray, NdArray\); Tout 'float32' declares 1/);
    assert.equal(diagnostics[0]!.range.start.line, lineOf('pair-for-one.ts', 'numpyFunction(split_pair'));
  });

  test('func parameters differing from inp: the runtime’s arity message', async () => {
    const { diagnostics } = await openFixture('wrong-arity.ts');
    assert.deepEqual(messages(diagnostics), ["'add' takes 2 arguments but inp has 1 tensor: func must take as many arguments as there are tensors in inp."]);
    assert.equal(diagnostics[0]!.code, 'arity');
    assert.equal(diagnostics[0]!.range.start.line, lineOf('wrong-arity.ts', 'numpyFunction(add'));
  });

  test("an invalid Tout dtype ('flaot32', and 'int23' in a list): the runtime’s message and a suggestion", async () => {
    const { diagnostics } = await openFixture('invalid-dtype.ts');
    const lines = messages(diagnostics);
    assert.equal(lines.length, 2, lines.join('\n'));
    // TensorFlow's first line, then the runtime's explanation (both from runtime/tout/tout.ts).
    const [typo, typoList] = lines.map((l) => l.split('\n'));
    assert.equal(typo![0], "Cannot convert the argument `type_value`: 'flaot32' to a TensorFlow DType.");
    assert.ok(
      typo![1]!.startsWith(`  Invalid Tout for 'typo': Tout is "flaot32", which is not a TensorFlow dtype. Use one of float16, bfloat16, float32,`),
      typo![1],
    );
    assert.ok(typo![1]!.endsWith("Did you mean 'float32'?"), typo![1]);
    assert.equal(typoList![0], "Cannot convert the argument `type_value`: 'int23' to a TensorFlow DType.");
    assert.ok(typoList![1]!.startsWith(`  Invalid Tout for 'typo_list': Tout[1] is "int23", which is not a TensorFlow dtype.`), typoList![1]);
    assert.ok(typoList![1]!.endsWith("Did you mean 'int32'?"), typoList![1]);
    const source = fs.readFileSync(lspFixture('invalid-dtype.ts'), 'utf8').split('\n');
    const at = (d: Diagnostic) => source[d.range.start.line]!.slice(d.range.start.character, d.range.end.character);
    assert.deepEqual(diagnostics.map(at), ["'flaot32'", "'int23'"]);
  });

  test('a correct file (tensors, NdArrays, tuples for list Touts, numbers, compat.v1.pyFunc, namespace import): none', async () => {
    const { diagnostics } = await openFixture('correct.ts');
    assert.deepEqual(messages(diagnostics), []);
  });
});

describe('less common cases', { timeout: WAIT_MS * 2 }, () => {
  test('nothing returned, a boolean, a Tout constant, a renamed import, an imported callback', async () => {
    const { diagnostics } = await openFixture('more-cases.ts');
    assert.deepEqual(
      diagnostics.map((d) => [d.code, messages([d])[0]!.split('\n')[0]]),
      [
        ['tout-count', 'logs_only returns 0 values, but expects to see 1 values.'],
        ['tout-dtype', '0-th value returned by is_big is bool, but expects float'],
        ['tout-count', 'one_for_two returns 1 values, but expects to see 2 values.'],
        ['arity', "'log_huber' takes 2 arguments but inp has 1 tensor: func must take as many arguments as there are tensors in inp."],
      ],
    );
    assert.match(messages(diagnostics)[0]!, /use Tout \[\] for a callback that returns nothing/);
  });

  test('JavaScript: an async callback returns a Promise, which is no tensor', async () => {
    const { diagnostics } = await openFixture('async-callback.js');
    assert.equal(diagnostics.length, 1);
    assert.equal(diagnostics[0]!.code, 'tout-value');
    assert.match(
      messages(diagnostics)[0]!,
      /^0-th value returned by async_cb is not a tensor: the callback returns a Promise\. Wrapped callbacks run synchronously/,
    );
  });

  test('CommonJS: require, a namespace object and compat.v1.py_func with its name argument', async () => {
    const { diagnostics } = await openFixture('required.cjs');
    assert.deepEqual(
      messages(diagnostics).map((m) => m.split('\n')[0]),
      ['0-th value returned by widen_cjs is double, but expects float'],
    );
  });
});

describe('edits', { timeout: WAIT_MS * 2 }, () => {
  test('fixing the returned array clears the diagnostic; breaking it again brings it back', async () => {
    const original = fs.readFileSync(lspFixture('float64-for-float32.ts'), 'utf8');
    const file = path.join(scratch, 'edited.ts');
    fs.writeFileSync(file, original);
    const uri = await client.open(file, original);
    assert.equal((await client.diagnostics(uri)).length, 2);
    const fixed = original.replaceAll('Float64Array', 'Float32Array');
    const clean = await client.diagnostics(uri, { version: await client.change(uri, fixed) });
    assert.deepEqual(messages(clean), []);
    const broken = fixed.replace("'float32', { name: 'normalize' }", "'int32', { name: 'normalize' }");
    const again = await client.diagnostics(uri, { version: await client.change(uri, broken) });
    assert.deepEqual(
      messages(again).map((m) => m.split('\n')[0]),
      ['0-th value returned by normalize is float, but expects int32'],
    );
    assert.match(messages(again)[0]!, /Return int32 data or change Tout to 'float32'\./);
    await client.closeDocument(uri);
  });
});

describe('a generated 2,000-line program', { timeout: WAIT_MS * 2 }, () => {
  test('gets one diagnostic per Float64Array callback, on the right lines', async () => {
    const program = generateProgram(2000);
    assert.equal(program.lines, 2000);
    const file = path.join(scratch, 'generated.ts');
    fs.writeFileSync(file, program.text);
    const uri = await client.open(file, program.text);
    const diagnostics = await client.diagnostics(uri);
    assert.equal(diagnostics.length, program.mismatches);
    assert.ok(program.mismatches >= 9);
    const lines = program.text.split('\n');
    for (const d of diagnostics) {
      assert.match(messages([d])[0]!, /^0-th value returned by cb_\d+ is double, but expects float\n/);
      assert.match(lines[d.range.start.line]!, /numpyFunction\(callback_\d+,/);
    }
  });
});
