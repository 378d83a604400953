/**
 * CONTRIBUTING.md's Layout names every folder of product code, and only folders that exist: a
 * newcomer reads the architecture from it (issue 31). A folder is named as `name/` in the layout's
 * block, under its top-level folder's entry.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { PRODUCT_FOLDERS } from '../../scripts/house-sizes.js';
import { repoRoot } from '../fixtures/spawn.js';

/** The Layout section's code block. */
function layoutBlock(): string {
  const text = readFileSync(path.join(repoRoot, 'CONTRIBUTING.md'), 'utf8');
  const section = text.slice(text.indexOf('\n## Layout'));
  const block = /```\n([\s\S]*?)```/.exec(section)?.[1];
  assert.ok(block, 'CONTRIBUTING.md has a Layout section with a code block');
  return block;
}

/** Sub-folders of a product folder, relative to it (e.g. `debuggee/agent`). */
function subFolders(top: string): string[] {
  const walk = (rel: string): string[] =>
    readdirSync(path.join(repoRoot, top, rel)).flatMap((name) => {
      const child = path.join(rel, name);
      if (name === 'node_modules' || name === 'dist' || !statSync(path.join(repoRoot, top, child)).isDirectory()) return [];
      return [child, ...walk(child)];
    });
  return walk('');
}

test("CONTRIBUTING.md's Layout names every folder of product code", () => {
  const block = layoutBlock();
  const missing = PRODUCT_FOLDERS.flatMap((top) =>
    subFolders(top)
      .map((sub) => path.basename(sub))
      .filter((name) => !new RegExp(`(^|[\\s(,/])${name}/`).test(block))
      .map((name) => `${top}/…/${name}/`),
  );
  assert.deepEqual(missing, []);
});

test("CONTRIBUTING.md's Layout names no folder that is gone", () => {
  const block = layoutBlock();
  const existing = new Set(PRODUCT_FOLDERS.flatMap((top) => [path.basename(top), ...subFolders(top).map((sub) => path.basename(sub))]));
  const topLevel = new Set(readdirSync(repoRoot).filter((name) => statSync(path.join(repoRoot, name)).isDirectory()));
  // Folder names the block writes as `name/` (a word right before a slash, not part of a path to a file).
  const named = [...block.matchAll(/(?:^|[\s(,])([a-z][a-z-]*)\/(?![\w.-])/g)].map((m) => m[1]!);
  const gone = named.filter((name) => !existing.has(name) && !topLevel.has(name) && name !== 'images' && name !== 'tf-ground-truth');
  assert.deepEqual(gone, []);
});
