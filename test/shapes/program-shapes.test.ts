/**
 * Programs of the shapes users already have (test/fixtures/shapes), each in a fresh project with
 * its own package.json and installs (this package from its `npm pack` tarball), run three ways and
 * compared: plainly (`node program args`), under the CLI the project installed
 * (`tfjs-callbacks run program --backend cpu args`) and under the debugger (a real DAP client
 * against the real adapter, a breakpoint in the program's callback). What must hold: the same exit
 * code, the program's own output lines unchanged and in order, every other line one of ours (the
 * backend line, one line per callback, the summary), the program's own error where it fails, and
 * never a second engine's lines. Wall times are reported as ratios to the plain run (not asserted:
 * CI machines are loaded).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { nativeRoot } from '../../runtime/native/cache.js';
import { tempDir } from '../fixtures/callback-models.js';
import { cleanEnv, repoRoot } from '../fixtures/spawn.js';
import { nativeLoads } from '../helpers/backends.js';
import { Session, THREAD, useDebugAdapter } from '../helpers/dap.js';
import { lineOf } from '../helpers/markers.js';
import { makeUserProject, npmInstall, TFJS_VERSION, type ProjectSpec, type UserProject } from '../helpers/projects.js';

useDebugAdapter();
const { dir: root, cleanup } = tempDir('program-shapes-');
after(cleanup);

const FIXTURES = path.join(repoRoot, 'test', 'fixtures', 'shapes');

interface Shape {
  readonly name: string;
  readonly spec: ProjectSpec;
  /** The fixture folder (test/fixtures/shapes/<it>) whose files are copied into the project: the name, unless given. */
  readonly fixture?: string;
  readonly program: string;
  readonly args: readonly string[];
  /** The marker of the line in the program's callback where the debugger is to stop. */
  readonly breakAt: string;
  readonly exitCode: number;
  /** The program's error line (its first line on stderr) when it fails. */
  readonly error?: RegExp;
}

const SHAPES: readonly Shape[] = [
  {
    name: 'custom-layer',
    spec: { dependencies: { '@tensorflow/tfjs': TFJS_VERSION }, withRuntime: true },
    program: 'train.js',
    args: ['--epochs', '2', '--batch_size', '2'],
    breakAt: '@standardize',
    exitCode: 0,
  },
  {
    // The official examples pin TF.js 3.x: the same program on 3.18.
    name: 'older-tfjs',
    fixture: 'custom-layer',
    spec: { dependencies: { '@tensorflow/tfjs': '3.18.0' }, withRuntime: true },
    program: 'train.js',
    args: ['--epochs', '2'],
    breakAt: '@standardize',
    exitCode: 0,
  },
  {
    name: 'dqn-esm',
    spec: { type: 'module', dependencies: { '@tensorflow/tfjs': TFJS_VERSION }, withRuntime: true },
    program: 'agent.js',
    args: ['--episodes', '2'],
    breakAt: '@shape-reward',
    exitCode: 0,
  },
  {
    name: 'tfdata-fails',
    spec: { dependencies: { '@tensorflow/tfjs': TFJS_VERSION }, withRuntime: true },
    program: 'pipeline.js',
    args: [],
    breakAt: '@to-pixels',
    exitCode: 1,
    error: /^InvalidArgumentError: 0-th value returned by to_pixels is int32, but expects float$/,
  },
  {
    name: 'tfjs-node-direct',
    // Installed without their install scripts (makeUserProject): no binding, as behind a firewall.
    spec: { dependencies: { '@tensorflow/tfjs-node': TFJS_VERSION, '@tensorflow/tfjs-node-gpu': TFJS_VERSION }, withRuntime: true },
    program: 'main.js',
    args: [],
    breakAt: '@double',
    exitCode: 1,
    error: /^Error: The Node\.js native addon module \(tfjs_binding\.node\) can not be found at path: .*tfjs-node\/lib\/napi-v\d+\/tfjs_binding\.node\. $/,
  },
];

interface Run {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly ms: number;
}

function run(project: UserProject, argv: readonly string[], env: Record<string, string | undefined> = {}): Run {
  const started = performance.now();
  const result = spawnSync(process.execPath, argv, { cwd: project.dir, env: cleanEnv(env), encoding: 'utf8', timeout: 300_000 });
  if (result.error) throw result.error;
  return { status: result.status, stdout: result.stdout, stderr: result.stderr, ms: performance.now() - started };
}

/** The CLI as the project installed it (node_modules/tfjs-callback-debugger, from the tarball). */
function cliOf(project: UserProject): string {
  return path.join(project.dir, 'node_modules', 'tfjs-callback-debugger', 'dist', 'runtime', 'cli', 'main.js');
}

/** Lines the CLI writes of its own on stdout: anything else there is the program's. */
const OURS = [
  /^\[tfjs-callbacks\] backend: /,
  /^[✓✗] \S.* \[(PyFunc|EagerPyFunc|PyFuncStateless)\] in /,
  /^ {4}[✗⚠↺] /,
  /^✗ \S+ (failed: |exited with code \d+$)/,
  /^[✓✗⚠] \d+ callback invocations? of \d+ callbacks? · /,
  /^training: \d+ fits? · /,
  /^ {2}no graph callback ran: /,
];
const isOurs = (line: string): boolean => OURS.some((p) => p.test(line));

function lines(text: string): string[] {
  return text.split('\n').filter((l) => l.trim() !== '');
}

/** What a second TF.js engine, or the wasm backend's Emscripten handler, prints. */
const FOREIGN = /already registered|Platform node has already been set|WasmBackendModule|throw ex;/;

/** The first line of the error Node printed for an uncaught error (after the source excerpt). */
function errorLine(stderr: string): string | undefined {
  return stderr.split('\n').find((l) => /^(\w*Error)\b/.test(l));
}

/**
 * Files a printed stack names that do not exist: TF.js's source maps point into its build tree
 * (`<project>/tfjs-data/src/dataset.ts`), and where they were applied its frames named those.
 */
function missingFrameFiles(stderr: string): string[] {
  const files = [...stderr.matchAll(/^\s+at (?:.*? \()?((?:file:\/\/)?\/[^()]+?):\d+:\d+\)?$/gm)].map((m) =>
    m[1]!.startsWith('file:') ? new URL(m[1]!).pathname : m[1]!,
  );
  return [...new Set(files)].filter((f) => !fs.existsSync(f));
}

const timings: string[] = [];
after(() => {
  if (timings.length) console.log(`# time as a ratio to the plain run (this machine, one run each):\n# ${timings.join('\n# ')}`);
});

for (const shape of SHAPES) {
  describe(`${shape.name}: ${shape.program} ${shape.args.join(' ')}`, () => {
    let project: UserProject;
    let plain: Run;
    before(() => {
      project = makeUserProject(path.join(root, shape.name), shape.spec);
      const fixture = path.join(FIXTURES, shape.fixture ?? shape.name);
      for (const file of fs.readdirSync(fixture)) project.write(file, fs.readFileSync(path.join(fixture, file), 'utf8'));
      plain = run(project, [shape.program, ...shape.args]);
    });

    test(`plainly: exits ${shape.exitCode}`, () => {
      assert.equal(plain.status, shape.exitCode, `${plain.stdout}\n${plain.stderr}`);
      if (shape.error) assert.match(errorLine(plain.stderr) ?? '', shape.error, plain.stderr);
    });

    test("under the project's tfjs-callbacks run: the same exit code and program output, our lines only added", () => {
      const cli = run(project, [cliOf(project), 'run', shape.program, '--backend', 'cpu', ...shape.args]);
      const added = lines(cli.stdout).filter(isOurs).length;
      timings.push(
        `${shape.name}: CLI exit ${cli.status} (plain ${plain.status}), ${added} lines of ours, ${(cli.ms / plain.ms).toFixed(2)}x (${cli.ms.toFixed(0)} / ${plain.ms.toFixed(0)} ms)`,
      );
      assert.equal(cli.status, plain.status, `${cli.stdout}\n${cli.stderr}`);
      assert.deepEqual(
        lines(cli.stdout).filter((l) => !isOurs(l)),
        lines(plain.stdout),
        `the program's own lines, in order:\n${cli.stdout}`,
      );
      const ours = lines(cli.stdout).filter(isOurs);
      assert.match(ours[0] ?? '', /^\[tfjs-callbacks\] backend: cpu /);
      assert.match(ours.at(-1)!, shape.exitCode === 0 ? /^✓ \d+ callback invocations? of/ : /^✗ \d+ callback invocations? of/);
      assert.doesNotMatch(`${cli.stdout}${cli.stderr}`, FOREIGN);
      if (shape.error) assert.equal(errorLine(cli.stderr), errorLine(plain.stderr), cli.stderr);
      assert.deepEqual(missingFrameFiles(cli.stderr), [], cli.stderr);
    });

    test('under the debugger: stops in the callback, then the same exit code and program output', async () => {
      const file = path.join(project.dir, shape.program);
      const line = lineOf(file, shape.breakAt);
      const started = performance.now();
      const s = await Session.start();
      try {
        await s.launch({ program: file, args: shape.args, cwd: project.dir }, (dc) =>
          dc.setBreakpointsRequest({ source: { path: file }, breakpoints: [{ line }] }),
        );
        const stops: DebugProtocol.StoppedEvent[] = [];
        const stoppedLines: number[] = [];
        for (let stop = await s.nextStop(); stop; stop = await s.nextStop()) {
          stops.push(stop);
          stoppedLines.push((await s.stack())[0]?.line ?? 0);
          await s.dc.continueRequest({ threadId: THREAD });
        }
        const exited = s.all('exited').at(-1) as DebugProtocol.ExitedEvent | undefined;
        const added = lines(s.output('stdout')).filter(isOurs).length + lines(s.output('console')).length + lines(s.output('important')).length;
        timings.push(
          `${shape.name}: debugger exit ${exited?.body.exitCode} (plain ${plain.status}), ${added} lines of ours, ${((performance.now() - started) / plain.ms).toFixed(2)}x (${stops.length} stops)`,
        );
        if (shape.name !== 'tfjs-node-direct') {
          assert.ok(
            stops.some((e, i) => e.body.reason === 'breakpoint' && stoppedLines[i] === line),
            `a stop at ${shape.program}:${line}; stops: ${stops.map((e, i) => `${e.body.reason}@${stoppedLines[i]}`).join(', ')}`,
          );
        }
        assert.equal(exited?.body.exitCode, plain.status, s.summary());
        assert.deepEqual(
          lines(s.output('stdout')).filter((l) => !isOurs(l)),
          lines(plain.stdout),
          `the program's own lines, in order:\n${s.output('stdout')}`,
        );
        assert.doesNotMatch(s.output(), FOREIGN);
        // Node's own line as it exits with a session attached is not the program's.
        assert.doesNotMatch(s.output('stderr'), /Waiting for the debugger to disconnect/);
        if (shape.error) assert.equal(errorLine(s.output('stderr')), errorLine(plain.stderr), s.output('stderr'));
        if (shape.error) assert.match(s.output('stderr'), /\s+at /, 'the error’s stack is printed');
        assert.deepEqual(missingFrameFiles(s.output('stderr')), [], s.output('stderr'));
      } finally {
        await s.close();
      }
    });

    if (shape.name === 'tfjs-node-direct') {
      test('with a setup-native build: the program’s own require of tfjs-node gets it, under the CLI and the debugger, one engine', {
        skip: nativeLoads() ? false : 'no native build here (scripts/setup-native-test.sh)',
      }, async () => {
        const native = { TFJS_CALLBACKS_NATIVE_DIR: nativeRoot() };
        const cli = run(project, [cliOf(project), 'run', shape.program], native);
        assert.equal(cli.status, 0, `${cli.stdout}\n${cli.stderr}`);
        assert.match(
          cli.stdout,
          /^\[tfjs-callbacks\] backend: tensorflow \(auto: native TensorFlow from @tensorflow\/tfjs-node \(CPU\) in setup-native's build/m,
        );
        // The details behind the one short line: `tfjs-callbacks backend`, in the project.
        const details = run(project, [cliOf(project), 'backend'], native);
        assert.match(details.stdout, /tfjs-node-gpu in the project is installed without its native binding/m);
        assert.match(cli.stdout, /^backend tensorflow: 2,4,6$/m);
        assert.match(cli.stdout, /^✓ 1 callback invocation of 1 callback · /m);
        assert.doesNotMatch(`${cli.stdout}${cli.stderr}`, FOREIGN);
        const s = await Session.start(native);
        try {
          await s.launch({ program: path.join(project.dir, shape.program), cwd: project.dir, backend: 'auto' });
          const exited = await s.terminated();
          assert.equal(exited?.body.exitCode, 0, s.summary());
          assert.match(s.output('stdout'), /^backend tensorflow: 2,4,6$/m);
          assert.doesNotMatch(s.output(), FOREIGN);
        } finally {
          await s.close();
        }
      });
    }
  });
}

describe('the runtime installed from a folder (npm install <checkout>: a symlink)', () => {
  test('plain node: one engine, the project’s, though the folder has its own @tensorflow packages', () => {
    // npm's default for a folder is a link (npm test's environment sets install-links: undone here).
    const project = makeUserProject(path.join(root, 'linked'), { dependencies: { '@tensorflow/tfjs': TFJS_VERSION } });
    npmInstall(project.dir, ['--install-links=false', repoRoot]);
    assert.ok(fs.lstatSync(path.join(project.dir, 'node_modules', 'tfjs-callback-debugger')).isSymbolicLink(), 'installed as a link');
    project.write(
      'prog.js',
      [
        "const tf = require('@tensorflow/tfjs');",
        "const { numpyFunction, tf: runtimeTf } = require('tfjs-callback-debugger/runtime');",
        "const y = numpyFunction((a) => a.map((v) => v * 2), [tf.tensor([1, 2, 3])], 'float32');",
        'console.log(`one engine: ${tf.engine() === runtimeTf.engine()} ${Array.from(y.dataSync())}`);',
        '',
      ].join('\n'),
    );
    const plain = run(project, ['prog.js']);
    assert.equal(plain.status, 0, plain.stderr);
    assert.match(plain.stdout, /^one engine: true 2,4,6$/m);
    assert.doesNotMatch(plain.stderr, /already registered|Platform node has already been set/, plain.stderr);
  });
});
