/**
 * Code lenses, hovers and the last run's diagnostics, over the real server process: a trace
 * written in the CLI's format (runtime/cli/trace.ts) and real ones from `tfjs-callbacks run
 * --trace`, announced with the tfjsCallbacks/traceUpdated notification.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { DiagnosticSeverity, type MarkupContent } from 'vscode-languageserver-protocol';
import type { TraceFile } from '../../runtime/cli/trace.js';
import type { CallbackInvocation } from '../../runtime/events.js';
import type { TensorSummary } from '../../runtime/summary.js';
import { tempDir } from '../fixtures/callback-models.js';
import { runCli } from '../fixtures/spawn.js';
import { LspClient, lspFixture, messages, uriOf, WAIT_MS } from '../helpers/lsp.js';

const LAST_RUN = 'tfjs-callbacks (last run)';
const program = lspFixture('last-run.ts');
const programLines = fs.readFileSync(program, 'utf8').split('\n');
/** 0-based line of the wrapper call of a callback in last-run.ts. */
const callLine = (callback: string) => programLines.findIndex((l) => l.includes(`numpyFunction(${callback},`));
const { dir, cleanup } = tempDir('lsp-last-run-');
let client: LspClient;

before(async () => {
  client = await LspClient.start();
});
after(async () => {
  await client?.stop();
  cleanup();
});

function summary(dtype: 'float32' | 'float64', shape: number[]): TensorSummary {
  const size = shape.reduce((a, b) => a * b, 1);
  return { dtype, shape, size, min: 1, max: 4, mean: 2.5, nanCount: 0, infCount: 0, zeroCount: 0, exact: true, counted: size, preview: [1, 2, 3, 4] };
}

function invocation(id: number, name: string, line: number, durationMs: number, mismatch?: string): CallbackInvocation {
  return {
    id,
    callback: { name, token: `pyfunc_${name === 'scale' ? 0 : 1}`, kind: 'numpy_function', stateful: true, functionName: name },
    op: 'PyFunc',
    Tout: ['float32'],
    Tin: ['float32'],
    callSite: { file: program, line: line + 1, column: 3 },
    inputs: [summary('float32', [2, 2])],
    parameterNames: ['a'],
    outputs: [summary(mismatch ? 'float64' : 'float32', [2, 2])],
    durationMs,
    toutCheck: mismatch
      ? {
          ok: false,
          mismatches: [
            { problem: 'dtype', index: 0, expected: 'float32', actual: 'float64', message: mismatch, short: '0-th value is double, but expects float' },
          ],
          narrowed: [],
          conversions: [],
        }
      : { ok: true, mismatches: [], narrowed: [], conversions: [] },
    memoized: false,
  };
}

const WIDEN_MISMATCH =
  "0-th value returned by widen is double, but expects float\n  the value is an NdArray of shape [2,2] and dtype float64. This is numpy's float64 mistake in JavaScript: float64 data is double precision.";

/** A trace as `tfjs-callbacks run --trace` writes it. */
function writeTrace(file: string): string {
  const invocations = [
    invocation(1, 'scale', callLine('scale'), 1),
    invocation(2, 'scale', callLine('scale'), 2),
    invocation(3, 'scale', callLine('scale'), 3),
    invocation(4, 'widen', callLine('widen'), 0.5, WIDEN_MISMATCH),
  ];
  const trace: TraceFile = {
    version: 1,
    tool: 'tfjs-callbacks',
    target: program,
    cwd: path.dirname(program),
    backend: undefined,
    startedAt: new Date().toISOString(),
    invocations,
    summary: { invocations: 4, callbacks: 2, toutMismatches: 1, errors: 0, reused: 0, nonFinite: 0, callbackMs: 6.5 },
  };
  fs.writeFileSync(file, JSON.stringify(trace, null, 2));
  return file;
}

function hoverText(hover: Awaited<ReturnType<LspClient['hover']>>): string {
  assert.ok(hover, 'a hover');
  return (hover.contents as MarkupContent).value;
}

describe('code lenses', { timeout: WAIT_MS }, () => {
  test('Run graph and Debug graph at the top with the document, Break on call above each wrapper call', async () => {
    const file = lspFixture('correct.ts');
    const uri = await client.open(file);
    await client.diagnostics(uri);
    const lenses = (await client.codeLenses(uri)) ?? [];
    const top = lenses.filter((l) => l.range.start.line === 0);
    assert.deepEqual(
      top.map((l) => [l.command?.title, l.command?.command, l.command?.arguments]),
      [
        ['Run graph', 'tfjsCallbacks.runGraph', [uri]],
        ['Debug graph', 'tfjsCallbacks.debugGraph', [uri]],
      ],
    );
    const breaks = lenses.filter((l) => l.command?.command === 'tfjsCallbacks.breakOnCallback');
    assert.deepEqual(
      breaks.map((l) => l.command?.arguments),
      [['log_huber'], ['to_float32'], ['features'], ['pair'], ['numbers'], ['doubles'], ['side_effect']],
    );
    assert.ok(breaks.every((l) => l.command?.title === 'Break on call'));
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    assert.match(lines[breaks[0]!.range.start.line]!, /pyFunction\(log_huber/);
    // The anonymous callback with no name has a label-only lens saying how to break on it.
    const unnamed = lenses.filter((l) => l.command?.command === '');
    assert.equal(unnamed.length, 1);
    assert.match(unnamed[0]!.command!.title, /give this callback a name/);
    assert.match(lines[unnamed[0]!.range.start.line]!, /v\.map\(Math\.sinh\)/);
  });

  test('a file that does not import the runtime gets none', async () => {
    const uri = await client.open(lspFixture('generate.ts'));
    assert.deepEqual(await client.codeLenses(uri), []);
  });
});

describe('a trace written in the CLI format', { timeout: WAIT_MS }, () => {
  let uri: string;
  before(async () => {
    uri = await client.open(program);
    assert.deepEqual(messages(await client.diagnostics(uri)), [], 'no static diagnostics: the mismatch is only visible at run time');
  });

  test('hover before any run says none is recorded', async () => {
    const text = hoverText(await client.hover(uri, callLine('scale'), programLines[callLine('scale')]!.indexOf('numpyFunction') + 2));
    assert.match(
      text,
      /\*\*numpyFunction\*\* \(numpy_function\) · callback `scale` \(function scale\)|\*\*numpyFunction\*\* \(numpy_function\) · callback `scale`/,
    );
    assert.match(text, /No run recorded yet/);
    assert.equal(await client.hover(uri, 0, 0), null, 'no hover away from wrapper calls');
  });

  test('traceUpdated: the mismatch becomes a last-run diagnostic at the wrapper call', async () => {
    const mark = client.mark();
    await client.traceUpdated(writeTrace(path.join(dir, 'trace.json')));
    const diagnostics = await client.diagnostics(uri, { after: mark });
    const lastRun = diagnostics.filter((d) => d.source === LAST_RUN);
    assert.equal(lastRun.length, 1, JSON.stringify(diagnostics));
    assert.equal(lastRun[0]!.range.start.line, callLine('widen'));
    assert.equal(programLines[callLine('widen')]!.slice(lastRun[0]!.range.start.character, lastRun[0]!.range.end.character), 'numpyFunction');
    const [first, second, third] = messages(lastRun)[0]!.split('\n');
    assert.equal(first, '0-th value returned by widen is double, but expects float');
    assert.match(second!, /the value is an NdArray of shape \[2,2\] and dtype float64/);
    assert.match(third!, /last run: Tout mismatch in all 1 call of widen \[pyfunc_1\]/);
  });

  test('hover: calls, input and output dtypes and shapes, mean time', async () => {
    const text = hoverText(await client.hover(uri, callLine('scale'), programLines[callLine('scale')]!.indexOf('numpyFunction') + 1));
    assert.match(text, /\*\*Last run\*\* · 3 calls of scale \[pyfunc_0\] · mean 2\.00 ms/);
    assert.match(text, /- in `float32\[2,2\]` → out `float32\[2,2\]`/);
    assert.match(text, /Tout check: ok in every call/);
  });

  test('hover: the last mismatch message', async () => {
    const text = hoverText(await client.hover(uri, callLine('widen'), programLines[callLine('widen')]!.indexOf('numpyFunction')));
    assert.match(text, /1 call of widen \[pyfunc_1\] · mean 0\.50 ms/);
    assert.match(text, /- in `float32\[2,2\]` → out `float64\[2,2\]`/);
    assert.match(text, /\*\*Last Tout mismatch\*\* \(1 of 1 calls\):/);
    assert.ok(text.includes('0-th value returned by widen is double, but expects float'), text);
  });

  test('Break on call uses the names; the callbacks request lists them with 1-based lines', async () => {
    const lenses = (await client.codeLenses(uri)) ?? [];
    assert.deepEqual(
      lenses.filter((l) => l.command?.command === 'tfjsCallbacks.breakOnCallback').map((l) => l.command?.arguments),
      [['scale'], ['widen']],
    );
    const callbacks = await client.callbacks(uri);
    assert.deepEqual(callbacks, [
      { name: 'scale', functionName: 'scale', kind: 'numpy_function', uri, line: callLine('scale') + 1, api: 'numpyFunction', token: 'pyfunc_0' },
      { name: 'widen', functionName: 'widen', kind: 'numpy_function', uri, line: callLine('widen') + 1, api: 'numpyFunction', token: 'pyfunc_1' },
    ]);
  });

  test('a trace that cannot be read clears the last run; one not written yet (a fresh workspace) is no warning', async () => {
    const mark = client.mark();
    await client.traceUpdated(path.join(dir, 'missing.json'));
    assert.deepEqual(messages(await client.diagnostics(uri, { after: mark })), []);
    const text = hoverText(await client.hover(uri, callLine('scale'), programLines[callLine('scale')]!.indexOf('numpyFunction')));
    assert.match(text, /Not called in the last run/);
    assert.deepEqual(
      client.logs.filter((l) => l.includes('missing.json')),
      [],
    );
    // A trace path that is a folder is still told.
    const folder = path.join(dir, 'a-folder.json');
    fs.mkdirSync(folder, { recursive: true });
    const again = client.mark();
    await client.traceUpdated(folder);
    await client.diagnostics(uri, { after: again });
    assert.ok(
      client.logs.some((l) => l.includes(`cannot read the trace ${folder}`) && l.includes('a folder')),
      client.logs.join('\n'),
    );
  });
});

describe('a trace from the CLI (tfjs-callbacks run --trace)', { timeout: WAIT_MS * 3 }, () => {
  test('its Tout mismatch is a last-run diagnostic and its calls show in the hover', async () => {
    const traceFile = path.join(dir, 'cli', 'trace.json');
    const run = runCli(['run', program, '--trace', traceFile]);
    assert.equal(run.status, 0, `${run.stdout}\n${run.stderr}`);
    assert.ok(run.stdout.includes('widen failed: 0-th value returned by widen is double, but expects float'), run.stdout);
    const uri = uriOf(program);
    const mark = client.mark();
    await client.traceUpdated(traceFile);
    const lastRun = (await client.diagnostics(uri, { after: mark })).filter((d) => d.source === LAST_RUN);
    assert.equal(lastRun.length, 1);
    assert.equal(lastRun[0]!.range.start.line, callLine('widen'));
    assert.ok(messages(lastRun)[0]!.startsWith('0-th value returned by widen is double, but expects float\n'), messages(lastRun)[0]);
    const text = hoverText(await client.hover(uri, callLine('scale'), programLines[callLine('scale')]!.indexOf('numpyFunction')));
    assert.match(text, /3 calls of scale \[pyfunc_\d+\] · mean \d+\.\d\d ms/);
    assert.match(text, /- in `float32\[2,2\]` → out `float32\[2,2\]`/);
  });
});

describe('NaN/Inf outputs in a trace from the CLI', { timeout: WAIT_MS * 3 }, () => {
  test('a warning on the call, with the counts the CLI printed (runtime/non-finite-text.ts)', async () => {
    const file = lspFixture('non-finite-run.ts');
    const call = fs
      .readFileSync(file, 'utf8')
      .split('\n')
      .findIndex((l) => l.includes('numpyFunction(logit,'));
    const uri = await client.open(file);
    assert.deepEqual(messages(await client.diagnostics(uri)), [], 'nothing before a run');
    const traceFile = path.join(dir, 'non-finite', 'trace.json');
    const run = runCli(['run', file, '--backend', 'cpu', '--trace', traceFile]);
    assert.equal(run.status, 0, `${run.stdout}\n${run.stderr}`);
    const cli = /^ {4}⚠ (.+) in float32\[6\]$/m.exec(run.stdout)?.[1];
    assert.equal(cli, '1 NaN, 2 −Inf, 1 +Inf', run.stdout);

    const mark = client.mark();
    await client.traceUpdated(traceFile);
    const problems = (await client.diagnostics(uri, { after: mark })).filter((d) => d.code === 'non-finite-output');
    assert.deepEqual(
      problems.map((d) => [d.range.start.line, d.severity, d.source, d.message]),
      [[call, DiagnosticSeverity.Warning, LAST_RUN, `pyfunc_0 (logit) returned ${cli} in output 0 float32[6]\n  (last run: NaN/Inf outputs in all 1 call)`]],
    );
  });
});
