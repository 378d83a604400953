/**
 * The graph view's HTML (webview-html.ts: the tensor inspector's strict CSP, without images).
 */
import { type WebviewHtmlOptions, webviewHtml } from './webview-html.js';

export type GraphHtmlOptions = WebviewHtmlOptions;

export function graphHtml(options: GraphHtmlOptions): string {
  return webviewHtml(options, { title: 'Graph View', body: '<main id="graph-app"><p class="empty">Loading the graph…</p></main>', images: false });
}
