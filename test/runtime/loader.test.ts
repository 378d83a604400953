/**
 * The loader (runtime/loader/register + resolve-hooks): programs whose project does not have
 * tfjs-callback-debugger installed import it by name, and the runtime uses the project's own
 * TensorFlow.js when it has one, else the copy shipped with the runtime.
 *
 * Every program runs in a child process from a temp dir OUTSIDE the repository (no node_modules,
 * no tsconfig there), so nothing resolves through the repository by accident.
 *
 * The built package: rather than writing /work/main/dist (shared with everyone working in the
 * checkout, and possibly stale), before() compiles tsconfig.build.json into a temp copy of the
 * package (package.json + dist/ + a node_modules symlink to the repository's) and the tests use
 * that copy: its package.json `exports` are the repository's, so self-reference and the bin are
 * exercised exactly as `npm run build` would leave them.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { tempDir } from '../fixtures/callback-models.js';
import { linesStartingWith, registerUrl, repoRoot, runNode, tsxImport, writeFile, type NodeResult } from '../fixtures/spawn.js';

const { dir: root, cleanup } = tempDir('loader-test-');
after(cleanup);

const realTfjsMain = createRequire(path.join(repoRoot, 'noop.js')).resolve('@tensorflow/tfjs');

/** The last `RESULT {...}` line a program printed. */
function result(run: NodeResult): Record<string, unknown> {
  const line = linesStartingWith(run.stdout, 'RESULT ').at(-1);
  assert.ok(line, `no RESULT line (exit ${run.status}):\nstdout: ${run.stdout}\nstderr: ${run.stderr}`);
  return JSON.parse(line.slice('RESULT '.length)) as Record<string, unknown>;
}

/** An empty project dir: no node_modules, so no tfjs of its own. */
function bareProject(name: string): string {
  const dir = path.join(root, name);
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

/**
 * A project with its own @tensorflow/tfjs. STAND-IN: a package that counts its loads in
 * globalThis.__projectTfjsLoads and re-exports the repository's tfjs (a full second copy is
 * ~250 MB). The counter shows whose tfjs the runtime imported.
 */
function projectWithTfjs(name: string): string {
  const dir = path.join(root, name);
  writeFile(dir, 'node_modules/@tensorflow/tfjs/package.json', JSON.stringify({ name: '@tensorflow/tfjs', version: '4.22.0', main: 'index.js' }));
  writeFile(
    dir,
    'node_modules/@tensorflow/tfjs/index.js',
    `globalThis.__projectTfjsLoads = (globalThis.__projectTfjsLoads || 0) + 1;\nmodule.exports = require(${JSON.stringify(realTfjsMain)});\n`,
  );
  return dir;
}

const ESM_PROGRAM = `import { pyFunction, selectBackend, tf } from 'tfjs-callback-debugger/runtime';
const report = await selectBackend({ quiet: true, ...(process.env.FORCE_BACKEND ? { backend: process.env.FORCE_BACKEND } : {}) });
const y = pyFunction((x) => x.mul(3), [tf.tensor1d([1, 2])], 'float32');
console.log('RESULT ' + JSON.stringify({ backend: report.backend, skipped: report.skipped, y: Array.from(y.dataSync()), projectTfjsLoads: globalThis.__projectTfjsLoads ?? 0 }));
`;

const CJS_PROGRAM = `const { pyFunction, selectBackend, tf } = require('tfjs-callback-debugger/runtime');
selectBackend({ quiet: true, ...(process.env.FORCE_BACKEND ? { backend: process.env.FORCE_BACKEND } : {}) }).then((report) => {
  const y = pyFunction((x) => x.mul(3), [tf.tensor1d([1, 2])], 'float32');
  console.log('RESULT ' + JSON.stringify({ backend: report.backend, skipped: report.skipped, y: Array.from(y.dataSync()) }));
});
`;

describe('source loader: node --import tsx --import runtime/loader/register.ts', () => {
  test('an ESM TypeScript program outside the repository imports tfjs-callback-debugger/runtime', () => {
    const project = bareProject('src-esm');
    const program = writeFile(
      project,
      'prog.mts',
      ESM_PROGRAM.replace('(x) =>', '(x: tf.Tensor) =>').replace(
        'globalThis.__projectTfjsLoads',
        '(globalThis as { __projectTfjsLoads?: number }).__projectTfjsLoads',
      ),
    );
    const run = runNode(['--import', tsxImport, '--import', registerUrl, program], { cwd: project, env: { FORCE_BACKEND: 'cpu' } });
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(result(run).y, [3, 6]);
  });

  test('a CommonJS program outside the repository requires tfjs-callback-debugger/runtime', () => {
    const project = bareProject('src-cjs');
    const program = writeFile(project, 'prog.cjs', CJS_PROGRAM);
    const run = runNode(['--import', tsxImport, '--import', registerUrl, program], { cwd: project, env: { FORCE_BACKEND: 'cpu' } });
    assert.equal(run.status, 0, run.stderr);
    const out = result(run);
    assert.equal(out.backend, 'cpu');
    assert.deepEqual(out.y, [3, 6]);
  });

  test("with no tfjs in the project, the runtime's own @tensorflow/tfjs-backend-wasm is used (auto picks wasm)", () => {
    const project = bareProject('src-cjs-auto');
    const program = writeFile(project, 'prog.cjs', CJS_PROGRAM);
    const run = runNode(['--import', tsxImport, '--import', registerUrl, program], { cwd: project });
    assert.equal(run.status, 0, run.stderr);
    const out = result(run);
    assert.deepEqual(out.y, [3, 6]);
    assert.equal(out.backend, 'wasm', `skipped: ${JSON.stringify(out.skipped)}`);
  });
});

describe('built package (tsconfig.build.json compiled into a temp copy)', () => {
  const pkg = path.join(root, 'pkg');
  const dist = path.join(pkg, 'dist');
  let registerBuilt: string;

  before(() => {
    fs.mkdirSync(pkg, { recursive: true });
    fs.copyFileSync(path.join(repoRoot, 'package.json'), path.join(pkg, 'package.json'));
    fs.symlinkSync(path.join(repoRoot, 'node_modules'), path.join(pkg, 'node_modules'), 'dir');
    const tsc = createRequire(path.join(repoRoot, 'noop.js')).resolve('typescript/bin/tsc');
    const build = runNode([tsc, '-p', path.join(repoRoot, 'tsconfig.build.json'), '--outDir', dist], { cwd: repoRoot, timeoutMs: 300_000 });
    assert.equal(build.status, 0, `build failed:\n${build.stdout}\n${build.stderr}`);
    registerBuilt = pathToFileURL(path.join(dist, 'runtime', 'loader', 'register.js')).href;
  });

  test('the build emits every entry package.json exports, with types', () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(pkg, 'package.json'), 'utf8')) as {
      exports: Record<string, { types?: string; default: string } | string>;
      bin: Record<string, string>;
    };
    for (const [key, target] of Object.entries(manifest.exports)) {
      const entries = typeof target === 'string' ? [target] : Object.values(target);
      for (const file of entries) assert.ok(fs.existsSync(path.join(pkg, file)), `exports['${key}'] → ${file} exists`);
    }
    for (const file of Object.values(manifest.bin)) assert.ok(fs.existsSync(path.join(pkg, file)), `bin ${file} exists`);
  });

  test("self-reference: import('tfjs-callback-debugger/runtime') and require() from inside the package", () => {
    const esm = runNode(
      [
        '--input-type=module',
        '-e',
        "const m = await import('tfjs-callback-debugger/runtime'); console.log(typeof m.pyFunction, typeof m.loadCallbackModel, import.meta.resolve('tfjs-callback-debugger/runtime'));",
      ],
      { cwd: pkg },
    );
    assert.equal(esm.status, 0, esm.stderr);
    assert.equal(esm.stdout.trim(), `function function ${pathToFileURL(path.join(dist, 'runtime', 'index.js')).href}`);
    const cjs = runNode(['-e', "console.log(typeof require('tfjs-callback-debugger/runtime').numpyFunction)"], { cwd: pkg });
    assert.equal(cjs.status, 0, cjs.stderr);
    assert.equal(cjs.stdout.trim(), 'function');
    const register = runNode(['--input-type=module', '-e', "console.log(import.meta.resolve('tfjs-callback-debugger/runtime/register'))"], { cwd: pkg });
    assert.equal(register.stdout.trim(), registerBuilt);
  });

  test("a JS program outside the repository, whose project has no tfjs, runs with the built loader on the runtime's tfjs", () => {
    const project = bareProject('built-bare');
    const program = writeFile(project, 'prog.mjs', ESM_PROGRAM);
    const run = runNode(['--import', registerBuilt, program], { cwd: project });
    assert.equal(run.status, 0, run.stderr);
    const out = result(run);
    assert.deepEqual(out.y, [3, 6]);
    assert.equal(out.backend, 'wasm', `skipped: ${JSON.stringify(out.skipped)}`);
    assert.equal(out.projectTfjsLoads, 0);
  });

  test("the runtime imports the project's own @tensorflow/tfjs when the project has one", () => {
    const project = projectWithTfjs('built-with-tfjs');
    // The program itself does not import tfjs: only the runtime can have loaded the project's copy.
    const program = writeFile(project, 'prog.mjs', ESM_PROGRAM);
    const run = runNode(['--import', registerBuilt, program], { cwd: project, env: { FORCE_BACKEND: 'cpu' } });
    assert.equal(run.status, 0, run.stderr);
    const out = result(run);
    assert.deepEqual(out.y, [3, 6]);
    assert.equal(out.projectTfjsLoads, 1);
  });

  test('the program and the runtime share one tfjs engine and Tensor class', () => {
    const project = projectWithTfjs('built-shared-engine');
    const program = writeFile(
      project,
      'prog.mjs',
      `import * as tf from '@tensorflow/tfjs';
import { numpyFunction, selectBackend, tf as runtimeTf } from 'tfjs-callback-debugger/runtime';
await selectBackend({ backend: 'cpu', quiet: true });
const x = tf.tensor2d([[1, 2], [3, 4]]);
const y = numpyFunction((a) => Float32Array.from(a.data, (v) => v + 1), [x], 'float32');
console.log('RESULT ' + JSON.stringify({ sameEngine: tf.engine() === runtimeTf.engine(), sameTensor: runtimeTf.Tensor === tf.Tensor, isTensor: y instanceof tf.Tensor, y: Array.from(y.dataSync()), loads: globalThis.__projectTfjsLoads }));
`,
    );
    const run = runNode(['--import', registerBuilt, program], { cwd: project });
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(result(run), { sameEngine: true, sameTensor: true, isTensor: true, y: [2, 3, 4, 5], loads: 1 });
  });

  test('TFJS_CALLBACKS_PROJECT_DIR names the project when the program runs from elsewhere', () => {
    const project = projectWithTfjs('built-project-dir');
    const program = writeFile(project, 'prog.mjs', ESM_PROGRAM);
    const run = runNode(['--import', registerBuilt, program], { cwd: root, env: { TFJS_CALLBACKS_PROJECT_DIR: project, FORCE_BACKEND: 'cpu' } });
    assert.equal(run.status, 0, run.stderr);
    assert.equal(result(run).projectTfjsLoads, 1);
  });

  test('a CommonJS program requires the runtime through the built loader', () => {
    const project = projectWithTfjs('built-cjs');
    const program = writeFile(project, 'prog.cjs', CJS_PROGRAM);
    const run = runNode(['--import', registerBuilt, program], { cwd: project, env: { FORCE_BACKEND: 'cpu' } });
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(result(run).y, [3, 6]);
  });

  test('a TypeScript program under tsx with the built loader', () => {
    const project = projectWithTfjs('built-ts');
    const program = writeFile(
      project,
      'prog.mts',
      ESM_PROGRAM.replace('(x) =>', '(x: tf.Tensor) =>').replace(
        'globalThis.__projectTfjsLoads',
        '(globalThis as { __projectTfjsLoads?: number }).__projectTfjsLoads',
      ),
    );
    const run = runNode(['--import', tsxImport, '--import', registerBuilt, program], { cwd: project, env: { FORCE_BACKEND: 'cpu' } });
    assert.equal(run.status, 0, run.stderr);
    const out = result(run);
    assert.deepEqual(out.y, [3, 6]);
    assert.equal(out.projectTfjsLoads, 1);
  });

  test('the built bin runs a program outside the repository, sharing one runtime with it', () => {
    const project = projectWithTfjs('built-bin');
    const program = writeFile(
      project,
      'prog.mjs',
      `import { pyFunction, selectBackend, tf } from 'tfjs-callback-debugger/runtime';
await selectBackend(); // same runtime as the CLI: already selected, prints nothing more
function triple(x) { return x.mul(3); }
const y = pyFunction(triple, [tf.tensor1d([1, 2])], 'float32');
console.log('RESULT ' + JSON.stringify(Array.from(y.dataSync())));
`,
    );
    const run = runNode([path.join(dist, 'runtime', 'cli', 'main.js'), 'run', program, '--backend', 'cpu'], { cwd: project });
    assert.equal(run.status, 0, `${run.stdout}\n${run.stderr}`);
    assert.equal(linesStartingWith(`${run.stdout}${run.stderr}`, '[tfjs-callbacks] backend:').length, 1, `${run.stdout}\n${run.stderr}`);
    assert.ok(run.stdout.startsWith('[tfjs-callbacks] backend: cpu'));
    assert.deepEqual(result(run), [3, 6]);
    assert.equal(linesStartingWith(run.stdout, '✓ pyfunc_0 (triple) [EagerPyFunc] in float32[2] → out float32[2]').length, 1, run.stdout);
    assert.match(run.stdout, /^✓ 1 callback invocation of 1 callback · 0 Tout mismatches/m);
  });
});
