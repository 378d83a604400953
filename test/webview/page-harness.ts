/**
 * What the webviews' browser harnesses share (harness.ts: tensor inspector, graph-harness.ts: graph
 * view): a local HTTP server (127.0.0.1, random port) serving exactly a panel's HTML with one
 * nonce'd inline script before the page's own that stands in for VS Code's `acquireVsCodeApi`
 * (records posted messages in `window.__posted`, keeps state in sessionStorage so a reload is a
 * hidden-and-re-shown panel, hands each posted message to `window.__answer` when the harness sets
 * one), the real built script and stylesheets, and Debian's Chromium driven with playwright-core.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { CHROMIUM_ARGS } from '../../scripts/lib/code-server-options.js';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CHROMIUM = '/usr/bin/chromium';
export const artifactsDir = path.join(root, '.artifacts', 'webview');

/** Dark+ colors, as VS Code sets them on the webview's <html>, so screenshots look like the panels. */
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
  '--vscode-charts-purple': '#b180d7',
  '--vscode-testing-iconPassed': '#73c991',
};

/** The stub of `acquireVsCodeApi`; `extra` (plain JS, served inline with the nonce) may set `window.__answer`. */
function stubScript(extra: string): string {
  return `(() => {
  const theme = ${JSON.stringify(THEME)};
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
        if (window.__answer) window.__answer(copy);
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
})();
${extra}`;
}

/** Bundles a webview's entry as scripts/build.mjs does (esbuild, browser IIFE). */
export function buildWebview(entry: string, outfile: string): void {
  buildSync({
    entryPoints: [entry],
    bundle: true,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    outfile,
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

export interface PageSpec<F> {
  /** What the page is called in errors. */
  readonly name: string;
  /** The panel's HTML, as its module makes it (script at /media/dist/…, style at /media/…). */
  html(origin: string, nonce: string): string;
  /**
   * Plain JS after the stub, for one page's fixtures (sets `window.__answer` to answer requests).
   * Data in it must have "<" escaped, so a fixture's text cannot close the element.
   */
  extra?(fixtures: F): string;
  /** URL path → file served from the repository (the built script, the stylesheets). */
  readonly files: Readonly<Record<string, string>>;
}

export interface PageHarness<F> {
  readonly origin: string;
  readonly browser: Browser;
  /** A new page (its own sessionStorage, so fresh state) with these fixtures. */
  open(fixtures?: F): Promise<Page>;
  problems(page: Page): PageProblems;
  close(): Promise<void>;
}

export async function startPageHarness<F>(spec: PageSpec<F>, options: { viewport?: { width: number; height: number } } = {}): Promise<PageHarness<F>> {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: run scripts/setup-test-env.sh (installs Debian's chromium)`);
  const fixtureSets = new Map<string, F>();
  let origin = '';
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', origin);
    const send = (status: number, type: string, body: string | Buffer) => {
      res.writeHead(status, { 'Content-Type': type, 'Cache-Control': 'no-store' });
      res.end(body);
    };
    const file = spec.files[url.pathname];
    if (url.pathname === '/') {
      const nonce = randomBytes(18).toString('base64url');
      const fixtures = fixtureSets.get(url.searchParams.get('fixtures') ?? '');
      const html = spec.html(origin, nonce);
      const marker = `<script nonce="${nonce}" src=`;
      if (!html.includes(marker)) return send(500, 'text/plain', `${spec.name} HTML without its script tag`);
      const stub = stubScript(fixtures === undefined || !spec.extra ? '' : spec.extra(fixtures));
      send(200, 'text/html; charset=utf-8', html.replace(marker, `<script nonce="${nonce}">${stub}</script>\n${marker}`));
    } else if (file) {
      send(200, `${file.endsWith('.css') ? 'text/css' : 'text/javascript'}; charset=utf-8`, fs.readFileSync(path.join(root, file)));
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
  let browser: Browser;
  try {
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: [...CHROMIUM_ARGS],
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
    async open(fixtures) {
      const id = String(++nextSet);
      if (fixtures !== undefined) fixtureSets.set(id, fixtures);
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
    problems: (page) => problems.get(page) ?? { consoleErrors: [], pageErrors: [], dialogs: [] },
    async close() {
      for (const c of contexts) await c.close().catch(() => {});
      await b.close().catch(() => {});
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections?.();
    },
  };
}
