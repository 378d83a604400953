/**
 * The `tfjs-callbacks` launcher on the terminals' PATH (extension/cli-shims.ts) in terminals whose
 * PATH has no node, or an old one first (issue 42, deliverable 7): it runs the CLI with VS Code's
 * own runtime (here stood in for by this test's node, or by a script that shows how it was run), or
 * says plainly which Node it needs; an old node is never used to run the CLI.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { writeCliShims } from '../../extension/cli-shims.js';
import { tempDir } from '../fixtures/callback-models.js';
import { repoRoot } from '../fixtures/spawn.js';

const { dir: root, cleanup } = tempDir('hostile-cli-launcher-');
after(cleanup);
const cli = path.join(repoRoot, 'dist', 'runtime', 'cli', 'main.js');
const TIMEOUT = 60_000;

let count = 0;
function fresh(name: string): string {
  const dir = path.join(root, `${++count}-${name}`);
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

/** An executable sh script `name` in a fresh folder; returns the folder. */
function script(name: string, body: string): string {
  const dir = fresh(name);
  fs.writeFileSync(path.join(dir, name), `#!/bin/sh\n${body}\n`);
  fs.chmodSync(path.join(dir, name), 0o755);
  return dir;
}

/** A `node` 16 that says so for --version and fails loudly if anything tries to run the CLI with it. */
const oldNode = () => script('node', 'if [ "$1" = --version ]; then echo v16.0.0; exit 0; fi\necho "RUN BY NODE 16: $*"; exit 3');

/** `tfjs-callbacks --help` by name, PATH being `dirs` alone (no /usr/bin: no system node). */
function run(bin: string, dirs: readonly string[]) {
  const result = spawnSync('tfjs-callbacks', ['--help'], { cwd: root, env: { PATH: [bin, ...dirs].join(path.delimiter) }, encoding: 'utf8', timeout: TIMEOUT });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr, all: `${result.stdout}\n${result.stderr}\n${result.error ?? ''}` };
}

describe('the launcher without a usable node on the PATH', { skip: process.platform === 'win32' ? 'sh' : false, timeout: 4 * TIMEOUT }, () => {
  test("no node on the PATH: the CLI runs with the extension host's runtime, silently", { timeout: TIMEOUT }, () => {
    const bin = writeCliShims(fresh('bin'), cli, { path: process.execPath, version: process.versions.node });
    const r = run(bin, []);
    assert.equal(r.status, 0, r.all);
    assert.match(r.stdout, /^Usage: tfjs-callbacks run \[options\]/);
    assert.equal(r.stderr, '');
  });

  test('the host runtime is run as node: ELECTRON_RUN_AS_NODE=1, the CLI and the arguments', { timeout: TIMEOUT }, () => {
    const electron = path.join(script('code', 'echo "ELECTRON_RUN_AS_NODE=$ELECTRON_RUN_AS_NODE args: $*"'), 'code');
    const bin = writeCliShims(fresh('bin'), cli, { path: electron, version: '20.19.1' });
    const r = run(bin, []);
    assert.equal(r.status, 0, r.all);
    assert.equal(r.stdout, `ELECTRON_RUN_AS_NODE=1 args: ${cli} --help\n`);
  });

  test('node 16 first on the PATH: not used; the host runtime runs the CLI and one line says why', { timeout: TIMEOUT }, () => {
    const old = oldNode();
    const bin = writeCliShims(fresh('bin'), cli, { path: process.execPath, version: process.versions.node });
    const r = run(bin, [old]);
    assert.equal(r.status, 0, r.all);
    assert.match(r.stdout, /^Usage: tfjs-callbacks run \[options\]/);
    assert.equal(
      r.stderr,
      `tfjs-callbacks: the node on the PATH (${path.join(old, 'node')}) is v16.0.0; it needs Node.js 20.19 or later: running with VS Code's own runtime (Node ${process.versions.node}) instead.\n`,
    );
  });

  test('node 16 on the PATH and a host runtime as old: exit 1 and which Node it needs, nothing run', { timeout: TIMEOUT }, () => {
    const old = oldNode();
    const bin = writeCliShims(fresh('bin'), cli, { path: path.join(old, 'node'), version: '18.19.0' });
    const r = run(bin, [old]);
    assert.equal(r.status, 1, r.all);
    assert.equal(r.stdout, '');
    assert.equal(
      r.stderr,
      `tfjs-callbacks needs Node.js 20.19 or later: the node on the PATH (${path.join(old, 'node')}) is v16.0.0, and VS Code's own runtime is Node 18.19.0. Install Node.js 20.19+ (https://nodejs.org) and open a new terminal.\n`,
    );
  });

  test('no node at all and an old host runtime: says there is none on the PATH', { timeout: TIMEOUT }, () => {
    const bin = writeCliShims(fresh('bin'), cli, { path: '/nonexistent/code', version: '18.19.0' });
    const r = run(bin, []);
    assert.equal(r.status, 1, r.all);
    assert.match(r.stderr, /^tfjs-callbacks needs Node\.js 20\.19 or later: there is no node on the PATH, and VS Code's own runtime is Node 18\.19\.0\./);
  });

  test('a `node` that prints no version (not a Node) counts as none', { timeout: TIMEOUT }, () => {
    const junk = script('node', 'echo "hello"; exit 0');
    const bin = writeCliShims(fresh('bin'), cli, { path: process.execPath, version: process.versions.node });
    const r = run(bin, [junk]);
    assert.equal(r.status, 0, r.all);
    assert.match(r.stdout, /^Usage: tfjs-callbacks run/);
    assert.equal(r.stderr, '');
  });
});
