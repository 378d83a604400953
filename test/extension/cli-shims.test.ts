/**
 * `tfjs-callbacks` on the terminals' PATH (extension/cli-shims.ts): the launcher the extension
 * writes runs the CLI it ships, found by name through PATH as a terminal finds it.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';
import { writeCliShims } from '../../extension/cli-shims.js';
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
