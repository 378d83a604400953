/**
 * The end-to-end test's one VS Code and what every step uses to drive it: a fresh code-server with
 * the packaged .vsix (scripts/lib/workbench.ts, the same one `npm run bench:vscode` starts), its
 * workspace (programs.ts), and the moves a user makes: the palette, quick picks, breakpoints,
 * Quick Open, the debug views, the webviews. Steps share the one VS Code (a failed step fails the
 * later ones at once, naming it); each step file registers its steps with `e.step`.
 */
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { projectWithOwnTfjs } from '../helpers/projects.js';
import { writeDenseModel } from '../fixtures/dense-model.js';
import { QUIET_SETTINGS } from '../../scripts/lib/code-server-options.js';
import { processesMentioning, startWorkbench, type Workbench } from '../../scripts/lib/workbench.js';
import { CJS_PROGRAM, ESM_PROGRAM, GRAPH_PROGRAM, NAN_FIXTURES, PARITY_PROGRAM, THROWS_PROGRAM, TRAINING_PROGRAM } from './programs.js';

export { processesMentioning } from '../../scripts/lib/workbench.js';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const artifacts = path.join(root, '.artifacts', 'e2e');
const started = Date.now();

export function log(message: string): void {
  console.log(`[e2e +${((Date.now() - started) / 1000).toFixed(1)}s] ${message}`);
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The test's folders: everything lives under one temp dir, removed at the end. */
function folders() {
  const work = mkdtempSync(path.join(os.tmpdir(), 'tfjs-cb-e2e-'));
  const workspace = path.join(work, 'workspace');
  return {
    work,
    workspace,
    program: path.join(workspace, 'graph.ts'),
    converted: path.join(workspace, 'converted', 'model.json'),
    condModel: path.join(workspace, 'cond-model', 'model.json'),
    esmProgram: path.join(workspace, 'esm-project', 'main.ts'),
    cjsProgram: path.join(workspace, 'cjs-project', 'main.js'),
    cjsModel: path.join(workspace, 'cjs-project', 'model', 'model.json'),
  };
}

export type E2e = ReturnType<typeof createE2e>;

/** The harness; call inside the test's `describe`: it registers the set-up and the clean-up. */
export function createE2e() {
  const paths = folders();
  const { work, workspace, program, converted, condModel, esmProgram, cjsProgram, cjsModel } = paths;
  let wb: Workbench | undefined;
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

  /** The workspace a newcomer has: the adapter tests' graph program, converted models, fresh projects with their own tfjs. */
  function writeWorkspace(): void {
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
  }

  before(async () => {
    try {
      rmSync(artifacts, { recursive: true, force: true });
      mkdirSync(artifacts, { recursive: true });
      wb = await startWorkbench({
        root,
        work,
        workspace,
        build: true,
        viewport: { width: 1600, height: 1000 },
        log,
        settings: {
          ...QUIET_SETTINGS,
          // The inspector opens on each stop in a callback (the default, made explicit).
          'tfjsCallbacks.openInspectorOnStop': true,
          // xterm's DOM renderer: the terminal's text is in the page, for step 15 to read.
          'terminal.integrated.gpuAcceleration': 'off',
        },
        prepare: writeWorkspace,
      });
      page = wb.page;
      // The program, open in the editor as a user has it before running it.
      await page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'graph.ts' }).dblclick();
      await page.locator('.editor-group-container .monaco-editor .view-lines', { hasText: 'scale_rows' }).first().waitFor({ timeout: 30_000 });
      log('graph.ts open in the editor');
    } catch (err) {
      failed = 'setup';
      throw err;
    }
  });

  after(async () => {
    try {
      await wb?.close();
    } finally {
      // Anything left that this test started (a debuggee outside code-server's process group).
      for (const pid of processesMentioning(work)) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // gone
        }
      }
      if (failed && wb && existsSync(wb.userData)) {
        if (existsSync(path.join(wb.userData, 'logs'))) cpSync(path.join(wb.userData, 'logs'), path.join(artifacts, 'code-server-logs'), { recursive: true });
        if (existsSync(wb.logFile)) cpSync(wb.logFile, path.join(artifacts, 'code-server.log'));
        log(`code-server logs copied to ${path.relative(root, artifacts)}`);
      }
      rmSync(work, { recursive: true, force: true, maxRetries: 3 });
      log('cleaned up');
    }
  });

  return {
    ...paths,
    /** The workbench's page (set once the set-up has run). */
    get page(): Page {
      return page;
    },
    shot,
    step,
    runCommand,
    openPalette,
    quickPickRow,
    paletteLabels,
    pick,
    callStackRows,
    variableRows,
    inspector,
    webviewWith,
    open,
    f5OnTypeScript,
    breakpointAt,
    menuItem,
    topFrame,
  };
}
