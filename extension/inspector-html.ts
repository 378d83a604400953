/**
 * The tensor inspector's HTML (webview-html.ts: strict CSP with a nonce; it shows images).
 */
import { type WebviewHtmlOptions, webviewHtml } from './webview-html.js';

export { makeNonce } from './webview-html.js';
export type InspectorHtmlOptions = WebviewHtmlOptions;

export function inspectorHtml(options: InspectorHtmlOptions): string {
  return webviewHtml(options, {
    title: 'Tensor Inspector',
    body: '<main id="app" aria-live="polite"><p class="empty">Waiting for a stop in a graph callback…</p></main>',
    images: true,
  });
}
