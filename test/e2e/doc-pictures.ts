/**
 * The documentation's pictures, taken by the end-to-end suite from the real code-server at the step
 * where the pictured thing is on screen (test/e2e/steps/ call docPicture there), so a run
 * of the suite brings them up to date. They go to docs/images/<name>.png; test/docs/links.test.ts
 * fails when one the docs show is missing.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** Where the pictures go: docs/images/ of this checkout. */
export const DOC_IMAGES = path.join(root, 'docs', 'images');

/** Each picture the suite takes, and what it shows (the README's alt text says the same). */
export const DOC_PICTURES = {
  'callback-stop': 'a breakpoint hit inside a numpyFunction callback: the Callback scope, the graph frame, the Tensor Inspector in the panel',
  'tout-diagnostics': "the language server's Tout check and the last run's mismatch in Problems",
  'tout-mismatch-stop': 'the Tout-mismatch stop: the exception widget with the fix hint, the inspector flagging the output',
  'graph-view-node-stop': 'a node breakpoint set from the graph view: the Node scope, the paused node, its tensors in the inspector',
  'inspector-bytes': "the inspector's Bytes view of a tensor's buffer",
  'op-nan-stop': 'NaN/Inf in any op: the stop at the log in a custom loss, the Op scope, the inspector marking the -Inf cells',
  'training-curve': 'the Training section while paused in model.fit: loss per batch with the stopped batch marked, loss per epoch',
  'compare-invocations':
    "the inspector comparing a callback's last two invocations during model.fit: what changed per input and output, both stops' statistics, the Δ heatmap",
} as const;
export type DocPicture = keyof typeof DOC_PICTURES;

/** A region of the page, in CSS pixels. */
export interface Clip {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

/** Saves the page as it is (or `clip` of it) as docs/images/<name>.png; returns the file. */
export async function docPicture(page: Page, name: DocPicture, clip?: Clip): Promise<string> {
  mkdirSync(DOC_IMAGES, { recursive: true });
  const file = path.join(DOC_IMAGES, `${name}.png`);
  await page.screenshot({ path: file, ...(clip ? { clip } : {}) });
  console.log(`[e2e] doc picture ${path.relative(root, file)}`);
  return file;
}
