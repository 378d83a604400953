/**
 * Rewrites a generated block of a documentation file in place, for scripts/readme-settings.ts and
 * scripts/launch-json-doc.ts: `update` turns the file's text into its new text.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root. */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** package.json, parsed. */
export function readManifest<T>(): T {
  return JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as T;
}

/** Applies `update` to `file` (relative to the root) and says whether that changed it. */
export function rewriteDoc(file: string, what: string, update: (text: string) => string): void {
  const full = path.join(repoRoot, file);
  const text = readFileSync(full, 'utf8');
  const updated = update(text);
  if (updated === text) console.log(`${file}: ${what} up to date`);
  else {
    writeFileSync(full, updated);
    console.log(`${file}: ${what} rewritten from package.json`);
  }
}
