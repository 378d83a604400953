/**
 * `npm run bench:vscode`: our debugger and VS Code's own JavaScript debugger (js-debug, built into
 * code-server) side by side in one real VS Code, driven through Chromium, on the same programs.
 *
 *   npm run bench:vscode -- [--rounds N] [--only steps|interactive|busy|session]
 *     (default 5 rounds, alternating which debugger goes first; --only steps: the step rows alone;
 *     --only interactive: the interactive rows alone, no steps and no 10,000-callback runs;
 *     --only busy: the 10,000-callback runs alone; --only session: a 2,000-stop session under
 *     each debugger, the extension host's memory (long-session.ts), and nothing else)
 *
 * Interactive figures are timed in the page (key press or mouse press stamped with
 * performance.now(), the DOM state detected by a MutationObserver): see probes.ts. Ours runs them
 * twice a round: with the Tensor Inspector open (a view in the panel, refreshed on every stop: F5
 * and Continue are also timed to the stop drawn in it) and closed. Once a run, first in the fresh
 * window: opening issue 27's reviews.js (a project of its own with tfjs installed) to its Tout
 * diagnostic drawn, and ours' first stop (the inspector's view made then) to the stop in it. Whole-run
 * figures of the 10,000-callback program: the program's process, start → exit (lifetime.ts), under
 * each debugger and run plainly (`node --import tsx --import <runtime register>`); F5 → session
 * gone beside them. Steps in a custom layer under model.fit against js-debug: steps.ts. Writes
 * .artifacts/bench-vscode/results.md, results.json and round 1's screenshots.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { processesMentioning, startWorkbench, type Workbench } from '../../scripts/lib/workbench.js';
import { arm, collect, type Condition, describe, installProbes, nextExpandTarget, type Trigger } from './probes.js';
import { BIG_INPUT, BUSY, CONFIG_JS, CONFIG_OURS, INTERACTIVE, lineOf, type Programs, writeWorkspace } from './programs.js';
import { emptyFirstSamples, type FirstSamples, firstInWindow, firstResults, INSPECTOR_TARGET } from './first-in-window.js';
import { fmt, ratio, type Stat, stat } from './report.js';
import { cpuTimes, cpuUsedBetween, watchLifetime } from './lifetime.js';
import { TimelineRecorder } from './timeline.js';
import { emptyStepSamples, STEP_FIGURES, STEP_VARIANT_LABELS, STEP_VARIANTS, type StepFigure, type StepSamples, stepSession } from './steps.js';
import { TIMELINE_ENV } from '../../debug-adapter/debuggee/timeline.js';
import {
  longSession,
  type SessionResult,
  type SessionVariant,
  SESSION_LATE_MARK,
  SESSION_MARK,
  SESSION_STOPS,
  SESSION_VARIANTS,
  sessionResults,
} from './long-session.js';
import { QUIET_SETTINGS } from '../../scripts/lib/code-server-options.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const artifacts = path.join(root, '.artifacts', 'bench-vscode');
const started = Date.now();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function log(message: string): void {
  console.log(`[bench:vscode +${((Date.now() - started) / 1000).toFixed(1)}s] ${message}`);
}

type Only = 'steps' | 'interactive' | 'busy' | 'session';

/** `--only steps`, `--only interactive`, `--only busy` or `--only session`: one part of the run. */
function parseOnly(argv: readonly string[]): Only | undefined {
  const i = argv.indexOf('--only');
  if (i < 0) return undefined;
  const part = argv[i + 1];
  if (part === 'steps' || part === 'interactive' || part === 'busy' || part === 'session') return part;
  throw new Error(`--only takes steps, interactive, busy or session, got ${part}`);
}

function parseRounds(argv: readonly string[]): number {
  const i = argv.indexOf('--rounds');
  if (i < 0) return 5;
  const n = Number(argv[i + 1]);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--rounds needs a positive integer, got ${argv[i + 1]}`);
  return n;
}

const BREAK_LINE = lineOf(INTERACTIVE, '@break');
const NEXT_LINE = lineOf(INTERACTIVE, '@next');
const BIG_BREAK_LINE = lineOf(BIG_INPUT, '@break');
const HOT_LINE = lineOf(BUSY, '@unhit-hot');
const COLD_LINE = lineOf(BUSY, '@unhit-cold');
const INPUT = 'x';
/** The interactive program's callback: what the inspector's header names at its stops. */
const CALLBACK = 'inspect_input';
const LAST_VALUE = 99;

type Debugger = 'ours' | 'js-debug';
/** Interactive runs: ours with the Tensor Inspector open (refreshed at every stop) and closed. */
type Variant = 'ours' | 'oursClosed' | 'js-debug';
const VARIANTS: readonly Variant[] = ['ours', 'oursClosed', 'js-debug'];
const DEBUGGER_OF: Record<Variant, Debugger> = { ours: 'ours', oursClosed: 'ours', 'js-debug': 'js-debug' };
const CONFIG: Record<Debugger, string> = { ours: CONFIG_OURS, 'js-debug': CONFIG_JS };

/** The interactive figures, in table order. */
const INTERACTIVE_FIGURES = {
  f5Toolbar: 'F5 → debug toolbar shown',
  f5Paused: 'F5 → paused line shown in the editor',
  f5Inspector: 'F5 → the stop drawn in the Tensor Inspector (panel view)',
  f5Input: 'F5 → the input in Variables',
  f10: 'F10 → next paused line shown',
  continue: 'Continue (F5) → next stop shown',
  continueInspector: 'Continue (F5) → that stop drawn in the Tensor Inspector',
  expand: 'expand the 2^20-element input to its first 100 values (all clicks)',
  expandOverhead: '… of which the bench’s own round trips between clicks',
  expandBig: 'expand a 10^7-element input to its first 100 values (all clicks)',
  stop: 'Shift+F5 → session gone (toolbar hidden)',
} as const;
type InteractiveFigure = keyof typeof INTERACTIVE_FIGURES;

const BUSY_VARIANTS = {
  hot: { label: 'inside the callback, on a branch never taken', line: HOT_LINE as number | undefined },
  cold: { label: 'in a function never called', line: COLD_LINE as number | undefined },
  none: { label: 'none', line: undefined as number | undefined },
} as const;
type BusyVariant = keyof typeof BUSY_VARIANTS;

interface Samples {
  interactive: Record<Variant, Record<InteractiveFigure, number[]>>;
  /** The program's process, start → exit (ms), per debugger and breakpoint variant. */
  busy: Record<Debugger, Record<BusyVariant, number[]>>;
  /** F5 → the toolbar hidden again (ms): the whole session as the user sees it. */
  session: Record<Debugger, Record<BusyVariant, number[]>>;
  /** The plain run's process, start → exit. */
  plain: number[];
  /** The interactive program run plainly: process start → its callback's first line (ms). */
  reach: number[];
  /** The callback loop's own time, as the program measured it. */
  loop: Record<Debugger | 'plain', Record<BusyVariant, number[]>>;
  /**
   * The program's own CPU time, start → exit (user + system, all its threads): against its wall
   * time, it tells work the program did from time it waited for a core.
   */
  cpu: Record<Debugger | 'plain', Record<BusyVariant, number[]>>;
  /** CPU ms other processes used during each debugged 10,000-callback run (F5 → session gone), the top 4 by name. */
  otherCpu: Record<string, number[]>;
  steps: StepSamples;
  first: FirstSamples;
  longSession: Partial<Record<SessionVariant, SessionResult>>;
}

function emptySamples(): Samples {
  const figures = () => Object.fromEntries(Object.keys(INTERACTIVE_FIGURES).map((k) => [k, [] as number[]])) as Record<InteractiveFigure, number[]>;
  const variants = () => ({ hot: [] as number[], cold: [] as number[], none: [] as number[] });
  return {
    interactive: { ours: figures(), oursClosed: figures(), 'js-debug': figures() },
    busy: { ours: variants(), 'js-debug': variants() },
    session: { ours: variants(), 'js-debug': variants() },
    plain: [],
    reach: [],
    loop: { ours: variants(), 'js-debug': variants(), plain: variants() },
    cpu: { ours: variants(), 'js-debug': variants(), plain: variants() },
    otherCpu: {},
    steps: emptyStepSamples(),
    first: emptyFirstSamples(),
    longSession: {},
  };
}

/** Ours' milestones after each measured press (set in main, before code-server starts). */
let timeline: TimelineRecorder | undefined;

/** The workbench, driven as a user does (palette, keys, clicks). */
class Driver {
  /** Epoch ms of the last press collected (the page's clock). */
  lastPress = 0;

  constructor(
    readonly page: Page,
    private readonly shotsDir: string,
  ) {}

  async shot(name: string): Promise<void> {
    await this.page.screenshot({ path: path.join(this.shotsDir, `${name}.png`) }).catch((err: Error) => log(`  screenshot ${name} failed: ${err.message}`));
  }

  async runCommand(...titles: string[]): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      await this.page.keyboard.press('F1');
      const input = this.page.locator('.quick-input-widget .quick-input-box input');
      await input.waitFor({ state: 'visible', timeout: 10_000 });
      await input.fill(`>${titles[0]}`);
      await this.page
        .locator('.quick-input-list .monaco-list-row')
        .first()
        .waitFor({ timeout: 10_000 })
        .catch(() => undefined);
      await sleep(300);
      const labels = (await this.page.locator('.quick-input-list .monaco-list-row .label-name').allInnerTexts()).map((s) => s.trim());
      const title = titles.find((t) => labels.includes(t));
      if (title) {
        await this.row(title).click();
        return;
      }
      await this.page.keyboard.press('Escape');
      if (attempt === 10) throw new Error(`the palette does not list "${titles.join('" or "')}"; it lists: ${labels.join(' | ')}`);
      await sleep(1000);
    }
  }

  private row(label: string) {
    const exact = new RegExp(`^\\s*${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`);
    return this.page
      .locator('.quick-input-list .monaco-list-row')
      .filter({ has: this.page.locator('.label-name', { hasText: exact }) })
      .first();
  }

  async open(file: string): Promise<void> {
    const name = path.basename(file);
    await this.page.keyboard.press('Control+P');
    const input = this.page.locator('.quick-input-widget .quick-input-box input');
    await input.waitFor({ state: 'visible', timeout: 10_000 });
    await input.fill(name);
    const row = this.page.locator('.quick-input-widget .monaco-list-row', { hasText: name });
    await row.first().waitFor({ timeout: 10_000 });
    await row.first().click();
    await this.page.locator('.tab.active', { hasText: name }).first().waitFor({ timeout: 10_000 });
  }

  /** Focuses the program's editor (a webview or the panel may hold the focus), so keys reach the workbench. */
  async focusEditor(file: string): Promise<void> {
    await this.page
      .locator('.tab', { hasText: path.basename(file) })
      .first()
      .click();
    await this.page.locator('.editor-group-container .monaco-editor.focused').first().waitFor({ timeout: 5_000 });
  }

  async removeAllBreakpoints(): Promise<void> {
    await this.runCommand('Remove All Breakpoints', 'Debug: Remove All Breakpoints');
    await this.page.locator('.editor-group-container .cgmr.codicon-debug-breakpoint').first().waitFor({ state: 'detached', timeout: 5_000 });
  }

  async setBreakpoint(file: string, line: number): Promise<void> {
    await this.focusEditor(file);
    await this.page.keyboard.press('Control+G');
    const input = this.page.locator('.quick-input-widget .quick-input-box input');
    await input.waitFor({ state: 'visible' });
    await input.fill(`:${line}`);
    await this.page.keyboard.press('Enter');
    await this.page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
    await this.page.locator('.statusbar-item', { hasText: `Ln ${line},` }).waitFor({ timeout: 5_000 });
    await this.page.keyboard.press('F9');
    await this.page.locator('.editor-group-container .cgmr.codicon-debug-breakpoint').first().waitFor({ timeout: 5_000 });
  }

  /** Presses `key` (after `arm`) and collects; throws naming what it waited for when something did not come. */
  async measure(trigger: Trigger & { kind: 'key' }, conditions: Condition[], timeoutMs: number): Promise<number[]> {
    await arm(this.page, trigger, conditions, timeoutMs);
    await this.page.keyboard.press(trigger.shift ? `Shift+${trigger.key}` : trigger.key);
    return this.collectAll(conditions, `${trigger.shift ? 'Shift+' : ''}${trigger.key}`, timeoutMs);
  }

  async collectAll(conditions: Condition[], what: string, timeoutMs: number, presses?: number[]): Promise<number[]> {
    const c = await collect(this.page);
    presses?.push(...c.presses);
    if (c.t0 === undefined) throw new Error(`the page never saw the ${what} press`);
    this.lastPress = c.origin + c.t0;
    const missing = conditions.filter((_, i) => c.ms[i] === undefined).map(describe);
    if (missing.length) throw new Error(`after ${what}: timed out after ${timeoutMs / 1000} s waiting for ${missing.join(', ')}`);
    return c.ms as number[];
  }

  toolbarVisible(): Promise<boolean> {
    return this.page.evaluate(() => Array.from(document.querySelectorAll('.debug-toolbar')).some((el) => getComputedStyle(el).display !== 'none'));
  }

  /** Ends whatever session is left (after a failure) and waits for the toolbar to go. */
  async recover(): Promise<void> {
    await this.page.keyboard.press('Escape').catch(() => undefined);
    for (let i = 0; i < 5 && (await this.toolbarVisible().catch(() => false)); i++) {
      await this.page.keyboard.press('Shift+F5').catch(() => undefined);
      await sleep(2000);
    }
  }

  /**
   * Ours with the Tensor Inspector open (the view in the panel, its default place: it opens at the
   * warm-up session's stop and refreshes at every stop) or closed (in the editor, the place it is
   * not kept alive in: every editor closed, and not opened on stops; the panel's view, kept alive
   * while hidden, is told nothing then).
   */
  async inspector(open: boolean, file: string, settingsFile: string, settings: Record<string, unknown>): Promise<void> {
    const where = { 'tfjsCallbacks.openInspectorOnStop': open, 'tfjsCallbacks.inspectorLocation': open ? 'panel' : 'editor' };
    writeFileSync(settingsFile, JSON.stringify({ ...settings, ...where }, null, 2));
    if (!open) await this.runCommand('View: Close All Editor Groups');
    await sleep(1500); // the settings file is watched
    await this.open(file);
  }

  /** Collapses the Run and Debug view's other panes so the Variables pane shows 100+ rows. */
  async collapseOtherPanes(): Promise<void> {
    for (const title of ['Watch', 'Call Stack', 'Breakpoints', 'Loaded Scripts']) {
      const header = this.page.locator('.pane-header[aria-expanded="true"]', { hasText: title });
      if ((await header.count()) > 0) await header.first().click();
    }
  }
}

async function interactiveSession(d: Driver, variant: Variant, p: Programs, samples: Samples, shots: string | undefined): Promise<void> {
  const page = d.page;
  const dbg = DEBUGGER_OF[variant];
  await d.open(p.interactive);
  await d.removeAllBreakpoints();
  await d.setBreakpoint(p.interactive, BREAK_LINE);
  // Select this debugger's configuration for F5, with a warm-up session (not measured).
  await d.runCommand('Debug: Select and Start Debugging');
  await d.page.locator('.quick-input-list .monaco-list-row').first().waitFor({ timeout: 10_000 });
  await page
    .locator('.quick-input-list .monaco-list-row')
    .filter({ has: page.locator('.label-name', { hasText: new RegExp(`^\\s*${CONFIG[dbg]}\\s*$`) }) })
    .first()
    .click();
  await page.locator('.monaco-editor .codicon-debug-stackframe').first().waitFor({ timeout: 90_000 });
  await page.keyboard.press('Shift+F5');
  await page.locator('.debug-toolbar').waitFor({ state: 'hidden', timeout: 30_000 });
  // The warm-up's stop opened the Tensor Inspector (ours, open): its webview loads for a second or
  // so in this headless Chromium; the measured F5 comes once it has, for every variant alike.
  if (variant === 'ours') await page.locator('iframe.webview').first().waitFor({ state: 'attached', timeout: 20_000 });
  await sleep(2000);

  const fig = samples.interactive[variant];
  const T = 60_000;
  const marks = (figure: string) => {
    if (dbg === 'ours') timeline?.record(`${variant === 'ours' ? 'inspector open' : 'inspector closed'}: ${figure}`, d.lastPress);
  };
  // With the inspector open, each stop is also timed to the stop drawn in it.
  const inspector: Condition[] = variant === 'ours' ? [{ kind: 'inspectorStop', name: CALLBACK }] : [];
  await d.focusEditor(p.interactive);
  timeline?.reset();
  const [toolbar, paused, input, drawn] = await d.measure(
    { kind: 'key', key: 'F5' },
    [{ kind: 'toolbarShown' }, { kind: 'pausedLine', line: BREAK_LINE }, { kind: 'variable', name: INPUT }, ...inspector],
    T,
  );
  fig.f5Toolbar.push(toolbar!);
  fig.f5Paused.push(paused!);
  fig.f5Input.push(input!);
  if (drawn !== undefined) fig.f5Inspector.push(drawn);
  marks('F5 → paused line');
  if (shots) await d.shot(`${shots}-1-f5-paused`);
  await sleep(300);

  await d.focusEditor(p.interactive);
  timeline?.reset();
  fig.f10.push((await d.measure({ kind: 'key', key: 'F10' }, [{ kind: 'pausedLine', line: NEXT_LINE }], T))[0]!);
  marks('F10');
  if (shots) await d.shot(`${shots}-2-f10`);
  await sleep(300);

  await d.focusEditor(p.interactive);
  timeline?.reset();
  const [next, nextDrawn] = await d.measure({ kind: 'key', key: 'F5' }, [{ kind: 'pausedLine', line: BREAK_LINE }, ...inspector], T);
  fig.continue.push(next!);
  if (nextDrawn !== undefined) fig.continueInspector.push(nextDrawn);
  marks('Continue');
  if (shots) await d.shot(`${shots}-3-continue`);

  const expanded = await expandToValues(d, T);
  fig.expand.push(expanded.ms);
  fig.expandOverhead.push(expanded.overhead);
  if (shots) {
    log(`  ${dbg}: expanded through ${expanded.path.join(' → ')}`);
    await d.shot(`${shots}-4-expanded`);
  }
  await sleep(300);

  await d.focusEditor(p.interactive);
  fig.stop.push((await d.measure({ kind: 'key', key: 'F5', shift: true }, [{ kind: 'toolbarHidden' }], T))[0]!);
  if (shots) await d.shot(`${shots}-5-stopped`);

  // The same expansion on a 10^7-element input (its own program, the same configuration).
  await sleep(500);
  await d.open(p.big);
  await d.removeAllBreakpoints();
  await d.setBreakpoint(p.big, BIG_BREAK_LINE);
  await d.focusEditor(p.big);
  await d.measure(
    { kind: 'key', key: 'F5' },
    [
      { kind: 'pausedLine', line: BIG_BREAK_LINE },
      { kind: 'variable', name: INPUT },
    ],
    T,
  );
  const big = await expandToValues(d, T);
  fig.expandBig.push(big.ms);
  if (shots) {
    log(`  ${dbg}: expanded the 10^7-element input through ${big.path.join(' → ')}`);
    await d.shot(`${shots}-7-expanded-big`);
  }
  await d.focusEditor(p.big);
  await d.measure({ kind: 'key', key: 'F5', shift: true }, [{ kind: 'toolbarHidden' }], T);
}

/**
 * Expands the paused callback's input in Variables to its first 100 values: every click, timed from
 * the first mouse press to the row of value 99. Between clicks the bench asks the page (which waits
 * with a MutationObserver) where the next row to open is: a round trip of a few ms per click, the
 * same for both debuggers (`overhead`).
 */
async function expandToValues(d: Driver, T: number): Promise<{ ms: number; overhead: number; path: string[] }> {
  const page = d.page;
  await d.collapseOtherPanes();
  await sleep(500);
  const conditions: Condition[] = [{ kind: 'valueRow', index: LAST_VALUE }];
  await arm(page, { kind: 'mouse' }, conditions, T);
  const path_: string[] = [];
  const found: number[] = [];
  let clicked: string | undefined;
  for (let i = 0; ; i++) {
    if (i === 12) throw new Error(`expanding the input: no value row ${LAST_VALUE} after 12 clicks (${path_.join(' → ')})`);
    const target = await nextExpandTarget(page, INPUT, LAST_VALUE, clicked, 30_000);
    if (target === 'done') break;
    found.push(target.at);
    await page.mouse.click(target.x, target.y);
    clicked = target.label;
    path_.push(target.label);
  }
  const presses: number[] = [];
  const ms = (await d.collectAll(conditions, 'the first click', T, presses))[0]!;
  // From each row showing to the bench's click on it (the first click starts the clock).
  const overhead = found.slice(1).reduce((sum, at, i) => sum + Math.max(0, (presses[i] ?? at) - at), 0);
  return { ms, overhead, path: path_ };
}

function busyLines(file: string): number {
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean).length : 0;
}

function lastLoopMs(file: string, before: number, what: string): number {
  const lines = existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];
  if (lines.length <= before) throw new Error(`${what}: the program did not finish (it writes a line to busy-out.jsonl at its end)`);
  return (JSON.parse(lines[lines.length - 1]!) as { loopMs: number }).loopMs;
}

/** Plain runs that failed (reported with the round's failures). */
const plainFailures: string[] = [];

async function busySessions(d: Driver, dbg: Debugger, p: Programs, samples: Samples, shots: string | undefined, workspace: string): Promise<void> {
  await d.open(p.busy);
  await d.focusEditor(p.busy);
  for (const variant of Object.keys(BUSY_VARIANTS) as BusyVariant[]) {
    const { line } = BUSY_VARIANTS[variant];
    await d.removeAllBreakpoints();
    if (line !== undefined) await d.setBreakpoint(p.busy, line);
    // A plain run right before each debugged one, so both meet the same machine (2 cores shared
    // with the workbench), each after a pause that lets the workbench settle.
    await sleep(1500);
    try {
      const plain = await plainRun(p, workspace);
      samples.plain.push(plain.ms);
      samples.loop.plain.none.push(plain.loopMs);
      samples.cpu.plain.none.push(plain.cpuMs);
    } catch (err) {
      plainFailures.push((err as Error).message.split('\n')[0]!);
    }
    await sleep(1500);
    await d.focusEditor(p.busy);
    const before = busyLines(p.busyOut);
    const watch = watchLifetime(p.busy);
    timeline?.reset();
    const cpuBefore = cpuTimes();
    const [ms] = await d.measure({ kind: 'key', key: 'F5' }, [{ kind: 'sessionEnded' }], 300_000).finally(() => watch.stop());
    const life = await watch.done;
    if (!life) throw new Error(`${dbg}, breakpoint ${variant}: the program's process was not seen (no node process running ${p.busy})`);
    samples.busy[dbg][variant].push(life.ms);
    samples.cpu[dbg][variant].push(life.cpuMs);
    // What else ran meanwhile, on 2 cores: VS Code's processes (the debuggee's own CPU is its own).
    for (const [name, cpuMs] of cpuUsedBetween(cpuBefore, cpuTimes(), [life.pid, process.pid]).slice(0, 4)) {
      const key = `${dbg}, breakpoint ${variant}: ${name}`;
      (samples.otherCpu[key] ??= []).push(cpuMs);
    }
    if (dbg === 'ours') {
      const extra = { 'process started (/proc)': life.startMs - d.lastPress, 'process exited (/proc)': life.exitMs - d.lastPress };
      timeline?.record(`10,000 callbacks, breakpoint ${BUSY_VARIANTS[variant].label}`, d.lastPress, extra);
    }
    samples.session[dbg][variant].push(ms!);
    samples.loop[dbg][variant].push(lastLoopMs(p.busyOut, before, `${dbg}, breakpoint ${variant}`));
    if (shots && variant === 'hot') await d.shot(`${shots}-6-busy-ended`);
    await sleep(500);
  }
}

/** The busy program run plainly; its process start → exit, timed as the debugged runs are. */
async function plainRun(p: Programs, workspace: string): Promise<{ ms: number; loopMs: number; cpuMs: number }> {
  const before = busyLines(p.busyOut);
  const watch = watchLifetime(p.busy);
  const child = spawn(process.execPath, [...p.nodeArgs, p.busy], {
    cwd: workspace,
    env: { ...process.env, ...p.env },
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
  });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const code = await new Promise<number | null>((resolve) => {
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // gone
      }
    }, 300_000);
    child.once('exit', (c) => {
      clearTimeout(timer);
      resolve(c);
    });
  });
  const life = await watch.done;
  if (code !== 0) throw new Error(`the plain run exited with ${code}:\n${stderr.slice(-2000)}`);
  if (!life) throw new Error('the plain run exited before its process was seen');
  return { ms: life.ms, loopMs: lastLoopMs(p.busyOut, before, 'plain run'), cpuMs: life.cpuMs };
}

/** The interactive program run plainly: process start → its callback's first line, as the program measured it. */
async function reachRun(p: Programs, workspace: string): Promise<number> {
  const out = path.join(workspace, 'reach-out.jsonl');
  rmSync(out, { force: true });
  const child = spawn(process.execPath, [...p.nodeArgs, p.interactive], {
    cwd: workspace,
    env: { ...process.env, ...p.env, BENCH_REACH_OUT: out },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0 || !existsSync(out)) throw new Error(`the interactive program, run plainly, exited with ${code}:\n${stderr.slice(-2000)}`);
  return (JSON.parse(readFileSync(out, 'utf8').trim()) as { reachMs: number }).reachMs;
}

interface Failure {
  round: number;
  who: string;
  message: string;
}

async function main(): Promise<void> {
  const rounds = parseRounds(process.argv.slice(2));
  const only = parseOnly(process.argv.slice(2));
  const onlySteps = only === 'steps';
  rmSync(artifacts, { recursive: true, force: true });
  mkdirSync(artifacts, { recursive: true });
  const work = mkdtempSync(path.join(os.tmpdir(), 'tfjs-cb-bench-vscode-'));
  const workspace = path.join(work, 'workspace');
  let programs: Programs | undefined;
  let wb: Workbench | undefined;
  const cleanup = async () => {
    await wb?.close().catch(() => undefined);
    for (const pid of processesMentioning(work)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone
      }
    }
    rmSync(work, { recursive: true, force: true, maxRetries: 3 });
  };
  const onSignal = () => {
    log('interrupted: cleaning up');
    void cleanup().finally(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const samples = emptySamples();
  const failures: Failure[] = [];
  const settings = { ...QUIET_SETTINGS, 'tfjsCallbacks.openInspectorOnStop': true };
  mkdirSync(work, { recursive: true });
  timeline = new TimelineRecorder(path.join(work, 'timeline.jsonl'));
  // Inherited by code-server, its extension host (the adapter) and the debuggees.
  process.env[TIMELINE_ENV] = timeline.file;
  Object.assign(process.env, { BENCH_STOPS: String(SESSION_STOPS), BENCH_MARK: String(SESSION_MARK), BENCH_LATE_MARK: String(SESSION_LATE_MARK) });
  try {
    wb = await startWorkbench({
      root,
      work,
      workspace,
      log,
      viewport: { width: 1600, height: 3000 },
      prepare: (extensionDir) => {
        programs = writeWorkspace(workspace, extensionDir);
      },
      settings,
    });
    const p = programs!;
    const d = new Driver(wb.page, artifacts);
    await installProbes(wb.page);
    // Let the workbench settle (extension host, TypeScript server), and warm tsx's cache.
    await sleep(5000);
    if (only === 'session') {
      await sessionRun(d, p, samples, failures, wb.settingsFile, settings);
      const written = writeResults(samples, failures, rounds, wb, only);
      console.log(`\n${written}`);
      if (failures.length) process.exitCode = 1;
      return;
    }
    try {
      await firstInWindow(d, p, samples.first, {
        breakLine: BREAK_LINE,
        callback: CALLBACK,
        log,
        record: (figure) => timeline?.record(figure, d.lastPress),
      });
    } catch (err) {
      const message = (err as Error).message.split('\n')[0]!;
      failures.push({ round: 0, who: 'first in the window', message });
      log(`  FAILED: first in the window: ${message}`);
      await d.shot('failed-first-in-window');
      await d.recover();
    }
    await plainRun(p, workspace);

    for (let r = 0; r < rounds; r++) {
      const order = r % 2 === 0 ? VARIANTS : [...VARIANTS].reverse();
      log(`round ${r + 1}/${rounds}: ${order.join(' then ')}`);
      // Steps in training code: ours (inspector open, as by default) and js-debug twice.
      const stepOrder = only === 'interactive' || only === 'busy' ? [] : r % 2 === 0 ? STEP_VARIANTS : [...STEP_VARIANTS].reverse();
      if (onlySteps) await d.inspector(true, p.layer, wb.settingsFile, settings);
      for (const variant of stepOrder) {
        try {
          await stepSession(d, variant, p, samples.steps, r === 0 ? `r1-${variant}` : undefined);
        } catch (err) {
          const message = (err as Error).message.split('\n')[0]!;
          failures.push({ round: r + 1, who: `${variant}, steps`, message });
          log(`  FAILED: ${variant}, steps: ${message}`);
          await d.shot(`failed-r${r + 1}-${variant}-steps`);
          await d.recover();
        }
      }
      if (onlySteps) continue;
      try {
        samples.reach.push(await reachRun(p, workspace));
      } catch (err) {
        plainFailures.push((err as Error).message.split('\n')[0]!);
      }
      for (const variant of order) {
        const shots = r === 0 ? `r1-${variant}` : undefined;
        const runs: [string, () => Promise<void>][] = only === 'busy' ? [] : [['interactive', () => interactiveSession(d, variant, p, samples, shots)]];
        // The 10,000-callback runs stop nowhere: the inspector's state does not matter to them.
        if (variant !== 'oursClosed' && only !== 'interactive')
          runs.push(['10,000 callbacks', () => busySessions(d, DEBUGGER_OF[variant], p, samples, shots, workspace)]);
        if (variant !== 'js-debug') await d.inspector(variant === 'ours', p.interactive, wb.settingsFile, settings);
        for (const [what, run] of runs) {
          try {
            await run();
          } catch (err) {
            const message = (err as Error).message.split('\n')[0]!;
            failures.push({ round: r + 1, who: `${variant}, ${what}`, message });
            log(`  FAILED: ${variant}, ${what}: ${message}`);
            await d.shot(`failed-r${r + 1}-${variant}-${what.replace(/\W+/g, '-')}`);
            await d.recover();
          }
        }
      }
      for (const message of plainFailures.splice(0)) failures.push({ round: r + 1, who: 'plain run', message });
      const f = samples.interactive;
      log(
        `  so far: F5→paused ours ${fmt(stat(f.ours.f5Paused))} js-debug ${fmt(stat(f['js-debug'].f5Paused))}; busy none ours ${fmt(stat(samples.busy.ours.none))} js-debug ${fmt(stat(samples.busy['js-debug'].none))} plain ${fmt(stat(samples.plain))}`,
      );
    }
    const written = writeResults(samples, failures, rounds, wb, only);
    console.log(`\n${written}`);
    log(`wrote ${path.relative(root, path.join(artifacts, 'results.md'))} and results.json`);
  } finally {
    await cleanup();
    log('cleaned up');
  }
  if (failures.length) process.exitCode = 1;
}

/** `--only session`: one long session under each debugger, ours (its inspector open, as by default) first. */
async function sessionRun(
  d: Driver,
  p: Programs,
  samples: Samples,
  failures: Failure[],
  settingsFile: string,
  settings: Record<string, unknown>,
): Promise<void> {
  await d.inspector(true, p.session, settingsFile, settings);
  for (const variant of SESSION_VARIANTS) {
    log(`long session: ${variant}, ${SESSION_STOPS} stops`);
    try {
      samples.longSession[variant] = await longSession(d, variant, p, log);
    } catch (err) {
      const message = (err as Error).message.split('\n')[0]!;
      failures.push({ round: 1, who: `${variant}, long session`, message });
      log(`  FAILED: ${variant}, long session: ${message}`);
      await d.shot(`failed-${variant}-long-session`);
      await d.recover();
    }
    await sleep(2000);
  }
}

function writeResults(samples: Samples, failures: Failure[], rounds: number, wb: Workbench, only: Only | undefined): string {
  const date = new Date().toISOString();
  const s = (v: number[]) => stat(v);
  const lines: string[] = [];
  lines.push(`# bench:vscode — ours vs js-debug in one VS Code`, '');
  lines.push(
    `${date} · code-server ${wb.codeServerVersion} (VS Code ${wb.vscodeVersion}) · js-debug ${wb.jsDebugVersion} · headless Chromium · cpu backend · ` +
      `${os.cpus().length} cores · Node ${process.version} · ${only === 'session' ? 'one session each' : `${rounds} rounds alternating which debugger goes first · medians (min–max, n)`}`,
    '',
  );
  const stats: Record<string, unknown> = {};
  if (only === 'session') {
    sessionResults(samples.longSession, lines, stats);
    return finishResults(lines, stats, samples, failures, 1, wb, date);
  }
  firstResults(samples.first, lines, stats);
  if (only !== 'interactive' && only !== 'busy') stepResults(samples.steps, lines, stats);
  if (only === 'steps') return finishResults(lines, stats, samples, failures, rounds, wb, date);
  // The interactive rows, unless the run had the 10,000-callback runs alone.
  if (only !== 'busy') {
    lines.push('| figure | ours, inspector open | ours, inspector closed | js-debug | open / js-debug | closed / js-debug |', '|---|---|---|---|---|---|');
    for (const [key, label] of Object.entries(INTERACTIVE_FIGURES) as [InteractiveFigure, string][]) {
      const open = s(samples.interactive.ours[key]);
      const closed = s(samples.interactive.oursClosed[key]);
      const js = s(samples.interactive['js-debug'][key]);
      stats[key] = { ours: open, oursClosed: closed, 'js-debug': js };
      lines.push(`| ${label} | ${fmt(open)} | ${fmt(closed)} | ${fmt(js)} | ${ratio(open, js)} | ${ratio(closed, js)} |`);
    }
    inspectorResults(samples.interactive.ours, lines, stats);
    const reach = s(samples.reach);
    stats.reach = reach;
    lines.push(
      '',
      `The program's own time to reach the callback, run plainly (process start → the callback's first line): ${fmt(reach)}. ` +
        `F5 → paused line against it: ours ${ratio(s(samples.interactive.ours.f5Paused), reach)} (inspector open), ${ratio(s(samples.interactive.oursClosed.f5Paused), reach)} (closed); js-debug ${ratio(s(samples.interactive['js-debug'].f5Paused), reach)}.`,
    );
  }
  if (only === 'interactive') return finishResults(lines, stats, samples, failures, rounds, wb, date);
  const plain = s(samples.plain);
  const plainLoop = s(samples.loop.plain.none);
  lines.push(
    '',
    `10,000 numpyFunction calls (${plainLoop ? ((plainLoop.median * 1000) / 10_000).toFixed(1) : '?'} µs each in the plain run's loop): the program's process, start → exit, under each debugger and run plainly (\`node --import tsx --import <register>\`, one right before each debugged run): plain ${fmt(plain)}`,
    '',
    '| breakpoint, never hit | ours | js-debug | ours / plain | js-debug / plain | ours / js-debug | loop alone: ours / plain | js-debug / plain | F5 → session gone: ours | js-debug |',
    '|---|---|---|---|---|---|---|---|---|---|',
  );
  const busyKeys = Object.keys(BUSY_VARIANTS) as BusyVariant[];
  for (const [key, { label }] of Object.entries(BUSY_VARIANTS) as [BusyVariant, { label: string }][]) {
    const a = s(samples.busy.ours[key]);
    const b = s(samples.busy['js-debug'][key]);
    const la = s(samples.loop.ours[key]);
    const lb = s(samples.loop['js-debug'][key]);
    const sa = s(samples.session.ours[key]);
    const sb = s(samples.session['js-debug'][key]);
    stats[`busy-${key}`] = { ours: a, 'js-debug': b, plain, loop: { ours: la, 'js-debug': lb, plain: plainLoop }, session: { ours: sa, 'js-debug': sb } };
    lines.push(
      `| ${label} | ${fmt(a)} | ${fmt(b)} | ${ratio(a, plain)} | ${ratio(b, plain)} | ${ratio(a, b)} | ${ratio(la, plainLoop)} | ${ratio(lb, plainLoop)} | ${fmt(sa)} | ${fmt(sb)} |`,
    );
  }
  const plainCpu = s(samples.cpu.plain.none);
  const cpuOf = (dbg: Debugger) => Object.fromEntries(busyKeys.map((key) => [key, s(samples.cpu[dbg][key])]));
  const cpuText = (dbg: Debugger) => busyKeys.map((key) => `${key} ${fmt(s(samples.cpu[dbg][key]))} (${ratio(s(samples.cpu[dbg][key]), plainCpu)})`).join(', ');
  stats['busy-cpu'] = { plain: plainCpu, ours: cpuOf('ours'), 'js-debug': cpuOf('js-debug') };
  lines.push(
    '',
    `The program's own CPU time (user + system, all its threads), start → exit: plain ${fmt(plainCpu)}; ours ${cpuText('ours')}; js-debug ${cpuText('js-debug')}. ` +
      'Where wall time grows more than CPU time, the program waited for a core.',
  );
  lines.push('', 'CPU other processes used during each debugged 10,000-callback run (F5 → session gone; medians):', '');
  for (const [key, ms] of Object.entries(samples.otherCpu)
    .sort((a, b) => (stat(b[1])?.median ?? 0) - (stat(a[1])?.median ?? 0))
    .slice(0, 16)) {
    lines.push(`- ${key}: ${fmt(stat(ms))}`);
  }
  return finishResults(lines, stats, samples, failures, rounds, wb, date);
}

/** The stop drawn in the inspector against the paused line, per key press (both timed from it). */
function inspectorResults(fig: Record<InteractiveFigure, number[]>, lines: string[], stats: Record<string, unknown>): void {
  const perPress = (drawn: number[], paused: number[]) => drawn.map((ms, i) => ms / paused[i]!).filter(Number.isFinite);
  const text = (what: string, drawn: number[], paused: number[]) => {
    const ratios = perPress(drawn, paused);
    stats[`inspector-${what}`] = { drawn: stat(drawn), paused: stat(paused), ratios };
    const r = stat(ratios);
    if (!r) return `${what}: n/a`;
    return `${what} ${r.median.toFixed(2)}x (${r.min.toFixed(2)}–${r.max.toFixed(2)}, n=${r.n}; ${fmt(stat(drawn))} against ${fmt(stat(paused))}), target ≤ ${INSPECTOR_TARGET}x: ${r.median <= INSPECTOR_TARGET ? 'met' : 'MISSED'}`;
  };
  lines.push(
    '',
    `The stop drawn in the Tensor Inspector (its view in the panel) against the paused line, from the same key press (median of each press's ratio): ` +
      `${text('F5', fig.f5Inspector, fig.f5Paused)}; ${text('Continue', fig.continueInspector, fig.continue)}.`,
  );
}

/** The step rows: each debugger's median, ours against each js-debug and against Continue, and where each landed. */
function stepResults(steps: StepSamples, lines: string[], stats: Record<string, unknown>): void {
  const s = (v: number[]) => stat(v);
  lines.push(
    "Steps in a custom layer's call() under model.fit (key press → the next paused line shown; where it stopped below). Ours with the Tensor Inspector open.",
    '',
    `| figure | ${STEP_VARIANTS.map((v) => STEP_VARIANT_LABELS[v]).join(' | ')} | ours / js-debug | ours / js-debug + node_modules | ours / ours' Continue |`,
    '|---|---|---|---|---|---|---|',
  );
  const cont = s(steps.ms.ours.continue);
  for (const [figure, label] of Object.entries(STEP_FIGURES) as [StepFigure, string][]) {
    const [ours, js, jsSkip] = STEP_VARIANTS.map((v) => s(steps.ms[v][figure]));
    stats[`steps-${figure}`] = {
      ours,
      'js-debug': js,
      'js-debug-skip': jsSkip,
      landed: Object.fromEntries(STEP_VARIANTS.map((v) => [v, steps.landed[v][figure]])),
    };
    lines.push(
      `| ${label} | ${fmt(ours)} | ${fmt(js)} | ${fmt(jsSkip)} | ${ratio(ours, js)} | ${ratio(ours, jsSkip)} | ${figure === 'continue' ? '' : ratio(ours, cont)} |`,
    );
  }
  lines.push('', 'Where each stopped (file:line × times):', '');
  for (const [figure, label] of Object.entries(STEP_FIGURES) as [StepFigure, string][]) {
    const where = STEP_VARIANTS.map((v) => `${STEP_VARIANT_LABELS[v]}: ${tally(steps.landed[v][figure])}`).join('; ');
    lines.push(`- ${label}: ${where}`);
  }
  lines.push('');
}

function tally(places: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const p of places) counts.set(p, (counts.get(p) ?? 0) + 1);
  return counts.size ? [...counts].map(([p, n]) => `${p} ×${n}`).join(', ') : '—';
}

function finishResults(
  lines: string[],
  stats: Record<string, unknown>,
  samples: Samples,
  failures: Failure[],
  rounds: number,
  wb: Workbench,
  date: string,
): string {
  lines.push('');
  if (failures.length) {
    lines.push(`Failed (${failures.length}; their figures are missing from the medians, see n):`, '');
    for (const f of failures) lines.push(`- round ${f.round}, ${f.who}: ${f.message}`);
  } else lines.push('No failed round.');
  if (timeline && timeline.figures.size > 0) lines.push('', '## Where ours spends the time', '', timeline.markdown());
  const md = `${lines.join('\n')}\n`;
  writeFileSync(path.join(artifacts, 'results.md'), md);
  const json: Record<string, unknown> = {
    date,
    codeServer: wb.codeServerVersion,
    vscode: wb.vscodeVersion,
    jsDebug: wb.jsDebugVersion,
    node: process.version,
    cores: os.cpus().length,
    rounds,
    stats: stats as Record<string, Stat | unknown>,
    samples,
    failures,
    timeline: timeline ? Object.fromEntries(timeline.figures) : {},
  };
  writeFileSync(path.join(artifacts, 'results.json'), `${JSON.stringify(json, null, 2)}\n`);
  return md;
}

await main();
