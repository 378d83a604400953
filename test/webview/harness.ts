/**
 * A browser harness for the tensor inspector webview (page-harness.ts serves it): exactly the
 * panel's HTML (extension/inspector-html.ts), the stub of `acquireVsCodeApi` answering
 * `tensorData` from fixture data, and the real built media/dist/inspector.js and stylesheets.
 *
 *   const h = await startHarness();
 *   const page = await h.open({ 's1/3/outputs/0': { info, values } });
 *   await sendInvocation(page, 's1', event);
 *   …
 *   await h.close();
 */
import fs from 'node:fs';
import path from 'node:path';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { tagNonFinite } from '../../debug-adapter/cdp/wire-values.js';
import { inspectorHtml } from '../../extension/inspector-html.js';
import type { TensorDiffResponseBody } from '../../debug-adapter/extension-protocol.js';
import type { HostMessage, NodeStopEvent, TensorCallbackEvent, TensorInfo, WebviewMessage } from '../../media/src/protocol.js';
import { artifactsDir, buildWebview, root, startPageHarness, type PageHarness } from './page-harness.js';

export { artifactsDir, CHROMIUM, root, type PageProblems } from './page-harness.js';

/** Values of a tensor the stub answers `tensorData` with: a list, or a formula of the flat index. */
export interface TensorFixture {
  readonly info: TensorInfo;
  readonly values?: readonly (number | string | boolean | null)[];
  /** value(i) = offset + scale * i, for tensors too big to list. */
  readonly affine?: { readonly scale: number; readonly offset: number };
  /** Under diffFixtureKey: the `tensorDiff` answer (Compare), as the agent makes it. */
  readonly diff?: TensorDiffResponseBody;
}

/** Keyed "sessionId/invocationId/side/index" (invocations) or "sessionId/graph:node/side/index" (nodes). */
export type Fixtures = Readonly<Record<string, TensorFixture>>;

export function fixtureKey(sessionId: string, invocationId: number, side: 'inputs' | 'outputs', index: number): string {
  return `${sessionId}/${invocationId}/${side}/${index}`;
}

/** Compare's fixture: the `tensorDiff` answer for one input or output of invocations a and b. */
export function diffFixtureKey(sessionId: string, a: number, b: number, side: 'inputs' | 'outputs', index: number): string {
  return `${sessionId}/diff/${a}/${b}/${side}/${index}`;
}

export function nodeFixtureKey(sessionId: string, graph: string, node: string, side: 'inputs' | 'outputs', index: number): string {
  return `${sessionId}/${graph}:${node}/${side}/${index}`;
}

/** Answers `tensorData` and `tensorBytes` from the fixtures. Plain JS: it is served inline with the page's nonce. */
function answerScript(fixtures: Fixtures): string {
  // JSON inside a <script>: "<" escaped so a fixture's text cannot close the element.
  const data = JSON.stringify(onTheWire(fixtures)).replace(/</g, '\\u003c');
  return `(() => {
  const fixtures = ${data};
  const typed = { float32: Float32Array, int32: Int32Array, bool: Uint8Array, float64: Float64Array };
  window.__answer = (req) => {
    if (req.type === 'tensorBytes') return answerBytes(req);
    if (req.type === 'tensorDiff') return answerDiff(req);
    if (req.type !== 'tensorData') return;
    const owner = req.invocationId !== undefined ? String(req.invocationId) : req.graph + ':' + req.node;
    const of = req.invocationId !== undefined ? 'in invocation ' + req.invocationId : 'of node ' + req.node;
    const f = fixtures[req.sessionId + '/' + owner + '/' + req.side + '/' + req.index];
    let message;
    if (!f) {
      message = { type: 'tensorData', requestId: req.requestId, error: 'no tensor ' + req.side + '[' + req.index + '] ' + of };
    } else {
      const start = Math.max(0, req.start);
      const end = Math.min(f.info.size, start + Math.min(req.count, 1000000));
      const values = [];
      for (let i = start; i < end; i++) values.push(f.values ? f.values[i] : f.affine.offset + f.affine.scale * i);
      message = { type: 'tensorData', requestId: req.requestId, slice: { info: f.info, start, values } };
    }
    setTimeout(() => window.postMessage(message, '*'), 0);
  };
  // Compare: the answer under diffFixtureKey, else the agent's words for a stop whose values are not kept.
  const answerDiff = (req) => {
    const f = fixtures[[req.sessionId, 'diff', req.a.invocationId, req.b.invocationId, req.side, req.index].join('/')];
    const message = f && f.diff
      ? { type: 'tensorDiff', requestId: req.requestId, diff: f.diff }
      : { type: 'tensorDiff', requestId: req.requestId, error: 'invocation ' + req.a.invocationId + "'s values are not kept: the program never stopped in it in this session" };
    setTimeout(() => window.postMessage(message, '*'), 0);
  };
  // The bytes of a fixture's values as its dtype stores them (little-endian, as on x86 and ARM).
  const answerBytes = (req) => {
    const owner = req.invocationId !== undefined ? String(req.invocationId) : req.graph + ':' + req.node;
    const f = fixtures[req.sessionId + '/' + owner + '/' + req.side + '/' + req.index];
    const Typed = f && typed[f.info.dtype];
    let message;
    if (!Typed) {
      message = { type: 'tensorBytes', requestId: req.requestId, error: f ? 'a ' + f.info.dtype + ' tensor has no byte buffer' : 'no tensor' };
    } else {
      const all = new Typed(f.info.size);
      // (A NaN or ±Infinity is tagged in the fixtures, as on the wire: the number again.)
      const number = (v) => (v && typeof v === 'object' ? Number(v.nonFinite) : v);
      for (let i = 0; i < f.info.size; i++) all[i] = f.values ? number(f.values[i]) : f.affine.offset + f.affine.scale * i;
      const bytes = new Uint8Array(all.buffer).subarray(req.offset, req.offset + req.count);
      message = { type: 'tensorBytes', requestId: req.requestId, bytes: { offset: req.offset, byteLength: all.byteLength, dtype: f.info.dtype, data: btoa(String.fromCharCode(...bytes)) } };
    }
    setTimeout(() => window.postMessage(message, '*'), 0);
  };
})();`;
}

/** Builds media/dist/inspector.js from media/src (esbuild, as scripts/build.mjs does). */
export function buildInspector(): void {
  buildWebview(path.join(root, 'media', 'src', 'inspector.ts'), path.join(root, 'media', 'dist', 'inspector.js'));
}

export type Harness = PageHarness<Fixtures>;

export async function startHarness(options: { build?: boolean; viewport?: { width: number; height: number } } = {}): Promise<Harness> {
  if (options.build !== false) buildInspector();
  const harness = await startPageHarness<Fixtures>(
    {
      name: 'inspector',
      html: (origin, nonce) => inspectorHtml({ cspSource: origin, scriptUri: '/media/dist/inspector.js', styleUri: '/media/inspector.css', nonce }),
      extra: answerScript,
      files: { '/media/dist/inspector.js': 'media/dist/inspector.js', '/media/inspector.css': 'media/inspector.css', '/media/theme.css': 'media/theme.css' },
    },
    options,
  );
  // Without fixtures, requests are still answered (with "no tensor"), as the panel would.
  return { ...harness, open: (fixtures = {}) => harness.open(fixtures) };
}

/**
 * A message as it reaches the page: its values and previews tagged as the adapter's agent calls tag
 * them (NaN and ±Infinity as NonFiniteValue), then JSON (CDP, DAP, the webview's postMessage).
 */
function onTheWire<T>(message: T): T {
  return JSON.parse(JSON.stringify(tagNonFinite(message))) as T;
}

/** Posts a host message to the page as the panel would. */
export async function sendHost(page: Page, message: HostMessage): Promise<void> {
  await page.evaluate((m) => (window as unknown as { __host: (m: unknown) => void }).__host(m), onTheWire(message) as unknown as Record<string, unknown>);
}

export async function sendInvocation(page: Page, sessionId: string, event: TensorCallbackEvent, live = true): Promise<void> {
  await sendHost(page, { type: 'invocation', sessionId, event, live });
}

export async function sendNode(page: Page, sessionId: string, event: NodeStopEvent, live = true): Promise<void> {
  await sendHost(page, { type: 'node', sessionId, event, live });
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
