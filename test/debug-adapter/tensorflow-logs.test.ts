/**
 * TensorFlow's startup lines stay out of a program's output on the native backend, in the Debug
 * Console (the adapter reads the program's stderr) and in `tfjs-callbacks run` (the CLI runs it in
 * a child whose stderr it reads); TF_CPP_MIN_LOG_LEVEL=0 shows them. The program run with plain
 * Node first says whether this CPU prints them at all (oneDNN on by default).
 * Real adapter, real CLI, real tfjs-node built by setup-native.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { nativeRoot } from '../../runtime/native/cache.js';
import { runCli, runNode, tsxImport } from '../fixtures/spawn.js';
import { nativeLoads } from '../helpers/backends.js';
import { root, useDebugAdapter, withSession } from '../helpers/dap.js';

const PROGRAM = path.join(root, 'test', 'fixtures', 'native', 'tf-logs-program.ts');
const NATIVE = { TFJS_CALLBACKS_NATIVE_DIR: nativeRoot() };
const STARTUP = /absl::InitializeLog|oneDNN custom operations/;
const T = { timeout: 120_000 };

const startupLines = (text: string): string[] => text.split('\n').filter((l) => STARTUP.test(l));
/** Which of the pair `text` holds (the lines carry a time and a pid). */
const startupKinds = (text: string): string[] => startupLines(text).map((l) => (l.includes('absl') ? 'absl' : 'oneDNN'));

describe("TensorFlow's startup lines on the native backend", {
  skip: nativeLoads() ? false : 'no native backend here (scripts/setup-test-env.sh builds one)',
}, () => {
  useDebugAdapter();
  /** What the program prints to stderr run with plain Node: the pair, on CPUs where oneDNN is on by default. */
  let raw: string[] = [];
  before(() => {
    const plain = runNode(['--import', tsxImport, PROGRAM], { env: NATIVE });
    assert.equal(plain.status, 0, plain.stderr);
    assert.match(plain.stdout, /backend tensorflow y=2/);
    raw = startupKinds(plain.stderr);
  });

  test('the Debug Console shows the program’s stderr without them, in order; TF_CPP_MIN_LOG_LEVEL=0 shows them', T, async (t) => {
    if (raw.length === 0) t.diagnostic('this CPU prints no startup lines: only that none appear is checked');
    const shown = await withSession(async (s) => {
      await s.launch({ program: PROGRAM, backend: 'tensorflow' });
      await s.terminated();
      return s.output('stderr');
    }, NATIVE);
    assert.deepEqual(startupLines(shown), [], shown);
    assert.match(shown, /program: loading the native backend\n(.*\n)*program: done\n/);
    const asked = await withSession(async (s) => {
      await s.launch({ program: PROGRAM, backend: 'tensorflow', env: { TF_CPP_MIN_LOG_LEVEL: '0' } });
      await s.terminated();
      return s.output('stderr');
    }, NATIVE);
    for (const kind of raw) assert.ok(startupKinds(asked).includes(kind), `asked for, the ${kind} line shows:\n${asked}`);
  });

  test('`tfjs-callbacks run` prints the program’s stderr without them; TF_CPP_MIN_LOG_LEVEL=0 shows them', T, () => {
    const run = runCli(['run', PROGRAM], { env: NATIVE });
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /backend tensorflow y=2/);
    assert.deepEqual(startupLines(run.stderr), [], run.stderr);
    assert.equal(run.stderr, 'program: loading the native backend\nprogram: done\n');
    const asked = runCli(['run', PROGRAM], { env: { ...NATIVE, TF_CPP_MIN_LOG_LEVEL: '0' } });
    assert.equal(asked.status, 0, asked.stderr);
    for (const kind of raw) assert.ok(startupKinds(asked.stderr).includes(kind), `asked for, the ${kind} line shows:\n${asked.stderr}`);
    // A failing program's exit code and message still come through the child.
    const failing = runCli(['run', PROGRAM], { env: { ...NATIVE, TF_LOGS_PROGRAM_FAIL: '1' } });
    assert.equal(failing.status, 1, failing.stdout);
    assert.match(failing.stdout, /✗ .*tf-logs-program\.ts failed: Error: program: failed on purpose/);
    assert.deepEqual(startupLines(failing.stderr), [], failing.stderr);
    // `tfjs-callbacks backend`, which loads the native backend to report on it, prints none either.
    const report = runCli(['backend', '--backend', 'tensorflow'], { env: NATIVE });
    assert.equal(report.status, 0, report.stderr);
    assert.match(report.stdout, /^backend: tensorflow/m);
    assert.deepEqual(startupLines(report.stderr), [], report.stderr);
  });
});
