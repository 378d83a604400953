/**
 * The CLI against runs that would end silently wrong (issue 11): a top-level await or async
 * callback that never settles (Node exits 0 with no summary), ragged --inputs (a short row becomes
 * NaN), --inputs that is not a regular file, and a cyclic model. Each exits non-zero saying what
 * was wrong and where.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { callbackNode, placeholder, writeGraphModel } from '../../scripts/lib/graph-model-writer.js';
import { eagerModel, tempDir } from '../fixtures/callback-models.js';
import { runCli, writeFile } from '../fixtures/spawn.js';

const { dir: root, cleanup } = tempDir('hostile-cli-');
after(cleanup);

function summaryLine(stdout: string): string | undefined {
  return stdout
    .split('\n')
    .filter((l) => /^[✓✗⚠] \d+ callback invocations? of /.test(l))
    .at(-1);
}

describe('runs that never settle', () => {
  test("a program whose top-level await never settles exits with Node's code 13, saying so, with the summary", () => {
    const program = writeFile(root, 'stuck.mjs', `console.log('started');\nawait new Promise(() => {});\nconsole.log('never');\n`);
    const run = runCli(['run', program, '--backend', 'cpu']);
    assert.equal(run.status, 13, `${run.stdout}\n${run.stderr}`);
    assert.match(run.stdout, /UnsettledRunError/);
    assert.ok(run.stdout.includes(`${program} never finished: its top-level await`), run.stdout);
    assert.doesNotMatch(run.stdout, /^never$/m);
    assert.ok(summaryLine(run.stdout)?.startsWith('✗ 0 callback invocations'), run.stdout);
  });

  test('a program that awaits a timer still finishes normally (the loop was not empty)', () => {
    const program = writeFile(root, 'timer.mjs', `await new Promise((r) => setTimeout(r, 50));\nconsole.log('done');\n`);
    const run = runCli(['run', program, '--backend', 'cpu']);
    assert.equal(run.status, 0, `${run.stdout}\n${run.stderr}`);
    assert.match(run.stdout, /^done$/m);
    assert.ok(summaryLine(run.stdout)?.startsWith('⚠ 0 callback invocations'), run.stdout);
    assert.match(run.stdout, /^ {2}no graph callback ran: /m);
  });

  test('a model whose async callback never settles exits 1 naming the callback node', () => {
    const model = eagerModel(root, 'stuck-model');
    const callbacks = writeFile(root, 'stuck-callbacks.mjs', `export async function py(x) {\n  await new Promise(() => {});\n  return x;\n}\n`);
    const run = runCli(['run', model, '--callbacks', callbacks, '--backend', 'cpu']);
    assert.equal(run.status, 1, `${run.stdout}\n${run.stderr}`);
    assert.match(run.stdout, /UnsettledRunError/);
    assert.match(run.stdout, /callback 'py' \[EagerPyFunc\] in node 'py' of stuck-model/);
    assert.match(run.stdout, /never finished/);
    assert.ok(summaryLine(run.stdout)?.startsWith('✗ 0 callback invocations'), run.stdout);
  });
});

describe('--inputs', () => {
  let model: string;
  let callbacks: string;
  before(() => {
    model = eagerModel(root, 'inputs-model');
    callbacks = writeFile(root, 'identity-callbacks.mjs', `export const py = (x) => x;\n`);
  });

  test('a ragged row is an error naming the input and the row, not NaN', () => {
    const inputs = writeFile(
      root,
      'ragged.json',
      JSON.stringify({
        x: [
          [1, 2, 3],
          [4, 5],
        ],
      }),
    );
    const run = runCli(['run', model, '--callbacks', callbacks, '--inputs', inputs, '--backend', 'cpu']);
    assert.equal(run.status, 1, `${run.stdout}\n${run.stderr}`);
    assert.ok(run.stdout.includes(`Input 'x' in ${inputs} is ragged: row x[1] has 2 elements, but x[0] has 3`), run.stdout);
    assert.doesNotMatch(run.stdout, /output out:/, 'the model did not run');
  });

  test('null among the values is an error naming where, not a silent 0', () => {
    const inputs = writeFile(root, 'null.json', JSON.stringify({ x: [[1, null, 3]] }));
    const run = runCli(['run', model, '--callbacks', callbacks, '--inputs', inputs, '--backend', 'cpu']);
    assert.equal(run.status, 1, `${run.stdout}\n${run.stderr}`);
    assert.match(run.stdout, /x\[0\]\[1\] is null, not a number/);
  });

  test('data whose count does not fit the shape is an error naming the input', () => {
    const inputs = writeFile(root, 'count.json', JSON.stringify({ x: { dtype: 'float32', shape: [2, 3], data: [1, 2, 3, 4, 5] } }));
    const run = runCli(['run', model, '--callbacks', callbacks, '--inputs', inputs, '--backend', 'cpu']);
    assert.equal(run.status, 1, `${run.stdout}\n${run.stderr}`);
    assert.ok(run.stdout.includes(`Input 'x' in ${inputs} has 5 values in data, but its shape [2, 3] holds 6`), run.stdout);
  });

  test('a FIFO as --inputs fails at once instead of blocking', () => {
    const fifo = path.join(root, 'inputs.fifo.json');
    assert.equal(spawnSync('mkfifo', [fifo]).status, 0);
    const run = runCli(['run', model, '--callbacks', callbacks, '--inputs', fifo, '--backend', 'cpu']);
    assert.equal(run.status, 1, `${run.stdout}\n${run.stderr}`);
    assert.match(run.stdout, /named pipe \(FIFO\), not a regular file/);
  });
});

test('a cyclic model is a ModelFormatError naming the nodes, not a run with the callback skipped', () => {
  const model = eagerModel(root, 'cyclic');
  const json = JSON.parse(fs.readFileSync(model, 'utf8'));
  const py = json.modelTopology.node.find((n: { name: string }) => n.name === 'py');
  py.input = [...py.input, 'out'];
  fs.writeFileSync(model, JSON.stringify(json));
  const callbacks = writeFile(root, 'cyclic-callbacks.mjs', `export const py = (x) => x;\n`);
  const run = runCli(['run', model, '--callbacks', callbacks, '--backend', 'cpu']);
  assert.equal(run.status, 1, `${run.stdout}\n${run.stderr}`);
  assert.match(run.stdout, /ModelFormatError/);
  assert.match(run.stdout, /form a cycle: 'py' → 'out' → 'py'|form a cycle: 'out' → 'py' → 'out'/);
});

test('a string placeholder with no --inputs is an InputsError saying how to give it, not a raw TF.js error', () => {
  const model = writeGraphModel(path.join(root, 'strings'), [
    placeholder('words', [-1], 'DT_STRING'),
    callbackNode('upper', 'EagerPyFunc', ['words'], 'pyfunc_upper', ['DT_STRING'], ['DT_STRING']),
  ]);
  const callbacks = writeFile(root, 'strings-callbacks.mjs', `export const upper = (x) => x;\n`);
  const run = runCli(['run', model, '--callbacks', callbacks, '--backend', 'cpu']);
  assert.equal(run.status, 1, `${run.stdout}\n${run.stderr}`);
  assert.match(
    run.stdout,
    /✗ .*strings.model\.json failed: InputsError: Input 'words' is a string placeholder \(shape \[-1\]\): the CLI seeds numbers only\. Give its values with --inputs <file\.json>, e\.g\. \{"words": \{"dtype": "string", "shape": \[1\], "data": \["text"\]\}\}\.\n/,
  );
  assert.doesNotMatch(`${run.stdout}\n${run.stderr}`, /^\s+at /m, 'no stack');
  // With the values given, it runs.
  const inputs = writeFile(root, 'strings-inputs.json', JSON.stringify({ words: { dtype: 'string', shape: [2], data: ['a', 'b'] } }));
  const given = runCli(['run', model, '--callbacks', callbacks, '--inputs', inputs, '--backend', 'cpu']);
  assert.equal(given.status, 0, `${given.stdout}\n${given.stderr}`);
});

describe('a long run stays flat', () => {
  /** A program making `calls` callback calls that counts, after a forced GC, the invocation records still alive. */
  function countingProgram(calls: number): string {
    return writeFile(
      root,
      `long-run-${calls}.mjs`,
      [
        "import { addCallbackObserver, pyFunction, tf } from 'tfjs-callback-debugger/runtime';",
        'const records = [];',
        '// The same records the CLI is handed (one object per invocation, for every observer).',
        'addCallbackObserver({ onCallbackEnd: (invocation) => records.push(new WeakRef(invocation)) });',
        'const x = tf.scalar(1);',
        'const double = (t) => t.mul(2);',
        `for (let i = 0; i < ${calls}; i++) tf.dispose(pyFunction(double, [x], 'float32'));`,
        '// A WeakRef holds its target until the job that made it ends.',
        'await new Promise((resolve) => setTimeout(resolve, 0));',
        'globalThis.gc();',
        'await new Promise((resolve) => setTimeout(resolve, 0));',
        'console.log(`alive ${records.filter((r) => r.deref() !== undefined).length} of ${records.length}`);',
        '',
      ].join('\n'),
    );
  }

  test('tfjs-callbacks run keeps no invocation record, with or without --trace; the trace and summary still count them all', () => {
    const calls = 3000;
    const program = countingProgram(calls);
    const env = { NODE_OPTIONS: '--expose-gc' };
    const plain = runCli(['run', program, '--backend', 'cpu'], { env });
    assert.equal(plain.status, 0, `${plain.stdout}\n${plain.stderr}`);
    assert.match(plain.stdout, /^alive [0-2] of 3000$/m, 'at most the last one or two, not every one');
    assert.ok(summaryLine(plain.stdout)?.startsWith(`✓ ${calls} callback invocations of 1 callback`), plain.stdout.slice(-500));

    const trace = path.join(root, 'long-run', 'trace.json');
    const traced = runCli(['run', program, '--backend', 'cpu', '--trace', trace], { env });
    assert.equal(traced.status, 0, `${traced.stdout}\n${traced.stderr}`);
    assert.match(traced.stdout, /^alive [0-2] of 3000$/m, 'with --trace too: each record is written as it ends');
    const written = JSON.parse(fs.readFileSync(trace, 'utf8'));
    assert.equal(written.invocations.length, calls);
    assert.equal(written.summary.invocations, calls);
    assert.equal(written.invocations[calls - 1].callback.token, written.invocations[0].callback.token);
    assert.deepEqual(fs.readdirSync(path.dirname(trace)), ['trace.json'], 'no partial file left beside it');
  });
});
