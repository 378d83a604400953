/**
 * Issue 43, the CLI with the program's own preloads and an old project, in fresh projects that
 * install what users install (from npm's cache, else the registry), run by the built CLI (dist/):
 * - a babel program (ESM syntax compiled by @babel/register, its model code in a second module
 *   imported without an extension) runs under `run -r @babel/register`, under
 *   `NODE_OPTIONS=-r @babel/register` and under `run --exec babel-node` as under
 *   `node -r @babel/register`: the same exit code and program lines, its callback counted once;
 * - a project on tfjs 2.8.6 beside tfjs-node 2.8.6 (the abalone-node example) is refused in one
 *   message naming every old @tensorflow package, with one command, which, run here, fixes it;
 * - under auto, the native backend the project does not have adds none of tfjs-node's progress
 *   lines to model.fit (where a setup-native build is here).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { nativeRoot } from '../../runtime/native/cache.js';
import { tempDir } from '../fixtures/callback-models.js';
import { cleanEnv, repoRoot } from '../fixtures/spawn.js';
import { nativeLoads } from '../helpers/backends.js';
import { makeUserProject, npmInstall, TFJS_VERSION, type UserProject } from '../helpers/projects.js';

const { dir: root, cleanup } = tempDir('cli-preloads-');
after(cleanup);

const CLI = path.join(repoRoot, 'dist', 'runtime', 'cli', 'main.js');
const T = { timeout: 600_000 };

interface Run {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function node(project: UserProject, argv: readonly string[], env: Record<string, string | undefined> = {}): Run {
  const result = spawnSync(process.execPath, argv, { cwd: project.dir, env: cleanEnv(env), encoding: 'utf8', timeout: 180_000 });
  if (result.error) throw result.error;
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Lines the CLI writes of its own on stdout: anything else there is the program's. */
const OURS = [
  /^\[tfjs-callbacks\] backend: /,
  /^[✓✗] \S.* \[(PyFunc|EagerPyFunc|PyFuncStateless)\] in /,
  /^ {4}[✗⚠↺] /,
  /^✗ \S+ (failed: |exited with code \d+$)/,
  /^[✓✗⚠] \d+ callback invocations? of /,
  /^ {2}no graph callback ran: /,
  /^training: \d+ fits? · /,
];
const programLines = (stdout: string): string[] => stdout.split('\n').filter((l) => l.trim() !== '' && !OURS.some((p) => p.test(l)));

describe('a babel program: -r @babel/register, NODE_OPTIONS, --exec babel-node', () => {
  let project: UserProject;
  let plain: Run;
  before(() => {
    project = makeUserProject(path.join(root, 'babel'), {
      dependencies: {
        '@tensorflow/tfjs': TFJS_VERSION,
        '@babel/core': '^7.26.0',
        '@babel/register': '^7.25.0',
        '@babel/preset-env': '^7.26.0',
        '@babel/node': '^7.26.0',
      },
    });
    project.write('.babelrc', JSON.stringify({ presets: [['@babel/preset-env', { targets: { node: 'current' } }]] }));
    // As lstm-text-generation: ESM syntax, model code in a second module, imported without its extension.
    project.write(
      'model.js',
      [
        "import * as tf from '@tensorflow/tfjs';",
        'export function createModel() {',
        '  const model = tf.sequential({ layers: [tf.layers.dense({ units: 1, inputShape: [1] })] });',
        "  model.compile({ optimizer: 'sgd', loss: 'meanSquaredError' });",
        '  return model;',
        '}',
        '',
      ].join('\n'),
    );
    project.write(
      'train.js',
      [
        "import * as tf from '@tensorflow/tfjs';",
        "import { createModel } from './model';",
        '// The runtime is the CLI’s (plainly, the program runs without it).',
        'const runtime = (() => {',
        '  try {',
        "    return require('tfjs-callback-debugger/runtime');",
        '  } catch {',
        '    return undefined;',
        '  }',
        '})();',
        "runtime?.numpyFunction((x) => x, [tf.tensor1d([1, 2])], ['float32'], { name: 'identity' });",
        'const model = createModel();',
        'const xs = tf.tensor2d([[1], [2], [3]]);',
        'const ys = tf.tensor2d([[2], [4], [6]]);',
        'model.fit(xs, ys, { epochs: 2, verbose: 0 }).then((h) => {',
        "  console.log('epochs ' + h.history.loss.length);",
        "  console.log('args ' + JSON.stringify(process.argv.slice(2)));",
        '  process.exitCode = 3;',
        '});',
        '',
      ].join('\n'),
    );
    plain = node(project, ['-r', '@babel/register', 'train.js', 'a', '--b']);
  });

  const ways: readonly [string, readonly string[], Record<string, string>][] = [
    ['run -r @babel/register train.js', ['run', '-r', '@babel/register', 'train.js', 'a', '--b'], {}],
    ['run --require=@babel/register train.js', ['run', '--require=@babel/register', 'train.js', 'a', '--b'], {}],
    ['NODE_OPTIONS="-r @babel/register" run train.js', ['run', 'train.js', 'a', '--b'], { NODE_OPTIONS: '-r @babel/register' }],
    ['run --exec babel-node train.js', ['run', '--exec', 'babel-node', 'train.js', 'a', '--b'], {}],
  ];
  for (const [name, args, env] of ways) {
    test(`${name}: the exit code and program lines of node -r @babel/register, the callback counted once`, T, () => {
      assert.equal(plain.status, 3, `the plain run: ${plain.stdout}\n${plain.stderr}`);
      assert.deepEqual(programLines(plain.stdout), ['epochs 2', 'args ["a","--b"]']);
      const run = node(project, [CLI, ...args], { ...env, TFJS_BACKEND: 'cpu' });
      assert.equal(run.status, plain.status, `${run.stdout}\n${run.stderr}`);
      assert.deepEqual(programLines(run.stdout), programLines(plain.stdout), run.stdout);
      assert.doesNotMatch(run.stderr, /Cannot find module|ERR_MODULE_NOT_FOUND/, run.stderr);
      assert.match(run.stdout, /^✓ identity \[/m, run.stdout);
      const summaries = run.stdout.split('\n').filter((l) => /^[✓✗⚠] \d+ callback invocations? of /.test(l));
      assert.equal(summaries.length, 1, run.stdout);
      assert.match(summaries[0]!, /^✗ 1 callback invocation of 1 callback /, 'one summary, of the program’s process, ✗ for its exit code 3');
    });
  }

  test('--exec with no such runner: a usage error saying where it looked and what to install, nothing run', T, () => {
    const run = node(project, [CLI, 'run', '--exec', 'no-such-runner', 'train.js']);
    assert.equal(run.status, 2, `${run.stdout}\n${run.stderr}`);
    assert.match(run.stderr, /--exec no-such-runner: no no-such-runner in node_modules\/\.bin from .* up, nor on PATH\. Install the runner/);
    assert.equal(run.stdout, '');
  });
});

describe('tfjs 2.8.6 beside tfjs-node 2.8.6 (abalone-node)', () => {
  test('one refusal naming every old @tensorflow package and one command; that command, run, fixes the project', T, () => {
    // tfjs-node's install script downloads libtensorflow: npmInstall skips install scripts, as behind a firewall.
    const project = makeUserProject(path.join(root, 'abalone'), { dependencies: { '@tensorflow/tfjs': '2.8.6', '@tensorflow/tfjs-node': '2.8.6' } });
    project.write('main.js', "console.log('ran');\n");
    const refused = node(project, [CLI, 'run', 'main.js', '--backend', 'cpu']);
    assert.equal(refused.status, 1, `${refused.stdout}\n${refused.stderr}`);
    assert.equal(refused.stdout, '', 'nothing ran');
    const lines = refused.stderr.trim().split('\n');
    assert.equal(lines.length, 1, refused.stderr);
    for (const name of ['tfjs', 'tfjs-core', 'tfjs-node', 'tfjs-layers'])
      assert.ok(lines[0]!.includes(`@tensorflow/${name} 2.8.6`), `${name} named: ${lines[0]}`);
    const commands = [...lines[0]!.matchAll(/`npm install ([^`]+)`/g)].map((m) => m[1]!);
    assert.equal(commands[0], '@tensorflow/tfjs@^4.22.0 @tensorflow/tfjs-node@^4.22.0', lines[0]);
    assert.ok(lines[0]!.includes(`with one command in ${project.dir}:`), lines[0]);

    npmInstall(project.dir, commands[0]!.split(' '));
    const fixed = node(project, [CLI, 'run', 'main.js', '--backend', 'cpu']);
    assert.equal(fixed.status, 0, `after \`npm install ${commands[0]}\`: ${fixed.stdout}\n${fixed.stderr}`);
    assert.match(fixed.stdout, /^ran$/m);
  });
});

describe('under auto, a native backend the project does not have', () => {
  test('adds none of tfjs-node’s model.fit progress lines to the program’s output', {
    ...T,
    skip: nativeLoads() ? false : 'no native build here (scripts/setup-native-test.sh)',
  }, () => {
    const project = makeUserProject(path.join(root, 'fit'), { dependencies: { '@tensorflow/tfjs': TFJS_VERSION } });
    project.write(
      'fit.cjs',
      [
        "const tf = require('@tensorflow/tfjs');",
        'const model = tf.sequential({ layers: [tf.layers.dense({ units: 1, inputShape: [1] })] });',
        "model.compile({ optimizer: 'sgd', loss: 'meanSquaredError' });",
        "model.fit(tf.tensor2d([[1], [2]]), tf.tensor2d([[2], [4]]), { epochs: 2 }).then(() => console.log('fitted'));",
        '',
      ].join('\n'),
    );
    const plain = node(project, ['fit.cjs']);
    const run = node(project, [CLI, 'run', 'fit.cjs'], { TFJS_CALLBACKS_NATIVE_DIR: nativeRoot() });
    assert.equal(run.status, 0, `${run.stdout}\n${run.stderr}`);
    assert.match(run.stdout, /^\[tfjs-callbacks\] backend: tensorflow \(auto: /, 'the native backend was chosen');
    assert.deepEqual(programLines(run.stdout), programLines(plain.stdout));
    assert.doesNotMatch(`${run.stdout}${run.stderr}`, /Epoch 1 \/ 2|us\/step/);
  });
});
