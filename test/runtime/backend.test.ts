/**
 * Backend selection. The backend is process-wide, so each case runs in its own child process:
 * a small .mts program in a temp dir (no node_modules there) that imports the runtime by absolute
 * URL, calls selectBackend and prints JSON. @tensorflow/tfjs-node is not installed here.
 */
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { BACKEND_CHOICES, describeBackend, type BackendReport } from '../../runtime/index.js';
import { backendDetails } from '../../runtime/backend.js';
import { tempDir } from '../fixtures/callback-models.js';
import { linesStartingWith, repoRoot, runNode, runtimeEntryUrl, tsxImport, writeFile, type NodeResult } from '../fixtures/spawn.js';
import { nativeLoads } from '../helpers/backends.js';
import { TFJS_VERSION } from '../helpers/projects.js';
import { nativeRoot } from '../../runtime/native/cache.js';

const { dir: root, cleanup } = tempDir('backend-test-');
after(cleanup);

const BANNER = 'Hi, looks like you are running TensorFlow.js in Node.js';
const REPORT_PREFIX = '[tfjs-callbacks] backend:';

interface Outcome {
  reports: BackendReport[];
  tfBackend?: string;
  sum?: number[];
  error?: string;
}

let scripts = 0;

/**
 * Runs `selectBackend(options)` once per entry of `calls` in a fresh process, then one tensor op.
 * `projectDir` is the child's cwd (the default place selectBackend looks for tfjs-node).
 */
function select(calls: readonly object[], env: Record<string, string | undefined> = {}, projectDir = root): { outcome: Outcome; run: NodeResult } {
  const script = writeFile(
    root,
    `select-${scripts++}.mts`,
    `import { selectBackend, tf } from ${JSON.stringify(runtimeEntryUrl)};
const out: Record<string, unknown> = { reports: [] };
try {
  for (const options of ${JSON.stringify(calls)}) (out.reports as unknown[]).push(await selectBackend(options));
  out.tfBackend = tf.getBackend();
  const sum = tf.add(tf.tensor1d([1, 2]), tf.tensor1d([3, 4]));
  out.sum = Array.from(sum.dataSync());
} catch (err) {
  out.error = (err as Error).message;
}
console.log('RESULT ' + JSON.stringify(out));
`,
  );
  const run = runNode(['--import', tsxImport, script], { cwd: projectDir, env });
  const line = linesStartingWith(run.stdout, 'RESULT ')[0];
  assert.ok(line, `no result from the child:\nstdout: ${run.stdout}\nstderr: ${run.stderr}`);
  return { outcome: JSON.parse(line.slice('RESULT '.length)) as Outcome, run };
}

describe('auto selection without tfjs-node', () => {
  test('auto picks wasm and says tfjs-node is not installed', () => {
    const { outcome, run } = select([{}]);
    assert.equal(outcome.error, undefined);
    const report = outcome.reports[0]!;
    assert.equal(report.backend, 'wasm');
    assert.equal(report.requested, 'auto');
    assert.equal(report.source, 'default');
    assert.match(report.reason, /^auto: WebAssembly/);
    assert.deepEqual(report.skipped, [
      { backend: 'tensorflow', why: '@tensorflow/tfjs-node is not installed (`tfjs-callbacks setup-native` builds it from a TensorFlow you have)' },
    ]);
    assert.equal(outcome.tfBackend, 'wasm');
    assert.deepEqual(outcome.sum, [4, 6]);
    const lines = linesStartingWith(run.stderr, REPORT_PREFIX);
    assert.equal(lines.length, 1, run.stderr);
    assert.equal(lines[0], '[tfjs-callbacks] backend: wasm (auto: WebAssembly; why: `tfjs-callbacks backend`)', 'one short line, the details one command away');
    assert.deepEqual(backendDetails(report), [
      `backend: wasm (${report.reason})`,
      'skipped tensorflow: @tensorflow/tfjs-node is not installed (`tfjs-callbacks setup-native` builds it from a TensorFlow you have)',
    ]);
  });

  test('TFJS_BACKEND=auto is the same as no choice', () => {
    const { outcome } = select([{ quiet: true }], { TFJS_BACKEND: 'auto' });
    assert.equal(outcome.reports[0]!.backend, 'wasm');
    assert.equal(outcome.reports[0]!.source, 'TFJS_BACKEND');
  });
});

describe('forcing a backend', () => {
  test('TFJS_BACKEND=cpu forces cpu', () => {
    const { outcome } = select([{ quiet: true }], { TFJS_BACKEND: 'cpu' });
    assert.equal(outcome.error, undefined);
    const report = outcome.reports[0]!;
    assert.equal(report.backend, 'cpu');
    assert.equal(report.requested, 'cpu');
    assert.equal(report.source, 'TFJS_BACKEND');
    assert.match(report.reason, /^TFJS_BACKEND: /);
    assert.deepEqual(report.skipped, []);
    assert.equal(outcome.tfBackend, 'cpu');
    assert.deepEqual(outcome.sum, [4, 6]);
  });

  test('TFJS_BACKEND=wasm forces wasm (case and spaces ignored)', () => {
    const { outcome } = select([{ quiet: true }], { TFJS_BACKEND: ' WASM ' });
    assert.equal(outcome.reports[0]!.backend, 'wasm');
    assert.equal(outcome.reports[0]!.requested, 'wasm');
    assert.equal(outcome.reports[0]!.source, 'TFJS_BACKEND');
    assert.deepEqual(outcome.reports[0]!.skipped, [], 'a forced backend tries nothing else');
    assert.equal(outcome.tfBackend, 'wasm');
  });

  test('the backend option overrides TFJS_BACKEND', () => {
    const { outcome } = select([{ backend: 'wasm', quiet: true }], { TFJS_BACKEND: 'cpu' });
    assert.equal(outcome.reports[0]!.backend, 'wasm');
    assert.equal(outcome.reports[0]!.source, 'option');
    assert.match(outcome.reports[0]!.reason, /^requested: /);
    assert.equal(outcome.tfBackend, 'wasm');
    const second = select([{ backend: 'cpu', quiet: true }], { TFJS_BACKEND: 'wasm' });
    assert.equal(second.outcome.reports[0]!.backend, 'cpu');
    assert.equal(second.outcome.tfBackend, 'cpu');
  });

  test('TFJS_BACKEND=tensorflow without tfjs-node fails, naming the package and how to install it', () => {
    const { outcome } = select([{}], { TFJS_BACKEND: 'tensorflow' });
    assert.ok(outcome.error, 'selectBackend rejects');
    assert.match(outcome.error, /Backend 'tensorflow' was requested by TFJS_BACKEND but cannot start/);
    assert.match(outcome.error, /@tensorflow\/tfjs-node is not installed/);
    assert.match(outcome.error, /npm install @tensorflow\/tfjs-node/);
    assert.match(outcome.error, /wasm/);
    assert.match(outcome.error, /cpu/);
  });

  test('the tensorflow option without tfjs-node fails the same way', () => {
    const { outcome } = select([{ backend: 'tensorflow' }]);
    assert.ok(outcome.error);
    assert.match(outcome.error, /Backend 'tensorflow' was requested but cannot start/);
    assert.match(outcome.error, /npm install @tensorflow\/tfjs-node/);
  });

  test('TFJS_BACKEND=bogus fails listing the choices', () => {
    const { outcome } = select([{}], { TFJS_BACKEND: 'bogus' });
    assert.ok(outcome.error);
    assert.match(outcome.error, /TFJS_BACKEND="bogus" is not a backend/);
    for (const choice of ['auto', 'tensorflow', 'wasm', 'cpu']) assert.ok(outcome.error.includes(choice), `lists ${choice}`);
  });
});

describe('the report', () => {
  test('is printed once on stderr, even when selectBackend is called twice', () => {
    const { outcome, run } = select([{}, {}]);
    assert.equal(outcome.reports.length, 2);
    assert.deepEqual(outcome.reports[1], outcome.reports[0]);
    assert.equal(linesStartingWith(run.stderr, REPORT_PREFIX).length, 1, run.stderr);
    assert.equal(linesStartingWith(run.stdout, REPORT_PREFIX).length, 0, 'not on stdout');
  });

  test('is printed once when a second call switches the backend', () => {
    const { outcome, run } = select([{ backend: 'wasm' }, { backend: 'cpu' }]);
    assert.deepEqual(
      outcome.reports.map((r) => r.backend),
      ['wasm', 'cpu'],
    );
    assert.equal(outcome.tfBackend, 'cpu');
    assert.equal(linesStartingWith(run.stderr, REPORT_PREFIX).length, 1, run.stderr);
  });

  test('quiet prints nothing', () => {
    const { run } = select([{ quiet: true }]);
    assert.equal(linesStartingWith(run.stderr, REPORT_PREFIX).length, 0, run.stderr);
  });

  test("tfjs's cpu banner is not printed when cpu is chosen", () => {
    const { outcome, run } = select([{}], { TFJS_BACKEND: 'cpu' });
    assert.equal(outcome.tfBackend, 'cpu');
    assert.deepEqual(outcome.sum, [4, 6], 'a tensor was made on cpu');
    assert.ok(!`${run.stdout}${run.stderr}`.includes(BANNER), `banner printed:\n${run.stderr}`);
    assert.match(linesStartingWith(run.stderr, REPORT_PREFIX)[0] ?? '', /backend: cpu \(TFJS_BACKEND: pure JavaScript\)/);
  });

  test("nor when the program switches to cpu itself after setup-native's tensorflow was chosen", {
    skip: nativeLoads() ? false : 'no native build here (scripts/setup-native-test.sh)',
  }, () => {
    const script = writeFile(
      root,
      'switch-to-cpu.mts',
      `import { selectBackend, tf } from ${JSON.stringify(runtimeEntryUrl)};
await selectBackend({ backend: 'tensorflow' });
await tf.setBackend('cpu');
console.log('RESULT', tf.getBackend(), tf.tensor1d([1, 2]).sum().dataSync()[0]);
`,
    );
    const run = runNode(['--import', tsxImport, script], { cwd: root, env: { TFJS_CALLBACKS_NATIVE_DIR: nativeRoot() } });
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(linesStartingWith(run.stdout, 'RESULT '), ['RESULT cpu 3']);
    assert.ok(!`${run.stdout}${run.stderr}`.includes(BANNER), `banner printed:\n${run.stderr}`);
  });

  test('the line is said once per command: a process whose parent printed the same line says nothing, another line is said', () => {
    const line = '[tfjs-callbacks] backend: cpu (TFJS_BACKEND: pure JavaScript)';
    const same = select([{}], { TFJS_BACKEND: 'cpu', TFJS_CALLBACKS_BACKEND_ANNOUNCED: line }).run;
    assert.deepEqual(linesStartingWith(same.stderr, REPORT_PREFIX), [], same.stderr);
    const other = select([{}], { TFJS_BACKEND: 'cpu', TFJS_CALLBACKS_BACKEND_ANNOUNCED: line.replace('cpu', 'wasm') }).run;
    assert.deepEqual(linesStartingWith(other.stderr, REPORT_PREFIX), [line], other.stderr);
  });

  test('control: plain tfjs on cpu does print the banner (so the check above can fail)', () => {
    const tfjsMain = createRequire(path.join(repoRoot, 'noop.js')).resolve('@tensorflow/tfjs');
    const script = writeFile(
      root,
      'plain-cpu.cjs',
      `const tf = require(${JSON.stringify(tfjsMain)});
tf.setBackend('cpu').then(() => { tf.tensor1d([1, 2]).dataSync(); console.log('done'); });
`,
    );
    const run = runNode([script], { cwd: root });
    assert.equal(run.status, 0, run.stderr);
    assert.ok(`${run.stdout}${run.stderr}`.includes(BANNER));
  });

  test('describeBackend and BACKEND_CHOICES', () => {
    assert.deepEqual([...BACKEND_CHOICES], ['auto', 'tensorflow', 'wasm', 'cpu']);
    const line = describeBackend({
      backend: 'wasm',
      requested: 'auto',
      source: 'default',
      reason: 'auto: WebAssembly',
      skipped: [{ backend: 'tensorflow', why: '@tensorflow/tfjs-node is not installed' }],
    });
    assert.equal(line, '[tfjs-callbacks] backend: wasm (auto: WebAssembly; why: `tfjs-callbacks backend`)');
    const forced = { backend: 'cpu', requested: 'cpu', source: 'option', reason: 'requested: pure JavaScript', skipped: [] } as const;
    assert.equal(describeBackend(forced), '[tfjs-callbacks] backend: cpu (requested: pure JavaScript)', 'nothing more to say: no pointer');
  });
});

describe('a tfjs-node in the project is preferred (stand-in package)', () => {
  /**
   * STAND-IN: the real @tensorflow/tfjs-node cannot install here (its install script downloads
   * libtensorflow). This fake package sits in a temp project's node_modules and does what the real
   * one does on require: it registers a backend named 'tensorflow' on the shared tfjs engine. It
   * reuses the cpu backend's class and kernels, so ops run; it is not native TensorFlow.
   */
  function fakeTfjsNodeProject(name: string): string {
    const project = path.join(root, name);
    const tfjsMain = createRequire(path.join(repoRoot, 'noop.js')).resolve('@tensorflow/tfjs');
    const cpuMain = createRequire(path.join(repoRoot, 'noop.js')).resolve('@tensorflow/tfjs-backend-cpu');
    writeFile(
      project,
      'node_modules/@tensorflow/tfjs-node/package.json',
      JSON.stringify({ name: '@tensorflow/tfjs-node', version: TFJS_VERSION, main: 'index.js' }),
    );
    writeFile(
      project,
      'node_modules/@tensorflow/tfjs-node/index.js',
      `// Stand-in for @tensorflow/tfjs-node (see backend.test.ts): registers 'tensorflow' with cpu kernels.
const tf = require(${JSON.stringify(tfjsMain)});
const { MathBackendCPU } = require(${JSON.stringify(cpuMain)});
globalThis.__fakeTfjsNodeLoaded = (globalThis.__fakeTfjsNodeLoaded || 0) + 1;
if (!tf.findBackend('tensorflow')) {
  for (const kernel of tf.getKernelsForBackend('cpu')) tf.registerKernel({ ...kernel, backendName: 'tensorflow' });
  tf.registerBackend('tensorflow', () => new MathBackendCPU(), 3);
}
module.exports = tf;
`,
    );
    // Where tfjs-node's loader finds its binding: a copy without it is never loaded (runtime/native/installed.ts).
    writeFile(project, 'node_modules/@tensorflow/tfjs-node/lib/napi-v8/tfjs_binding.node', '');
    return project;
  }

  test("auto picks the project's tfjs-node and reports it", () => {
    const project = fakeTfjsNodeProject('with-tfjs-node');
    const { outcome, run } = select([{}], {}, project);
    assert.equal(outcome.error, undefined, outcome.error);
    const report = outcome.reports[0]!;
    assert.equal(report.backend, 'tensorflow');
    assert.equal(report.reason, 'auto: native TensorFlow from @tensorflow/tfjs-node (CPU)');
    assert.deepEqual(report.skipped, []);
    assert.equal(outcome.tfBackend, 'tensorflow');
    assert.deepEqual(outcome.sum, [4, 6]);
    assert.match(linesStartingWith(run.stderr, REPORT_PREFIX)[0] ?? '', /backend: tensorflow \(auto: native TensorFlow from @tensorflow\/tfjs-node/);
  });

  test('the projectDir option points at the project holding tfjs-node', () => {
    const project = fakeTfjsNodeProject('with-tfjs-node-2');
    // cwd has no tfjs-node; projectDir has the stand-in.
    const { outcome } = select([{ projectDir: project, quiet: true }], {}, root);
    assert.equal(outcome.reports[0]!.backend, 'tensorflow');
    const without = select([{ quiet: true }], {}, root);
    assert.equal(without.outcome.reports[0]!.backend, 'wasm');
  });

  test('TFJS_BACKEND=tensorflow works when the project has tfjs-node', () => {
    const project = fakeTfjsNodeProject('with-tfjs-node-3');
    const { outcome } = select([{ quiet: true }], { TFJS_BACKEND: 'tensorflow' }, project);
    assert.equal(outcome.error, undefined, outcome.error);
    assert.equal(outcome.reports[0]!.backend, 'tensorflow');
    assert.match(outcome.reports[0]!.reason, /^TFJS_BACKEND: native TensorFlow/);
  });

  test('a tfjs-node installed without its binding is named with the missing file, never loaded, and auto falls back to wasm', () => {
    const project = path.join(root, 'unbuilt-tfjs-node');
    writeFile(
      project,
      'node_modules/@tensorflow/tfjs-node/package.json',
      JSON.stringify({ name: '@tensorflow/tfjs-node', version: TFJS_VERSION, main: 'index.js' }),
    );
    // What a copy installed with --ignore-scripts has: no lib/napi-v8/tfjs_binding.node. Loading it would register kernels, then throw.
    writeFile(project, 'node_modules/@tensorflow/tfjs-node/index.js', `globalThis.__unbuiltLoaded = true;\nthrow new Error('loaded');\n`);
    const { outcome } = select([{ quiet: true }], {}, project);
    const report = outcome.reports[0]!;
    assert.equal(report.backend, 'wasm');
    assert.equal(report.skipped.length, 1);
    assert.match(
      report.skipped[0]!.why,
      /^@tensorflow\/tfjs-node in the project is installed without its native binding \(.*node_modules\/@tensorflow\/tfjs-node\/lib\/napi-v8\/tfjs_binding\.node is missing/,
    );
    assert.doesNotMatch(report.skipped[0]!.why, /loaded/);
  });

  test('a tfjs-node whose binding is there but fails to load is reported with its whole message, and auto falls back to wasm', () => {
    const project = path.join(root, 'broken-tfjs-node');
    writeFile(
      project,
      'node_modules/@tensorflow/tfjs-node/package.json',
      JSON.stringify({ name: '@tensorflow/tfjs-node', version: TFJS_VERSION, main: 'index.js' }),
    );
    writeFile(project, 'node_modules/@tensorflow/tfjs-node/lib/napi-v8/tfjs_binding.node', '');
    writeFile(
      project,
      'node_modules/@tensorflow/tfjs-node/index.js',
      `throw new Error('libtensorflow.so.2: cannot open shared object file\\nat the end: the whole reason');\n`,
    );
    const { outcome } = select([{ quiet: true }], {}, project);
    const report = outcome.reports[0]!;
    assert.equal(report.backend, 'wasm');
    assert.equal(report.skipped.length, 1);
    assert.equal(
      report.skipped[0]!.why,
      '@tensorflow/tfjs-node in the project failed to load: libtensorflow.so.2: cannot open shared object file at the end: the whole reason',
    );
  });

  test("the project's broken tfjs-node is said even when setup-native's build loads in its place", {
    skip: nativeLoads() ? false : 'no native build here (scripts/setup-native-test.sh)',
  }, () => {
    const project = path.join(root, 'broken-tfjs-node-2');
    writeFile(
      project,
      'node_modules/@tensorflow/tfjs-node/package.json',
      JSON.stringify({ name: '@tensorflow/tfjs-node', version: TFJS_VERSION, main: 'index.js' }),
    );
    writeFile(
      project,
      'node_modules/@tensorflow/tfjs-node/index.js',
      `throw new Error('The Node.js native addon module (tfjs_binding.node) can not be found at path: lib/napi-v8/tfjs_binding.node');\n`,
    );
    const { outcome } = select([{ quiet: true }], { TFJS_CALLBACKS_NATIVE_DIR: nativeRoot() }, project);
    assert.equal(outcome.error, undefined, outcome.error);
    const report = outcome.reports[0]!;
    assert.equal(report.backend, 'tensorflow');
    assert.equal(outcome.tfBackend, 'tensorflow');
    assert.deepEqual(outcome.sum, [4, 6]);
    assert.match(
      report.reason,
      /^auto: native TensorFlow from @tensorflow\/tfjs-node \(CPU\) in setup-native's build \(TensorFlow 2\.\d+\.\d+, .*\); @tensorflow\/tfjs-node in the project is installed without its native binding \(.*tfjs_binding\.node is missing/,
    );
  });
});
