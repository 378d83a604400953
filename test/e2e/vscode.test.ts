/**
 * End to end, in a real VS Code: the packaged .vsix installed into a fresh code-server 4.100.3
 * (VS Code 1.100.3), driven through Debian's Chromium by playwright-core as a user would (palette,
 * keyboard, the debug views, the tensor inspector webview).
 *
 *   npm run build && node --import tsx --test test/e2e/vscode.test.ts
 *
 * Needs code-server (scripts/setup-code-server.sh installs it into a cache folder; this test runs
 * it) and /usr/bin/chromium (scripts/setup-test-env.sh). When either is missing and cannot be
 * installed, the test fails saying so: it never skips.
 *
 * Screenshots of each step go to .artifacts/e2e/, with code-server's logs when a step fails.
 * The workspace's graph.ts is the debug adapter tests' test/fixtures/debug/numpy-program.ts, copied;
 * lines are found by its `// @name` markers. The workspace has no node_modules: the extension's
 * loader provides the runtime.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, openSync, closeSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { lineOf, lineOfMarker } from '../helpers/markers.js';
import { projectWithOwnTfjs } from '../helpers/projects.js';
import { writeDenseModel } from '../fixtures/dense-model.js';
import { TF_PYTHON } from '../helpers/tensorflow-python.js';
import { VSCE_PACKAGE_ARGS } from '../../scripts/lib/vsce-args.js';
import { docPicture } from './doc-pictures.js';
import { CHROMIUM_ARGS, QUIET_SETTINGS, codeServerArgs } from '../../scripts/lib/code-server-options.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const artifacts = path.join(root, '.artifacts', 'e2e');
const CHROMIUM = '/usr/bin/chromium';
const started = Date.now();

/** The workspace's graph.ts, copied from the debug adapter tests' fixture. */
const GRAPH_PROGRAM = path.join(root, 'test', 'fixtures', 'debug', 'numpy-program.ts');
/** graph.ts: the breakpoint line inside the numpyFunction callback scale_rows, and the next one. */
const BREAK_LINE = lineOf(GRAPH_PROGRAM, '@scale-rows-body');
const NEXT_LINE = lineOf(GRAPH_PROGRAM, '@scale-rows-return'); // `return scaled;`
/** graph.ts: the numpyFunction(bad_dtype, …) call whose output does not match its Tout. */
const MISMATCH_LINE = lineOf(GRAPH_PROGRAM, '@call-bad-dtype');
const COMMANDS = [
  'TF.js Callbacks: Run Graph',
  'TF.js Callbacks: Debug Graph',
  'TF.js Callbacks: Open Tensor Inspector',
  'TF.js Callbacks: Open Graph View',
  'TF.js Callbacks: Select Backend',
  'TF.js Callbacks: Set Up Native Backend',
  'TF.js Callbacks: Break on Callback…',
];

function log(message: string): void {
  console.log(`[e2e +${((Date.now() - started) / 1000).toFixed(1)}s] ${message}`);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Pids whose command line mentions `needle` (this test's temp dir or the fixture program). */
function processesMentioning(needle: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ');
      if (cmdline.includes(needle)) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A TS ES-module project's program: the float64 mistake, with the project's own tfjs. */
const ESM_PROGRAM = `import * as tf from '@tensorflow/tfjs';
import { numpyFunction, tf as runtimeTf, type NdArray } from 'tfjs-callback-debugger/runtime';

function widen(a: NdArray): Float64Array {
  return Float64Array.from(a.data as Float32Array, (v) => v / 3);
}

console.log('one engine:', tf.engine() === runtimeTf.engine());
try {
  numpyFunction(widen, [tf.tensor([1, 2, 3])], 'float32');
} catch (err) {
  console.log('caught', (err as Error).message.split('\\n')[0]);
}
`;

/** A callback that throws, and nothing catches it. */
const THROWS_PROGRAM = `import * as tf from '@tensorflow/tfjs';
import { numpyFunction, type NdArray } from 'tfjs-callback-debugger/runtime';

function checked_log(x: NdArray): NdArray {
  if ((x.data[0] as number) < 100) throw new RangeError('checked_log: input below 100'); // @throw
  return x.map(Math.log);
}

numpyFunction(checked_log, [tf.tensor([1, 2, 3])], 'float32');
`;
const THROW_LINE = lineOfMarker(THROWS_PROGRAM, '@throw', 'THROWS_PROGRAM');

/** A CommonJS JS project's program (npm init -y), with the project's own tfjs. */
const CJS_PROGRAM = `const tf = require('@tensorflow/tfjs');
const { numpyFunction, tf: runtimeTf } = require('tfjs-callback-debugger/runtime');

const y = numpyFunction((a) => a.map((v) => v * 2), [tf.tensor([1, 2, 3])], 'float32', { name: 'double' });
console.log('one engine:', tf.engine() === runtimeTf.engine(), Array.from(y.dataSync()).join(','));
`;

/** js-debug parity and tensor-only features (issue 16): a callback, then a model trained by model.fit. */
const PARITY_PROGRAM = `import { numpyFunction, selectBackend, tf, type NdArray } from 'tfjs-callback-debugger/runtime';

await selectBackend({ backend: 'cpu', quiet: true });

function scale(x: NdArray): Float32Array {
  const factor = 2; // @parity-first
  const out = Float32Array.from(x.data as Float32Array, (v) => v * factor); // @parity-break
  return out; // @parity-return
}

const y = numpyFunction(scale, [tf.tensor1d([1, 2, 3, 4])], 'float32');
const model = tf.sequential({ layers: [tf.layers.dense({ units: 1, inputShape: [2], kernelInitializer: 'ones' })] });
model.compile({ optimizer: tf.train.sgd(0.1), loss: 'meanSquaredError' });
const kernel = model.layers[0]!.trainableWeights[0]!;
console.log('model ready', y.shape); // @parity-model
await model.fit(tf.ones([4, 2]), tf.zeros([4, 1]), { epochs: 1, batchSize: 4, verbose: 0 });
console.log('fitted', Array.from(kernel.read().dataSync()).join(','));
`;
const PARITY_FIRST = lineOfMarker(PARITY_PROGRAM, '@parity-first', 'PARITY_PROGRAM');
const PARITY_BREAK = lineOfMarker(PARITY_PROGRAM, '@parity-break', 'PARITY_PROGRAM');
const PARITY_RETURN = lineOfMarker(PARITY_PROGRAM, '@parity-return', 'PARITY_PROGRAM');
const PARITY_MODEL = lineOfMarker(PARITY_PROGRAM, '@parity-model', 'PARITY_PROGRAM');

/** Training state (issue 27 point 3): an ESM model.fit whose top level awaits while a custom layer's call() runs. */
const TRAINING_PROGRAM = `import { selectBackend, tf } from 'tfjs-callback-debugger/runtime';

await selectBackend({ backend: 'cpu', quiet: true });

class Scale extends tf.layers.Layer {
  static className = 'Scale';
  private factor: ReturnType<tf.layers.Layer['addWeight']> | undefined;
  override build(inputShape: tf.Shape | tf.Shape[]): void {
    const shape = (Array.isArray(inputShape[0]) ? inputShape[0] : inputShape) as tf.Shape;
    this.factor = this.addWeight('factor', [shape[shape.length - 1]!], 'float32', tf.initializers.ones());
  }
  override call(inputs: tf.Tensor | tf.Tensor[]): tf.Tensor {
    return tf.tidy(() => tf.mul(Array.isArray(inputs) ? inputs[0]! : inputs, this.factor!.read())); // @training-call
  }
}
tf.serialization.registerClass(Scale);

const model = tf.sequential({
  layers: [tf.layers.dense({ units: 3, inputShape: [2], name: 'hidden', kernelInitializer: 'ones' }), new Scale({ name: 'scale' })],
});
model.compile({ optimizer: tf.train.sgd(0.01), loss: 'meanSquaredError' });
await model.fit(tf.ones([4, 2]), tf.zeros([4, 3]), { epochs: 2, batchSize: 4, verbose: 0 });
console.log('fitted');
`;
const TRAINING_CALL = lineOfMarker(TRAINING_PROGRAM, '@training-call', 'TRAINING_PROGRAM');

/** Lines a second TF.js copy prints. */
/** The NaN-birth programs of test/fixtures/shapes/nan-births: a custom loss in its own module. */
const NAN_FIXTURES = path.join(root, 'test', 'fixtures', 'shapes', 'nan-births');
const NAN_LOG_LINE = lineOf(path.join(NAN_FIXTURES, 'loss.ts'), '@log');

const SECOND_ENGINE = /already registered|Platform node has already been set|Hi, looks like you are running TensorFlow\.js/;

// The steps' sum depends on the machine's load (each step has its own limit): 20 minutes in all.
describe('the extension in a real VS Code (code-server 4.100.3)', { timeout: 1_200_000 }, () => {
  const work = mkdtempSync(path.join(os.tmpdir(), 'tfjs-cb-e2e-'));
  const home = path.join(work, 'home');
  const userData = path.join(work, 'user-data');
  const extensions = path.join(work, 'extensions');
  const workspace = path.join(work, 'workspace');
  const program = path.join(workspace, 'graph.ts');
  const converted = path.join(workspace, 'converted', 'model.json');
  const condModel = path.join(workspace, 'cond-model', 'model.json');
  const esmProgram = path.join(workspace, 'esm-project', 'main.ts');
  const cjsProgram = path.join(workspace, 'cjs-project', 'main.js');
  const cjsModel = path.join(workspace, 'cjs-project', 'model', 'model.json');
  const vsix = path.join(work, 'tfjs-callback-debugger.vsix');
  const env = {
    ...process.env,
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_DATA_HOME: path.join(home, '.local', 'share'),
    XDG_CACHE_HOME: path.join(home, '.cache'),
  };
  let server: ChildProcess | undefined;
  let browser: BrowserContext | undefined;
  let page: Page;
  let failed: string | undefined;
  let shots = 0;

  async function shot(name: string): Promise<string> {
    const file = path.join(artifacts, `${String(++shots).padStart(2, '0')}-${name}.png`);
    await page.screenshot({ path: file });
    log(`  screenshot ${path.relative(root, file)}`);
    return file;
  }

  /** Steps share one VS Code: after a failed step the later ones fail at once, naming it. */
  function step(name: string, fn: () => Promise<void>): void {
    test(name, { timeout: 120_000 }, async () => {
      if (failed) throw new Error(`not run: the earlier step "${failed}" failed`);
      const t = Date.now();
      log(`${name}: start`);
      try {
        await fn();
        log(`${name}: passed in ${((Date.now() - t) / 1000).toFixed(1)}s`);
      } catch (err) {
        failed = name;
        log(`${name}: FAILED after ${((Date.now() - t) / 1000).toFixed(1)}s: ${(err as Error).message.split('\n')[0]}`);
        await page?.screenshot({ path: path.join(artifacts, `failed-${name.replace(/\W+/g, '-').slice(0, 40)}.png`) }).catch(() => undefined);
        throw err;
      }
    });
  }

  /** Runs a palette command by its exact title, reopening the palette until the command is listed. */
  async function runCommand(title: string): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      await openPalette(title);
      const labels = await paletteLabels();
      if (labels.includes(title)) {
        await quickPickRow(title).click();
        return;
      }
      await page.keyboard.press('Escape');
      if (attempt === 10) throw new Error(`the palette does not list "${title}"; it lists: ${labels.join(' | ')}`);
      await sleep(1000);
    }
  }

  async function openPalette(filter: string): Promise<void> {
    await page.keyboard.press('F1');
    const input = page.locator('.quick-input-widget .quick-input-box input');
    await input.waitFor({ state: 'visible', timeout: 10_000 });
    await input.fill(`>${filter}`);
    await page
      .locator('.quick-input-list .monaco-list-row')
      .first()
      .waitFor({ timeout: 10_000 })
      .catch(() => undefined);
    await sleep(300); // the list filters as it is typed
  }

  /** The row of an open quick pick whose label is exactly `label`. */
  function quickPickRow(label: string) {
    const exact = new RegExp(`^\\s*${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`);
    return page
      .locator('.quick-input-list .monaco-list-row')
      .filter({ has: page.locator('.label-name', { hasText: exact }) })
      .first();
  }

  async function paletteLabels(): Promise<string[]> {
    return (await page.locator('.quick-input-list .monaco-list-row .label-name').allInnerTexts()).map((s) => s.trim());
  }

  /** Picks an item of an open quick pick by its exact label. */
  async function pick(label: string): Promise<void> {
    await page.locator('.quick-input-list .monaco-list-row').first().waitFor({ timeout: 10_000 });
    const labels = await paletteLabels();
    assert.ok(labels.includes(label), `the quick pick offers "${label}"; it offers: ${labels.join(' | ')}`);
    await quickPickRow(label).click();
    await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 10_000 });
  }

  const callStackRows = () => page.locator('.debug-call-stack .monaco-list-row');
  const variableRows = () => page.locator('.debug-variables .monaco-list-row');
  const inspector = () => page.frameLocator('iframe.webview.ready').first().frameLocator('#active-frame');

  /** The content of the webview that shows `selector` (the inspector and the graph view can both be open). */
  async function webviewWith(selector: string) {
    for (let attempt = 0; attempt < 120; attempt++) {
      const frames = page.locator('iframe.webview.ready');
      const count = await frames.count();
      for (let i = 0; i < count; i++) {
        const content = page.frameLocator('iframe.webview.ready').nth(i).frameLocator('#active-frame');
        if ((await content.locator(selector).count()) > 0) return content;
      }
      await sleep(250);
    }
    throw new Error(`no webview shows ${selector}`);
  }

  before(async () => {
    try {
      await setUp();
    } catch (err) {
      failed = 'setup';
      throw err;
    }
  });

  async function setUp(): Promise<void> {
    rmSync(artifacts, { recursive: true, force: true });
    mkdirSync(artifacts, { recursive: true });
    for (const dir of [home, userData, extensions]) mkdirSync(dir, { recursive: true });

    assert.ok(
      existsSync(CHROMIUM),
      `${CHROMIUM} is missing: the end-to-end test drives VS Code through Debian's Chromium. Run \`bash scripts/setup-test-env.sh\` (as root) or \`apt-get install -y chromium\`.`,
    );

    // The .vsix, from the built extension (`npm test` builds first; build here when run alone).
    const built = ['out/extension.cjs', 'out/server.cjs', 'dist/debug-adapter/main.js', 'dist/runtime/cli/main.js', 'media/dist/inspector.js'];
    if (built.some((f) => !existsSync(path.join(root, f)))) {
      log('building (dist/, out/ or media/dist/ missing)');
      execFileSync('npm', ['run', 'build'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
    }
    execFileSync(process.execPath, [path.join(root, 'node_modules', '@vscode', 'vsce', 'vsce'), ...VSCE_PACKAGE_ARGS, '--out', vsix], {
      cwd: root,
      stdio: 'pipe',
    });
    log(`packaged ${path.basename(vsix)}`);

    // code-server, installed once into a cache folder.
    const setup = spawnSync('bash', [path.join(root, 'scripts', 'setup-code-server.sh')], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 600_000,
    });
    const codeServer = setup.stdout.trim().split('\n').pop() ?? '';
    if (setup.status !== 0 || !existsSync(codeServer)) {
      throw new Error(
        `code-server 4.100.3 is not installed and scripts/setup-code-server.sh could not install it (exit ${setup.status ?? setup.signal}). ` +
          `The end-to-end test needs it: run \`bash scripts/setup-code-server.sh\` (as root on a fresh machine).\n${setup.stderr.slice(-3000)}`,
      );
    }
    log(`code-server: ${codeServer}`);

    const install = spawnSync(codeServer, ['--user-data-dir', userData, '--extensions-dir', extensions, '--install-extension', vsix], {
      env,
      encoding: 'utf8',
      timeout: 120_000,
    });
    assert.equal(install.status, 0, `installing the .vsix failed:\n${install.stdout}${install.stderr}`);
    assert.match(install.stdout, /successfully installed/);
    log('installed the .vsix into a fresh extensions dir');

    mkdirSync(path.join(userData, 'User'), { recursive: true });
    writeFileSync(
      path.join(userData, 'User', 'settings.json'),
      JSON.stringify(
        {
          ...QUIET_SETTINGS,
          // The inspector opens on each stop in a callback (the default, made explicit).
          'tfjsCallbacks.openInspectorOnStop': true,
          // xterm's DOM renderer: the terminal's text is in the page, for step 15 to read.
          'terminal.integrated.gpuAcceleration': 'off',
        },
        null,
        2,
      ),
    );
    // The program is the debug adapter tests' own fixture, as an ES module (top-level await).
    mkdirSync(workspace, { recursive: true });
    cpSync(GRAPH_PROGRAM, program);
    writeFileSync(path.join(workspace, 'package.json'), '{ "type": "module" }\n');
    // A model as tensorflowjs_converter writes it (one line), with no callbacks module beside it.
    mkdirSync(path.dirname(converted), { recursive: true });
    cpSync(path.join(root, 'test', 'fixtures', 'tf-converted', 'float64', 'model.json'), converted);
    // A converted tf.cond model with its callbacks module beside it, for F5 without a launch.json.
    cpSync(path.join(root, 'test', 'fixtures', 'tf-converted', 'cond_callback'), path.dirname(condModel), { recursive: true });
    // Fresh projects as a newcomer writes them, each with its own @tensorflow/tfjs (npm install).
    projectWithOwnTfjs(path.dirname(esmProgram), 'module');
    writeFileSync(esmProgram, ESM_PROGRAM);
    writeFileSync(path.join(path.dirname(esmProgram), 'throws.ts'), THROWS_PROGRAM);
    writeFileSync(path.join(path.dirname(esmProgram), 'parity.ts'), PARITY_PROGRAM);
    writeFileSync(path.join(path.dirname(esmProgram), 'training.ts'), TRAINING_PROGRAM);
    cpSync(path.join(NAN_FIXTURES, 'train.ts'), path.join(path.dirname(esmProgram), 'nan-train.ts'));
    cpSync(path.join(NAN_FIXTURES, 'loss.ts'), path.join(path.dirname(esmProgram), 'loss.ts'));
    projectWithOwnTfjs(path.dirname(cjsProgram));
    writeFileSync(cjsProgram, CJS_PROGRAM);
    // The tutorials' tf.data shape whose map callback fails (test/fixtures/shapes/tfdata-fails).
    cpSync(path.join(root, 'test', 'fixtures', 'shapes', 'tfdata-fails', 'pipeline.js'), path.join(path.dirname(cjsProgram), 'pipeline.js'));
    const multiOut = path.join(root, 'test', 'fixtures', 'tf-converted', 'multi_out_numpy');
    mkdirSync(path.dirname(cjsModel), { recursive: true });
    for (const file of ['model.json', 'group1-shard1of1.bin', 'callbacks.ts']) cpSync(path.join(multiOut, file), path.join(path.dirname(cjsModel), file));
    log('fresh projects with their own @tensorflow/tfjs installed');
    // A model with a callback between kernels, its callbacks.ts beside it, for the graph view walk.
    writeDenseModel(workspace);

    const port = await freePort();
    const out = openSync(path.join(work, 'code-server.log'), 'a');
    server = spawn(
      codeServer,
      codeServerArgs(port, userData, extensions, workspace),
      { env, detached: true, stdio: ['ignore', out, out] }, // detached: its own process group, killed as one
    );
    closeSync(out);
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (server.exitCode !== null) throw new Error(`code-server exited with ${server.exitCode}:\n${readFileSync(path.join(work, 'code-server.log'), 'utf8')}`);
      const healthy = await fetch(`http://127.0.0.1:${port}/healthz`).then(
        (r) => r.ok,
        () => false,
      );
      if (healthy) break;
      if (Date.now() > deadline) throw new Error('code-server did not answer /healthz within 60 s');
      await sleep(200);
    }
    log(`code-server listening on 127.0.0.1:${port} (pid ${server.pid})`);

    browser = await chromium.launchPersistentContext(path.join(work, 'chromium'), {
      executablePath: CHROMIUM,
      headless: true,
      viewport: { width: 1600, height: 1000 },
      args: [...CHROMIUM_ARGS],
      env: { ...env },
    });
    page = browser.pages()[0] ?? (await browser.newPage());
    await page.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(workspace)}`);
    await page.locator('.explorer-folders-view .monaco-list-row').first().waitFor({ timeout: 60_000 });
    log('workbench loaded');

    // The program, open in the editor as a user has it before running it.
    await page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'graph.ts' }).dblclick();
    await page.locator('.editor-group-container .monaco-editor .view-lines', { hasText: 'scale_rows' }).first().waitFor({ timeout: 30_000 });
    log('graph.ts open in the editor');
  }

  after(async () => {
    try {
      await browser?.close().catch(() => undefined);
    } finally {
      if (server?.pid) {
        try {
          process.kill(-server.pid, 'SIGTERM');
        } catch {
          // already gone
        }
        for (let i = 0; i < 30 && server.exitCode === null && server.signalCode === null; i++) await sleep(100);
        try {
          process.kill(-server.pid, 'SIGKILL');
        } catch {
          // the group is gone
        }
      }
      // Anything left that this test started (a debuggee outside code-server's process group).
      for (const pid of processesMentioning(work)) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // gone
        }
      }
      if (failed && existsSync(userData)) {
        if (existsSync(path.join(userData, 'logs'))) cpSync(path.join(userData, 'logs'), path.join(artifacts, 'code-server-logs'), { recursive: true });
        if (existsSync(path.join(work, 'code-server.log'))) cpSync(path.join(work, 'code-server.log'), path.join(artifacts, 'code-server.log'));
        log(`code-server logs copied to ${path.relative(root, artifacts)}`);
      }
      rmSync(work, { recursive: true, force: true, maxRetries: 3 });
      log('cleaned up');
    }
  });

  step('1. the palette lists the commands; Select Backend → cpu shows in the status bar', async () => {
    let labels: string[] = [];
    for (let attempt = 1; attempt <= 15; attempt++) {
      await openPalette('TF.js Callbacks');
      labels = await paletteLabels();
      if (COMMANDS.every((c) => labels.includes(c))) break;
      await page.keyboard.press('Escape');
      await sleep(1000);
    }
    log(`  palette: ${labels.join(' | ')}`);
    for (const c of COMMANDS) assert.ok(labels.includes(c), `the palette lists "${c}" (it lists: ${labels.join(' | ')})`);
    await shot('palette');

    const status = page.locator('.statusbar-item', { hasText: 'TF.js:' });
    assert.match(await status.innerText(), /TF\.js: auto/);
    await quickPickRow('TF.js Callbacks: Select Backend').click();
    const backends = page.locator('.quick-input-list .monaco-list-row .label-name');
    await backends.first().waitFor();
    assert.deepEqual(
      (await backends.allInnerTexts()).map((s) => s.trim()),
      ['auto', 'tensorflow', 'wasm', 'cpu'],
    );
    await shot('select-backend');
    await pick('cpu');
    await page.locator('.statusbar-item', { hasText: 'TF.js: cpu' }).waitFor({ timeout: 10_000 });
    log(`  status bar: ${(await status.innerText()).trim()}`);
    await shot('status-bar-cpu');
  });

  step('2. Run Graph runs the program: trace summary, output channel, the Tout mismatch in Problems', async () => {
    await runCommand('TF.js Callbacks: Run Graph');
    const toast = page.locator('.notification-toast', { hasText: 'Run Graph' });
    await toast.waitFor({ timeout: 90_000 });
    const summary = (await toast.innerText()).trim();
    log(`  notification: ${summary}`);
    assert.match(summary, /Run Graph ✗ graph\.ts: 3 callback invocations of 3 callbacks · 1 Tout mismatch · 0 errors · .* · backend cpu/);
    // A failed run is an error notification (its icon), not a warning.
    assert.equal(await toast.locator('.notification-list-item-icon.codicon-error').count(), 1, 'the ✗ toast has the error icon');
    // The "TF.js Callbacks" output channel shows the trace.
    const output = page.locator('.part.panel .view-lines', { hasText: 'callback invocations' });
    await output.waitFor({ timeout: 10_000 });
    const trace = (await output.innerText()).replace(/\u00a0/g, ' '); // the editor renders spaces as nbsp
    assert.match(trace, /backend: cpu/);
    assert.match(trace, /✓ pyfunc_0 \(scale_rows\) \[PyFunc\] in float32\[2,3\] → out float32\[2,3\]/);
    assert.match(trace, new RegExp(`✗ pyfunc_2 \\(bad_dtype\\) \\[PyFunc\\].*graph\\.ts:${MISMATCH_LINE}`));
    assert.match(trace, /0-th value returned by pyfunc_2 is double, but expects float/);
    await shot('run-graph');

    await page.keyboard.press('Control+Shift+M'); // View: Problems
    // graph.ts is open, so the language server reports the last run's mismatch (source 'tfjs-callbacks (last run)').
    const problem = page.locator('.markers-panel .monaco-list-row', { hasText: '0-th value returned by pyfunc_2' });
    await problem.first().waitFor({ timeout: 15_000 });
    const text = (await problem.first().innerText()).replace(/\u00a0/g, ' ');
    log(`  problem: ${text.split('\n').slice(0, 4).join(' | ')}`);
    assert.match(text, /0-th value returned by pyfunc_2 is double, but expects float/);
    assert.match(text, /tfjs-callbacks/);
    assert.match(text, new RegExp(`\\[Ln ${MISMATCH_LINE}, Col \\d+\\]`));
    // The extension's TypeScript server plugin gives VS Code's TypeScript the runtime's types: the
    // workspace does not install tfjs-callback-debugger, yet its import is no ts(2307).
    const allProblems = (await page.locator('.markers-panel').innerText()).replace(/\u00a0/g, ' ');
    assert.doesNotMatch(allProblems, /Cannot find module 'tfjs-callback-debugger\/runtime'/);
    await shot('problems');
    await docPicture(page, 'tout-diagnostics');
    await runCommand('Notifications: Clear All Notifications');
  });

  step('3. a breakpoint in the numpyFunction callback: Debug Graph stops there with the graph frame, the tensor, the debug console and step over', async () => {
    await breakpointAt(BREAK_LINE);

    await runCommand('TF.js Callbacks: Debug Graph');
    const graphFrame = callStackRows().filter({ hasText: '(PyFunc)' });
    await graphFrame.first().waitFor({ timeout: 60_000 });
    const breakpoint = (await page.locator('.debug-breakpoints .monaco-list-row', { hasText: 'graph.ts' }).innerText()).replace(/\s+/g, ' ').trim();
    assert.equal(breakpoint, `graph.ts ${BREAK_LINE}`, 'the Breakpoints view lists the breakpoint');
    const stack = (await callStackRows().allInnerTexts()).map((s) => s.replace(/\s+/g, ' ').trim());
    log(`  call stack: ${stack.join(' | ')}`);
    assert.match(stack[0] ?? '', new RegExp(`^scale_rows graph\\.ts ${BREAK_LINE}:`), 'the top frame is the callback at the breakpoint');
    assert.ok(
      stack.some((s) => s.includes('›') && s.includes('(PyFunc)') && s.includes('scale_rows')),
      `a graph frame "… › scale_rows (PyFunc)": ${stack.join(' | ')}`,
    );

    const x = variableRows().filter({ hasText: /^\s*x =/ });
    await x.first().waitFor({ timeout: 10_000 });
    const variables = (await variableRows().allInnerTexts()).map((s) => s.replace(/\s+/g, ' ').trim());
    log(`  variables: ${variables.join(' | ')}`);
    assert.ok(
      variables.some((v) => /^x = NdArray float32\[2,3\] min=1 max=6 mean=3\.5/.test(v)),
      `x is shown as NdArray float32[2,3]: ${variables.join(' | ')}`,
    );
    assert.ok(
      variables.some((v) => v === 'Tout = [float32]'),
      'Tout is shown',
    );
    await shot('stopped-at-breakpoint');
    await docPicture(page, 'callback-stop');

    // The debug console: evaluate on the tensor in the stopped frame.
    await runCommand('Debug Console: Focus on Debug Console View');
    const replInput = page.locator('.repl-input-wrapper textarea');
    await replInput.waitFor({ state: 'visible' });
    await page.locator('.repl-input-wrapper').click();
    await page.keyboard.type("x.shape.join('x') + ':' + x.get(1, 2) * factor");
    await page.keyboard.press('Enter');
    const result = page.locator('.repl .monaco-list-row', { hasText: '2x3:12' });
    await result.first().waitFor({ timeout: 10_000 });
    log(`  debug console: ${(await result.first().innerText()).trim()}`);
    const consoleText = await page.locator('.repl').innerText();
    assert.match(consoleText, /backend: cpu/, 'the debuggee runs on the backend selected in step 1');
    await shot('debug-console');

    // Step over: one line down, still in the callback.
    await page.keyboard.press('F10');
    await callStackRows()
      .first()
      .filter({ hasText: new RegExp(`graph\\.ts\\s*${NEXT_LINE}:`) })
      .waitFor({ timeout: 15_000 });
    const top = (await callStackRows().first().innerText()).replace(/\s+/g, ' ').trim();
    log(`  after step over: ${top}`);
    assert.match(top, new RegExp(`^scale_rows graph\\.ts ${NEXT_LINE}:`));
    const currentLine = page.locator('.editor-group-container .monaco-editor .margin .codicon-debug-stackframe');
    await currentLine.first().waitFor({ timeout: 5_000 });
    await page.locator('.statusbar-item', { hasText: `Ln ${NEXT_LINE},` }).waitFor({ timeout: 5_000 }); // the editor's cursor follows the current line
    await shot('step-over');
  });

  step(
    '4. continue stops on the Tout mismatch; the tensor inspector, in the panel, shows the flagged output with 20+ lines of code in view at 1440×900',
    async () => {
      // The window size of the report (issue 27 point 9): a 1440×900 laptop screen.
      await page.setViewportSize({ width: 1440, height: 900 });
      await page.keyboard.press('F5');
      await callStackRows().filter({ hasText: 'bad_dtype' }).first().waitFor({ timeout: 30_000 });
      const stack = (await callStackRows().allInnerTexts()).map((s) => s.replace(/\s+/g, ' ').trim());
      log(`  call stack: ${stack.join(' | ')}`);
      assert.ok(
        stack.some((s) => /› bad_dtype \(PyFunc\)/.test(s)),
        `a graph frame for bad_dtype: ${stack.join(' | ')}`,
      );
      const reason = await page.locator('.debug-call-stack, .pane', { hasText: 'Tout mismatch in bad_dtype' }).first().innerText();
      assert.match(reason, /Tout mismatch in bad_dtype: 0-th value is double, but expects float/);
      await variableRows()
        .filter({ hasText: /^\s*returned =/ })
        .first()
        .waitFor({ timeout: 10_000 });
      const variables = (await variableRows().allInnerTexts()).map((s) => s.replace(/\s+/g, ' ').trim());
      log(`  variables: ${variables.join(' | ')}`);
      assert.ok(
        variables.some((v) => v.startsWith('returned = Float64Array float64[6] min=1 max=6')),
        `what the callback returned is shown: ${variables.join(' | ')}`,
      );
      assert.ok(
        variables.some((v) => v.startsWith('mismatch[0] = 0-th value returned by pyfunc_2 is double, but expects float')),
        'the mismatch is shown',
      );

      const body = inspector().locator('body');
      await inspector().locator('body', { hasText: '0-th value returned by' }).waitFor({ timeout: 30_000 });
      await inspector().locator('body', { hasText: 'bad_dtype' }).waitFor({ timeout: 10_000 });
      const text = await body.innerText();
      log(`  inspector: ${text.split('\n').filter(Boolean).slice(0, 6).join(' | ')}`);
      assert.match(text, /0-th value returned by pyfunc_2 is double, but expects float/);
      assert.match(text, /Float64Array/);
      const flagged = await body.textContent();
      assert.match(flagged ?? '', /dtype mismatch/, 'the output row is flagged as a dtype mismatch');
      // The inspector is a view in the panel (inspectorLocation: panel): the code keeps the editor area.
      // VS Code draws webviews in a layer of their own, placed over their view: the inspector's lies within the panel.
      const panelBox = await page.locator('.part.panel').boundingBox();
      const frames = await page.locator('iframe.webview.ready').evaluateAll((els) =>
        els.map((el) => {
          const r = el.getBoundingClientRect();
          return { x: r.x, y: r.y, width: r.width, height: r.height };
        }),
      );
      const frame = frames.find((f) => panelBox && f.height > 0 && f.y >= panelBox.y - 1 && f.y + f.height <= panelBox.y + panelBox.height + 1);
      log(`  panel ${JSON.stringify(panelBox)}, webviews ${JSON.stringify(frames)}`);
      assert.ok(frame, 'the inspector is in the panel');
      assert.equal(await page.locator('.editor-group-container').count(), 1, 'no editor group was made for it');
      const codeLines = await page
        .locator('.editor-group-container .monaco-editor')
        .first()
        .evaluate((editor) => {
          const line = editor.querySelector('.view-line');
          const area = editor.querySelector('.lines-content')?.parentElement ?? editor;
          return line ? Math.floor(area.getBoundingClientRect().height / line.getBoundingClientRect().height) : 0;
        });
      log(`  code lines in view: ${codeLines}`);
      assert.ok(codeLines >= 20, `at least 20 lines of code in view, not ${codeLines}`);
      // The flagged row is within the inspector's visible area, no scrolling.
      const row = inspector().locator('tr', { hasText: 'dtype mismatch' }).first();
      const flaggedBox = await row.boundingBox();
      log(`  inspector frame ${JSON.stringify(frame)}, flagged row ${JSON.stringify(flaggedBox)}`);
      assert.ok(flaggedBox, 'the flagged row is drawn');
      assert.ok(flaggedBox.y + flaggedBox.height <= frame.y + frame.height + 1, 'the flagged row is in view without scrolling');
      // Its check cell too: not cut off at the right edge of the table's scroll box.
      const check = await row.locator('td.check').boundingBox();
      const scrollBox = await inspector().locator('.table-scroll', { has: row }).first().boundingBox();
      log(`  check cell ${JSON.stringify(check)}, table box ${JSON.stringify(scrollBox)}`);
      assert.ok(check && scrollBox && check.x + check.width <= scrollBox.x + scrollBox.width + 1, 'the check cell is in view');
      await shot('tout-mismatch-inspector');
      await docPicture(page, 'tout-mismatch-stop');
      await page.setViewportSize({ width: 1600, height: 1000 });
    },
  );

  step('5. stopping the session leaves no debuggee process', async () => {
    const running = processesMentioning(program);
    for (const pid of running) log(`  debuggee before stopping: ${pid} ${readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').slice(0, 300)}`);
    assert.ok(running.length > 0, `a process runs ${program} while stopped`);
    await page.keyboard.press('Shift+F5');
    await page.locator('.debug-toolbar').waitFor({ state: 'hidden', timeout: 15_000 });
    let left = processesMentioning(program);
    for (let i = 0; i < 50 && left.length > 0; i++) {
      await sleep(100);
      left = processesMentioning(program);
    }
    assert.deepEqual(
      left,
      [],
      `processes still run ${program}: ${left.map((pid) => `${pid}: ${readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ')}`).join('\n')}`,
    );
    log('  no debuggee process left');
    await shot('session-stopped');
  });

  step('6. a converted model.json (one line): Problems name each unbound callback node at its own column', async () => {
    await page.keyboard.press('Control+P');
    const input = page.locator('.quick-input-widget .quick-input-box input');
    await input.waitFor({ state: 'visible' });
    await input.fill('converted/model.json');
    await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'model.json' }).first().waitFor({ timeout: 10_000 });
    await page.keyboard.press('Enter');
    await page.keyboard.press('Control+Shift+M');
    const text = readFileSync(converted, 'utf8');
    const expected = ['StatefulPartitionedCall/log1p64', 'StatefulPartitionedCall/cube_plus'].map((node) => ({
      node,
      column: text.indexOf(JSON.stringify(node)) + 1,
    }));
    const rows = page.locator('.markers-panel .monaco-list-row', { hasText: 'has no binding' });
    await rows.nth(1).waitFor({ timeout: 20_000 });
    const shown = (await rows.allInnerTexts()).map((r) => r.replace(/\u00a0/g, ' '));
    log(`  problems: ${shown.map((r) => r.split('\n').slice(0, 3).join(' | ')).join(' || ')}`);
    for (const { node, column } of expected) {
      const row = shown.find((r) => r.includes(`Callback node '${node}'`));
      assert.ok(row, `a problem for ${node}: ${shown.join(' || ')}`);
      assert.match(row, new RegExp(`\\[Ln 1, Col ${column}\\]`), `${node} at its column ${column}`);
      assert.match(row, new RegExp(`export a function named '${node.split('/').at(-1)}' \\(its name in TensorFlow\\)`));
    }
    await shot('converted-model-problems');
  });

  step('7. F5 on an open model.json with no launch.json debugs the model with its callbacks.ts', async () => {
    // A folder name no other model.json fuzzy-matches in Quick Open ('cond' matched 'converted').
    await open('cond-model/model.json');
    await runCommand('View: Focus Active Editor Group');
    await page.keyboard.press('F5');
    // The session runs the model to its end: its trace reaches the Debug Console.
    await runCommand('Debug Console: Focus on Debug Console View');
    const line = page.locator('.repl .monaco-list-row', { hasText: 'StatefulPartitionedCall/cond/then' });
    await line.first().waitFor({ timeout: 60_000 });
    const consoleText = (await page.locator('.repl').innerText()).replace(/\u00a0/g, ' ');
    log(
      `  debug console: ${consoleText
        .split('\n')
        .filter((l) => /cond-model ›|backend/.test(l))
        .slice(0, 3)
        .join(' | ')}`,
    );
    assert.match(consoleText, /✓ cond-model › StatefulPartitionedCall\/cond\/then\/_3\/cond\/double_np \(double_np\) \[PyFunc\]/);
    const refusal = page.locator('.notification-toast', { hasText: "You don't have an extension for debugging" });
    assert.equal(await refusal.count(), 0, 'no "no extension for debugging JSON" notification');
    await page.locator('.debug-toolbar').waitFor({ state: 'hidden', timeout: 30_000 });
    await shot('f5-on-model-json');
  });

  /** Opens a workspace file by its relative path through Quick Open. */
  async function open(relative: string): Promise<void> {
    await page.keyboard.press('Control+P');
    const input = page.locator('.quick-input-widget .quick-input-box input');
    await input.waitFor({ state: 'visible' });
    await input.fill(relative);
    // The row of this very file (its folder in the description): the first row can be a recently
    // opened file of the same name while the file search is still running.
    const folder = path.basename(path.dirname(relative));
    let row = page.locator('.quick-input-widget .monaco-list-row', { hasText: path.basename(relative) });
    if (folder !== '.') row = row.filter({ hasText: folder });
    await row.first().waitFor({ timeout: 10_000 });
    await row.first().click();
    await page.locator('.tab.active', { hasText: path.basename(relative) }).waitFor({ timeout: 10_000 });
    // The breadcrumbs name the file's folder: another open file of the same name does not pass.
    if (folder !== '.') await page.locator('.breadcrumbs-control .monaco-breadcrumb-item', { hasText: folder }).first().waitFor({ timeout: 10_000 });
  }

  /** F5 on an open TS file with no launch.json: VS Code asks which debugger, as it does whenever
   * several take the language (js-debug does too); ours is the suggested first entry. */
  async function f5OnTypeScript(): Promise<void> {
    await page.keyboard.press('F5');
    const rows = page.locator('.quick-input-widget .monaco-list-row');
    await rows.first().waitFor({ timeout: 15_000 });
    const first = (await rows.first().innerText()).replace(/\s+/g, ' ');
    assert.match(first, /^TF\.js Graph Callbacks Suggested/, 'ours is the first, suggested debugger');
    await rows.first().click();
  }

  step('8. a fresh TS ES-module project with its own tfjs: F5 stops on the float64 mistake, one engine, the inspector shows the Float64Array', async () => {
    await open('esm-project/main.ts');
    await runCommand('View: Focus Active Editor Group');
    await f5OnTypeScript();
    await callStackRows().filter({ hasText: '(PyFunc)' }).first().waitFor({ timeout: 60_000 });
    const stack = (await callStackRows().allInnerTexts()).map((r) => r.replace(/\s+/g, ' ').trim());
    log(`  call stack: ${stack.slice(0, 3).join(' | ')}`);
    assert.ok(
      stack.some((r) => /› widen \(PyFunc\)/.test(r)),
      stack.join(' | '),
    );
    const body = inspector().locator('body');
    await body.locator('tr.tensor-row', { hasText: 'output 0' }).waitFor({ timeout: 20_000 });
    const row = (await body.locator('tr.tensor-row', { hasText: 'output 0' }).innerText()).replace(/\s+/g, ' ');
    log(`  inspector output 0: ${row}`);
    assert.match(row, /Float64Array/);
    assert.match(row, /float64/);
    assert.match(row, /dtype mismatch/);
    await runCommand('Debug Console: Focus on Debug Console View');
    await page.locator('.repl .monaco-list-row', { hasText: 'one engine:' }).first().waitFor({ timeout: 10_000 });
    const consoleText = (await page.locator('.repl').innerText()).replace(/\u00a0/g, ' ');
    assert.match(consoleText, /one engine: true/);
    assert.deepEqual(
      consoleText.split('\n').filter((l) => SECOND_ENGINE.test(l)),
      [],
      'no second TF.js in the Debug Console',
    );
    await shot('esm-project-float64-stop');
    await page.keyboard.press('Shift+F5');
    await page.locator('.debug-toolbar').waitFor({ state: 'hidden', timeout: 15_000 });
  });

  step('9. a fresh CommonJS JS project (npm init -y) with its own tfjs: Run Graph runs it on one engine', async () => {
    await open('cjs-project/main.js');
    await runCommand('TF.js Callbacks: Run Graph');
    const toast = page.locator('.notification-toast', { hasText: 'main.js' });
    await toast.waitFor({ timeout: 90_000 });
    const summary = (await toast.innerText()).trim();
    log(`  notification: ${summary}`);
    assert.match(
      summary,
      /Run Graph ✓ main\.js: 1 callback invocation of 1 callback · 0 Tout mismatches · 0 errors · 0 reused · 0 with NaN\/Inf outputs · .* · backend cpu/,
    );
    const output = page.locator('.part.panel .view-lines', { hasText: 'one engine' });
    await output.waitFor({ timeout: 10_000 });
    const trace = (await output.innerText()).replace(/\u00a0/g, ' ');
    assert.match(trace, /one engine: true 2,4,6/);
    assert.deepEqual(
      trace.split('\n').filter((l) => SECOND_ENGINE.test(l)),
      [],
    );
    await shot('cjs-project-run-graph');
    await runCommand('Notifications: Clear All Notifications');
  });

  step('10. Run Graph on a model.json whose callbacks module is TypeScript, in that CommonJS project', async () => {
    await open('cjs-project/model/model.json');
    await runCommand('TF.js Callbacks: Run Graph');
    const toast = page.locator('.notification-toast', { hasText: 'model.json' });
    await toast.waitFor({ timeout: 90_000 });
    const summary = (await toast.innerText()).trim();
    log(`  notification: ${summary}`);
    assert.match(summary, /Run Graph ✓ model\.json: 1 callback invocation of 1 callback · 0 Tout mismatches · 0 errors/);
    await shot('cjs-project-model-run-graph');
    await runCommand('Notifications: Clear All Notifications');
  });

  step("11. 'Errors thrown in callbacks', checked by default, stops at the throw inside the callback, not in the runtime", async () => {
    await runCommand('View: Show Run and Debug');
    const filter = page.locator('.debug-breakpoints .monaco-list-row', { hasText: 'Errors thrown in callbacks' });
    await filter.waitFor({ timeout: 10_000 });
    assert.equal(await filter.locator('input[type=checkbox]').isChecked(), true, 'the box is checked by default');
    const uncaught = page.locator('.debug-breakpoints .monaco-list-row', { hasText: 'Uncaught exceptions' }).locator('input[type=checkbox]');
    assert.equal(await uncaught.isChecked(), false, 'Uncaught exceptions is not what stops here');
    await shot('callback-errors-filter');
    await open('esm-project/throws.ts');
    await runCommand('View: Focus Active Editor Group');
    await f5OnTypeScript();
    const top = callStackRows().first();
    await top.filter({ hasText: 'checked_log' }).waitFor({ timeout: 60_000 });
    const text = (await top.innerText()).replace(/\s+/g, ' ').trim();
    log(`  top frame: ${text}`);
    assert.match(text, new RegExp(`^checked_log throws\\.ts ${THROW_LINE}:`));
    const widget = page.locator('.exception-widget');
    await widget.waitFor({ timeout: 10_000 });
    assert.match((await widget.innerText()).replace(/\s+/g, ' '), /RangeError: checked_log: input below 100/);
    await shot('callback-error-stop');
    await page.keyboard.press('Shift+F5');
    await page.locator('.debug-toolbar').waitFor({ state: 'hidden', timeout: 15_000 });
  });

  step('12. a misspelled breakOnCallbacks name is said in the Debug Console, with the callback it likely meant', async () => {
    mkdirSync(path.join(workspace, '.vscode'), { recursive: true });
    writeFileSync(
      path.join(workspace, '.vscode', 'launch.json'),
      JSON.stringify(
        {
          version: '0.2.0',
          configurations: [
            {
              type: 'tfjs-callbacks',
              request: 'launch',
              name: 'Typo',
              program: '${workspaceFolder}/esm-project/main.ts',
              breakOnCallbacks: ['widdenn'],
              breakOnToutMismatch: false,
            },
          ],
        },
        null,
        2,
      ),
    );
    await runCommand('Debug: Select and Start Debugging');
    await pick('Typo');
    await runCommand('Debug Console: Focus on Debug Console View');
    const warning = page.locator('.repl .monaco-list-row', { hasText: "'widdenn' matches no callback" });
    await warning.first().waitFor({ timeout: 60_000 });
    const said = (await warning.first().innerText()).replace(/\u00a0/g, ' ').replace(/\s+/g, ' ');
    log(`  debug console: ${said}`);
    assert.match(said, /Did you mean 'widen'\?/);
    await page.locator('.debug-toolbar').waitFor({ state: 'hidden', timeout: 30_000 });
    await shot('typo-breakOnCallbacks');
  });

  step(
    '13. the graph view, live: a node breakpoint set from the view, F5 stops after the node, F10 node by node, F11 into the callback, Shift+F11 to its node',
    async () => {
      await open('dense-model/model.json');
      await runCommand('TF.js Callbacks: Open Graph View');
      const graph = await webviewWith('svg.graph');
      const box = (node: string) => graph.locator(`g.item[data-node="${node}"]`);
      await box('dense/MatMul').waitFor({ timeout: 30_000 });
      await box('dense/MatMul').click();
      await graph.locator('[data-action="break"]').click();
      const bp = page.locator('.debug-breakpoints .monaco-list-row', { hasText: 'dense/MatMul' });
      await bp.first().waitFor({ timeout: 10_000 });
      await shot('graph-view-break-on-node');

      // Step 12 left a launch.json: the model gets a configuration of its own there.
      const launchJson = path.join(workspace, '.vscode', 'launch.json');
      const launch = JSON.parse(readFileSync(launchJson, 'utf8')) as { configurations: object[] };
      launch.configurations.push({
        type: 'tfjs-callbacks',
        request: 'launch',
        name: 'Dense model',
        model: '${workspaceFolder}/dense-model/model.json',
        inputs: '${workspaceFolder}/dense-model/inputs.json',
      });
      writeFileSync(launchJson, JSON.stringify(launch, null, 2));
      await runCommand('Debug: Select and Start Debugging');
      await pick('Dense model');
      const top = () => callStackRows().first();
      await top().filter({ hasText: 'dense-model › dense/MatMul (MatMul)' }).waitFor({ timeout: 60_000 });
      const stack = (await callStackRows().allInnerTexts()).map((r) => r.replace(/\s+/g, ' ').trim());
      log(`  call stack: ${stack.join(' | ')}`);
      const input = variableRows().filter({ hasText: /x \(input 0\) =/ });
      await input.first().waitFor({ timeout: 10_000 });
      const variables = (await variableRows().allInnerTexts()).map((v) => v.replace(/\s+/g, ' ').trim());
      log(`  Node scope: ${variables.slice(0, 6).join(' | ')}`);
      assert.ok(
        variables.some((v) => /^output 0 = Tensor float32\[2,2\] min=-4 max=3/.test(v)),
        variables.join(' | '),
      );
      // The graph view marks the paused node; the inspector shows its tensors.
      await box('dense/MatMul').and(graph.locator('[data-status="paused"]')).waitFor({ timeout: 15_000 });
      const node = await webviewWith('.node-header');
      log(`  inspector: ${(await node.locator('.node-header').innerText()).split('\n').slice(0, 3).join(' | ')}`);
      await shot('graph-view-paused-at-node');
      await docPicture(page, 'graph-view-node-stop');

      await page.keyboard.press('F10');
      await top().filter({ hasText: 'dense/Relu (Relu)' }).waitFor({ timeout: 15_000 });
      await box('dense/Relu').and(graph.locator('[data-status="paused"]')).waitFor({ timeout: 15_000 });
      assert.equal(await box('dense/MatMul').getAttribute('data-status'), 'ran');
      await shot('graph-view-step-over-node');

      await page.keyboard.press('F11');
      await top()
        .filter({ hasText: /scale\s*callbacks\.ts\s*2:/ })
        .waitFor({ timeout: 15_000 });
      await shot('graph-view-step-into-callback');

      await page.keyboard.press('Shift+F11');
      await top().filter({ hasText: 'dense-model › scale (EagerPyFunc)' }).waitFor({ timeout: 15_000 });
      await box('scale').and(graph.locator('[data-status="paused"]')).waitFor({ timeout: 15_000 });
      await shot('graph-view-step-out-to-node');
      // Continue to the end: the view shows the whole run, the nodes after the last stop included
      // (they read 'not run' before), inputs and weights as given.
      await page.keyboard.press('F5');
      await page.locator('.debug-toolbar').waitFor({ state: 'hidden', timeout: 30_000 });
      await graph.locator('g.item[data-status="paused"]').waitFor({ state: 'detached', timeout: 15_000 });
      const statuses = await graph
        .locator('g.item[data-node]')
        .evaluateAll((els) => els.map((el) => `${el.getAttribute('data-node')}:${el.getAttribute('data-status')}`));
      log(`  statuses after the run: ${statuses.join(' ')}`);
      assert.ok(statuses.length > 3, statuses.join(' '));
      assert.deepEqual(
        statuses.filter((st) => !/:(ran|given)$/.test(st)),
        [],
        'every node ran or was given',
      );
      assert.ok(statuses.includes('dense/Relu:ran') && statuses.includes('scale:ran'), statuses.join(' '));
      await shot('graph-view-after-run');
      // The node breakpoint goes, so later steps run as before.
      await runCommand('Remove All Breakpoints');
    },
  );

  step("14. Set Up Native Backend builds tfjs-node against a Python environment's TensorFlow; auto then runs on it", async () => {
    if (!TF_PYTHON) {
      log('  skipped: no TensorFlow venv here (scripts/setup-native-test.sh)');
      return;
    }
    await runCommand('TF.js Callbacks: Set Up Native Backend');
    // Not pick(): the open dialog below is a quick input too, and can show before the pick's
    // widget was ever seen hidden.
    await page.locator('.quick-input-list .monaco-list-row').first().waitFor({ timeout: 10_000 });
    await quickPickRow('Another Python…').click();
    // VS Code's own open dialog (a path box in code-server): the test venv's python.
    const input = page.locator('.quick-input-widget .quick-input-box input');
    await input.waitFor({ state: 'visible', timeout: 10_000 });
    // The dialog fills in its starting folder after it shows: type the path once that is done,
    // and again if the dialog overwrote it.
    for (let attempt = 0; attempt < 20 && !(await input.inputValue()).startsWith('/'); attempt++) await sleep(250);
    for (let attempt = 0; attempt < 5 && (await input.inputValue()) !== TF_PYTHON; attempt++) {
      await input.fill(TF_PYTHON);
      await sleep(750); // the dialog validates the path as it is typed
    }
    assert.equal(await input.inputValue(), TF_PYTHON, 'the open dialog holds the venv python');
    await page.keyboard.press('Enter');
    const ready = page.locator('.notification-toast', { hasText: 'native backend ready' });
    await ready.waitFor({ timeout: 110_000 });
    const said = (await ready.innerText()).replace(/\s+/g, ' ').trim();
    log(`  notification: ${said}`);
    assert.match(said, /✓ native backend ready: @tensorflow\/tfjs-node 4\.\d+\.\d+ built against TensorFlow 2\.\d+\.\d+ in \d+ s/);
    await shot('native-setup');
    await runCommand('Notifications: Clear All Notifications');
    await runCommand('TF.js Callbacks: Select Backend');
    await pick('auto');
    await open('cjs-project/main.js');
    await runCommand('TF.js Callbacks: Run Graph');
    const toast = page.locator('.notification-toast', { hasText: 'main.js' });
    await toast.waitFor({ timeout: 60_000 });
    assert.match((await toast.innerText()).trim(), /Run Graph ✓ main\.js: .* backend tensorflow/);
    await page.locator('.statusbar-item', { hasText: 'TF.js: auto → tensorflow' }).waitFor({ timeout: 10_000 });
    await shot('run-graph-on-tensorflow');
  });

  /** Puts a breakpoint on `line` of the active editor. */
  async function breakpointAt(line: number): Promise<void> {
    await runCommand('View: Focus Active Editor Group');
    await page.keyboard.press('Control+G');
    const input = page.locator('.quick-input-widget .quick-input-box input');
    await input.waitFor({ state: 'visible' });
    await input.fill(`:${line}`);
    await page.keyboard.press('Enter');
    await page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
    await page.locator('.statusbar-item', { hasText: `Ln ${line},` }).waitFor({ timeout: 5_000 });
    await page.keyboard.press('F9'); // Debug: Toggle Breakpoint
    await page.locator('.editor-group-container .cgmr.codicon-debug-breakpoint').first().waitFor({ timeout: 5_000 });
  }

  /** Clicks an item of the open context menu once the menu has settled (a click while it opens is lost). */
  async function menuItem(label: string): Promise<void> {
    const item = page.locator('.context-view .action-label', { hasText: label });
    await item.waitFor({ timeout: 5_000 });
    await sleep(400);
    await item.click();
    await page.locator('.context-view .monaco-menu').waitFor({ state: 'hidden', timeout: 5_000 });
  }

  const topFrame = async () => (await callStackRows().first().innerText()).replace(/\s+/g, ' ').trim();

  step(
    '15. the Debug Terminal runs `node parity.ts` under the debugger: completions, Restart Frame, View Binary Data and the byte view, a data breakpoint on a layer kernel during model.fit',
    async () => {
      await open('esm-project/parity.ts');
      await breakpointAt(PARITY_BREAK);
      await breakpointAt(PARITY_MODEL);
      await runCommand('TF.js Callbacks: Create Debug Terminal');
      await page.locator('.terminal-wrapper.active .xterm').waitFor({ timeout: 15_000 });
      await sleep(1500); // the shell's prompt
      await page.keyboard.type('node esm-project/parity.ts');
      await page.keyboard.press('Enter');
      await callStackRows().first().filter({ hasText: 'scale' }).waitFor({ timeout: 60_000 });
      assert.match(await topFrame(), new RegExp(`^scale parity\\.ts ${PARITY_BREAK}:`));
      await shot('debug-terminal-stop');
      // The terminal's program chose its backend as F5 does (the status bar's: cpu from step 1's
      // Select Backend, or auto → tensorflow after step 14's Set Up Native Backend) and said so in
      // the line F5 prints; TF.js's "Hi, looks like you are running TensorFlow.js in Node.js" never shows.
      await runCommand('Terminal: Focus Terminal');
      const terminalText = async () => ((await page.locator('.terminal-wrapper .xterm-rows').allTextContents()).join('\n') || '').replace(/\u00a0/g, ' ');
      for (let i = 0; i < 50 && !/\[tfjs-callbacks\] backend:/.test(await terminalText()); i++) await sleep(200);
      const terminal = await terminalText();
      log(`  Debug Terminal: ${terminal.replace(/\s+/g, ' ').trim().slice(0, 300)}`);
      const statusBackend = (await page.locator('.statusbar-item', { hasText: 'TF.js:' }).first().innerText())
        .trim()
        .split(/[:→]\s*/)
        .pop();
      assert.match(terminal, new RegExp(`\\[tfjs-callbacks\\] backend: ${statusBackend} \\(`), `status bar: ${statusBackend}; terminal: ${terminal}`);
      assert.doesNotMatch(terminal, /Hi, looks like you are running TensorFlow\.js/, terminal);

      // Completions in the Debug Console: the NdArray's members.
      await runCommand('Debug Console: Focus on Debug Console View');
      await page.locator('.repl-input-wrapper').click();
      await page.keyboard.type('x.');
      await page.keyboard.press('Control+Space');
      const suggestions = page.locator('.suggest-widget .monaco-list-row');
      await suggestions.first().waitFor({ timeout: 10_000 });
      // The widget may first show the console's history (a loaded machine's first row came from
      // there) and fill with the adapter's completions when they arrive.
      const wanted = ['data', 'dtype', 'shape'];
      let offered: string[] = [];
      for (let tries = 0; tries < 100; tries++) {
        offered = (await suggestions.allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
        if (wanted.every((member) => offered.includes(member))) break;
        await page.waitForTimeout(100);
      }
      log(`  completions for x.: ${offered.join(' | ')}`);
      for (const member of wanted) assert.ok(offered.includes(member), `x. offers ${member}: ${offered.join(' | ')}`);
      await shot('debug-console-completions');
      await page.keyboard.press('Escape');
      await page.keyboard.press('Control+A');
      await page.keyboard.press('Backspace');

      // Restart Frame from the call stack: the callback runs again from its first line.
      await page.keyboard.press('F10');
      await callStackRows()
        .first()
        .filter({ hasText: new RegExp(`parity\\.ts\\s*${PARITY_RETURN}:`) })
        .waitFor({ timeout: 15_000 });
      await callStackRows().first().click({ button: 'right' });
      await menuItem('Restart Frame');
      await callStackRows()
        .first()
        .filter({ hasText: new RegExp(`parity\\.ts\\s*${PARITY_FIRST}:`) })
        .waitFor({ timeout: 15_000 });
      log(`  after Restart Frame: ${await topFrame()}`);
      await page.locator('.repl .monaco-list-row', { hasText: 'Restarting callback scale on the same inputs' }).first().waitFor({ timeout: 10_000 });
      await shot('restart-frame');

      // View Binary Data on the tensor input: VS Code offers it (memoryReference + readMemory) and
      // opens its Hex Editor, which it installs from the marketplace first (not reachable here).
      await runCommand('Notifications: Clear All Notifications');
      const x = variableRows()
        .filter({ hasText: /^\s*x =/ })
        .first();
      await x.hover();
      const viewMemory = x.locator('.action-label[aria-label="View Binary Data"]');
      await viewMemory.waitFor({ timeout: 5_000 });
      await viewMemory.click();
      const toast = page.locator('.notification-toast').first();
      await toast.waitFor({ timeout: 15_000 }).catch(() => undefined);
      log(`  View Binary Data: ${(await page.locator('.notification-toast').allInnerTexts()).join(' | ').replace(/\s+/g, ' ') || '(no notification)'}`);
      await shot('view-binary-data');
      await runCommand('Notifications: Clear All Notifications');
      // The same bytes in the inspector's byte view, which needs no extension. The steps above left
      // the Debug Console in front of it in the panel (a step or Restart Frame does not switch).
      await runCommand('TF.js Callbacks: Open Tensor Inspector');
      const insp = await webviewWith('button.show-bytes');
      await insp.locator('button.show-bytes').click();
      const firstRow = insp.locator('table.bytes tbody tr').first();
      await firstRow.waitFor({ timeout: 15_000 });
      const cells = (await firstRow.locator('td').allInnerTexts()).map((t) => t.trim());
      log(`  inspector bytes of x: ${cells.join(' | ')}`);
      assert.deepEqual(cells, ['00000000', '00 00 80 3f  00 00 00 40  00 00 40 40  00 00 80 40', '1  2  3  4']);
      await shot('inspector-bytes');
      await docPicture(page, 'inspector-bytes');
      await insp.locator('button.show-bytes').click();

      // A data breakpoint on the dense layer's kernel from the Variables view; model.fit's optimizer step stops.
      for (let i = 0; i < 3 && !(await topFrame()).includes(`parity.ts ${PARITY_MODEL}:`); i++) {
        await page.keyboard.press('F5');
        await callStackRows()
          .first()
          .filter({ hasText: /parity\.ts/ })
          .waitFor({ timeout: 15_000 })
          .catch(() => undefined);
        await sleep(500);
      }
      assert.match(await topFrame(), new RegExp(`parity\\.ts ${PARITY_MODEL}:`));
      const kernel = variableRows()
        .filter({ hasText: /^\s*kernel =/ })
        .first();
      await kernel.waitFor({ timeout: 10_000 });
      await kernel.click({ button: 'right' });
      await menuItem('Break on Value Change');
      await page.locator('.debug-breakpoints .monaco-list-row', { hasText: "tf.Variable 'dense_Dense1/kernel'" }).waitFor({ timeout: 10_000 });
      await page.keyboard.press('F5');
      await page.locator('.pane', { hasText: 'Paused on data breakpoint' }).first().waitFor({ timeout: 30_000 });
      // The scope's rows come after the scope itself: wait for them.
      await variableRows()
        .filter({ hasText: /^\s*new value =/ })
        .first()
        .waitFor({ timeout: 15_000 });
      const shown = (await variableRows().allInnerTexts()).map((v) => v.replace(/\s+/g, ' ').trim());
      log(`  data stop: ${await topFrame()} · ${shown.slice(0, 6).join(' | ')}`);
      assert.ok(
        shown.some((v) => /^old value = .*float32\[2,1\] min=1 max=1/.test(v)),
        shown.join(' | '),
      );
      assert.ok(
        shown.some((v) => /^new value = .*float32\[2,1\] min=0\.6/.test(v)),
        shown.join(' | '),
      );
      await inspector().locator('body', { hasText: 'data breakpoint' }).waitFor({ timeout: 15_000 });
      await shot('data-breakpoint-model-fit');
      await page.keyboard.press('Shift+F5');
      await page.locator('.debug-toolbar').waitFor({ state: 'hidden', timeout: 15_000 });
      await runCommand('Remove All Breakpoints');
    },
  );

  step('16. the exception widget at a Tout mismatch carries the whole message and the fix hint, in 5 of 5 runs', async () => {
    await open('esm-project/main.ts');
    for (let run = 1; run <= 5; run++) {
      await runCommand('TF.js Callbacks: Debug Graph');
      const widget = page.locator('.exception-widget');
      await widget.waitFor({ timeout: 60_000 });
      const text = (await widget.innerText()).replace(/\s+/g, ' ');
      log(`  run ${run}: ${text.slice(0, 160)}`);
      assert.match(text, /Tout mismatch in widen/);
      assert.match(text, /Return float32 data \(.*\) or declare Tout 'float64'\./);
      if (run === 1) await shot('exception-widget-hint');
      await page.keyboard.press('Shift+F5');
      await page.locator('.debug-toolbar').waitFor({ state: 'hidden', timeout: 15_000 });
    }
  });

  step(
    '17. paused in a custom layer’s call() during an ESM model.fit: the tf.Variables scope, then Show tf.Variables → Break on Value Change stops at the optimizer’s assign',
    async () => {
      await open('esm-project/training.ts');
      await breakpointAt(TRAINING_CALL);
      await runCommand('TF.js Callbacks: Debug Graph');
      await callStackRows()
        .first()
        .filter({ hasText: new RegExp(`training\\.ts\\s*${TRAINING_CALL}:`) })
        .waitFor({ timeout: 60_000 });
      // The program's weights, though no frame sees `model`: expand the scope.
      const scopeRow = variableRows()
        .filter({ hasText: /^\s*tf\.Variables\s*$/ })
        .first();
      await scopeRow.waitFor({ timeout: 15_000 });
      await scopeRow.click();
      await variableRows()
        .filter({ hasText: /^\s*hidden\/kernel =/ })
        .first()
        .waitFor({ timeout: 15_000 });
      const listed = (await variableRows().allInnerTexts()).map((v) => v.replace(/\s+/g, ' ').trim());
      log(`  tf.Variables scope: ${listed.filter((v) => /^(hidden|scale)\//.test(v)).join(' | ')}`);
      assert.ok(
        listed.some((v) => /^hidden\/kernel = Variable float32\[2,3\] min=1 max=1/.test(v)),
        listed.join(' | '),
      );
      await shot('tf-variables-scope');

      await runCommand('TF.js Callbacks: Show tf.Variables');
      await quickPickRow('hidden/kernel').waitFor({ timeout: 15_000 });
      // Each row: the name, then its values in short (a detail line of its own).
      const offered = await paletteLabels();
      assert.deepEqual(offered, ['hidden/kernel', 'min 1 · max 1 · mean 1', 'hidden/bias', 'min 0 · max 0 · mean 0', 'scale/factor', 'min 1 · max 1 · mean 1']);
      await shot('show-tf-variables');
      await quickPickRow('hidden/kernel').click();
      await quickPickRow('Break on Value Change').waitFor({ timeout: 10_000 });
      await pick('Break on Value Change');
      await page.locator('.debug-breakpoints .monaco-list-row', { hasText: 'tf.Variable hidden/kernel' }).waitFor({ timeout: 10_000 });

      // Continue: the optimizer's step after this batch's forward pass assigns the kernel.
      await page.keyboard.press('F5');
      await page.locator('.pane', { hasText: 'Paused on data breakpoint' }).first().waitFor({ timeout: 30_000 });
      await variableRows()
        .filter({ hasText: /^\s*new value =/ })
        .first()
        .waitFor({ timeout: 15_000 });
      const shown = (await variableRows().allInnerTexts()).map((v) => v.replace(/\s+/g, ' ').trim());
      log(`  data stop: ${shown.slice(0, 4).join(' | ')}`);
      assert.ok(
        shown.some((v) => /^variable = tf\.Variable 'hidden\/kernel' float32\[2,3\]/.test(v)),
        shown.join(' | '),
      );
      await shot('tf-variable-break-on-change');
      await page.keyboard.press('Shift+F5');
      await page.locator('.debug-toolbar').waitFor({ state: 'hidden', timeout: 15_000 });
      await runCommand('Remove All Breakpoints');
    },
  );

  step('18. a tf.data map whose callback fails (CommonJS, un-awaited main): after the stop, Continue ends with one clear error and exit code 1', async () => {
    await open('cjs-project/pipeline.js');
    await runCommand('TF.js Callbacks: Debug Graph');
    const widget = page.locator('.exception-widget');
    await widget.waitFor({ timeout: 60_000 });
    assert.match((await widget.innerText()).replace(/\s+/g, ' '), /Tout mismatch in to_pixels/);
    await page.keyboard.press('F5');
    await page.locator('.debug-toolbar').waitFor({ state: 'hidden', timeout: 30_000 });
    await runCommand('Debug Console: Focus on Debug Console View');
    const lines = (await page.locator('.repl .monaco-list-row').allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
    log(`  Debug Console: ${lines.slice(-8).join(' | ')}`);
    const text = lines.join('\n');
    // TensorFlow's words, the callback and the fix, as a plain run prints them.
    assert.match(text, /InvalidArgumentError: 0-th value returned by to_pixels is int32, but expects float/);
    assert.match(text, /Return float data or change Tout to 'int32'\./);
    assert.match(text, /Program exited with code 1/);
    assert.doesNotMatch(text, /throw ex|tfjs-data\/src|tfjs-core\/src|This is a bug in tfjs-callbacks/);
    await shot('tf-data-failure-ends');
  });

  step(
    '19. the walkthrough: Create Sample Project into the workspace, a breakpoint on its line, Debug Graph stops in the callback; each step is checked off by the real event',
    async () => {
      await runCommand('Welcome: Open Walkthrough...');
      await pick('Debug a TF.js Callback');
      const stepDone = (id: string) => page.locator(`[data-done-step-id$="#${id}"]`).first();
      await stepDone('createSample').waitFor({ state: 'attached', timeout: 15_000 });
      await shot('walkthrough');
      for (const id of ['createSample', 'debug', 'graph']) assert.notEqual(await stepDone(id).getAttribute('aria-checked'), 'true', `${id} is not done yet`);

      await runCommand('TF.js Callbacks: Create Sample Project');
      // VS Code's own folder dialog, at the workspace folder: accept it.
      const accept = page.locator('.quick-input-widget .monaco-button', { hasText: 'Create the sample here' });
      await accept.waitFor({ timeout: 10_000 });
      await accept.click();
      await page.locator('.tab.active', { hasText: 'main.ts' }).waitFor({ timeout: 15_000 });
      for (const file of ['main.ts', 'package.json', 'model/model.json', 'model/callbacks.ts', 'model/group1-shard1of1.bin'])
        assert.ok(existsSync(path.join(workspace, 'tfjs-callbacks-sample', file)), `the sample has ${file}`);
      await breakpointAt(10);
      await runCommand('TF.js Callbacks: Debug Graph');
      await callStackRows()
        .first()
        .filter({ hasText: /scale_rows\s*main\.ts\s*10:/ })
        .waitFor({ timeout: 60_000 });
      await shot('walkthrough-sample-stop');
      await page.keyboard.press('Shift+F5');
      await page.locator('.debug-toolbar').waitFor({ state: 'hidden', timeout: 15_000 });
      await runCommand('Remove All Breakpoints');

      await runCommand('Welcome: Open Walkthrough...');
      await pick('Debug a TF.js Callback');
      // Every step done by its event, the two bound to context keys (a breakpoint set, a stop in a
      // callback) included, though the earlier steps of this suite raised those events before the
      // walkthrough was first opened (the keys are pulses: walkthrough.ts says why).
      for (const id of ['createSample', 'breakpoint', 'debug', 'inspector']) {
        await page.locator(`[data-done-step-id$="#${id}"][aria-checked="true"]`).first().waitFor({ state: 'attached', timeout: 10_000 });
      }
      await shot('walkthrough-progress');
    },
  );

  step(
    '20. Debug, Stopping Where NaN/Inf Is Born on model.fit with a custom loss in another module: the stop at its log, the Op scope, the inspector marking the -Inf cells',
    async () => {
      // The earlier steps' editors (the graph view among them) closed: the picture shows this stop.
      await runCommand('View: Close All Editors');
      await open('esm-project/nan-train.ts');
      // The status bar offers it for the next run, as the palette does.
      await page.locator('.statusbar-item', { hasText: 'NaN/Inf' }).first().waitFor({ timeout: 15_000 });
      await runCommand('TF.js Callbacks: Debug, Stopping Where NaN/Inf Is Born');
      // The op's frame, at the loss's line, below TF.js's collapsed frames.
      await callStackRows()
        .filter({ hasText: new RegExp(`Log \\(forward\\)\\s*loss\\.ts\\s*${NAN_LOG_LINE}:`) })
        .first()
        .waitFor({ timeout: 60_000 });
      const widget = page.locator('.exception-widget');
      await widget.waitFor({ timeout: 15_000 });
      const said = (await widget.innerText()).replace(/\s+/g, ' ');
      log(`  exception widget: ${said}`);
      assert.match(said, /first Inf: op `Log` \(forward, epoch 1 batch 1\) at (esm-project\/)?loss\.ts:\d+:\d+, input 0 has 2 zeros/);
      assert.match(said, /op `Log`: output 0 has 2 −Inf of 4 elements/, 'how many, in which output, out of how many');
      await variableRows()
        .filter({ hasText: /pass\s*=\s*forward/ })
        .first()
        .waitFor({ timeout: 15_000 });
      const rows = (await variableRows().allInnerTexts()).map((v) => v.replace(/\s+/g, ' ').trim());
      log(`  Op scope: ${rows.slice(0, 8).join(' | ')}`);
      assert.ok(
        rows.some((v) => /^output 0 = Tensor float32\[4,1\] .*2 −Inf/.test(v)),
        rows.join(' | '),
      );
      assert.ok(
        rows.some((v) => /^first non-finite = −Inf at output 0\[1, 0\]/.test(v)),
        rows.join(' | '),
      );
      // The inspector shows the op as a node: its output's grid marks the two -Inf cells.
      const node = await webviewWith('.node-header');
      assert.match(await node.locator('.node-header').innerText(), /Log/);
      await node.locator('tr.tensor-row', { hasText: 'output 0' }).first().click();
      await node.locator('table.grid td.inf').first().waitFor({ timeout: 15_000 });
      assert.equal(await node.locator('table.grid td.inf').count(), 2);
      await node.locator('table.grid td.inf').first().scrollIntoViewIfNeeded();
      await shot('op-nan-stop');
      await docPicture(page, 'op-nan-stop');
      await page.keyboard.press('Shift+F5');
      await page.locator('.debug-toolbar').waitFor({ state: 'hidden', timeout: 15_000 });
    },
  );

  step(
    '21. a model.json\'s "no binding" warning goes when callbacks.js is written from outside the editor, comes back when it is renamed away, goes when renamed back',
    async () => {
      // Written by the test process as a shell or a generator would: the editor never opens it.
      const dir = path.join(workspace, 'outside-made');
      mkdirSync(dir, { recursive: true });
      cpSync(path.join(root, 'test', 'fixtures', 'lsp', 'models', 'none', 'model.json'), path.join(dir, 'model.json'));
      await runCommand('View: Close All Editors');
      await open('outside-made/model.json');
      await page.keyboard.press('Control+Shift+M');
      const warnings = page.locator('.markers-panel .monaco-list-row', { hasText: "Callback node 'lonely'" });
      await warnings.first().waitFor({ timeout: 30_000 });
      await shot('no-binding-before-callbacks-js');
      const callbacks = path.join(dir, 'callbacks.js');
      const cleared = async (what: string) => {
        await warnings
          .first()
          .waitFor({ state: 'detached', timeout: 20_000 })
          .catch(() => assert.fail(`the "no binding" warning stayed after ${what}`));
      };
      writeFileSync(callbacks, 'exports.lonely = (x) => x;\n');
      await cleared('callbacks.js was created');
      await shot('no-binding-cleared-by-outside-file');
      const aside = path.join(dir, 'callbacks-old.js');
      renameSync(callbacks, aside);
      await warnings.first().waitFor({ timeout: 20_000 });
      renameSync(aside, callbacks);
      await cleared('callbacks.js was renamed back');
      rmSync(callbacks);
      await warnings.first().waitFor({ timeout: 20_000 });
      await shot('no-binding-back-after-delete');
    },
  );

  step('22. F5 with the Graph View focused and no launch.json for its model: no debugger picker, a session on the model it shows', async () => {
    await runCommand('View: Close All Editors');
    await open('dense-model/model.json');
    await runCommand('TF.js Callbacks: Open Graph View');
    const graph = await webviewWith('svg.graph');
    await graph.locator('g.item[data-node="dense/MatMul"]').waitFor({ timeout: 30_000 });
    // Step 13's launch.json names this model: a launch.json without it, so F5 has only the view to go by.
    const launchJson = path.join(workspace, '.vscode', 'launch.json');
    const kept = existsSync(launchJson) ? readFileSync(launchJson, 'utf8') : undefined;
    if (kept !== undefined) rmSync(launchJson);
    // VS Code reads launch.json again when its watcher says so: F5 waits until the Run view offers to create one.
    await runCommand('View: Show Run and Debug');
    await page.locator('.welcome-view-content', { hasText: 'create a launch.json file' }).first().waitFor({ timeout: 30_000 });
    // Focus inside the view, as a click on it gives: VS Code then has no active text editor.
    await graph.locator('svg.graph').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('F5');
    await runCommand('Debug Console: Focus on Debug Console View');
    const ran = page.locator('.repl .monaco-list-row', { hasText: 'dense-model › scale' });
    await ran.first().waitFor({ timeout: 60_000 });
    assert.equal(await page.locator('.quick-input-widget .quick-input-title', { hasText: /Select debugger/i }).count(), 0, 'no debugger picker');
    const refusal = page.locator('.notification-toast', { hasText: 'Open a TS/JS graph program or a model.json' });
    assert.equal(await refusal.count(), 0, 'no "Open a TS/JS graph program" refusal');
    await shot('f5-on-graph-view');
    await page.locator('.debug-toolbar').waitFor({ state: 'hidden', timeout: 30_000 });
    if (kept !== undefined) writeFileSync(launchJson, kept); // for the steps after this one
  });
});
