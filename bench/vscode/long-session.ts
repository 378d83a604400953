/**
 * A long session in VS Code (issue 26), ours against js-debug: 2,000 stops in one callback with
 * `x`, `meta` and `meta.history` expanded in Variables (VS Code keeps them expanded from stop to
 * stop, so each stop fetches them again), Continue (F5) pressed at each. In VS Code both adapters
 * run inside the extension host, so the memory a session costs the editor is the extension host's:
 * its RSS after the first 100 stops, after 500 and at the end, beside the program's heap after a
 * full GC and its tensor count (written by the program itself, programs.ts LONG_SESSION).
 */
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { CONFIG_JS, CONFIG_OURS, LONG_SESSION, lineOf, type Programs } from './programs.js';
import type { StepDriver } from './steps.js';

export type SessionVariant = 'ours' | 'js-debug';
export const SESSION_VARIANTS: readonly SessionVariant[] = ['ours', 'js-debug'];
/** `BENCH_SESSION_STOPS` sets another count (a quick check); the program reads it as BENCH_STOPS. */
export const SESSION_STOPS = Number(process.env.BENCH_SESSION_STOPS ?? 2000);
export const SESSION_MARK = 100;
export const SESSION_LATE_MARK = 500;
const STOP_LINE = lineOf(LONG_SESSION, '@stop');
const CONFIG: Record<SessionVariant, string> = { ours: CONFIG_OURS, 'js-debug': CONFIG_JS };
const T = 60_000;

export interface SessionMark {
  readonly stops: number;
  /** The extension host's resident set (bytes), read while paused at that stop. */
  readonly hostRss: number;
  /** The program's heap after a full GC (bytes) and tf.memory().numTensors, right after that stop. */
  readonly heap?: number;
  readonly tensors?: number;
}

export interface SessionResult {
  readonly stops: number;
  readonly marks: SessionMark[];
  /** F5 → the next stop's `meta.step` shown in Variables (ms), every stop after the first. */
  readonly perStopMs: number[];
}

/** Pid of code-server's extension host (the process both adapters run in). */
export function extensionHostPid(): number {
  const hosts: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const args = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (args.some((a) => a === '--type=extensionHost')) hosts.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  if (hosts.length !== 1) throw new Error(`expected one extension host process, found ${hosts.length} (${hosts.join(', ')})`);
  return hosts[0]!;
}

function rssOf(pid: number): number {
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  if (kb === undefined) throw new Error(`no VmRSS for pid ${pid}`);
  return Number(kb) * 1024;
}

/*
 * The functions below run in the page. None declares a named function or arrow (tsx would wrap it
 * in a `__name` helper the page lacks); a row's name is read as the probes read it, without its
 * ":" or " =".
 */

/** Waits until Variables shows `meta.step` = `step` (the stop's values fetched and drawn). */
function stepShown(page: Page, step: number): Promise<unknown> {
  return page.waitForFunction(
    (want) =>
      Array.from(document.querySelectorAll('.debug-variables .monaco-list-row')).some(
        (r) =>
          ((r.querySelector('.name') ?? r).textContent ?? '').replace(/[:=]\s*$/, '').trim() === 'step' &&
          r.querySelector('.value')?.textContent?.trim() === String(want),
      ),
    step,
    { timeout: T, polling: 'raf' },
  );
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Opens the Variables row `name` by its twistie (first the local scope it lies in, where that is
 * collapsed: ours opens its Callback scope first), then waits for a child row that `child` matches.
 */
async function expand(page: Page, name: string, child: RegExp): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    const target = await page.evaluate((name) => {
      const rows = Array.from(document.querySelectorAll('.debug-variables .monaco-list-row'));
      const names = rows.map((r) => ((r.querySelector('.name') ?? r).textContent ?? '').replace(/[:=]\s*$/, '').trim());
      let at = names.indexOf(name);
      if (at >= 0 && rows[at]!.getAttribute('aria-expanded') === 'true') return 'open';
      if (at < 0) at = names.findIndex((n, i) => /^Local/.test(n) && rows[i]!.getAttribute('aria-expanded') === 'false');
      if (at < 0) return undefined;
      const box = (rows[at]!.querySelector('.monaco-tl-twistie') ?? rows[at]!).getBoundingClientRect();
      return { x: box.left + box.width / 2, y: box.top + box.height / 2 };
    }, name);
    if (target === 'open') break;
    if (attempt === 40) throw new Error(`no Variables row "${name}" to open`);
    if (target) await page.mouse.click(target.x, target.y);
    await sleep(250);
  }
  await page.waitForFunction(
    (source) =>
      Array.from(document.querySelectorAll('.debug-variables .monaco-list-row')).some((r) =>
        new RegExp(source).test(((r.querySelector('.name') ?? r).textContent ?? '').replace(/[:=]\s*$/, '').trim()),
      ),
    child.source,
    { timeout: T, polling: 'raf' },
  );
}

/** One session of `variant`: SESSION_STOPS stops, Continue at each; the marks and per-stop times. */
export async function longSession(d: StepDriver, variant: SessionVariant, p: Programs, log: (line: string) => void): Promise<SessionResult> {
  const page = d.page;
  rmSync(p.sessionOut, { force: true });
  await d.open(p.session);
  await d.removeAllBreakpoints();
  await d.setBreakpoint(p.session, STOP_LINE);
  await d.runCommand('Debug: Select and Start Debugging');
  await page.locator('.quick-input-list .monaco-list-row').first().waitFor({ timeout: 10_000 });
  await page
    .locator('.quick-input-list .monaco-list-row')
    .filter({ has: page.locator('.label-name', { hasText: new RegExp(`^\\s*${CONFIG[variant]}\\s*$`) }) })
    .first()
    .click();
  await page.locator('.monaco-editor .codicon-debug-stackframe, .monaco-editor .debug-top-stack-frame-line').first().waitFor({ timeout: 90_000 });
  await expand(page, 'meta', /^history$/);
  await expand(page, 'history', /^(0|\[0\]|\[0\s*(\.\.|…).*)$/);
  await expand(page, 'x', /^shape$/);
  await stepShown(page, 1);
  const host = extensionHostPid();
  const rss = new Map<number, number>();
  const perStopMs: number[] = [];
  for (let stop = 2; stop <= SESSION_STOPS; stop++) {
    const pressed = performance.now();
    await page.keyboard.press('F5');
    await stepShown(page, stop);
    perStopMs.push(performance.now() - pressed);
    if (stop === SESSION_MARK || stop === SESSION_LATE_MARK || stop === SESSION_STOPS) rss.set(stop, rssOf(host));
    if (stop % 500 === 0) log(`  ${variant}: stop ${stop}`);
  }
  // What the last stop shows: the rows opened at the first stop still open, with this stop's values.
  await d.shot(`session-${variant}-last-stop`);
  await page.keyboard.press('F5');
  await page.locator('.debug-toolbar').waitFor({ state: 'hidden', timeout: T });
  const written = existsSync(p.sessionOut) ? readFileSync(p.sessionOut, 'utf8').trim().split('\n') : [];
  const byStops = new Map(
    written
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { stops: number; heap: number; tensors: number })
      .map((m) => [m.stops, m]),
  );
  const marks = [...rss].map(([stops, hostRss]) => ({ stops, hostRss, heap: byStops.get(stops)?.heap, tensors: byStops.get(stops)?.tensors }));
  return { stops: SESSION_STOPS, marks, perStopMs };
}

const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MB`;

/** The session rows of results.md: per debugger, each figure at the end against after MARK stops. */
export function sessionResults(results: Partial<Record<SessionVariant, SessionResult>>, lines: string[], stats: Record<string, unknown>): void {
  lines.push(
    '',
    `## A long session: ${SESSION_STOPS} stops, Variables expanded (x, meta, meta.history), Continue at each`,
    '',
    'In VS Code both adapters run in the extension host: its RSS is what a session costs the editor.',
    '',
    `| figure | ours | js-debug |`,
    '|---|---|---|',
  );
  const mark = (r: SessionResult | undefined, stops: number) => r?.marks.find((m) => m.stops === stops);
  const cell = (variant: SessionVariant, pick: (m: SessionMark) => number | undefined, fmtValue: (v: number) => string) => {
    const r = results[variant];
    const a = mark(r, SESSION_MARK);
    const b = mark(r, SESSION_STOPS);
    const va = a && pick(a);
    const vb = b && pick(b);
    if (va === undefined || vb === undefined) return 'n/a';
    return `${fmtValue(vb)} vs ${fmtValue(va)}: **${(vb / va).toFixed(3)}x**`;
  };
  const late = (variant: SessionVariant) => {
    const a = mark(results[variant], SESSION_LATE_MARK);
    const b = mark(results[variant], SESSION_STOPS);
    return a && b ? `${mb(b.hostRss)} vs ${mb(a.hostRss)}: ${(b.hostRss / a.hostRss).toFixed(3)}x` : 'n/a';
  };
  const median = (values: readonly number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)];
  const perStop = (variant: SessionVariant) => {
    const ms = results[variant]?.perStopMs;
    if (!ms?.length) return 'n/a';
    return `${median(ms)!.toFixed(0)} ms (stops 2–${SESSION_MARK} ${median(ms.slice(0, SESSION_MARK - 1))!.toFixed(0)}, last ${SESSION_MARK} ${median(ms.slice(-SESSION_MARK))!.toFixed(0)})`;
  };
  const both = (label: string, f: (v: SessionVariant) => string) => lines.push(`| ${label} | ${f('ours')} | ${f('js-debug')} |`);
  both(`extension host RSS, stop ${SESSION_STOPS} vs stop ${SESSION_MARK}`, (v) => cell(v, (m) => m.hostRss, mb));
  both(`extension host RSS, stop ${SESSION_STOPS} vs stop ${SESSION_LATE_MARK}`, late);
  both(`program's heap after GC, stop ${SESSION_STOPS} vs stop ${SESSION_MARK}`, (v) => cell(v, (m) => m.heap, mb));
  both(`tf.memory().numTensors, stop ${SESSION_STOPS} vs stop ${SESSION_MARK}`, (v) => cell(v, (m) => m.tensors, String));
  both('F5 → the next stop’s values in Variables, median', perStop);
  stats.session = results;
}
