/**
 * A browser harness for the graph view webview, as harness.ts is for the tensor inspector
 * (page-harness.ts serves both): exactly the panel's HTML (extension/graph-html.ts, strict CSP with
 * a nonce), the stub of `acquireVsCodeApi`, the real built media/dist/graph.js and stylesheets.
 */
import path from 'node:path';
import type { Page } from 'playwright-core';
import { graphHtml } from '../../extension/graph-html.js';
import type { GraphHostMessage, GraphViewMessage } from '../../media/src/graph-protocol.js';
import { buildWebview, root, startPageHarness, type PageHarness } from './page-harness.js';

/** Builds media/dist/graph.js from media/src/graph (esbuild, as scripts/build.mjs does). */
export function buildGraphView(): void {
  buildWebview(path.join(root, 'media', 'src', 'graph', 'main.ts'), path.join(root, 'media', 'dist', 'graph.js'));
}

export type GraphHarness = PageHarness<never>;

export async function startGraphHarness(options: { viewport?: { width: number; height: number } } = {}): Promise<GraphHarness> {
  buildGraphView();
  return startPageHarness<never>(
    {
      name: 'graph view',
      html: (origin, nonce) => graphHtml({ cspSource: origin, scriptUri: '/media/dist/graph.js', styleUri: '/media/graph.css', nonce }),
      files: { '/media/dist/graph.js': 'media/dist/graph.js', '/media/graph.css': 'media/graph.css', '/media/theme.css': 'media/theme.css' },
    },
    { viewport: options.viewport ?? { width: 1280, height: 860 } },
  );
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
