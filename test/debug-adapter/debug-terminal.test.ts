/**
 * The Debug Terminal without VS Code (test/helpers/terminal.ts plays the extension): which
 * processes get a session, what they show, and how a program runs when none can be had (one the
 * extension refuses: test/hostile/debug-terminal-tools.test.ts). Programs run with the user's own
 * preloads and compilers: preloads.test.ts.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { isToolScript, runsModel } from '../../debug-adapter/debuggee/boot.cjs';
import { parseTerminalReply, TERMINAL_SOCKET_ENV } from '../../debug-adapter/debuggee/terminal-protocol.js';
import { terminalConfiguration, terminalNodeOptions } from '../../extension/terminal-listener.js';
import { resolveConfiguration, UNTRUSTED_MESSAGE } from '../../extension/config-resolution.js';
import type { BackendChoice, BackendName } from '../../runtime/backend-choice.js';
import { buildDir, hasBuild, nativeRoot } from '../../runtime/native/cache.js';
import { cleanEnv } from '../fixtures/spawn.js';
import { describeFrames, fixture, root, Session, THREAD, useDebugAdapter } from '../helpers/dap.js';
import { lineOf } from '../helpers/markers.js';
import { makeUserProject, TFJS_VERSION, type UserProject } from '../helpers/projects.js';
import { BOOT_LINE, BOOTLOADER, FakeExtension, pausedInTerminal, runInTerminal, runToEnd, tempDir, useDebugTerminal, waitUntil } from '../helpers/terminal.js';

useDebugAdapter();
useDebugTerminal();

const NUMPY = fixture('numpy-program.ts');
const T = { timeout: 90_000 };
/** The backend line a program prints first, as F5's does: FakeExtension's terminal has TFJS_BACKEND=cpu. */
const CPU_LINE = '[tfjs-callbacks] backend: cpu (TFJS_BACKEND: pure JavaScript)\n';
/** The line of a program that has no answer from the extension (no setting: auto, F5's default). */
const AUTO_LINE = /\[tfjs-callbacks\] backend: \w+ \(auto: [^\n]*\)\n/.source;

describe('Debug Terminal', () => {
  test('node program.ts: breakpoints from the first line, a stop in a callback with its Callback scope, output in the terminal', T, async () => {
    const selectLine = lineOf(NUMPY, '@select-backend');
    const bodyLine = lineOf(NUMPY, '@scale-rows-body');
    const ext = await FakeExtension.start((dc) =>
      dc.setBreakpointsRequest({ source: { path: NUMPY }, breakpoints: [{ line: selectLine }, { line: bodyLine }] }),
    );
    try {
      const run = runInTerminal(process.execPath, [NUMPY], ext.env());
      await waitUntil(() => ext.sessions.length === 1, 30_000, 'the program asked for a session');
      const s = ext.sessions[0]!;
      assert.equal(ext.requests[0]!.program, NUMPY);
      assert.equal(ext.requests[0]!.pid, run.child.pid);

      // The first line of the program: it waited at the bridge until the breakpoints were set.
      const first = await s.stopped();
      assert.equal(first.body.reason, 'breakpoint');
      let frames = await s.stack();
      assert.equal(frames[0]!.source?.path, NUMPY);
      assert.equal(frames[0]!.line, selectLine, describeFrames(frames));
      assert.equal(run.stdout(), CPU_LINE, "nothing of the program ran before the first stop, only the backend's choice (as F5's)");
      // ...which the adapter tells the extension (its status bar): the line itself went to the terminal.
      assert.deepEqual(
        s.all('tfjsBackend').map((e) => e.body),
        [{ backend: 'cpu' }],
      );

      await s.dc.continueRequest({ threadId: THREAD });
      const inCallback = await s.stopped();
      assert.equal(inCallback.body.reason, 'breakpoint');
      frames = await s.stack();
      assert.equal(frames[0]!.name, 'scale_rows');
      assert.equal(frames[0]!.line, bodyLine);
      assert.ok(
        frames.some((f) => /› scale_rows \(PyFunc\)$/.test(f.name) && f.presentationHint === 'label'),
        `a graph frame for the callback:\n  ${describeFrames(frames)}`,
      );
      const scopes = await s.scopes(frames[0]!.id);
      assert.equal(scopes[0]!.name, 'Callback');
      const callback = await s.scope(frames[0]!.id, 'Callback');
      assert.match(callback.get('x').value, /^NdArray float32\[2,3\] min=1 max=6 mean=3\.5/);
      assert.match(callback.get('Tout').value, /float32/);
      assert.equal((await s.evaluate('factor', frames[0]!.id)).result, '2');
      await s.dc.continueRequest({ threadId: THREAD });

      // The rest: the Tout mismatch stop of bad_dtype (on by default), then the end.
      assert.deepEqual(await runToEnd(s), ['exception']);
      assert.equal(await run.exited, 0, run.stderr());
      assert.match(run.stdout(), /scaled 2,4,6,8,10,12\n[\s\S]*log_huber 1\n[\s\S]*done\n/);
      assert.doesNotMatch(run.stderr(), BOOT_LINE);
      assert.doesNotMatch(s.output('stdout'), /scaled/, "the program's output stays in its terminal");
      assert.match(s.output(), /Program exited with code 0/);
    } finally {
      await ext.dispose();
    }
  });

  test("stopping the session ends the terminal's program, as stopping a launch does", T, async () => {
    const { ext, run, s } = await pausedInTerminal(NUMPY, lineOf(NUMPY, '@scale-rows-body'));
    try {
      await s.dc.disconnectRequest({});
      assert.equal(await run.exited, null, 'ended by a signal, paused where it was');
      assert.equal(run.child.signalCode, 'SIGKILL');
      assert.doesNotMatch(run.stdout(), /done/);
    } finally {
      await ext.dispose();
    }
  });

  test('a Node process the debugged program starts gets a session of its own', T, async () => {
    const dir = tempDir('tfjs-cb-term-children-');
    const parent = path.join(dir, 'parent.mjs');
    const child = path.join(dir, 'child.mjs');
    fs.writeFileSync(child, "const answer = 6 * 7;\nconsole.log('child', answer); // @child-line\n");
    fs.writeFileSync(
      parent,
      `import { spawn } from 'node:child_process';\nspawn(process.execPath, [${JSON.stringify(child)}], { stdio: 'inherit' }).on('exit', (code) => console.log('parent saw', code));\n`,
    );
    const childLine = lineOf(child, '@child-line');
    const ext = await FakeExtension.start((dc) => dc.setBreakpointsRequest({ source: { path: child }, breakpoints: [{ line: childLine }] }));
    try {
      const run = runInTerminal(process.execPath, [parent], ext.env(), dir);
      await waitUntil(() => ext.sessions.length === 2, 30_000, 'parent and child asked for sessions');
      assert.deepEqual(
        ext.requests.map((r) => r.program),
        [parent, child],
      );
      const s = ext.sessions[1]!;
      assert.equal((await s.stopped()).body.reason, 'breakpoint');
      const frames = await s.stack();
      assert.deepEqual([frames[0]!.source?.path, frames[0]!.line], [child, childLine], describeFrames(frames));
      assert.equal((await s.evaluate('answer', frames[0]!.id)).result, '42');
      await s.dc.continueRequest({ threadId: THREAD });
      assert.equal(await run.exited, 0, run.stderr());
      assert.equal(run.stdout(), `${CPU_LINE}child 42\nparent saw 0\n`, 'the backend line once: the child, on the same backend, does not say it again');
      for (const session of ext.sessions) await session.terminated();
    } finally {
      await ext.dispose();
    }
  });

  test('npm run <script> in a fresh project: exactly one session, for the program, not for npm', T, () =>
    debugProjectScript({ type: 'module', script: 'node main.ts', command: ['npm', 'run', '--silent', 'train'] }),
  );

  test('npx tsx main.ts in a CommonJS project: one session, for the program in the child tsx starts', T, () =>
    debugProjectScript({ type: 'commonjs', script: 'tsx main.ts', command: ['npx', 'tsx', 'main.ts'], withTsx: true }),
  );

  test('tfjs-callbacks run main.ts: one session, for the program in the process the CLI starts for it, not for the CLI', T, () =>
    debugProjectScript({
      type: 'module',
      script: 'tfjs-callbacks run main.ts',
      command: ['node', path.join(root, 'dist', 'runtime', 'cli', 'main.js'), 'run', 'main.ts', '--backend', 'cpu'],
    }),
  );

  test(
    'tfjs-callbacks run model.json --backend cpu: the CLI, debugged in its own process, chooses as the CLI does (its --backend over the setting), one line',
    T,
    async () => {
      const ext = await FakeExtension.start(undefined, { backend: 'wasm' });
      try {
        const cli = path.join(root, 'dist', 'runtime', 'cli', 'main.js');
        const args = ['run', 'examples/models/standardize/model.json', '--callbacks', 'examples/callbacks/standardize.ts', '--backend', 'cpu'];
        const run = runInTerminal(process.execPath, [cli, ...args], ext.env({ TFJS_BACKEND: undefined }));
        await waitUntil(() => ext.sessions.length === 1 || run.child.exitCode !== null, 30_000, 'the CLI asked for a session');
        await runToEnd(ext.sessions[0]!);
        assert.equal(await run.exited, 0, run.stderr());
        assert.deepEqual(
          ext.requests.map((r) => r.program),
          [cli],
        );
        assert.deepEqual(
          run
            .stdout()
            .split('\n')
            .filter((l) => l.startsWith('[tfjs-callbacks] backend: ')),
          ['[tfjs-callbacks] backend: cpu (requested: pure JavaScript)'],
          run.stdout(),
        );
      } finally {
        await ext.dispose();
      }
    },
  );

  test('a process that runs no program (node -e) asks for nothing; the bootloader loads only itself and what it imports, and opens nothing', T, async () => {
    const ext = await FakeExtension.start();
    try {
      // Counted, not timed (its time is bench/test-timings.bench.ts's, as a ratio to a plain start):
      // on the first line of -e, the files loaded, Node's own modules loaded, and what is held open.
      const probe = async (env: NodeJS.ProcessEnv, preamble = '') => {
        const report =
          'console.log(JSON.stringify({ files: Object.keys(require.cache), modules: process.moduleLoadList, open: process.getActiveResourcesInfo() }))';
        const run = runInTerminal(process.execPath, ['-e', `${preamble}${report}`], env);
        assert.equal(await run.exited, 0, run.stderr());
        assert.equal(run.stderr(), '');
        return JSON.parse(run.stdout()) as { files: string[]; modules: string[]; open: string[] };
      };
      const booted = await probe(ext.env());
      // A plain node that imports what boot.cts imports: the most the bootloader may add.
      const imports = await probe(cleanEnv(), `for (const m of ${JSON.stringify(BOOTLOADER_IMPORTS)}) require(m);\n`);
      assert.deepEqual(ext.requests, [], 'node -e is not a program: no session asked for');
      assert.deepEqual(booted.files, [BOOTLOADER], 'no file but the bootloader (not boot-program, the bridge, tsx or the runtime)');
      assert.deepEqual(
        booted.modules.filter((m) => !imports.modules.includes(m)),
        [],
        "no module of Node's but those its own imports load (no net: no connection)",
      );
      assert.deepEqual(booted.open, imports.open, 'nothing held open: no socket, no timer');
    } finally {
      await ext.dispose();
    }
  });

  test('with the extension gone the program runs undebugged, and says so in one stderr line (its children stay quiet)', T, async () => {
    const dir = tempDir('tfjs-cb-term-gone-');
    const child = path.join(dir, 'child.mjs');
    const parent = path.join(dir, 'parent.mjs');
    fs.writeFileSync(child, "console.log('child ran');\n");
    fs.writeFileSync(
      parent,
      `import { spawnSync } from 'node:child_process';\nconsole.log('parent ran');\nspawnSync(process.execPath, [${JSON.stringify(child)}], { stdio: 'inherit' });\n`,
    );
    const env = cleanEnv({ NODE_OPTIONS: terminalNodeOptions(BOOTLOADER, undefined), [TERMINAL_SOCKET_ENV]: path.join(dir, 'no-extension.sock') });
    const run = runInTerminal(process.execPath, [parent], env, dir);
    assert.equal(await run.exited, 0, run.stderr());
    assert.match(run.stdout(), new RegExp(`^${AUTO_LINE}parent ran\nchild ran\n$`), 'the backend chosen as F5 chooses it, the child untouched');
    const lines = run.stderr().split('\n').filter(Boolean);
    assert.equal(lines.length, 1, run.stderr());
    assert.match(
      lines[0]!,
      /^tfjs-callbacks debug terminal: the TF\.js Callbacks extension does not answer \(ENOENT: was VS Code closed\?\)\. parent\.mjs runs without the debugger\.$/,
    );
  });

  test('with the extension gone, node prog.ts still runs as TypeScript, the runtime resolved by the loader', T, async () => {
    const dir = tempDir('tfjs-cb-term-gone-ts-');
    const program = path.join(dir, 'prog.ts');
    fs.writeFileSync(path.join(dir, 'package.json'), '{ "type": "module" }\n');
    fs.writeFileSync(
      program,
      "import { pyFunction, tf } from 'tfjs-callback-debugger/runtime';\nconst n: number = pyFunction((x: tf.Tensor) => x.add(1), [tf.scalar(1)], 'float32').dataSync()[0]!;\nconsole.log(`ran: ${n}`);\n",
    );
    const env = cleanEnv({ NODE_OPTIONS: terminalNodeOptions(BOOTLOADER, undefined), [TERMINAL_SOCKET_ENV]: path.join(dir, 'no-extension.sock') });
    const run = runInTerminal(process.execPath, [program], env, dir);
    assert.equal(await run.exited, 0, run.stderr());
    assert.match(run.stdout(), new RegExp(`^${AUTO_LINE}ran: 2\n$`));
    assert.match(run.stderr(), /^tfjs-callbacks debug terminal: .*\. prog\.ts runs without the debugger\.\n/);
  });

  test('NODE_OPTIONS keeps what it held, and a bootloader in a folder with spaces and quotes loads', T, async () => {
    assert.equal(terminalNodeOptions('/opt/ext/boot.cjs', undefined), '--require=/opt/ext/boot.cjs');
    assert.equal(terminalNodeOptions('/opt/my ext/boot.cjs', '--max-old-space-size=4096'), '--max-old-space-size=4096 --require="/opt/my ext/boot.cjs"');
    const dir = path.join(tempDir('tfjs-cb-term-spaces-'), `it's "my" ext\\`);
    fs.mkdirSync(dir);
    const boot = path.join(dir, 'boot.cjs');
    fs.writeFileSync(boot, "console.log('boot loaded');\n");
    const run = runInTerminal(process.execPath, ['-e', "console.log('heap', v8.getHeapStatistics().heap_size_limit < 200 * 2 ** 20)"], {
      ...cleanEnv(),
      NODE_OPTIONS: terminalNodeOptions(boot, '--max-old-space-size=150'),
    });
    assert.equal(await run.exited, 0, run.stderr());
    assert.equal(run.stdout(), 'boot loaded\nheap true\n', 'the bootloader ran, and the option NODE_OPTIONS held still applies');
  });

  test("the extension passes a terminal process's configuration as it is, and refuses it in an untrusted workspace", () => {
    const config = terminalConfiguration({ version: 1, pid: 42, program: '/p/main.ts', args: [], cwd: '/p' }, 'id-1');
    assert.deepEqual(config, {
      type: 'tfjs-callbacks',
      request: 'attach',
      name: 'main.ts (terminal)',
      terminal: { id: 'id-1', pid: 42, program: '/p/main.ts', cwd: '/p' },
    });
    assert.deepEqual(resolveConfiguration(config, { trusted: true, backend: 'auto' }), { config });
    assert.deepEqual(resolveConfiguration(config, { trusted: false, backend: 'auto' }), { error: UNTRUSTED_MESSAGE });
  });

  test("the extension's answer is read strictly: a backend that is none is an unreadable answer", () => {
    const unreadable = { ok: false, reason: 'the extension sent an unreadable answer' };
    assert.deepEqual(parseTerminalReply('{"ok":true,"bridgeSocket":"/s/bridge.sock","backend":"wasm"}'), {
      ok: true,
      bridgeSocket: '/s/bridge.sock',
      backend: 'wasm',
    });
    assert.deepEqual(parseTerminalReply('{"ok":true,"bridgeSocket":"/s/bridge.sock","backend":"gpu"}'), unreadable);
    assert.deepEqual(parseTerminalReply('{"ok":true,"bridgeSocket":"/s/bridge.sock"}'), unreadable);
    assert.deepEqual(parseTerminalReply('{"ok":false,"reason":"refused"}'), { ok: false, reason: 'refused' });
    assert.deepEqual(parseTerminalReply('{"ok":'), unreadable);
  });

  test('what counts as a tool, not a program', () => {
    for (const tool of [
      '/usr/lib/node_modules/npm/bin/npm-cli.js',
      '/usr/lib/node_modules/npm/bin/npx-cli.js',
      '/home/u/proj/node_modules/tsx/dist/cli.mjs',
      '/home/u/proj/node_modules/node-gyp/bin/node-gyp.js',
      '/home/u/.cache/node/corepack/v1/pnpm/9.0.0/bin/pnpm.cjs',
      '/home/u/proj/.yarn/releases/yarn-4.1.0.cjs',
    ]) {
      assert.equal(isToolScript(tool), true, tool);
    }
    for (const program of ['/home/u/proj/main.ts', '/home/u/proj/scripts/train.mjs']) {
      assert.equal(isToolScript(program), false, program);
    }
    // The runtime's CLI runs a model itself (debug it) and a program in a child of its own (debug that one).
    const cli = '/home/u/proj/node_modules/tfjs-callback-debugger/dist/runtime/cli/main.js';
    for (const args of [
      ['run', 'model/model.json'],
      ['run', '--backend', 'cpu', 'm.json', '--callbacks', 'cb.ts'],
      ['run', '--trace', 't.json', 'models/x/model.json'],
    ]) {
      assert.equal(isToolScript(cli, ['node', cli, ...args]), false, args.join(' '));
      assert.equal(runsModel(args), true, args.join(' '));
    }
    for (const args of [['run', 'train.js', '--epochs', '2'], ['run', '--trace', 't.json', 'train.ts'], ['setup-native'], []]) {
      assert.equal(isToolScript(cli, ['node', cli, ...args]), true, args.join(' '));
    }
  });
});

/** TF.js's greeting on its cpu backend's first tensor in Node, which our backend line replaces. */
const BANNER = /Hi, looks like you are running TensorFlow\.js in Node\.js/;
const NPM_QUIET = { npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_yes: 'false' };
const backendLines = (text: string): string[] => text.split('\n').filter((l) => l.startsWith('[tfjs-callbacks] backend: '));
const programLine = (text: string): string | undefined => text.split('\n').find((l) => l.startsWith('train: '));

describe("the Debug Terminal's backend is the one F5 gives the same program in the same folder", () => {
  // The users' shape: a CommonJS project with its own @tensorflow/tfjs, `npm run train` is `node train.js`.
  let project: UserProject;
  let train: string;
  before(() => {
    project = makeUserProject(tempDir('tfjs-cb-term-backend-'), {
      type: 'commonjs',
      dependencies: { '@tensorflow/tfjs': TFJS_VERSION },
      scripts: { train: 'node train.js' },
    });
    train = project.write(
      'train.js',
      [
        "const tf = require('@tensorflow/tfjs');",
        'const sum = tf.tensor1d([1, 2, 3]).square().sum();',
        'console.log(`train: backend ${tf.getBackend()}, sum ${sum.dataSync()[0]}`);',
        '',
      ].join('\n'),
    );
  });

  /** F5 on train.js with the setting `backend` (config-resolution.ts fills the launch's backend from it): its Debug Console. */
  async function f5(backend: BackendChoice, env: Record<string, string>): Promise<{ stdout: string; all: string }> {
    const resolved = resolveConfiguration({ type: 'tfjs-callbacks', request: 'launch', program: train, cwd: project.dir }, { trusted: true, backend });
    assert.ok('config' in resolved, JSON.stringify(resolved));
    const s = await Session.start(env);
    try {
      await s.launch(resolved.config);
      assert.deepEqual(await runToEnd(s), []);
      return { stdout: s.output('stdout'), all: s.output() };
    } finally {
      await s.close();
    }
  }

  /**
   * `npm run train` (or `command`) in the Debug Terminal, the extension answering with the setting
   * `backend`; no TFJS_BACKEND in the terminal unless `env` has it. `programs`: those that ask for a session.
   */
  async function inTerminal(
    backend: BackendChoice,
    env: Record<string, string>,
    command: [string, ...string[]] = ['npm', 'run', '--silent', 'train'],
    programs = [train],
  ): Promise<{ stdout: string; stderr: string }> {
    const ext = await FakeExtension.start(undefined, { backend });
    try {
      const [file, ...args] = command;
      const run = runInTerminal(file, args, ext.env({ ...NPM_QUIET, TFJS_BACKEND: undefined, ...env }), project.dir);
      await waitUntil(() => ext.sessions.length === programs.length || run.child.exitCode !== null, 30_000, 'the programs asked for sessions');
      for (const s of ext.sessions) assert.deepEqual(await runToEnd(s), []);
      assert.equal(await run.exited, 0, run.stderr());
      assert.deepEqual(
        ext.requests.map((r) => r.program),
        programs,
        run.stderr(),
      );
      return { stdout: run.stdout(), stderr: run.stderr() };
    } finally {
      await ext.dispose();
    }
  }

  const native = hasBuild(buildDir(nativeRoot(), TFJS_VERSION));
  const cases: { setting: BackendChoice; expected: BackendName; env?: Record<string, string>; what: string; skip?: string | false }[] = [
    { setting: 'wasm', expected: 'wasm', what: 'the setting wasm' },
    { setting: 'cpu', expected: 'cpu', what: 'the setting cpu (where TF.js greets Node users)' },
    { setting: 'auto', expected: 'wasm', what: 'no setting (auto), no tfjs-node anywhere' },
    {
      setting: 'auto',
      expected: 'tensorflow',
      env: { TFJS_CALLBACKS_NATIVE_DIR: nativeRoot() },
      what: "no setting (auto), setup-native's build here",
      skip: native ? false : `no setup-native build for TF.js ${TFJS_VERSION} in ${nativeRoot()}`,
    },
  ];
  for (const c of cases) {
    test(`${c.what}: tf.getBackend() is ${c.expected}, with F5's one backend line, and no TF.js banner`, { ...T, skip: c.skip ?? false }, async () => {
      const launched = await f5(c.setting, c.env ?? {});
      const terminal = await inTerminal(c.setting, c.env ?? {});
      const expectedProgramLine = `train: backend ${c.expected}, sum 14`;
      assert.equal(programLine(launched.stdout), expectedProgramLine, launched.all);
      assert.equal(programLine(terminal.stdout), expectedProgramLine, `${terminal.stdout}${terminal.stderr}`);
      const line = backendLines(launched.stdout);
      assert.equal(line.length, 1, launched.all);
      assert.match(line[0]!, new RegExp(`^\\[tfjs-callbacks\\] backend: ${c.expected} \\(`));
      assert.deepEqual(backendLines(terminal.stdout), line, `the terminal's stdout has F5's line, once:\n${terminal.stdout}`);
      assert.ok(terminal.stdout.startsWith(line[0]!), `before the program's output, as in F5's Debug Console:\n${terminal.stdout}`);
      assert.doesNotMatch(launched.all, BANNER);
      assert.doesNotMatch(`${terminal.stdout}${terminal.stderr}`, BANNER);
    });
  }

  test('TFJS_BACKEND set in the terminal (`TFJS_BACKEND=cpu npm run train`) is kept over the setting', T, async () => {
    const terminal = await inTerminal('wasm', { TFJS_BACKEND: 'cpu' });
    assert.deepEqual(backendLines(terminal.stdout), ['[tfjs-callbacks] backend: cpu (TFJS_BACKEND: pure JavaScript)'], terminal.stdout);
    assert.equal(programLine(terminal.stdout), 'train: backend cpu, sum 14');
    assert.doesNotMatch(`${terminal.stdout}${terminal.stderr}`, BANNER);
  });

  test('a program the debugged program starts gets the same backend, without a second line or the banner', T, async () => {
    const parent = project.write(
      'parent.js',
      [
        "const { spawn } = require('node:child_process');",
        "console.log('parent: started');",
        "spawn(process.execPath, ['train.js'], { stdio: 'inherit' }).on('exit', (code) => console.log('parent: train exited', code));",
        '',
      ].join('\n'),
    );
    const terminal = await inTerminal('wasm', {}, ['node', 'parent.js'], [parent, train]);
    const line = backendLines(terminal.stdout);
    assert.equal(line.length, 1, terminal.stdout);
    assert.match(line[0]!, /^\[tfjs-callbacks\] backend: wasm \(TFJS_BACKEND: /);
    assert.equal(programLine(terminal.stdout), 'train: backend wasm, sum 14', terminal.stdout);
    assert.match(terminal.stdout, /parent: train exited 0\n$/);
    assert.doesNotMatch(`${terminal.stdout}${terminal.stderr}`, BANNER);
  });
});

/**
 * A fresh project (package.json and main.ts, nothing installed but tsx when asked) whose command runs
 * main.ts; the only session asked for is main.ts's, and it stops in its callback.
 */
async function debugProjectScript(options: { type: 'module' | 'commonjs'; script: string; command: [string, ...string[]]; withTsx?: boolean }): Promise<void> {
  const project = tempDir('tfjs-cb-term-project-');
  fs.writeFileSync(
    path.join(project, 'package.json'),
    JSON.stringify({ name: 'terminal-project', version: '1.0.0', private: true, type: options.type, scripts: { train: options.script } }),
  );
  if (options.withTsx) {
    // As `npm install tsx` leaves it: the package, and its bin on npm's PATH.
    fs.mkdirSync(path.join(project, 'node_modules', '.bin'), { recursive: true });
    fs.symlinkSync(path.join(root, 'node_modules', 'tsx'), path.join(project, 'node_modules', 'tsx'));
    fs.symlinkSync(path.join('..', 'tsx', 'dist', 'cli.mjs'), path.join(project, 'node_modules', '.bin', 'tsx'));
  }
  const main = path.join(project, 'main.ts');
  // No top-level await: CommonJS has none.
  fs.writeFileSync(
    main,
    [
      "import { numpyFunction, selectBackend, tf, type NdArray } from 'tfjs-callback-debugger/runtime';",
      'function double_it(x: NdArray): NdArray {',
      '  return x.map((v) => v * 2); // @double-body',
      '}',
      'void selectBackend().then(() => {',
      "  const y = numpyFunction(double_it, [tf.tensor([1, 2, 3])], 'float32');",
      "  console.log('doubled', Array.from(y.dataSync()).join(','));",
      '});',
      '',
    ].join('\n'),
  );
  const bodyLine = lineOf(main, '@double-body');
  const ext = await FakeExtension.start((dc) => dc.setBreakpointsRequest({ source: { path: main }, breakpoints: [{ line: bodyLine }] }));
  try {
    const [command, ...args] = options.command;
    const run = runInTerminal(command, args, ext.env({ npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_yes: 'false' }), project);
    await waitUntil(() => ext.sessions.length === 1 || run.child.exitCode !== null, 30_000, 'the program asked for a session');
    assert.equal(ext.requests[0]?.program, main, `the first process to ask is the program, not npm, npx or tsx's CLI\n${run.stderr()}`);
    const s = ext.sessions[0]!;
    const stop = await s.stopped();
    assert.equal(stop.body.reason, 'breakpoint');
    const frames = await s.stack();
    assert.deepEqual([frames[0]!.name, frames[0]!.source?.path, frames[0]!.line], ['double_it', main, bodyLine], describeFrames(frames));
    assert.match((await s.scope(frames[0]!.id, 'Callback')).get('x').value, /^NdArray float32\[3\] min=1 max=3/);
    await s.dc.continueRequest({ threadId: THREAD });
    assert.deepEqual(await runToEnd(s), []);
    assert.equal(await run.exited, 0, run.stderr());
    assert.match(run.stdout(), /doubled 2,4,6/);
    assert.doesNotMatch(run.stderr(), BOOT_LINE);
    assert.deepEqual(
      ext.requests.map((r) => r.program),
      [main],
      "one request, from the program (npm, npx, the shell and tsx's CLI asked for nothing)",
    );
  } finally {
    await ext.dispose();
  }
}

/** The builtins debug-adapter/debuggee/boot.cts imports. */
const BOOTLOADER_IMPORTS = ['node:module', 'node:fs', 'node:path', 'node:url', 'node:worker_threads'];
