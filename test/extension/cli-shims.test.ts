/**
 * `tfjs-callbacks` on the terminals' PATH (extension/cli-shims.ts): the launcher the extension
 * writes runs the CLI it ships, found by name through PATH as a terminal finds it, with a node recent
 * enough for it (test/hostile/cli-launcher.test.ts: without one on the PATH).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';
import { isRecentNode, MIN_NODE, writeCliShims } from '../../extension/cli-shims.js';
import { tempDir } from '../fixtures/callback-models.js';
import { repoRoot } from '../fixtures/spawn.js';

const { dir: root, cleanup } = tempDir('cli-shims-');
after(cleanup);

test('the launcher on PATH runs the shipped CLI: `tfjs-callbacks --help` by name, from any folder', {
  skip: process.platform === 'win32' ? 'sh' : false,
}, () => {
  // A folder whose path needs quoting, as a user's storage folder may.
  const bin = writeCliShims(path.join(root, "it's here", 'bin'), path.join(repoRoot, 'dist', 'runtime', 'cli', 'main.js'));
  assert.ok(fs.statSync(path.join(bin, 'tfjs-callbacks')).mode & 0o100, 'executable');
  assert.ok(fs.existsSync(path.join(bin, 'tfjs-callbacks.cmd')));
  const PATH = `${bin}${path.delimiter}${path.dirname(process.execPath)}${path.delimiter}/usr/bin${path.delimiter}/bin`;
  const run = spawnSync('tfjs-callbacks', ['--help'], { cwd: root, env: { PATH }, encoding: 'utf8' });
  assert.equal(run.status, 0, `${run.stdout}\n${run.stderr}\n${run.error ?? ''}`);
  assert.match(run.stdout, /^Usage: tfjs-callbacks run \[options\]/);
});

test("the Node the launchers require is package.json's engines.node", () => {
  const engines = (JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;
  assert.equal(engines, `>=${MIN_NODE.major}.${MIN_NODE.minor}`);
  assert.ok(isRecentNode('v20.19.0') && isRecentNode('20.19.1') && isRecentNode('v22.0.0') && isRecentNode('v100.0.0'));
  assert.ok(!isRecentNode('v20.18.3') && !isRecentNode('v16.0.0') && !isRecentNode('v9.99.0') && !isRecentNode('hello'));
});

test('the .cmd launcher makes the same choice: a recent node on the PATH, else the host runtime as node, its environment kept local', () => {
  const bin = writeCliShims(path.join(root, 'cmd', 'bin'), 'C:\\ext\\100%\\main.js', { path: 'C:\\VS Code\\Code.exe', version: '20.19.1' });
  const cmd = fs.readFileSync(path.join(bin, 'tfjs-callbacks.cmd'), 'utf8');
  assert.ok(cmd.split('\r\n').length > 5 && !/[^\r]\n/.test(cmd), 'CRLF lines');
  assert.match(cmd, /^@echo off\r\nsetlocal\r\n/);
  assert.match(cmd, /if %%a EQU 20 if %%b GEQ 19 set "tfjs_node=node"/);
  assert.match(cmd, /node "C:\\ext\\100%%\\main\.js" %\*/);
  assert.match(cmd, /set ELECTRON_RUN_AS_NODE=1\r\n"C:\\VS Code\\Code\.exe" "C:\\ext\\100%%\\main\.js" %\*/);
  const old = fs.readFileSync(
    path.join(writeCliShims(path.join(root, 'cmd-old', 'bin'), 'C:\\main.js', { path: 'C:\\Code.exe', version: '18.0.0' }), 'tfjs-callbacks.cmd'),
    'utf8',
  );
  assert.match(old, /echo tfjs-callbacks needs Node\.js 20\.19 or later: .* VS Code's own runtime is Node 18\.0\.0\. .*1>&2\r\nexit \/b 1/);
  assert.doesNotMatch(old, /ELECTRON_RUN_AS_NODE/);
});
