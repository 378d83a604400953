/**
 * `tfjs-callbacks setup-native`, run as a user runs it: the real CLI, a real Python, the real
 * compiler, npm and node-gyp, into a temp cache folder. What cannot work says what was wrong and
 * what to do; what can builds tfjs-node against the machine's TensorFlow and the runtime's auto
 * backend then picks it (the real build runs where a TensorFlow is installed: TFJS_TEST_TF_PYTHON,
 * else the venv scripts/setup-test-env.sh makes).
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { tempDir } from '../fixtures/callback-models.js';
import { repoRoot, runCli, writeFile } from '../fixtures/spawn.js';
import { makeUserProject, SECOND_ENGINE } from '../helpers/projects.js';
import { TF_PYTHON, TF_WHEEL } from '../helpers/tensorflow-python.js';

const { dir, cleanup } = tempDir('setup-native-');
after(cleanup);
const root = path.join(dir, 'cache');
const env = { TFJS_CALLBACKS_NATIVE_DIR: root };
const PREFIX = 'tfjs-callbacks setup-native: ';

function failure(args: string[], extraEnv: Record<string, string> = {}): string {
  const run = runCli(['setup-native', ...args], { env: { ...env, ...extraEnv } });
  assert.equal(run.status, 1, `${run.stdout}\n${run.stderr}`);
  const line = run.stderr.split('\n').find((l) => l.startsWith(PREFIX));
  assert.ok(line, run.stderr);
  return line.slice(PREFIX.length);
}

describe('setup-native: what cannot work is said, with what to do', () => {
  test('no Python at the path given', () => {
    assert.match(
      failure(['--python', path.join(dir, 'no-python')]),
      /^No Python to find TensorFlow with \(.*no-python: not found\)\. Install TensorFlow into a Python environment .* pass --python .* or pass --wheel/,
    );
  });

  test('a Python without TensorFlow', () => {
    // A Python environment made for the test: real, and without TensorFlow.
    const venv = path.join(dir, 'empty-venv');
    const created = spawnSync('python3', ['-m', 'venv', '--without-pip', venv]);
    assert.equal(created.status, 0, `python3 -m venv: ${created.stderr}`);
    const message = failure(['--python', path.join(venv, 'bin', 'python')]);
    assert.match(message, /empty-venv\/bin\/python\S* has no TensorFlow package\. Install it there \(.* -m pip install tensorflow-cpu\)/);
  });

  test('a wheel that is not there, one that is not TensorFlow, one of TensorFlow 1', () => {
    assert.match(failure(['--wheel', path.join(dir, 'missing.whl')]), /--wheel .*missing\.whl: no such file\./);
    const other = writeFile(dir, 'numpy-2.0.0-cp311-cp311-linux_x86_64.whl', 'not a zip');
    assert.match(failure(['--wheel', other]), /not a TensorFlow wheel \(expected a name like tensorflow_cpu-2\.21\.0-/);
    const old = writeFile(dir, 'tensorflow-1.15.0-cp37-cp37m-manylinux2010_x86_64.whl', 'not a zip');
    assert.match(failure(['--wheel', old]), /^TensorFlow 1\.15\.0 at .* is not supported: setup-native builds against TensorFlow 2\.9 or newer 2\.x/);
  });

  test('usage: --python and --wheel together, a file argument', () => {
    const both = runCli(['setup-native', '--python', 'python3', '--wheel', 'x.whl'], { env });
    assert.equal(both.status, 2);
    assert.match(both.stderr, /Give --python or --wheel, not both\./);
    const extra = runCli(['setup-native', 'somewhere'], { env });
    assert.equal(extra.status, 2);
    assert.match(extra.stderr, /setup-native takes no file arguments/);
  });

  test('no compiler on the PATH', { skip: TF_PYTHON ? false : 'no TensorFlow Python here (TFJS_TEST_TF_PYTHON)' }, () => {
    // A PATH with node and npm but no g++ or make.
    const bin = path.join(dir, 'bin-without-compiler');
    fs.mkdirSync(bin, { recursive: true });
    for (const tool of ['node', 'npm']) {
      const found = execFileSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).trim();
      fs.symlinkSync(found, path.join(bin, tool));
    }
    assert.match(
      failure(['--python', TF_PYTHON!], { PATH: bin }),
      /^No g\+\+ on the PATH: the binding is C\+\+ built with node-gyp and needs a C\+\+ compiler \(Debian\/Ubuntu: sudo apt-get install -y build-essential\)\./,
    );
  });
});

describe('setup-native: a build that fails', { skip: TF_PYTHON ? false : 'no TensorFlow Python here (TFJS_TEST_TF_PYTHON)' }, () => {
  test("says the compiler's first error", { timeout: 300_000 }, () => {
    // A Python environment whose TensorFlow has its real libraries but a header that does not compile.
    const venv = path.join(dir, 'broken-tf-venv');
    assert.equal(spawnSync('python3', ['-m', 'venv', '--without-pip', venv]).status, 0);
    const site = execFileSync(path.join(venv, 'bin', 'python'), ['-c', 'import sysconfig; print(sysconfig.get_paths()["purelib"])'], {
      encoding: 'utf8',
    }).trim();
    const real = path.dirname(
      execFileSync(TF_PYTHON!, ['-c', 'import importlib.util as u; print(u.find_spec("tensorflow").origin)'], { encoding: 'utf8' }).trim(),
    );
    const tfDir = path.join(site, 'tensorflow');
    writeFile(tfDir, '__init__.py', '');
    for (const lib of ['libtensorflow_cc.so.2', 'libtensorflow_framework.so.2']) fs.symlinkSync(path.join(real, lib), path.join(tfDir, lib));
    writeFile(tfDir, 'include/tensorflow/c/c_api.h', '#error this header is broken on purpose\n');
    writeFile(tfDir, 'include/tensorflow/c/eager/c_api.h', '');
    writeFile(site, 'tensorflow_cpu-2.21.0.dist-info/METADATA', 'Metadata-Version: 2.1\nName: tensorflow-cpu\nVersion: 2.21.0\n');
    const message = failure(['--python', path.join(venv, 'bin', 'python')], { TFJS_CALLBACKS_NATIVE_DIR: path.join(dir, 'broken-cache') });
    assert.match(message, /^The binding did not build: .*error: #error this header is broken on purpose/);
    assert.match(message, /the whole log: cd there and run .*node-gyp/);
  });
});

describe('setup-native: a real build against the TensorFlow installed here', {
  skip: TF_PYTHON ? false : 'no TensorFlow Python here (TFJS_TEST_TF_PYTHON, or scripts/setup-test-env.sh)',
}, () => {
  test('builds, checks, reports; auto then picks tensorflow with no TensorFlow log lines; --undo removes it', { timeout: 600_000 }, () => {
    const run = runCli(['setup-native', '--python', TF_PYTHON!], { env });
    assert.equal(run.status, 0, `${run.stdout}\n${run.stderr}`);
    assert.match(run.stdout, /^TensorFlow 2\.\d+\.\d+: /m);
    assert.match(run.stdout, /^✓ native backend ready: @tensorflow\/tfjs-node 4\.\d+\.\d+ built against TensorFlow 2\.\d+\.\d+ in \d+ s/m);
    assert.match(run.stdout, /checked: backend 'tensorflow' loads \(TF_Version 2\.\d+\.\d+\); matMul 128x128 equals cpu's within \d\.\de-\d+/);
    assert.match(run.stdout, /undo: tfjs-callbacks setup-native --undo/);
    const record = JSON.parse(fs.readFileSync(path.join(root, fs.readdirSync(root)[0]!, 'setup-native.json'), 'utf8')) as { tensorflow: { version: string } };
    assert.match(record.tensorflow.version, /^2\./);
    // The build holds tfjs-node alone: no second engine in the cache.
    const scope = path.join(root, fs.readdirSync(root)[0]!, 'node_modules', '@tensorflow');
    assert.deepEqual(fs.readdirSync(scope), ['tfjs-node']);

    const program = path.join(repoRoot, 'examples', 'main.ts');
    const auto = runCli(['run', program], { env });
    assert.equal(auto.status, 0, auto.stderr);
    assert.match(
      auto.stdout,
      /^\[tfjs-callbacks\] backend: tensorflow \(auto: native TensorFlow from @tensorflow\/tfjs-node \(CPU\) in setup-native's build; why: `tfjs-callbacks backend`\)$/m,
    );
    assert.match(
      runCli(['backend'], { env }).stdout,
      /^backend: tensorflow \(auto: native TensorFlow from @tensorflow\/tfjs-node \(CPU\) in setup-native's build \(TensorFlow 2\./m,
    );
    assert.match(auto.stdout, /· backend tensorflow$/m);
    assert.doesNotMatch(auto.stderr, /cpu_feature_guard/, 'TensorFlow logs nothing at INFO by default');
    // On CPUs where oneDNN is on by default, TensorFlow 2.21 prints a pair of lines before its
    // logging reads any level: the CLI runs the program in a child and drops them from its stderr.
    assert.deepEqual(
      auto.stderr.split('\n').filter((l) => /oneDNN|absl::InitializeLog/.test(l)),
      [],
      'no TensorFlow startup lines',
    );

    const undo = runCli(['setup-native', '--undo'], { env });
    assert.equal(undo.status, 0);
    assert.match(undo.stdout, /^removed .*tfjs-node-4\.\d+\.\d+: auto no longer finds that native backend/);
    const after = runCli(['backend'], { env });
    assert.match(after.stdout, /^backend: wasm \(auto: /m);
    assert.match(after.stdout, /^skipped tensorflow: @tensorflow\/tfjs-node is not installed \(`tfjs-callbacks setup-native` builds it/m);
  });
});

describe('setup-native: from a wheel file', { skip: TF_WHEEL ? false : 'no TensorFlow wheel here (TFJS_TEST_TF_WHEEL)' }, () => {
  test('unpacks the libraries and headers it needs, builds, checks', { timeout: 600_000 }, () => {
    const wheelRoot = path.join(dir, 'wheel-cache');
    const run = runCli(['setup-native', '--wheel', TF_WHEEL!], { env: { TFJS_CALLBACKS_NATIVE_DIR: wheelRoot } });
    assert.equal(run.status, 0, `${run.stdout}\n${run.stderr}`);
    assert.match(run.stdout, /^TensorFlow 2\.\d+\.\d+: .*\.whl$/m);
    assert.match(run.stdout, /checked: backend 'tensorflow' loads \(TF_Version 2\.\d+\.\d+\)/);
    assert.match(run.stdout, /most of it TensorFlow's libraries, unpacked from the wheel/);
    // Run again with the same wheel: the build is reused, not unpacked again (one wheel folder).
    const again = runCli(['setup-native', '--wheel', TF_WHEEL!], { env: { TFJS_CALLBACKS_NATIVE_DIR: wheelRoot } });
    assert.equal(again.status, 0, `${again.stdout}\n${again.stderr}`);
    assert.match(again.stdout, /^reusing the build of .* from this wheel/m);
    const build = path.join(wheelRoot, fs.readdirSync(wheelRoot)[0]!);
    assert.equal(fs.readdirSync(build).filter((name) => name.startsWith('wheel')).length, 1);
    fs.rmSync(wheelRoot, { recursive: true, force: true });
  });
});

describe('setup-native in a project on another TF.js version', {
  skip: TF_PYTHON ? false : 'no TensorFlow Python here (TFJS_TEST_TF_PYTHON, or scripts/setup-test-env.sh)',
}, () => {
  test('a TF.js 3.18 project whose tfjs-node has no binding: builds tfjs-node 3.18, checks it on the project’s engine, and the program’s own require gets it', {
    timeout: 600_000,
  }, () => {
    const cache = path.join(dir, 'cache-3.18');
    // The official examples' shape: tfjs and tfjs-node pinned to 3.18, tfjs-node's download failed.
    const project = makeUserProject(path.join(dir, 'tfjs-3.18-project'), { dependencies: { '@tensorflow/tfjs': '3.18.0', '@tensorflow/tfjs-node': '3.18.0' } });
    const main = project.write(
      'main.js',
      "const tf = require('@tensorflow/tfjs-node');\nconsole.log(`tfjs ${tf.version.tfjs} on ${tf.getBackend()}: ${tf.tensor1d([1, 2]).add(1).dataSync().join(',')}`);\n",
    );
    const setup = runCli(['setup-native', '--python', TF_PYTHON!], { cwd: project.dir, env: { TFJS_CALLBACKS_NATIVE_DIR: cache } });
    assert.equal(setup.status, 0, `${setup.stdout}\n${setup.stderr}`);
    assert.match(setup.stdout, /^✓ native backend ready: @tensorflow\/tfjs-node 3\.18\.0 built against TensorFlow 2\.\d+\.\d+/m);
    assert.match(setup.stdout, /checked: backend 'tensorflow' loads/);
    const run = runCli(['run', main], { cwd: project.dir, env: { TFJS_CALLBACKS_NATIVE_DIR: cache } });
    assert.equal(run.status, 0, `${run.stdout}\n${run.stderr}`);
    assert.match(run.stdout, /^tfjs 3\.18\.0 on tensorflow: 2,3$/m);
    assert.doesNotMatch(`${run.stdout}${run.stderr}`, SECOND_ENGINE);
    // The run's backend line is short; why the project's own tfjs-node was passed over is in its details.
    const details = runCli(['backend'], { cwd: project.dir, env: { TFJS_CALLBACKS_NATIVE_DIR: cache } });
    assert.match(details.stdout, /@tensorflow\/tfjs-node in the project is installed without its native binding/);
  });
});
