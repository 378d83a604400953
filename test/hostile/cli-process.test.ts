/**
 * The CLI is `node` in a shell (issue 42): it refuses a --trace path that would replace a file it
 * did not write, or a folder, before the program runs; it passes `--` targets starting with `-`; it
 * survives a reader that closed the pipe; it gathers one summary and one trace across the
 * program's forks and worker threads; it prints the summary and writes the trace on SIGINT and
 * SIGTERM; it ends the program when it is killed outright; and, where TensorFlow's startup lines
 * are filtered from stderr (the native backend), it returns when the program ends though a
 * detached helper holds stderr, and passes stderr's bytes through unchanged.
 * The built CLI (dist/) runs real programs: worker threads need the runtime's loader compiled.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { nativeRoot } from '../../runtime/native/cache.js';
import { tempDir } from '../fixtures/callback-models.js';
import { cleanEnv, repoRoot, writeFile } from '../fixtures/spawn.js';
import { nativeLoads } from '../helpers/backends.js';

const { dir: root, cleanup } = tempDir('hostile-cli-process-');
after(cleanup);

const CLI = path.join(repoRoot, 'dist', 'runtime', 'cli', 'main.js');
const RUNTIME = pathToFileURL(path.join(repoRoot, 'dist', 'runtime', 'index.js')).href;
const T = { timeout: 120_000 };

/** The built CLI, run to its end. */
function cli(
  args: readonly string[],
  env: Record<string, string | undefined> = {},
): { status: number | null; signal: string | null; stdout: string; stderr: Buffer } {
  const result = spawnSync(process.execPath, [CLI, ...args], { cwd: root, env: cleanEnv(env), timeout: 90_000 });
  if (result.error) throw result.error;
  return { status: result.status, signal: result.signal, stdout: result.stdout.toString('utf8'), stderr: result.stderr };
}

const summaries = (stdout: string): string[] => stdout.split('\n').filter((l) => /^[✓✗⚠] \d+ callback invocations? of /.test(l));

/** A program that runs one callback named `name`, then `rest`. */
function program(name: string, rest = ''): string {
  return writeFile(
    root,
    name,
    `import { numpyFunction, tf } from '${RUNTIME}';\nnumpyFunction((x) => x, [tf.tensor1d([1, 2])], ['float32'], { name: 'once' });\n${rest}`,
  );
}

describe('--trace never replaces what it did not write (C16, C17)', () => {
  test('the program itself, its package.json, another file or a folder: refused before the program runs, with what to pass instead', T, () => {
    const marker = path.join(root, 'ran.txt');
    const prog = program('traced.mjs', `(await import('node:fs')).writeFileSync(${JSON.stringify(marker)}, 'ran');\n`);
    const source = fs.readFileSync(prog, 'utf8');
    const manifest = writeFile(root, 'package.json', '{ "name": "mine", "type": "module" }\n');
    const notes = writeFile(root, 'notes.json', '{"mine": true}\n');
    const folder = path.join(root, 'traces');
    fs.mkdirSync(folder);
    const cases: [string, RegExp][] = [
      [prog, /is the file being run, which the trace would replace: give a new file name, e\.g\. --trace .*traced\.trace\.json/],
      [manifest, /already exists and is not a trace tfjs-callbacks wrote: it would be replaced/],
      [notes, /already exists and is not a trace tfjs-callbacks wrote/],
      [folder, /is a folder: give a file in it, e\.g\. --trace .*traces\/trace\.json/],
      [path.join(manifest, 'trace.json'), /is inside .*package\.json, which is a file, not a folder/],
    ];
    for (const [trace, message] of cases) {
      const run = cli(['run', prog, '--backend', 'cpu', '--trace', trace]);
      assert.equal(run.status, 2, `${trace}: ${run.stdout}${run.stderr}`);
      assert.match(run.stderr.toString(), message);
      assert.doesNotMatch(run.stderr.toString(), /Usage:/, 'the refusal is not buried under the usage text');
    }
    assert.equal(fs.existsSync(marker), false, 'the program never ran');
    assert.equal(fs.readFileSync(prog, 'utf8'), source);
    assert.equal(fs.readFileSync(manifest, 'utf8'), '{ "name": "mine", "type": "module" }\n');
    // A trace it wrote may be written again.
    const trace = path.join(root, 'again.trace.json');
    for (let i = 0; i < 2; i++) assert.equal(cli(['run', prog, '--backend', 'cpu', '--trace', trace]).status, 0);
    assert.equal(JSON.parse(fs.readFileSync(trace, 'utf8')).invocations.length, 1);
  });

  test("a model's callbacks module is refused", T, () => {
    const dir = path.join(root, 'model');
    fs.mkdirSync(dir);
    writeFile(dir, 'model.json', '{}');
    const callbacks = writeFile(dir, 'callbacks.mjs', 'export const py = (x) => x;\n');
    const run = cli(['run', path.join(dir, 'model.json'), '--trace', callbacks]);
    assert.equal(run.status, 2, run.stderr.toString());
    assert.match(run.stderr.toString(), /callbacks\.mjs is the file being run/);
    assert.equal(fs.readFileSync(callbacks, 'utf8'), 'export const py = (x) => x;\n');
  });
});

test('`run -- -dash.mjs args` runs a program whose name starts with a dash (C7)', T, () => {
  writeFile(root, '-dash.mjs', 'console.log("dash ran", process.argv.slice(2).join(" "));\n');
  const run = cli(['run', '--', '-dash.mjs', 'a', '--b']);
  assert.equal(run.status, 0, run.stderr.toString());
  assert.match(run.stdout, /^dash ran a --b$/m);
});

test('`run prog | head -1` ends as `node prog | head -1` does: exit 0, no EPIPE (C15)', T, () => {
  const prog = program('chatty.mjs', 'for (let i = 0; i < 5000; i++) console.log("line", i);\n');
  const shell = (command: string) =>
    spawnSync('bash', ['-c', `${command} | head -1 >/dev/null; echo "exit=\${PIPESTATUS[0]}" >&2`], { env: cleanEnv({}), cwd: root, encoding: 'utf8' });
  const ours = shell(`"${process.execPath}" "${CLI}" run "${prog}" --backend cpu`);
  assert.match(ours.stderr, /exit=0/, ours.stderr);
  assert.doesNotMatch(ours.stderr, /EPIPE|Unhandled/, ours.stderr);
});

test('a program that forks itself and starts a worker: one summary, one trace of every invocation (C11)', T, () => {
  const prog = writeFile(
    root,
    'forks.mjs',
    `import { fork } from 'node:child_process';
import { Worker, isMainThread } from 'node:worker_threads';
import { numpyFunction, tf } from '${RUNTIME}';
const role = !isMainThread ? 'worker' : process.env.FORKED ? 'fork' : 'main';
numpyFunction((x) => x, [tf.tensor1d([1, 2])], ['float32'], { name: 'cb_' + role });
if (role === 'main') {
  await new Promise((r) => fork(process.argv[1], [], { env: { ...process.env, FORKED: '1' } }).on('exit', r));
  await new Promise((r) => new Worker(new URL(import.meta.url)).on('exit', r));
}
`,
  );
  const trace = path.join(root, 'forks.trace.json');
  const run = cli(['run', prog, '--backend', 'cpu', '--trace', trace]);
  assert.equal(run.status, 0, run.stderr.toString());
  for (const role of ['main', 'fork', 'worker']) assert.match(run.stdout, new RegExp(`^✓ cb_${role} `, 'm'));
  assert.deepEqual(summaries(run.stdout).length, 1, run.stdout);
  assert.match(summaries(run.stdout)[0]!, /^✓ 3 callback invocations /);
  assert.match(run.stdout, /counted across the program's process and 2 other processes or threads it started/);
  const written = JSON.parse(fs.readFileSync(trace, 'utf8'));
  assert.deepEqual(written.invocations.map((i: { callback: { name: string } }) => i.callback.name).sort(), ['cb_fork', 'cb_main', 'cb_worker']);
  assert.equal(written.summary.invocations, 3);
});

/** Starts the CLI on a program that runs one callback and then waits forever; resolves once it said so. */
async function waitingRun(trace: string): Promise<{ child: ReturnType<typeof spawn>; stdout: () => string; pid: number }> {
  const prog = program('waits.mjs', 'console.log("pid", process.pid);\nsetInterval(() => {}, 1000);\n');
  const child = spawn(process.execPath, [CLI, 'run', prog, '--backend', 'cpu', '--trace', trace], { cwd: root, env: cleanEnv({}), detached: true });
  let text = '';
  child.stdout!.on('data', (d: Buffer) => {
    text += d.toString();
  });
  child.stderr!.resume();
  const pid = await new Promise<number>((resolve, reject) => {
    const check = (): void => {
      const m = /^pid (\d+)$/m.exec(text);
      if (m) resolve(Number(m[1]));
    };
    child.stdout!.on('data', check);
    child.once('exit', () => reject(new Error(`the CLI ended before the program was ready:\n${text}`)));
  });
  return { child, stdout: () => text, pid };
}

const exited = (child: ReturnType<typeof spawn>): Promise<{ code: number | null; signal: string | null }> =>
  new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));

describe('signals (C3) and a CLI killed outright', () => {
  for (const [signal, toGroup] of [
    ['SIGINT', true],
    ['SIGTERM', false],
  ] as const) {
    test(
      `${signal} ${toGroup ? 'to the terminal’s process group (Ctrl+C)' : 'to the CLI alone'}: the summary and the trace, then the signal's own end`,
      T,
      async () => {
        const trace = path.join(root, `${signal}.trace.json`);
        const { child, stdout } = await waitingRun(trace);
        const end = exited(child);
        process.kill(toGroup ? -child.pid! : child.pid!, signal);
        assert.deepEqual(await end, { code: null, signal });
        assert.match(stdout(), new RegExp(`✗ .*waits\\.mjs was stopped by ${signal}`));
        assert.match(summaries(stdout())[0] ?? '', /^✗ 1 callback invocation of 1 callback/);
        assert.equal(JSON.parse(fs.readFileSync(trace, 'utf8')).invocations.length, 1);
      },
    );
  }

  test('SIGKILL of the CLI ends the program too, which says why', T, async () => {
    const trace = path.join(root, 'killed.trace.json');
    const { child, stdout, pid } = await waitingRun(trace);
    const end = exited(child);
    child.kill('SIGKILL');
    await end;
    await new Promise<void>((resolve) => {
      const poll = setInterval(() => {
        if (alive(pid)) return;
        clearInterval(poll);
        resolve();
      }, 100);
    });
    assert.equal(alive(pid), false);
    // Its stdout was the CLI's pipe, gone with it; the trace is written.
    assert.ok(stdout().includes('pid'), stdout());
    assert.equal(JSON.parse(fs.readFileSync(trace, 'utf8')).invocations.length, 1);
  });
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('stderr where the native backend may load (C10, C13)', {
  skip: nativeLoads() ? false : 'no native backend here (scripts/setup-test-env.sh builds one)',
}, () => {
  const NATIVE = { TFJS_CALLBACKS_NATIVE_DIR: nativeRoot() };

  test('the CLI returns when the program ends, though a detached helper holds stderr; the bytes are passed through unchanged', T, () => {
    const prog = writeFile(
      root,
      'helper.mjs',
      `import { spawn } from 'node:child_process';
const helper = spawn('sleep', ['60'], { detached: true, stdio: ['ignore', 'ignore', 'inherit'] });
helper.unref();
console.log('helper', helper.pid);
process.stderr.write(Buffer.from([0xff, 0xfe, 0x41, 0x0a, 0xc3, 0x28, 0x0a]));
`,
    );
    const run = cli(['run', prog], NATIVE);
    const helper = Number(/^helper (\d+)$/m.exec(run.stdout)?.[1]);
    if (helper) alive(helper) && process.kill(helper);
    assert.equal(run.signal, null, 'the CLI returned by itself');
    assert.equal(run.status, 0, run.stdout);
    assert.match(run.stdout, /backend: tensorflow/, 'the filtered path ran');
    assert.deepEqual([...run.stderr], [0xff, 0xfe, 0x41, 0x0a, 0xc3, 0x28, 0x0a]);
  });
});
