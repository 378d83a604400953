/**
 * What a callback returned that is no value (a ragged nested array, an object) is labelled as what
 * it is, not `float64[]`: on the CLI's invocation line and in the language server's hover from the
 * trace. The real CLI, its real trace.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';
import { observe, type TracedInvocation } from '../../extension/server/trace-store.js';
import { tempDir } from '../fixtures/callback-models.js';
import { runCli, writeFile } from '../fixtures/spawn.js';

const { dir: root, cleanup } = tempDir('returned-labels-');
after(cleanup);

test('a ragged nested array is "ragged nested array", an object "object (Object)", on the CLI line and in the hover', () => {
  const program = writeFile(
    root,
    'ragged.mts',
    [
      "import { numpyFunction, pyFunction, selectBackend, tf } from 'tfjs-callback-debugger/runtime';",
      'await selectBackend();',
      'const x = tf.tensor([1, 2, 3]);',
      'for (const call of [() => numpyFunction(function ragged() { return [[1, 2], [3]]; }, [x], "float32"), () => pyFunction(function settings() { return { scale: 2 }; }, [x], "float32")]) {',
      '  try { call(); } catch (err) { console.log("caught", (err as Error).name); }',
      '}',
      '',
    ].join('\n'),
  );
  const traceFile = path.join(root, 'trace.json');
  const run = runCli(['run', program, '--backend', 'cpu', '--trace', traceFile]);
  const lines = run.stdout.split('\n').filter((l) => l.startsWith('✗ '));
  assert.equal(lines.length, 3, `two invocation lines and the summary:\n${run.stdout}\n${run.stderr}`);
  assert.match(lines[0]!, /\(ragged\) \[PyFunc\] in float32\[3\] → out ragged nested array {2}Tout \[float32\]/);
  assert.match(lines[1]!, /\(settings\) \[EagerPyFunc\] in float32\[3\] → out object \(Object\) {2}Tout \[float32\]/);
  assert.doesNotMatch(run.stdout, /float64\[\]/);

  const { invocations } = JSON.parse(fs.readFileSync(traceFile, 'utf8')) as { invocations: TracedInvocation[] };
  const hovers = invocations.map((inv) => observe([inv])?.signatures.map((s) => s.outputs));
  assert.deepEqual(hovers, [['ragged nested array'], ['object (Object)']]);
});
