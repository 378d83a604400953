/**
 * The HTML of the extension's webviews (tensor inspector, graph view): a strict
 * Content-Security-Policy with a nonce for the one script and stylesheet, local resources only.
 * Kept free of the vscode API so browser tests load exactly what the panels show.
 */
import { randomBytes } from 'node:crypto';

export interface WebviewHtmlOptions {
  /** The webview's `cspSource` (what may serve local resources). */
  readonly cspSource: string;
  readonly scriptUri: string;
  readonly styleUri: string;
  readonly nonce?: string;
}

export interface WebviewPage {
  readonly title: string;
  /** The page's body before its script: fixed markup of ours, never model text. */
  readonly body: string;
  /** Whether the page shows images (data: URLs and local ones). */
  readonly images: boolean;
}

export function makeNonce(): string {
  return randomBytes(18).toString('base64url');
}

export function webviewHtml(options: WebviewHtmlOptions, page: WebviewPage): string {
  const nonce = options.nonce ?? makeNonce();
  const csp = [
    "default-src 'none'",
    ...(page.images ? [`img-src ${options.cspSource} data:`] : []),
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
<title>${page.title}</title>
</head>
<body>
${page.body}
<script nonce="${nonce}" src="${escapeAttr(options.scriptUri)}"></script>
</body>
</html>`;
}

function escapeAttr(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}
