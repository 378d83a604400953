/**
 * Hostile input to `tfjs-callbacks setup-native` (issue 28 point 5), through the real CLI: wheels
 * built here byte by byte (a symbolic link out of the cache, `..` names, a zip bomb, sizes past the
 * cap) and "pythons" that are shell scripts printing garbage, `null`, 50 MB or nothing at all.
 * A wheel is unpacked only as regular files and folders inside a fresh folder that goes when the
 * attempt fails, `--undo` leaves nothing of setup-native's, and every failure says why.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { fromPython, NativeSetupError } from '../../runtime/native/find-tensorflow.js';
import { tempDir } from '../fixtures/callback-models.js';
import { runCli } from '../fixtures/spawn.js';
import { type ZipEntry, zip } from '../helpers/zip.js';

const { dir: root, cleanup } = tempDir('hostile-setup-native-');
after(cleanup);
const PREFIX = 'tfjs-callbacks setup-native: ';
const WHEEL_NAME = 'tensorflow_cpu-2.21.0-cp311-cp311-manylinux_2_27_x86_64.whl';
const HEADER = { name: 'tensorflow/include/tensorflow/c/c_api.h', data: '// the C API\n' };

let count = 0;
function fresh(name: string): string {
  const dir = path.join(root, `${++count}-${name}`);
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

/** A wheel of these entries, named as TensorFlow's, in a folder of its own. */
function wheel(entries: readonly ZipEntry[]): string {
  const file = path.join(fresh('wheel'), WHEEL_NAME);
  fs.writeFileSync(file, zip(entries));
  return file;
}

/** setup-native's failure message (after its prefix) with `cache` as its cache folder. */
function failure(args: string[], cache: string): string {
  const run = runCli(['setup-native', ...args], { env: { TFJS_CALLBACKS_NATIVE_DIR: cache } });
  assert.equal(run.status, 1, `${run.stdout}\n${run.stderr}`);
  const line = run.stderr.split('\n').find((l) => l.startsWith(PREFIX));
  assert.ok(line, run.stderr);
  return line.slice(PREFIX.length);
}

/** Every file and link under `dir` (folders alone do not count), relative to it. */
function written(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => !e.isDirectory())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
}

describe('setup-native --wheel: a wheel is hostile', () => {
  test('a symbolic link out of the cache: refused and not left; a second wheel cannot write through it; --undo leaves nothing', () => {
    const cache = path.join(fresh('cache'), 'native');
    const outside = fresh('outside');
    const a = wheel([HEADER, { name: 'tensorflow/include/evil', symlink: outside }]);
    const first = failure(['--wheel', a], cache);
    assert.deepEqual(written(cache), [], `nothing of wheel A stays in the cache (${first})`);
    assert.match(
      first,
      /^--wheel .*\.whl: its member tensorflow\/include\/evil is a symbolic link; setup-native unpacks regular files and folders only\. Nothing of it was kept/,
    );

    const b = wheel([HEADER, { name: 'tensorflow/include/evil/pwned.h', data: 'written through the link' }]);
    failure(['--wheel', b], cache);
    assert.deepEqual(fs.readdirSync(outside), [], 'nothing written outside the cache');

    const undo = runCli(['setup-native', '--undo'], { env: { TFJS_CALLBACKS_NATIVE_DIR: cache } });
    assert.equal(undo.status, 0, undo.stderr);
    assert.deepEqual(written(cache), []);
  });

  test("names that leave the folder ('..', absolute) refuse the whole wheel, and nothing is written", () => {
    const cache = path.join(fresh('cache'), 'native');
    const outsideFile = path.join(root, 'escaped.h');
    const up = wheel([HEADER, { name: `tensorflow/include/${'../'.repeat(12)}${outsideFile.slice(1)}`, data: 'x' }]);
    assert.match(failure(['--wheel', up], cache), /its member ".*\.\.\/.*escaped\.h" goes up with '\.\.'\. Nothing of it was kept/);
    const absolute = wheel([HEADER, { name: outsideFile, data: 'x' }]);
    assert.match(failure(['--wheel', absolute], cache), /its member ".*escaped\.h" is an absolute path/);
    assert.equal(fs.existsSync(outsideFile), false);
    assert.deepEqual(written(cache), []);
  });

  test('members that declare more than the cap are refused before anything is unpacked', () => {
    const cache = path.join(fresh('cache'), 'native');
    // 3 GB each, declared; a few bytes each, really.
    const big = wheel([
      HEADER,
      { name: 'tensorflow/libtensorflow_cc.so.2', data: 'x', declaredSize: 3e9 },
      { name: 'tensorflow/libtensorflow_framework.so.2', data: 'x', declaredSize: 3e9 },
    ]);
    assert.match(failure(['--wheel', big], cache), /the members setup-native needs declare 5\.6 GiB, more than the 4\.0 GiB it unpacks from a wheel/);
    assert.deepEqual(written(cache), []);
  });

  test('a member that inflates past its declared size (a zip bomb) is stopped, and its part removed', () => {
    const cache = path.join(fresh('cache'), 'native');
    const bomb = wheel([HEADER, { name: 'tensorflow/libtensorflow_cc.so.2', data: Buffer.alloc(64 * 2 ** 20), declaredSize: 1000 }]);
    assert.match(failure(['--wheel', bomb], cache), /its member tensorflow\/libtensorflow_cc\.so\.2 inflates past the 1000 bytes it declares/);
    assert.deepEqual(written(cache), []);
  });

  test('a damaged member (CRC) and a file that is no zip say so', () => {
    const cache = path.join(fresh('cache'), 'native');
    const file = wheel([HEADER, { name: 'tensorflow/libtensorflow_cc.so.2', data: 'the library', stored: true }]);
    const bytes = fs.readFileSync(file);
    bytes[bytes.indexOf('the library')] = 'T'.charCodeAt(0);
    fs.writeFileSync(file, bytes);
    assert.match(failure(['--wheel', file], cache), /libtensorflow_cc\.so\.2 fails its CRC-32 check/);
    const notZip = path.join(fresh('not-zip'), WHEEL_NAME);
    fs.writeFileSync(notZip, 'not a zip at all');
    assert.match(failure(['--wheel', notZip], cache), /--wheel .*: it is not a zip file/);
    assert.deepEqual(written(cache), []);
  });

  test('a wheel without the libraries: the attempt fails with what it lacks, and its unpacked headers go', () => {
    const cache = path.join(fresh('cache'), 'native');
    const headersOnly = wheel([HEADER, { name: 'tensorflow/include/tensorflow/c/eager/c_api.h', data: '//\n' }]);
    assert.match(failure(['--wheel', headersOnly], cache), /lacks .*libtensorflow_cc\.so\.2/);
    assert.deepEqual(written(cache), [], 'the 1.1 GB of a real wheel would stay otherwise');
  });
});

describe('setup-native --python: a "python" that is not one', () => {
  /** A shell script standing in for a Python. */
  function fakePython(name: string, body: string): string {
    const file = path.join(fresh('bin'), name);
    fs.writeFileSync(file, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
    return file;
  }

  const cases: [string, string, RegExp][] = [
    ['garbage', "echo 'Python 3.11.4 says hello'", /printed "Python 3\.11\.4 says hello", not the line of JSON the locating script prints/],
    ['null', 'echo null', /printed "null", not the JSON object the locating script prints/],
    ['a list', "echo '[1, 2]'", /printed "\[1, 2\]", not the JSON object/],
    ['odd JSON', `echo '{"python": 5, "dir": 7}'`, /printed an answer whose "python" is "5", not the path of the Python/],
    ['a number for dir', `echo '{"python": "/usr/bin/python3", "dir": 7}'`, /printed an answer whose "dir" is "7", not a folder/],
    ['a flood of 50 MB', "head -c 52428800 /dev/zero | tr '\\0' x", /printed more than 1 MB and was stopped/],
    ['nothing', 'true', /printed nothing \(the locating script prints one line of JSON\)/],
    ['an exit code, silently', 'exit 3', /exited with code 3 and printed nothing on stderr/],
    ['a crash', 'kill -SEGV $$', /was killed by SIGSEGV before it answered/],
  ];
  for (const [what, body, reason] of cases) {
    test(`${what}: the reason is said`, () => {
      const python = fakePython(`python-${what.replace(/\W+/g, '-')}`, body);
      const message = failure(['--python', python], path.join(fresh('cache'), 'native'));
      assert.doesNotMatch(message, /TypeError|\(\)/);
      assert.ok(message.startsWith(`No Python to find TensorFlow with (${python}: `), message);
      assert.match(message, reason);
    });
  }

  test('a python that hangs is stopped, and says so', { timeout: 30_000 }, () => {
    // It sleeps 60 s, past this test's own 30 s timeout: only the 1 s limit lets the test end.
    const python = fakePython('python-hangs', 'exec sleep 60');
    let caught: unknown;
    try {
      fromPython(python, { timeoutMs: 1_000 });
    } catch (err) {
      caught = err;
    }
    assert.ok(caught instanceof NativeSetupError, String(caught));
    assert.match(caught.message, /python-hangs: did not answer within 1 s and was stopped .*does it wait for input, or hang at startup\?/);
  });
});
