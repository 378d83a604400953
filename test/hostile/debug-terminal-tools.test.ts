/**
 * Tools are tools in the Debug Terminal (issue 42 T4): npm, npx, yarn and pnpm are never debugged
 * as programs wherever they are installed (apt's /usr/share/nodejs, Volta, pnpm's standalone
 * installer, corepack's cache, nvm), while a user's program in a folder named like one still is;
 * and a program whose session the extension refuses gets nothing preloaded (no runtime, no native
 * backend, no tsx). The layouts are real folders; the terminal runs use the real bootloader (dist/).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { isToolScript } from '../../debug-adapter/debuggee/boot.cjs';
import { TERMINAL_SOCKET_ENV, type TerminalDebugRequest } from '../../debug-adapter/debuggee/terminal-protocol.js';
import { DebugTerminalListener } from '../../extension/terminal-listener.js';
import { cleanEnv } from '../fixtures/spawn.js';
import { BOOTLOADER, runInTerminal, tempDir, useDebugTerminal } from '../helpers/terminal.js';

useDebugTerminal();

const T = { timeout: 60_000 };
const home = fs.realpathSync(tempDir('tfjs-cb-tools-'));

/** A package at `dir` (under the fake home) with `manifest` as its package.json (none when undefined) and `script` in it; the script's path. */
function installed(dir: string, manifest: Record<string, unknown> | undefined, script: string): string {
  const root = path.join(home, dir);
  fs.mkdirSync(path.join(root, path.dirname(script)), { recursive: true });
  if (manifest) fs.writeFileSync(path.join(root, 'package.json'), JSON.stringify(manifest));
  const file = path.join(root, script);
  fs.writeFileSync(file, "console.log('tool ran');\n");
  return file;
}

/** Where npm, npx, yarn and pnpm are installed outside any node_modules, and the script node runs for each. */
const TOOLS = {
  'apt npm': installed('usr/share/nodejs/npm', { name: 'npm', version: '9.2.0' }, 'bin/npm-cli.js'),
  'apt npx': path.join(home, 'usr/share/nodejs/npm/bin/npx-cli.js'),
  'apt npm, another of its scripts': installed('usr/share/nodejs/npm', { name: 'npm', version: '9.2.0' }, 'lib/cli.js'),
  'Volta npm': installed('.volta/tools/image/npm/10.8.1', { name: 'npm', version: '10.8.1' }, 'bin/npm-cli.js'),
  'Volta yarn 1': installed('.volta/tools/image/yarn/1.22.19', { name: 'yarn', version: '1.22.19' }, 'bin/yarn.js'),
  'Volta yarn 4': installed('.volta/tools/image/yarn/4.1.0', { name: '@yarnpkg/cli-dist', version: '4.1.0' }, 'bin/yarn.js'),
  'Volta pnpm': installed('.volta/tools/image/pnpm/9.1.0', { name: 'pnpm', version: '9.1.0' }, 'bin/pnpm.cjs'),
  'pnpm standalone': installed('.local/share/pnpm/.tools/pnpm/8.15.8', { name: 'pnpm', version: '8.15.8' }, 'bin/pnpm.cjs'),
  'pnpm standalone @pnpm/exe': installed('.local/share/pnpm/.tools/@pnpm+exe/9.1.0', { name: '@pnpm/exe', version: '9.1.0' }, 'setup.js'),
  'pnpm, a script under a nameless package.json': installed('.local/share/pnpm/.tools/pnpm/9.1.0', { name: 'pnpm' }, 'dist/worker.js'),
  'corepack cache pnpm': installed('.cache/node/corepack/v1/pnpm/9.1.0', { name: 'pnpm', version: '9.1.0' }, 'bin/pnpm.cjs'),
  'corepack cache pnpx': path.join(home, '.cache/node/corepack/v1/pnpm/9.1.0/bin/pnpx.cjs'),
  'nvm npm': installed('.nvm/versions/node/v20.11.0/lib/node_modules/npm', { name: 'npm' }, 'bin/npm-cli.js'),
  'a copy of npm with no package.json': installed('opt/npm-copy', undefined, 'npm-cli.js'),
  'a copy of pnpm with no package.json': installed('opt/pnpm-copy', undefined, 'pnpm.cjs'),
  'a copy of yarn with no package.json': installed('opt/yarn-copy', undefined, 'bin/yarn.js'),
  'a yarn release file': installed('opt/yarn-release', undefined, 'yarn-4.1.0.cjs'),
};
fs.writeFileSync(TOOLS['apt npx'], "console.log('tool ran');\n");
fs.writeFileSync(TOOLS['corepack cache pnpx'], "console.log('tool ran');\n");
fs.writeFileSync(path.join(home, '.local/share/pnpm/.tools/pnpm/9.1.0/dist/package.json'), '{ "type": "commonjs" }');

/** Programs, whatever their folders are called. */
const PROGRAMS = {
  'npm-project/train.js': installed('npm-project', { name: 'npm-project' }, 'train.js'),
  'my-npm-app/src/main.ts': installed('my-npm-app', { name: 'my-npm-app', dependencies: { npm: '*' } }, 'src/main.ts'),
  'pnpm-demo/index.js, no package.json': installed('pnpm-demo', undefined, 'index.js'),
  'yarn-stuff/scripts/yarn.js, a program of that name outside bin/': installed('yarn-stuff', { name: 'yarn-stuff' }, 'scripts/yarn.js'),
  'volta-app/.volta/run.js': installed('volta-app', { name: 'volta-app' }, '.volta/run.js'),
  'an unnamed project': installed('unnamed', { private: true }, 'main.js'),
};

describe('the Debug Terminal tells tools from programs (issue 42 T4)', () => {
  test('npm, npx, yarn and pnpm wherever they are installed are tools', () => {
    for (const [where, script] of Object.entries(TOOLS)) assert.equal(isToolScript(script), true, `${where}: ${script}`);
  });

  test("a user's program is not one, whatever its folder is called", () => {
    for (const [what, script] of Object.entries(PROGRAMS)) assert.equal(isToolScript(script), false, `${what}: ${script}`);
  });

  test('a program whose package.json is a FIFO, a link to /dev/zero or 40 MB: a program, decided at once', () => {
    const fifo = installed('fifo-app', undefined, 'main.js');
    const made = spawnSync('mkfifo', [path.join(path.dirname(fifo), 'package.json')]);
    const zero = installed('zero-app', undefined, 'main.js');
    fs.symlinkSync('/dev/zero', path.join(path.dirname(zero), 'package.json'));
    const big = installed('big-app', undefined, 'main.js');
    fs.writeFileSync(path.join(path.dirname(big), 'package.json'), `{"name":"npm","pad":"${'x'.repeat(40 * 1024 ** 2)}"}`);
    for (const program of [...(made.status === 0 ? [fifo] : []), zero, big]) assert.equal(isToolScript(program), false, program);
  });

  test('npm from apt and from Volta run in the Debug Terminal ask for no session', T, async () => {
    const requests: TerminalDebugRequest[] = [];
    const listener = await DebugTerminalListener.start(async (request) => {
      requests.push(request);
      throw new Error('a tool asked for a session');
    });
    try {
      for (const script of [TOOLS['apt npm'], TOOLS['Volta npm'], TOOLS['Volta pnpm']]) {
        const run = runInTerminal(process.execPath, [script], cleanEnv(listener.terminalEnv(BOOTLOADER, undefined)), home);
        assert.equal(await run.exited, 0, run.stderr());
        assert.equal(run.stdout(), 'tool ran\n', 'no backend line: nothing preloaded');
        assert.equal(run.stderr(), '', script);
      }
      assert.deepEqual(requests, []);
    } finally {
      listener.dispose();
    }
  });
});

/** What a program sees of the debugger: the runtime's loader, the variables it would set, tsx's source maps. */
const INSPECT = `console.log(JSON.stringify({
  loader: Symbol.for('tfjs-callback-debugger.loader.registered') in globalThis,
  preloadRuntime: process.env.TFJS_CALLBACKS_PRELOAD_RUNTIME ?? null,
  projectDir: process.env.TFJS_CALLBACKS_PROJECT_DIR ?? null,
  terminalSocket: process.env.${TERMINAL_SOCKET_ENV} ?? null,
  sourceMaps: process.sourceMapsEnabled,
}));
`;

describe('a refused session preloads nothing (issue 42 risk)', () => {
  test('an untrusted workspace: the program runs as node runs it, with one line saying why', T, async () => {
    const refusal = 'TF.js Graph Callbacks does not run programs in an untrusted workspace';
    const listener = await DebugTerminalListener.start(async () => {
      throw new Error(refusal);
    });
    try {
      const dir = tempDir('tfjs-cb-term-refused-bare-');
      const program = path.join(dir, 'prog.mjs');
      fs.writeFileSync(program, INSPECT);
      const env = cleanEnv(listener.terminalEnv(BOOTLOADER, undefined));
      const run = runInTerminal(process.execPath, [program], env, dir);
      assert.equal(await run.exited, 0, run.stderr());
      assert.equal(run.stderr(), `tfjs-callbacks debug terminal: ${refusal}. prog.mjs runs without the debugger.\n`);
      assert.doesNotMatch(run.stdout(), /\[tfjs-callbacks\] backend: /, 'no backend chosen: the runtime was not preloaded');
      const plain = spawnSync(process.execPath, [program], { cwd: dir, encoding: 'utf8', env: cleanEnv() });
      const asNode = JSON.parse(plain.stdout) as Record<string, unknown>;
      assert.deepEqual(JSON.parse(run.stdout()), { ...asNode, terminalSocket: null }, `no backend line, no loader, no variables, no tsx:\n${run.stdout()}`);
    } finally {
      listener.dispose();
    }
  });
});
