/**
 * A browser harness for the tensor inspector webview: a local HTTP server (127.0.0.1, random
 * port) that serves exactly the panel's HTML (extension/inspector-html.ts) plus one nonce'd
 * inline script that stands in for VS Code's `acquireVsCodeApi` (records posted messages, keeps
 * state in sessionStorage so a reload is a hidden-and-re-shown panel, and answers `tensorData`
 * from fixture data), and the real built media/dist/inspector.js and media/inspector.css.
 * Debian's Chromium is driven with playwright-core (no downloaded browsers).
 *
 *   const h = await startHarness();
 *   const page = await h.open({ 's1/3/outputs/0': { info, values } });
 *   await sendInvocation(page, 's1', event);
 *   …
 *   await h.close();
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { buildSync } from 'esbuild';
import { inspectorHtml } from '../../extension/inspector-html.js';
import type { HostMessage, TensorCallbackEvent, TensorInfo, WebviewMessage } from '../../media/src/protocol.js';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CHROMIUM = '/usr/bin/chromium';
export const artifactsDir = path.join(root, '.artifacts', 'webview');
const scriptFile = path.join(root, 'media', 'dist', 'inspector.js');
const styleFile = path.join(root, 'media', 'inspector.css');

/** Values of a tensor the stub answers `tensorData` with: a list, or a formula of the flat index. */
export interface TensorFixture {
  readonly info: TensorInfo;
  readonly values?: readonly (number | string | boolean | null)[];
  /** value(i) = offset + scale * i, for tensors too big to list. */
  readonly affine?: { readonly scale: number; readonly offset: number };
}

/** Keyed "sessionId/invocationId/side/index". */
export type Fixtures = Readonly<Record<string, TensorFixture>>;

export function fixtureKey(sessionId: string, invocationId: number, side: 'inputs' | 'outputs', index: number): string {
  return `${sessionId}/${invocationId}/${side}/${index}`;
}

/** Dark+ colors, as VS Code sets them on the webview's <html>, so screenshots look like the panel. */
const THEME: Readonly<Record<string, string>> = {
  '--vscode-font-family': 'system-ui, "Ubuntu", "Droid Sans", sans-serif',
  '--vscode-font-size': '13px',
  '--vscode-editor-font-family': '"Droid Sans Mono", "DejaVu Sans Mono", monospace',
  '--vscode-editor-font-size': '12px',
  '--vscode-editor-foreground': '#cccccc',
  '--vscode-editor-background': '#1f1f1f',
  '--vscode-descriptionForeground': '#9d9d9d',
  '--vscode-errorForeground': '#f85149',
  '--vscode-editorWarning-foreground': '#cca700',
  '--vscode-list-hoverBackground': '#2a2d2e',
  '--vscode-list-activeSelectionBackground': '#04395e',
  '--vscode-list-activeSelectionForeground': '#ffffff',
  '--vscode-list-inactiveSelectionBackground': '#37373d',
  '--vscode-focusBorder': '#0078d4',
  '--vscode-editorWidget-border': '#454545',
  '--vscode-panel-border': '#2b2b2b',
  '--vscode-textBlockQuote-background': '#2b2b2b',
  '--vscode-textLink-foreground': '#4daafc',
  '--vscode-button-background': '#0078d4',
  '--vscode-button-foreground': '#ffffff',
  '--vscode-button-hoverBackground': '#026ec1',
  '--vscode-button-secondaryBackground': '#313131',
  '--vscode-button-secondaryForeground': '#cccccc',
  '--vscode-button-secondaryHoverBackground': '#3c3c3c',
  '--vscode-input-background': '#313131',
  '--vscode-input-foreground': '#cccccc',
  '--vscode-input-border': '#3c3c3c',
  '--vscode-badge-background': '#616161',
  '--vscode-badge-foreground': '#f8f8f8',
  '--vscode-charts-blue': '#3794ff',
  '--vscode-testing-iconPassed': '#73c991',
};

/** The stub, run before the inspector's script. Plain JS: it is served inline with the page's nonce. */
function stubScript(fixtures: Fixtures): string {
  // JSON inside a <script>: "<" escaped so a fixture's text cannot close the element.
  const data = JSON.stringify({ fixtures, theme: THEME }).replace(/</g, '\\u003c');
  return `(() => {
  const { fixtures, theme } = ${data};
  for (const [name, value] of Object.entries(theme)) document.documentElement.style.setProperty(name, value);
  const posted = (window.__posted = []);
  const violations = (window.__cspViolations = []);
  document.addEventListener('securitypolicyviolation', (e) => violations.push({ directive: e.violatedDirective, blocked: e.blockedURI, sample: e.sample }));
  window.__host = (message) => window.postMessage(message, '*');
  let acquired = false;
  window.acquireVsCodeApi = () => {
    if (acquired) throw new Error('acquireVsCodeApi may only be called once');
    acquired = true;
    return {
      postMessage(message) {
        const copy = JSON.parse(JSON.stringify(message));
        posted.push(copy);
        if (copy.type === 'tensorData') answer(copy);
      },
      getState() {
        const saved = sessionStorage.getItem('vscode-state');
        return saved === null ? undefined : JSON.parse(saved);
      },
      setState(state) {
        sessionStorage.setItem('vscode-state', JSON.stringify(state));
        return state;
      },
    };
  };
  function answer(req) {
    const f = fixtures[req.sessionId + '/' + req.invocationId + '/' + req.side + '/' + req.index];
    let message;
    if (!f) {
      message = { type: 'tensorData', requestId: req.requestId, error: 'no tensor ' + req.side + '[' + req.index + '] in invocation ' + req.invocationId };
    } else {
      const start = Math.max(0, req.start);
      const end = Math.min(f.info.size, start + Math.min(req.count, 1000000));
      const values = [];
      for (let i = start; i < end; i++) values.push(f.values ? f.values[i] : f.affine.offset + f.affine.scale * i);
      message = { type: 'tensorData', requestId: req.requestId, slice: { info: f.info, start, values } };
    }
    setTimeout(() => window.postMessage(message, '*'), 0);
  }
})();`;
}

/** Builds media/dist/inspector.js from media/src (esbuild, as scripts/build.mjs does). */
export function buildInspector(): void {
  buildSync({
    entryPoints: [path.join(root, 'media', 'src', 'inspector.ts')],
    bundle: true,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    outfile: scriptFile,
    sourcemap: true,
    legalComments: 'none',
    logLevel: 'warning',
  });
}

export interface PageProblems {
  readonly consoleErrors: string[];
  readonly pageErrors: string[];
  readonly dialogs: string[];
}

export interface Harness {
  readonly origin: string;
  readonly browser: Browser;
  /** A new page (its own sessionStorage, so fresh state) on the harness with these fixtures. */
  open(fixtures?: Fixtures): Promise<Page>;
  problems(page: Page): PageProblems;
  close(): Promise<void>;
}

export async function startHarness(options: { build?: boolean; viewport?: { width: number; height: number } } = {}): Promise<Harness> {
  if (!fs.existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: run scripts/setup-test-env.sh (installs Debian's chromium)`);
  }
  if (options.build !== false) buildInspector();
  const fixtureSets = new Map<string, Fixtures>();
  let origin = '';
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', origin);
    const send = (status: number, type: string, body: string | Buffer) => {
      res.writeHead(status, { 'Content-Type': type, 'Cache-Control': 'no-store' });
      res.end(body);
    };
    if (url.pathname === '/') {
      const nonce = randomBytes(18).toString('base64url');
      const fixtures = fixtureSets.get(url.searchParams.get('fixtures') ?? '') ?? {};
      const html = inspectorHtml({ cspSource: origin, scriptUri: '/media/dist/inspector.js', styleUri: '/media/inspector.css', nonce });
      const marker = `<script nonce="${nonce}" src=`;
      if (!html.includes(marker)) return send(500, 'text/plain', 'inspector HTML without its script tag');
      send(200, 'text/html; charset=utf-8', html.replace(marker, `<script nonce="${nonce}">${stubScript(fixtures)}</script>\n${marker}`));
    } else if (url.pathname === '/media/dist/inspector.js') {
      send(200, 'text/javascript; charset=utf-8', fs.readFileSync(scriptFile));
    } else if (url.pathname === '/media/inspector.css') {
      send(200, 'text/css; charset=utf-8', fs.readFileSync(styleFile));
    } else if (url.pathname === '/favicon.ico') {
      // The browser asks for it on its own (VS Code's webviews do not): no content, no console error.
      res.writeHead(204).end();
    } else {
      send(404, 'text/plain', 'not found');
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  let browser: Browser | undefined;
  try {
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
  } catch (err) {
    server.close();
    throw err;
  }
  const contexts: BrowserContext[] = [];
  const problems = new WeakMap<Page, PageProblems>();
  let nextSet = 0;
  const b = browser;
  return {
    origin,
    browser: b,
    async open(fixtures = {}) {
      const id = String(++nextSet);
      fixtureSets.set(id, fixtures);
      const context = await b.newContext({ viewport: options.viewport ?? { width: 1280, height: 900 } });
      contexts.push(context);
      const page = await context.newPage();
      const p: PageProblems = { consoleErrors: [], pageErrors: [], dialogs: [] };
      problems.set(page, p);
      page.on('console', (m) => {
        if (m.type() === 'error') p.consoleErrors.push(m.text());
      });
      page.on('pageerror', (e) => p.pageErrors.push(String(e)));
      page.on('dialog', (d) => {
        p.dialogs.push(`${d.type()}: ${d.message()}`);
        void d.dismiss().catch(() => {});
      });
      await page.goto(`${origin}/?fixtures=${id}`);
      await page.waitForFunction(() => (window as unknown as { __posted?: { type: string }[] }).__posted?.some((m) => m.type === 'ready'));
      return page;
    },
    problems(page) {
      return problems.get(page) ?? { consoleErrors: [], pageErrors: [], dialogs: [] };
    },
    async close() {
      for (const c of contexts) await c.close().catch(() => {});
      await b.close().catch(() => {});
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections?.();
    },
  };
}

/** Posts a host message to the page as the panel would. */
export async function sendHost(page: Page, message: HostMessage): Promise<void> {
  await page.evaluate((m) => (window as unknown as { __host: (m: unknown) => void }).__host(m), message as unknown as Record<string, unknown>);
}

export async function sendInvocation(page: Page, sessionId: string, event: TensorCallbackEvent, live = true): Promise<void> {
  await sendHost(page, { type: 'invocation', sessionId, event, live });
}

/** Messages the webview posted to the panel. */
export async function posted(page: Page): Promise<WebviewMessage[]> {
  return page.evaluate(() => (window as unknown as { __posted: WebviewMessage[] }).__posted);
}

export async function cspViolations(page: Page): Promise<unknown[]> {
  return page.evaluate(() => (window as unknown as { __cspViolations: unknown[] }).__cspViolations);
}

/** Waits until the tensor view shows values (grid and charts swapped in) after `renders` renders. */
export async function waitForTensor(page: Page, renders = 0): Promise<number> {
  const handle = await page.waitForFunction(
    (after) => {
      const el = document.querySelector<HTMLElement>('.tensor-view');
      const n = Number(el?.dataset.renders ?? 0);
      return el?.dataset.state === 'ready' && n > after ? n : false;
    },
    renders,
    { timeout: 10_000 },
  );
  return (await handle.jsonValue()) as number;
}

/** The grid's cell texts, row by row (without the row-index header). */
export async function gridCells(page: Page): Promise<string[][]> {
  return page.$$eval('table.grid tbody tr', (rows) => rows.map((tr) => Array.from(tr.querySelectorAll('td'), (td) => td.textContent ?? '')));
}

export async function screenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(artifactsDir, { recursive: true });
  const file = path.join(artifactsDir, name);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/** No uncaught errors, console errors, dialogs or CSP violations on the page. */
export async function assertClean(harness: Harness, page: Page): Promise<void> {
  const p = harness.problems(page);
  assert.deepEqual(p.pageErrors, [], 'no uncaught errors');
  assert.deepEqual(p.consoleErrors, [], 'no console errors');
  assert.deepEqual(p.dialogs, [], 'no dialogs');
  assert.deepEqual(await cspViolations(page), [], 'no CSP violations');
}
