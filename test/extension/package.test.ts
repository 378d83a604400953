/**
 * `npm run package` makes a .vsix that works on its own: unpacked into a folder with no
 * node_modules around, its CLI runs a graph program and its debug adapter, language server and
 * webview files are there. (Installing it into a real VS Code is the end-to-end test's job.)
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, copyFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import vm from 'node:vm';
import { after, before, describe, test } from 'node:test';
import { cleanEnv } from '../fixtures/spawn.js';
import { VSCE_PACKAGE_ARGS } from '../../scripts/lib/vsce-args.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const work = mkdtempSync(path.join(os.tmpdir(), 'tfjs-cb-vsix-'));
const vsix = path.join(work, 'tfjs-callback-debugger.vsix');
const unpacked = path.join(work, 'unpacked');
const extension = path.join(unpacked, 'extension');

describe('the packaged .vsix', { timeout: 180_000 }, () => {
  before(() => {
    // dist/, out/ and media/dist are built by `npm test` before the tests run.
    execFileSync(process.execPath, [path.join(root, 'node_modules', '@vscode', 'vsce', 'vsce'), ...VSCE_PACKAGE_ARGS, '--out', vsix], {
      cwd: root,
      stdio: 'pipe',
    });
    execFileSync('unzip', ['-q', vsix, '-d', unpacked]);
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  test('holds the manifest, the built parts and the webview, and no sources or tests', () => {
    const manifest = JSON.parse(readFileSync(path.join(extension, 'package.json'), 'utf8')) as {
      main: string;
      engines: { vscode: string };
      contributes: { debuggers: { type: string }[]; commands: { title: string; category: string }[] };
    };
    assert.equal(manifest.main, './out/extension.cjs');
    assert.equal(manifest.engines.vscode, '^1.100.0');
    assert.equal(manifest.contributes.debuggers[0]!.type, 'tfjs-callbacks');
    assert.deepEqual(
      manifest.contributes.commands.map((c) => `${c.category}: ${c.title}`),
      [
        'TF.js Callbacks: Run Graph',
        'TF.js Callbacks: Debug Graph',
        'TF.js Callbacks: Debug, Stopping Where NaN/Inf Is Born',
        "TF.js Callbacks: Don't Stop at This NaN/Inf Birth Again",
        'TF.js Callbacks: Open Tensor Inspector',
        'TF.js Callbacks: Open Graph View',
        'TF.js Callbacks: Select Backend',
        'TF.js Callbacks: Set Up Native Backend',
        'TF.js Callbacks: Break on Callback…',
        'TF.js Callbacks: Create Debug Terminal',
        'TF.js Callbacks: Toggle Skipping this File',
        'TF.js Callbacks: Show tf.Variables',
        'TF.js Callbacks: Create Sample Project',
        'TF.js Callbacks: Pin in Tensor Inspector',
      ],
    );
    for (const file of [
      'out/extension.cjs',
      'out/server.cjs',
      'dist/debug-adapter/main.js',
      'dist/debug-adapter/debuggee/bridge.js',
      'dist/debug-adapter/debuggee/boot.cjs',
      'dist/debug-adapter/debuggee/boot-program.js',
      'dist/runtime/cli/main.js',
      'dist/runtime/loader/register.js',
      'dist/runtime/native/setup.js',
      'dist/runtime/native/check.js',
      'media/dist/inspector.js',
      'media/inspector.css',
      'media/inspector-icon.svg',
      'media/walkthrough/sample.md',
      'media/walkthrough/graph.md',
      'media/dist/graph.js',
      'media/graph.css',
      'media/theme.css',
      'docs/images/callback-stop.png',
      'docs/images/tout-mismatch-stop.png',
      'docs/images/graph-view-node-stop.png',
      'docs/images/inspector-bytes.png',
      'docs/images/tout-diagnostics.png',
      'docs/runtime-api.md',
      // The other pages the README links to.
      'CONTRIBUTING.md',
      'bench/README.md',
      'debug-adapter/PROTOCOL.md',
      'out/lib.es2022.d.ts',
      'out/lib.dom.d.ts',
      'node_modules/tsx/package.json',
      'node_modules/tfjs-callbacks-ts-plugin/index.cjs',
      'node_modules/@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm-simd.wasm',
      'node_modules/@tensorflow/tfjs-core/dist/tf-core.node.js',
    ]) {
      assert.ok(existsSync(path.join(extension, file)), `${file} is in the .vsix`);
    }
    for (const absent of [
      'runtime/index.ts',
      'test',
      'bench/run.ts',
      'bench/programs',
      'debug-adapter/session.ts',
      'node_modules/typescript',
      'node_modules/core-js',
    ]) {
      assert.ok(!existsSync(path.join(extension, absent)), `${absent} is not in the .vsix`);
    }
  });

  test("the Debug Terminal's bootloader finds what it loads inside the .vsix: the launch's preloads, each there", async () => {
    // boot-program.js imports launcher.js, which imports ../paths.js: a file the .vsix left out
    // made every program in the terminal fail to start under the debugger.
    const launcher = (await import(pathToFileURL(path.join(extension, 'dist', 'debug-adapter', 'debuggee', 'launcher.js')).href)) as {
      bridgePreloads: () => string[];
    };
    const preloads = launcher.bridgePreloads();
    assert.equal(preloads.length, 4);
    for (const preload of preloads) {
      const file = fileURLToPath(preload.replace(/\?hold$/, ''));
      assert.ok(file.startsWith(extension), `${file} is the .vsix's own`);
      assert.ok(existsSync(file), `${file} is in the .vsix`);
    }
  });

  test("its debuggee's agent loads inside the .vsix: the modules a launch's bridge imports, and the one script an attach injects", async () => {
    const key = '__tfjsCallbackDebugAgent_v3';
    const state = () => ({ [Symbol.for('tfjs-callback-debugger.runtime.state')]: { observers: [], nextToken: 0, nextInvocation: 1 } });
    const modules = (await import(pathToFileURL(path.join(extension, 'dist', 'debug-adapter', 'debuggee', 'agent', 'index.js')).href)) as {
      installAgent: (g: object) => { version: number };
    };
    const g = state();
    assert.equal(modules.installAgent(g).version, 3);
    // Where the adapter (main.js, beside paths.js) reads the script it injects.
    const { adapterPaths } = (await import(pathToFileURL(path.join(extension, 'dist', 'debug-adapter', 'paths.js')).href)) as {
      adapterPaths: { agentBundle: string };
    };
    assert.ok(adapterPaths.agentBundle.startsWith(extension) && existsSync(adapterPaths.agentBundle), `${adapterPaths.agentBundle} is in the .vsix`);
    const context = vm.createContext({ ...state(), performance, Buffer });
    vm.runInContext(readFileSync(adapterPaths.agentBundle, 'utf8'), context);
    const injected = (context as Record<string, object | undefined>)[key];
    assert.ok(injected, 'the script installs the agent');
    assert.deepEqual(Object.keys(injected).sort(), Object.keys((g as Record<string, object>)[key]!).sort(), 'the same agent as the modules');
  });

  test('its CLI runs a program in a project without node_modules, on the wasm backend it ships', () => {
    const project = mkdtempSync(path.join(os.tmpdir(), 'tfjs-cb-project-'));
    writeFileSync(path.join(project, 'package.json'), '{ "type": "module" }\n');
    copyFileSync(path.join(root, 'examples', 'log-huber.ts'), path.join(project, 'prog.ts'));
    const run = spawnSync(process.execPath, [path.join(extension, 'dist', 'runtime', 'cli', 'main.js'), 'run', 'prog.ts', '--trace', 'trace.json'], {
      cwd: project,
      env: cleanEnv(),
      encoding: 'utf8',
      timeout: 60_000,
    });
    assert.equal(run.status, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /backend: wasm/);
    assert.match(run.stdout, /log_huber: y = 1, dy\/dx = 2/);
    const trace = JSON.parse(readFileSync(path.join(project, 'trace.json'), 'utf8')) as { invocations: { callSite: { file: string; line: number } }[] };
    assert.equal(trace.invocations.length, 2);
    // Call sites point at the user's file, not at the runtime inside the extension.
    assert.equal(trace.invocations[0]!.callSite.file, path.join(project, 'prog.ts'));
    rmSync(project, { recursive: true, force: true });
  });
});
