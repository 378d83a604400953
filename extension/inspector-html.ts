/**
 * The tensor inspector's HTML: a strict Content-Security-Policy with a nonce, local resources
 * only. Kept free of the vscode API so browser tests load exactly what the panel shows.
 */
import { randomBytes } from 'node:crypto';

export interface InspectorHtmlOptions {
  /** The webview's `cspSource` (what may serve local resources). */
  readonly cspSource: string;
  readonly scriptUri: string;
  readonly styleUri: string;
  readonly nonce?: string;
}

export function makeNonce(): string {
  return randomBytes(18).toString('base64url');
}

export function inspectorHtml(options: InspectorHtmlOptions): string {
  const nonce = options.nonce ?? makeNonce();
  const csp = [
    "default-src 'none'",
    `img-src ${options.cspSource} data:`,
    `style-src ${options.cspSource} 'nonce-${nonce}'`,
    `script-src 'nonce-${nonce}'`,
    `font-src ${options.cspSource}`,
  ].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${escapeAttr(options.styleUri)}" nonce="${nonce}">
<title>Tensor Inspector</title>
</head>
<body>
<main id="app" aria-live="polite"><p class="empty">Waiting for a stop in a graph callback…</p></main>
<script nonce="${nonce}" src="${escapeAttr(options.scriptUri)}"></script>
</body>
</html>`;
}

function escapeAttr(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}
