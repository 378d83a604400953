/**
 * What Run Graph's message says after a run (extension/run-announcement.ts), from the trace the real
 * CLI writes: the CLI's own summary line, NaN/Inf outputs counted and never under a ✓; a failed
 * run (✗) an error toast, NaN/Inf (⚠) a warning, a clean run (✓) information.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';
import { runAnnouncement } from '../../extension/run-announcement.js';
import type { TraceFile } from '../../runtime/cli/trace.js';
import { tempDir } from '../fixtures/callback-models.js';
import { runCli, writeFile } from '../fixtures/spawn.js';
import { fixture } from '../helpers/dap.js';

const { dir: root, cleanup } = tempDir('run-announcement-');
after(cleanup);

/** Runs `program` with the CLI: its summary line and its trace. */
function run(program: string): { line: string; trace: TraceFile; status: number | null } {
  const traceFile = path.join(root, `${path.basename(program)}.trace.json`);
  const result = runCli(['run', program, '--backend', 'cpu', '--trace', traceFile]);
  const line = result.stdout.split('\n').findLast((l) => /^[✓✗⚠] \d+ callback invocations? of /.test(l));
  assert.ok(line, result.stdout + result.stderr);
  return { line, trace: JSON.parse(fs.readFileSync(traceFile, 'utf8')) as TraceFile, status: result.status };
}

test('a run with NaN/Inf outputs: the count the Output shows, and a warning, not a ✓', () => {
  const { line, trace, status } = run(fixture('signed-nonfinite-program.ts'));
  assert.equal(status, 0);
  assert.match(line, /· 1 with NaN\/Inf outputs ·/);
  const said = runAnnouncement('signed-nonfinite-program.ts', 0, trace);
  assert.equal(said.severity, 'warning');
  assert.equal(said.text, `Run Graph ${line.slice(0, 1)} signed-nonfinite-program.ts: ${line.slice(2)}`);
  assert.doesNotMatch(said.text, /✓/);
});

test('a clean run: ✓, with the same counts as the CLI’s line', () => {
  const program = writeFile(
    root,
    'clean.mts',
    `import { numpyFunction, selectBackend, tf } from 'tfjs-callback-debugger/runtime';\nawait selectBackend();\nnumpyFunction((x) => Float32Array.from(x.data as Float32Array, (v) => v * 2), [tf.tensor([1, 2])], 'float32');\n`,
  );
  const { line, trace } = run(program);
  assert.match(line, /^✓ /);
  const said = runAnnouncement('clean.mts', 0, trace);
  assert.deepEqual(said, { severity: 'info', text: `Run Graph ✓ clean.mts: ${line.slice(2)}` });
});

test('a failed run: ✗, shown as an error, not a warning', () => {
  const traceFile = path.join(root, 'throw-program.ts.trace.json');
  const result = runCli(['run', fixture('throw-program.ts'), '--backend', 'cpu', '--trace', traceFile]);
  assert.equal(result.status, 1, result.stdout + result.stderr);
  const said = runAnnouncement('throw-program.ts', 1, JSON.parse(fs.readFileSync(traceFile, 'utf8')) as TraceFile);
  assert.equal(said.severity, 'error');
  assert.match(said.text, /^Run Graph ✗ throw-program\.ts: .* — numpy_function callback 'pyfunc_0' raised: RangeError: checked_log: input 1 is below 100/);
});
