/**
 * Programs the user runs through preloads and compilers of their own: babel-node, ts-node,
 * `node -r`/`--require`, `--import` and `--loader` (on the command line, in NODE_OPTIONS, in an npm
 * script), in the Debug Terminal and in a launch. Each is run plainly first, then under the
 * debugger, and must run as it did (the same exit code, the same output lines: compiled by the
 * user's compiler, not tsx) and stop at a breakpoint in its own source, through the compiler's
 * source map where the compiled code differs (babel's, ts-node's). Fresh projects, their packages
 * installed by npm (from its cache when it has them).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { loadsTsx, preloadsIn, splitNodeOptions } from '../../debug-adapter/debuggee/boot-program.js';
import { cleanEnv, runCli } from '../fixtures/spawn.js';
import { describeFrames, Session, THREAD, useDebugAdapter } from '../helpers/dap.js';
import { lineOf } from '../helpers/markers.js';
import { npmInstall, TFJS_VERSION } from '../helpers/projects.js';
import { BOOT_LINE, FakeExtension, runInTerminal, runToEnd, tempDir, useDebugTerminal, waitUntil } from '../helpers/terminal.js';

useDebugAdapter();
useDebugTerminal();

/** Installs included (npm's cache makes them seconds). */
const T = { timeout: 240_000 };
const NPM_QUIET = { npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_yes: 'false' };

/** What a plain run did. */
interface Outcome {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** A command in a project, the program it runs, and the breakpoint line (a marker) with a value to read there. */
interface Case {
  readonly dir: string;
  readonly command: readonly [string, ...string[]];
  /** What NODE_OPTIONS held in VS Code's environment (and so in the plain run's). */
  readonly nodeOptions?: string;
  readonly program: string;
  readonly marker: string;
  readonly expression: string;
  readonly value: string;
  /** The program's output, plainly: checked first, so the case tests what it means to. */
  readonly stdout: RegExp;
}

function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
}

function manifest(name: string, train?: string): string {
  return JSON.stringify({ name, version: '1.0.0', private: true, ...(train ? { scripts: { train } } : {}) }, null, 2);
}

const projects = new Map<string, string>();
/** A project made once per run of this file. */
function project(name: string, make: (dir: string) => void): string {
  let dir = projects.get(name);
  if (!dir) {
    dir = tempDir(`tfjs-cb-preloads-${name}-`);
    make(dir);
    projects.set(name, dir);
  }
  return dir;
}

/**
 * The project: `npm run train` is `babel-node train.js`, ES module syntax in a CommonJS
 * package, an extensionless import, and a plugin of the project's own that only babel's compile applies.
 */
function babelProject(): string {
  return project('babel', (dir) => {
    writeFiles(dir, {
      'package.json': manifest('babel-project', 'babel-node train.js'),
      '.babelrc': JSON.stringify({ presets: [['@babel/preset-env', { targets: { node: 'current' } }]], plugins: ['./babel-plugin-mark.js'] }),
      'babel-plugin-mark.js': [
        '// __COMPILED_BY__ becomes "babel": only a compile by babel has it.',
        'module.exports = ({ types: t }) => ({',
        '  visitor: { Identifier(p) { if (p.node.name === "__COMPILED_BY__") p.replaceWith(t.stringLiteral("babel")); } },',
        '});',
        '',
      ].join('\n'),
      'agent.js': 'export function act(x) {\n  return x * 2;\n}\n',
      'train.js': [
        "import * as tf from '@tensorflow/tfjs';",
        "import { act } from './agent';",
        '',
        'const t = tf.tensor([1, 2, 3]);',
        'const factor = act(1);',
        'const y = t.mul(factor); // @train-mul',
        "console.log('trained', Array.from(y.dataSync()).join(','), 'compiled by', __COMPILED_BY__);",
        '',
      ].join('\n'),
    });
    npmInstall(dir, ['@babel/core', '@babel/node', '@babel/preset-env', `@tensorflow/tfjs@${TFJS_VERSION}`]);
  });
}

/**
 * `npm run train` is `ts-node prog.ts`: ts-node type-checks and compiles it, with its own source
 * maps, to tsconfig's target (ES5: a class becomes a function), which tsx would not honour.
 */
function tsNodeProject(): string {
  return project('ts-node', (dir) => {
    writeFiles(dir, {
      'package.json': manifest('ts-node-project', 'ts-node prog.ts'),
      'tsconfig.json': JSON.stringify({ compilerOptions: { target: 'ES5', module: 'commonjs', strict: true } }),
      'helper.ts': 'export function twice(x: number): number {\n  return x * 2;\n}\n',
      'prog.ts': [
        "import { twice } from './helper';",
        '',
        'class Answer {',
        '  constructor(readonly value: number) {}',
        '}',
        'const answer = new Answer(twice(21));',
        "const compiled = String(Answer).startsWith('class') ? 'as a class' : 'to ES5';",
        "console.log('ts-node prog', answer.value, 'compiled', compiled); // @ts-node-log",
        '',
      ].join('\n'),
    });
    npmInstall(dir, ['ts-node', 'typescript@5.9']);
  });
}

/**
 * Preloads of the project's own, by relative paths: a CommonJS require hook (as pirates and
 * @babel/register make them) that rewrites __COMPILED_BY__, and ES module loader hooks that serve
 * a module of their own.
 */
function preloadProject(): string {
  return project('own', (dir) => {
    writeFiles(dir, {
      'package.json': manifest('own-preloads'),
      'setup.js': [
        "const Module = require('node:module');",
        "const load = Module._extensions['.js'];",
        "Module._extensions['.js'] = function (module, filename) {",
        '  const compile = module._compile;',
        "  module._compile = function (code, file) { return compile.call(this, code.replaceAll('__COMPILED_BY__', '\"setup.js\"'), file); };",
        '  return load(module, filename);',
        '};',
        '',
      ].join('\n'),
      'prog.js': "const answer = 6 * 7;\nconsole.log('prog', answer, 'compiled by', __COMPILED_BY__); // @prog-log\n",
      'loader.mjs': [
        'export async function resolve(specifier, context, next) {',
        "  return specifier === 'virtual:answer' ? { url: 'virtual:answer', shortCircuit: true } : next(specifier, context);",
        '}',
        'export async function load(url, context, next) {',
        "  return url === 'virtual:answer' ? { format: 'module', source: 'export default 42;', shortCircuit: true } : next(url, context);",
        '}',
        '',
      ].join('\n'),
      'setup.mjs': "import { register } from 'node:module';\nregister('./loader.mjs', import.meta.url);\n",
      'prog.mjs': "import answer from 'virtual:answer';\nconst doubled = answer * 2;\nconsole.log('prog.mjs', answer, doubled); // @mjs-log\n",
    });
  });
}

const babelCase = (command: Case['command'], nodeOptions?: string): Case => ({
  dir: babelProject(),
  command,
  ...(nodeOptions ? { nodeOptions } : {}),
  program: 'train.js',
  marker: '@train-mul',
  expression: 'factor',
  value: '2',
  stdout: /^trained 2,4,6 compiled by babel\n$/,
});
const tsNodeCase = (command: Case['command']): Case => ({
  dir: tsNodeProject(),
  command,
  program: 'prog.ts',
  marker: '@ts-node-log',
  expression: 'answer.value',
  value: '42',
  stdout: /^ts-node prog 42 compiled to ES5\n$/,
});
const ownJsCase = (command: Case['command'], nodeOptions?: string): Case => ({
  dir: preloadProject(),
  command,
  ...(nodeOptions ? { nodeOptions } : {}),
  program: 'prog.js',
  marker: '@prog-log',
  expression: 'answer',
  value: '42',
  stdout: /^prog 42 compiled by setup\.js\n$/,
});
const ownMjsCase = (command: Case['command']): Case => ({
  dir: preloadProject(),
  command,
  program: 'prog.mjs',
  marker: '@mjs-log',
  expression: 'doubled',
  value: '84',
  stdout: /^prog\.mjs 42 84\n$/,
});

function runPlain(c: Case): Outcome {
  const [command, ...args] = c.command;
  const run = spawnSync(command, args, {
    cwd: c.dir,
    env: cleanEnv({ ...NPM_QUIET, TFJS_BACKEND: 'cpu', NODE_OPTIONS: c.nodeOptions }),
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** Node's warnings name the process. */
function samePids(text: string): string {
  return text.replace(/\(node:\d+\)/g, '(node:PID)');
}

/** What a debugged program prints first, as F5's does (the terminal has TFJS_BACKEND=cpu). */
const BACKEND_LINE = '[tfjs-callbacks] backend: cpu (TFJS_BACKEND: pure JavaScript)\n';
/** TF.js's greeting on cpu, which that line replaces. */
const CPU_GREETING = /\n=+\nHi, looks like you are running TensorFlow\.js in Node\.js\.[^\n]*\n=+\n/;

/** The case plainly, then in the Debug Terminal: one session, for the program, stopped at the breakpoint; the same run. */
async function inTerminal(c: Case): Promise<void> {
  const plain = runPlain(c);
  assert.equal(plain.code, 0, `plainly: ${plain.stdout}${plain.stderr}`);
  assert.match(plain.stdout, c.stdout);
  const program = path.join(c.dir, c.program);
  const line = lineOf(program, c.marker);
  const ext = await FakeExtension.start((dc) => dc.setBreakpointsRequest({ source: { path: program }, breakpoints: [{ line }] }));
  try {
    const [command, ...args] = c.command;
    const run = runInTerminal(command, args, ext.env(NPM_QUIET, c.nodeOptions), c.dir);
    await waitUntil(() => ext.sessions.length === 1 || run.child.exitCode !== null, 60_000, 'the program asked for a session');
    assert.deepEqual(
      ext.requests.map((r) => r.program),
      [program],
      `one session, for the program (not npm, nor the compiler's CLI)\n${run.stderr()}`,
    );
    const s = ext.sessions[0]!;
    const stop = await s.stopped();
    assert.equal(stop.body.reason, 'breakpoint');
    const frames = await s.stack();
    assert.deepEqual([frames[0]!.source?.path, frames[0]!.line], [program, line], describeFrames(frames));
    assert.equal((await s.evaluate(c.expression, frames[0]!.id)).result, c.value);
    await s.dc.continueRequest({ threadId: THREAD });
    assert.deepEqual(await runToEnd(s), []);
    assert.equal(await run.exited, plain.code, run.stderr());
    assert.equal(run.stdout(), `${BACKEND_LINE}${plain.stdout}`, "the same output lines, after the backend's");
    assert.equal(
      samePids(run.stderr()),
      samePids(plain.stderr.replace(CPU_GREETING, '')),
      "the same stderr (nothing of the debugger in it), less TF.js's greeting",
    );
    assert.doesNotMatch(run.stderr(), BOOT_LINE);
    assert.equal(ext.requests.length, 1, 'nothing else asked for a session');
  } finally {
    await ext.dispose();
  }
}

/** The case plainly (`node <runtimeArgs> <program>`), then as a launch with those runtimeArgs or that env. */
async function launched(c: Case, launch: { runtimeArgs?: string[]; env?: Record<string, string> }): Promise<void> {
  const plain = runPlain(c);
  assert.equal(plain.code, 0, `plainly: ${plain.stdout}${plain.stderr}`);
  assert.match(plain.stdout, c.stdout);
  const program = path.join(c.dir, c.program);
  const line = lineOf(program, c.marker);
  const s = await Session.start();
  try {
    await s.launch({ program, cwd: c.dir, backend: 'cpu', ...launch }, (dc) =>
      dc.setBreakpointsRequest({ source: { path: program }, breakpoints: [{ line }] }),
    );
    const stop = await s.stopped();
    assert.equal(stop.body.reason, 'breakpoint', s.output());
    const frames = await s.stack();
    assert.deepEqual([frames[0]!.source?.path, frames[0]!.line], [program, line], describeFrames(frames));
    assert.equal((await s.evaluate(c.expression, frames[0]!.id)).result, c.value);
    await s.dc.continueRequest({ threadId: THREAD });
    const exited = (await s.terminated()) as DebugProtocol.ExitedEvent | undefined;
    assert.equal(exited?.body.exitCode, plain.code, s.output());
    // The launch's Debug Console has the backend's line before the program's output.
    const lines = s.output('stdout').replace(/^\[tfjs-callbacks\] backend: .*\n/, '');
    assert.equal(lines, plain.stdout, 'the same output lines');
  } finally {
    await s.close();
  }
}

describe('the Debug Terminal runs programs through their own preloads and compilers, debugged', () => {
  test('npm run train (babel-node train.js): compiled by babel, one session, a breakpoint through babel’s source map', T, () =>
    inTerminal(babelCase(['npm', 'run', '--silent', 'train'])),
  );

  test('node -r @babel/register train.js', T, () => inTerminal(babelCase(['node', '-r', '@babel/register', 'train.js'])));

  test('NODE_OPTIONS=--require @babel/register, node train.js', T, () => inTerminal(babelCase(['node', 'train.js'], '--require @babel/register')));

  test('npm run train (ts-node prog.ts): compiled by ts-node, a breakpoint through its source map', T, () =>
    inTerminal(tsNodeCase(['npm', 'run', '--silent', 'train'])),
  );

  test("node -r ./setup.js prog.js: the project's own require hook", T, () => inTerminal(ownJsCase(['node', '-r', './setup.js', 'prog.js'])));

  test('NODE_OPTIONS=--require ./setup.js, node prog.js', T, () => inTerminal(ownJsCase(['node', 'prog.js'], '--require ./setup.js')));

  test("node --import ./setup.mjs prog.mjs: the project's own loader hooks", T, () => inTerminal(ownMjsCase(['node', '--import', './setup.mjs', 'prog.mjs'])));

  test('node --loader ./loader.mjs prog.mjs', T, () => inTerminal(ownMjsCase(['node', '--loader', './loader.mjs', 'prog.mjs'])));
});

describe('a launch runs its program through runtimeArgs and NODE_OPTIONS preloads, debugged', () => {
  test('runtimeArgs ["-r", "@babel/register"]', T, () =>
    launched(babelCase(['node', '-r', '@babel/register', 'train.js']), { runtimeArgs: ['-r', '@babel/register'] }),
  );

  test('env NODE_OPTIONS "--require @babel/register"', T, () =>
    launched(babelCase(['node', 'train.js'], '--require @babel/register'), { env: { NODE_OPTIONS: '--require @babel/register' } }),
  );

  test('runtimeArgs ["-r", "ts-node/register"]', T, () =>
    launched(tsNodeCase(['node', '-r', 'ts-node/register', 'prog.ts']), { runtimeArgs: ['-r', 'ts-node/register'] }),
  );

  test('runtimeArgs ["--import", "./setup.mjs"]', T, () =>
    launched(ownMjsCase(['node', '--import', './setup.mjs', 'prog.mjs']), { runtimeArgs: ['--import', './setup.mjs'] }),
  );
});

/** ts-node with TypeScript as `npm install ts-node typescript` brings it now (7, which ts-node cannot load). */
function tsNode7Project(): string {
  return project('ts-node-7', (dir) => {
    writeFiles(dir, {
      'package.json': manifest('ts-node-7-project', 'ts-node prog.ts'),
      'prog.ts': "const answer: number = 42;\nconsole.log('answer', answer);\n",
    });
    npmInstall(dir, ['ts-node', 'typescript@7']);
  });
}

/** What the debugger and the CLI add to the failed run's stderr: why, and what to install. */
const TS7_WHY =
  /^tfjs-callbacks: ts-node cannot run on TypeScript 7\.\d+\.\d+ \(.*node_modules\/typescript\), which has no JavaScript compiler API\.\n {2}Fix: npm install --save-dev typescript@5\.9 /;

describe('ts-node on TypeScript 7: the run fails as it does plainly, and says why first', () => {
  const plainly = () => {
    const dir = tsNode7Project();
    const plain = runPlain({ dir, command: ['npm', 'run', '--silent', 'train'], program: 'prog.ts', marker: '', expression: '', value: '', stdout: /^/ });
    assert.notEqual(plain.code, 0, 'ts-node fails on TypeScript 7 plainly');
    assert.match(plain.stderr, /reading 'fileExists'/);
    assert.doesNotMatch(plain.stderr, /tfjs-callbacks/);
    return { dir, plain };
  };

  test('in the Debug Terminal (npm run train): no session, the same exit code and stderr after the two lines', T, async () => {
    const { dir, plain } = plainly();
    const ext = await FakeExtension.start();
    try {
      const run = runInTerminal('npm', ['run', '--silent', 'train'], ext.env(NPM_QUIET), dir);
      assert.equal(await run.exited, plain.code, run.stderr());
      assert.equal(ext.sessions.length, 0);
      assert.match(run.stderr(), TS7_WHY);
      assert.equal(samePids(run.stderr().replace(TS7_WHY, '').replace(/^.*\n/, '')), samePids(plain.stderr));
    } finally {
      await ext.dispose();
    }
  });

  test('in a launch with runtimeArgs ["-r", "ts-node/register"]: the launch error says why, the Debug Console too', T, async () => {
    const { dir } = plainly();
    const s = await Session.start();
    try {
      await assert.rejects(
        s.launch({ program: path.join(dir, 'prog.ts'), cwd: dir, backend: 'cpu', runtimeArgs: ['-r', 'ts-node/register'] }),
        (err: Error) => {
          assert.match(
            err.message,
            /^Cannot launch: the program exited before its debugger bridge connected \(exit code 1\)\. It said: tfjs-callbacks: ts-node cannot run on TypeScript 7\.\d+\.\d+ \(.*\), which has no JavaScript compiler API\. Fix: npm install --save-dev typescript@5\.9 /,
          );
          return true;
        },
      );
      assert.match(s.output('stderr'), TS7_WHY);
    } finally {
      await s.close();
    }
  });

  test('under the CLI (run -r ts-node/register prog.ts): the same', T, () => {
    const { dir } = plainly();
    const run = runCli(['run', '-r', 'ts-node/register', 'prog.ts'], { cwd: dir, env: { TFJS_BACKEND: 'cpu' } });
    assert.equal(run.status, 1, run.stderr);
    assert.match(run.stderr, TS7_WHY);
    assert.equal(run.stderr.match(/tfjs-callbacks: ts-node cannot run/g)?.length, 1, 'said once');
  });
});

describe('when tsx runs the program', () => {
  const rule = (program: string, o: { viaRunner?: boolean; execArgv?: string[]; nodeOptions?: string; requireHooks?: string[] } = {}) =>
    loadsTsx({ program, viaRunner: false, execArgv: [], nodeOptions: undefined, requireHooks: ['.js', '.json', '.node'], ...o });
  const boot = '--require=/opt/ext/dist/debug-adapter/debuggee/boot.cjs';

  test('with nothing of the user’s: yes (node main.ts runs), and the bootloader is not the user’s', () => {
    assert.equal(rule('/p/main.ts'), true);
    assert.equal(rule('/p/main.js', { nodeOptions: boot }), true);
    assert.equal(rule('/p/main.ts', { execArgv: ['--require', '/opt/ext/dist/debug-adapter/debuggee/boot.cjs', '--max-old-space-size=4096'] }), true);
  });

  test('not where tsx is loaded already, nor for a program a runner starts (babel-node, ts-node)', () => {
    assert.equal(rule('/p/main.ts', { execArgv: ['--import', 'tsx'] }), false);
    assert.equal(rule('/p/main.ts', { nodeOptions: `--import=tsx ${boot}` }), false);
    assert.equal(rule('/p/train.js', { viaRunner: true }), false);
    assert.equal(rule('/p/prog.ts', { viaRunner: true, requireHooks: ['.js', '.ts'] }), false);
  });

  test("not where the user's preloads compile it; a TypeScript file nothing of theirs takes still gets it", () => {
    assert.equal(rule('/p/train.js', { execArgv: ['-r', '@babel/register'] }), false);
    assert.equal(rule('/p/train.js', { nodeOptions: `--require @babel/register ${boot}` }), false);
    assert.equal(rule('/p/prog.ts', { execArgv: ['-r', 'ts-node/register'], requireHooks: ['.js', '.ts'] }), false);
    assert.equal(rule('/p/prog.ts', { execArgv: ['--loader', 'ts-node/esm'] }), false);
    assert.equal(rule('/p/prog.mjs', { execArgv: ['--import', './setup.mjs'] }), false);
    assert.equal(rule('/p/main.ts', { execArgv: ['-r', 'dotenv/config'] }), true);
  });

  test('NODE_OPTIONS and preloads read as Node reads them', () => {
    assert.deepEqual(splitNodeOptions('--max-old-space-size=4096  --require="/opt/my ext/it\'s \\"b\\"\\\\boot.cjs" -r x'), [
      '--max-old-space-size=4096',
      '--require=/opt/my ext/it\'s "b"\\boot.cjs',
      '-r',
      'x',
    ]);
    assert.deepEqual(preloadsIn(['--inspect', '-r', 'a', '--require=b', '--import', 'c', '--loader=d', '--experimental-loader', 'e', 'f.js']), [
      { flag: '-r', module: 'a' },
      { flag: '--require', module: 'b' },
      { flag: '--import', module: 'c' },
      { flag: '--loader', module: 'd' },
      { flag: '--experimental-loader', module: 'e' },
    ]);
  });
});
