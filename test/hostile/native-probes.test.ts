/**
 * Hostile tfjs-node copies in a project (issue 42, deliverable 6): a package.json that links to
 * /dev/zero, is a FIFO or is 40 MB, and a binding that is a FIFO or links to /dev/zero. The probes
 * (runtime/native/installed.ts, what the CLI and the auto backend ask before any program code runs)
 * answer at once, naming the file and what it is, and never read or load it. Each probe runs in a
 * child process with a time limit: the old code blocked on the FIFO for good or read /dev/zero
 * until memory ran out, and a blocked read cannot be timed out in this process.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { tempDir } from '../fixtures/callback-models.js';
import { cleanEnv, repoRoot, tsxImport } from '../fixtures/spawn.js';

const { dir: root, cleanup } = tempDir('hostile-native-probes-');
after(cleanup);
const fifos = process.platform !== 'win32';
const CHILD_LIMIT_MS = 60_000;
const installedUrl = pathToFileURL(path.join(repoRoot, 'runtime', 'native', 'installed.ts')).href;
const backendUrl = pathToFileURL(path.join(repoRoot, 'runtime', 'backend.ts')).href;

let count = 0;
/** A project with node_modules/@tensorflow/tfjs-node, its package.json made by `manifest`, its binding by `binding`. */
function project(manifest: (file: string) => void, binding?: (file: string) => void): string {
  const dir = path.join(root, `project-${++count}`);
  const pkg = path.join(dir, 'node_modules', '@tensorflow', 'tfjs-node');
  fs.mkdirSync(path.join(pkg, 'lib', 'napi-v8'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'package.json'), '{"name":"victim","private":true}\n');
  // As node-pre-gyp does: the main module requires the binding, which dlopen()s it.
  fs.writeFileSync(path.join(pkg, 'index.js'), "module.exports = require('./lib/napi-v8/tfjs_binding.node');\n");
  manifest(path.join(pkg, 'package.json'));
  binding?.(path.join(pkg, 'lib', 'napi-v8', 'tfjs_binding.node'));
  return dir;
}

const plainManifest = (file: string) => fs.writeFileSync(file, '{"name":"@tensorflow/tfjs-node","version":"4.22.0","main":"index.js"}\n');
const devZero = (file: string) => fs.symlinkSync('/dev/zero', file);
const fifo = (file: string) => execFileSync('mkfifo', [file]);

/** `code` (an ES module body, top-level await allowed) run in a child from `cwd`; its last line is JSON. */
function probe(code: string, cwd: string): { status: number | null; value: any; output: string; ms: number } {
  const started = Date.now();
  const run = spawnSync(process.execPath, ['--import', tsxImport, '--input-type=module', '-e', code], {
    cwd,
    env: cleanEnv(),
    encoding: 'utf8',
    timeout: CHILD_LIMIT_MS,
    killSignal: 'SIGKILL',
  });
  const ms = Date.now() - started;
  const output = `${run.stdout}\n${run.stderr}`;
  assert.notEqual(run.signal, 'SIGKILL', `the probe did not return in ${CHILD_LIMIT_MS / 1000} s (it hung or filled memory): ${output.slice(-2000)}`);
  const last = run.stdout.trim().split('\n').at(-1) ?? '';
  return { status: run.status, value: last.startsWith('{') || last.startsWith('[') ? JSON.parse(last) : undefined, output, ms };
}

/** What installedNativeCopies finds in `dir`: the project's copies only. */
function copiesIn(dir: string): { pkg: string; hasBinding: boolean; refused?: string }[] {
  const code = `const { installedNativeCopies } = await import(${JSON.stringify(installedUrl)});
console.log(JSON.stringify(installedNativeCopies(process.cwd(), ${JSON.stringify(path.join(dir, 'runtime.js'))}).filter((c) => c.where === 'the project')));`;
  const run = probe(code, dir);
  assert.equal(run.status, 0, run.output);
  return run.value;
}

describe('a tfjs-node whose package.json is hostile is refused, not read', { skip: fifos ? false : 'FIFOs and /dev/zero', timeout: 3 * CHILD_LIMIT_MS }, () => {
  test('package.json → /dev/zero: refused as a device at once', { timeout: CHILD_LIMIT_MS + 10_000 }, () => {
    const [copy] = copiesIn(project(devZero));
    assert.equal(copy?.hasBinding, false);
    assert.match(
      copy?.refused ?? '',
      /@tensorflow\/tfjs-node in the project was not loaded: @tensorflow\/tfjs-node's package\.json .*package\.json is a character device, not a regular file/,
    );
  });

  test('package.json a FIFO with no writer: refused, not waited on', { timeout: CHILD_LIMIT_MS + 10_000 }, () => {
    const [copy] = copiesIn(project(fifo));
    assert.match(copy?.refused ?? '', /package\.json is a named pipe \(FIFO\), not a regular file/);
  });

  test('package.json of 40 MB: refused by its size, not parsed', { timeout: CHILD_LIMIT_MS + 10_000 }, () => {
    const [copy] = copiesIn(project((file) => fs.writeFileSync(file, `{"name":"@tensorflow/tfjs-node","pad":"${'x'.repeat(40 * 2 ** 20)}"}`)));
    assert.match(copy?.refused ?? '', /package\.json is 40\.0 MB, over the 1\.0 MB this reads/);
  });
});

describe('a tfjs-node whose binding is not a regular file is never loaded', {
  skip: fifos ? false : 'FIFOs and /dev/zero',
  timeout: 3 * CHILD_LIMIT_MS,
}, () => {
  test('binding a FIFO: refused with its path', { timeout: CHILD_LIMIT_MS + 10_000 }, () => {
    const [copy] = copiesIn(project(plainManifest, fifo));
    assert.equal(copy?.hasBinding, false);
    assert.match(
      copy?.refused ?? '',
      /@tensorflow\/tfjs-node in the project: its native binding .*tfjs_binding\.node is a named pipe \(FIFO\), not a regular file: it was not loaded/,
    );
  });

  test('binding → /dev/zero: refused as a device', { timeout: CHILD_LIMIT_MS + 10_000 }, () => {
    const [copy] = copiesIn(project(plainManifest, devZero));
    assert.match(copy?.refused ?? '', /tfjs_binding\.node is a device or socket, not a regular file/);
  });

  test('the auto backend of a program that never asks for tfjs-node: a FIFO binding is skipped with its reason, and another backend starts', {
    timeout: CHILD_LIMIT_MS + 10_000,
  }, () => {
    const dir = project(plainManifest, fifo);
    const code = `const { selectBackend } = await import(${JSON.stringify(backendUrl)});
const report = await selectBackend({ quiet: true, projectDir: process.cwd() });
console.log(JSON.stringify(report));`;
    const run = probe(code, dir);
    assert.equal(run.status, 0, run.output);
    assert.notEqual(run.value.backend, 'tensorflow');
    const native = run.value.skipped.find((s: { backend: string }) => s.backend === 'tensorflow');
    assert.match(native?.why ?? '', /tfjs_binding\.node is a named pipe \(FIFO\), not a regular file: it was not loaded/, run.output);
  });
});
