/**
 * A browser harness for the graph view webview, as harness.ts is for the tensor inspector: a
 * local HTTP server serving exactly the panel's HTML (extension/graph-html.ts, strict CSP with a
 * nonce) plus one nonce'd inline stub of `acquireVsCodeApi` (records posted messages, keeps state
 * in sessionStorage), the real built media/dist/graph.js and media/graph.css, in Debian's Chromium.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { buildSync } from 'esbuild';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { graphHtml } from '../../extension/graph-html.js';
import type { GraphHostMessage, GraphViewMessage } from '../../media/src/graph-protocol.js';
import { CHROMIUM, root, type PageProblems } from './harness.js';

const scriptFile = path.join(root, 'media', 'dist', 'graph.js');
const styleFile = path.join(root, 'media', 'graph.css');

/** Dark+ colors the view's stylesheet uses, as VS Code sets them on the webview's <html>. */
const THEME: Readonly<Record<string, string>> = {
  '--vscode-font-family': 'system-ui, "Ubuntu", "Droid Sans", sans-serif',
  '--vscode-font-size': '13px',
  '--vscode-editor-font-family': '"Droid Sans Mono", "DejaVu Sans Mono", monospace',
  '--vscode-editor-foreground': '#cccccc',
  '--vscode-editor-background': '#1f1f1f',
  '--vscode-descriptionForeground': '#9d9d9d',
  '--vscode-errorForeground': '#f85149',
  '--vscode-editorWarning-foreground': '#cca700',
  '--vscode-list-hoverBackground': '#2a2d2e',
  '--vscode-focusBorder': '#0078d4',
  '--vscode-editorWidget-border': '#454545',
  '--vscode-panel-border': '#2b2b2b',
  '--vscode-textBlockQuote-background': '#2b2b2b',
  '--vscode-button-background': '#0078d4',
  '--vscode-button-foreground': '#ffffff',
  '--vscode-button-hoverBackground': '#026ec1',
  '--vscode-button-secondaryBackground': '#313131',
  '--vscode-button-secondaryForeground': '#cccccc',
  '--vscode-button-secondaryHoverBackground': '#3c3c3c',
  '--vscode-input-background': '#313131',
  '--vscode-badge-background': '#616161',
  '--vscode-badge-foreground': '#f8f8f8',
  '--vscode-charts-purple': '#b180d7',
  '--vscode-testing-iconPassed': '#73c991',
};

/** Plain JS, served inline with the page's nonce before the view's script. */
const STUB = `(() => {
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
      postMessage(message) { posted.push(JSON.parse(JSON.stringify(message))); },
      getState() {
        const saved = sessionStorage.getItem('vscode-state');
        return saved === null ? undefined : JSON.parse(saved);
      },
      setState(state) { sessionStorage.setItem('vscode-state', JSON.stringify(state)); return state; },
    };
  };
})();`;

/** Builds media/dist/graph.js from media/src/graph (esbuild, as scripts/build.mjs does). */
export function buildGraphView(): void {
  buildSync({
    entryPoints: [path.join(root, 'media', 'src', 'graph', 'main.ts')],
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

export interface GraphHarness {
  open(): Promise<Page>;
  problems(page: Page): PageProblems;
  close(): Promise<void>;
}

export async function startGraphHarness(options: { viewport?: { width: number; height: number } } = {}): Promise<GraphHarness> {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: run scripts/setup-test-env.sh (installs Debian's chromium)`);
  buildGraphView();
  let origin = '';
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', origin);
    const send = (status: number, type: string, body: string | Buffer) => {
      res.writeHead(status, { 'Content-Type': type, 'Cache-Control': 'no-store' });
      res.end(body);
    };
    if (url.pathname === '/') {
      const nonce = randomBytes(18).toString('base64url');
      const html = graphHtml({ cspSource: origin, scriptUri: '/media/dist/graph.js', styleUri: '/media/graph.css', nonce });
      const marker = `<script nonce="${nonce}" src=`;
      if (!html.includes(marker)) return send(500, 'text/plain', 'graph view HTML without its script tag');
      send(200, 'text/html; charset=utf-8', html.replace(marker, `<script nonce="${nonce}">${STUB}</script>\n${marker}`));
    } else if (url.pathname === '/media/dist/graph.js') {
      send(200, 'text/javascript; charset=utf-8', fs.readFileSync(scriptFile));
    } else if (url.pathname === '/media/graph.css') {
      send(200, 'text/css; charset=utf-8', fs.readFileSync(styleFile));
    } else if (url.pathname === '/favicon.ico') {
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
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-sync'],
    });
  } catch (err) {
    server.close();
    throw err;
  }
  const contexts: BrowserContext[] = [];
  const problems = new WeakMap<Page, PageProblems>();
  return {
    async open() {
      const context = await browser.newContext({ viewport: options.viewport ?? { width: 1280, height: 860 } });
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
      await page.goto(`${origin}/`);
      await page.waitForFunction(() => (window as unknown as { __posted?: { type: string }[] }).__posted?.some((m) => m.type === 'ready'));
      return page;
    },
    problems: (page) => problems.get(page) ?? { consoleErrors: [], pageErrors: [], dialogs: [] },
    async close() {
      for (const c of contexts) await c.close().catch(() => {});
      await browser.close().catch(() => {});
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections?.();
    },
  };
}

/** Posts a host message to the page as the panel would. */
export async function sendGraphHost(page: Page, message: GraphHostMessage): Promise<void> {
  await page.evaluate((m) => (window as unknown as { __host: (m: unknown) => void }).__host(m), message as unknown as Record<string, unknown>);
}

/** Messages the view posted to the panel. */
export async function graphPosted(page: Page): Promise<GraphViewMessage[]> {
  return page.evaluate(() => (window as unknown as { __posted: GraphViewMessage[] }).__posted);
}

/** Waits until the view has drawn more than `renders` times; returns the render count. */
export async function waitForRender(page: Page, renders = 0): Promise<number> {
  const handle = await page.waitForFunction(
    (after) => {
      const el = document.getElementById('graph-app');
      const n = Number(el?.dataset.renders ?? 0);
      return el?.dataset.state === 'ready' && n > after ? n : false;
    },
    renders,
    { timeout: 20_000 },
  );
  return (await handle.jsonValue()) as number;
}
