/**
 * The documentation holds together: every relative link and picture in README.md, CONTRIBUTING.md,
 * bench/README.md and docs/*.md points to a file that exists, and an anchor to a heading that
 * exists there (GitHub's heading ids); the README stays within 200 lines; each picture the README
 * shows is one the end-to-end suite takes (test/e2e/doc-pictures.ts) and ships in the .vsix, whose
 * extension page shows the README.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import MarkdownIt from 'markdown-it';
import { repoRoot } from '../fixtures/spawn.js';
import { readAllowList } from '../helpers/package-files.js';
import { DOC_PICTURES } from '../e2e/doc-pictures.js';

const md = new MarkdownIt({ html: true });

/** The documentation files checked, relative to the repository. */
function docFiles(): string[] {
  const docs = readdirSync(path.join(repoRoot, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`);
  return ['README.md', 'CONTRIBUTING.md', 'bench/README.md', ...docs];
}

interface Reference {
  readonly kind: 'link' | 'image';
  readonly target: string;
  readonly line: number;
}

/** The links and images of a Markdown text, with their lines. */
function referencesOf(text: string): Reference[] {
  const found: Reference[] = [];
  for (const block of md.parse(text, {})) {
    let line = (block.map?.[0] ?? 0) + 1;
    for (const token of block.children ?? []) {
      if (token.type === 'softbreak' || token.type === 'hardbreak') line++;
      if (token.type === 'link_open') found.push({ kind: 'link', target: token.attrGet('href') ?? '', line });
      if (token.type === 'image') found.push({ kind: 'image', target: token.attrGet('src') ?? '', line });
    }
  }
  return found;
}

/** The ids GitHub gives a Markdown text's headings: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
function headingIds(text: string): Set<string> {
  const ids = new Set<string>();
  const seen = new Map<string, number>();
  const tokens = md.parse(text, {});
  tokens.forEach((token, i) => {
    if (token.type !== 'heading_open') return;
    const words = (tokens[i + 1]?.children ?? [])
      .filter((t) => t.type === 'text' || t.type === 'code_inline')
      .map((t) => t.content)
      .join('');
    const base = words
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    ids.add(n === 0 ? base : `${base}-${n}`);
  });
  return ids;
}

const external = /^[a-z][a-z0-9+.-]*:/i; // https:, mailto:, command:, …

/** What is wrong with the relative references of `file` (relative to `root`): one line each. */
function brokenReferences(root: string, file: string): string[] {
  const text = readFileSync(path.join(root, file), 'utf8');
  const problems: string[] = [];
  for (const ref of referencesOf(text)) {
    if (external.test(ref.target)) continue;
    const [rawPath = '', anchor] = ref.target.split('#', 2);
    const targetPath = decodeURIComponent(rawPath);
    const target = targetPath === '' ? path.join(root, file) : path.resolve(path.dirname(path.join(root, file)), targetPath);
    const where = `${file}:${ref.line}: ${ref.kind} ${ref.target}`;
    if (!existsSync(target)) {
      problems.push(`${where}: no such file`);
      continue;
    }
    if (anchor !== undefined && anchor !== '') {
      if (!target.endsWith('.md') || !statSync(target).isFile()) problems.push(`${where}: an anchor into a file that is not Markdown`);
      else if (!headingIds(readFileSync(target, 'utf8')).has(anchor)) problems.push(`${where}: no heading with id '${anchor}' there`);
    }
  }
  return problems;
}

describe('the documentation', () => {
  test('every relative link and picture points to a file and heading that exist', () => {
    const files = docFiles();
    assert.ok(files.includes('docs/runtime-api.md') && files.includes('docs/remote.md'), files.join(' '));
    const problems = files.flatMap((f) => brokenReferences(repoRoot, f));
    assert.deepEqual(problems, []);
  });

  test('the README is at most 200 lines and links to each reference page in docs/', () => {
    const readme = readFileSync(path.join(repoRoot, 'README.md'), 'utf8');
    const lines = readme.split('\n').length - (readme.endsWith('\n') ? 1 : 0);
    assert.ok(lines <= 200, `README.md has ${lines} lines`);
    const linked = new Set(referencesOf(readme).map((r) => r.target.split('#')[0]));
    for (const doc of docFiles().filter((f) => f.startsWith('docs/'))) assert.ok(linked.has(doc), `the README links to ${doc}`);
    for (const other of ['CONTRIBUTING.md', 'bench/README.md']) assert.ok(linked.has(other), `the README links to ${other}`);
  });

  test('every page the README links to ships in the .vsix (its extension page opens them from there)', () => {
    const readme = readFileSync(path.join(repoRoot, 'README.md'), 'utf8');
    const allow = readAllowList();
    const pages = [...new Set(referencesOf(readme).map((r) => r.target.split('#')[0]!))].filter((t) => t && !/^[a-z]+:/.test(t));
    const missing = pages.filter((page) => page !== 'README.md' && page !== 'package.json' && !allow.allows(page));
    assert.deepEqual(missing, [], 'linked from the README but left out of the package by .vscodeignore');
  });

  test("the README's pictures are the e2e suite's, exist, and ship in the .vsix", () => {
    const readme = readFileSync(path.join(repoRoot, 'README.md'), 'utf8');
    const images = referencesOf(readme)
      .filter((r) => r.kind === 'image')
      .map((r) => r.target);
    assert.ok(images.length >= 5, images.join(' '));
    const allow = readAllowList();
    for (const image of images) {
      const name = /^docs\/images\/([\w-]+)\.png$/.exec(image)?.[1];
      assert.ok(name && name in DOC_PICTURES, `${image} is one of test/e2e/doc-pictures.ts's DOC_PICTURES`);
      assert.ok(allow.allows(image), `${image} is kept by .vscodeignore`);
    }
    for (const name of Object.keys(DOC_PICTURES)) {
      assert.ok(existsSync(path.join(repoRoot, 'docs', 'images', `${name}.png`)), `docs/images/${name}.png exists (the e2e suite takes it)`);
    }
  });

  test('a missing file, a missing heading and an anchor into a picture are each reported', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'tfjs-cb-links-'));
    try {
      writeFileSync(path.join(dir, 'other.md'), '# Other page\n\n## `tfFunction(fn, { name? })` — traced, as `@tf.function`\n\n## Again\n\n## Again\n');
      writeFileSync(path.join(dir, 'pic.png'), '');
      writeFileSync(
        path.join(dir, 'page.md'),
        [
          '# Page',
          '[ok](other.md#other-page) [ok](other.md#tffunctionfn--name---traced-as-tffunction) [ok](other.md#again-1) [ok](#page)',
          '[web](https://example.invalid/x.md) ![ok](pic.png)',
          '[gone](missing.md) ![gone](images/none.png)',
          '[no heading](other.md#nothing) [here](#nowhere) [pic](pic.png#x)',
          '',
        ].join('\n'),
      );
      assert.deepEqual(brokenReferences(dir, 'page.md'), [
        'page.md:4: link missing.md: no such file',
        'page.md:4: image images/none.png: no such file',
        "page.md:5: link other.md#nothing: no heading with id 'nothing' there",
        "page.md:5: link #nowhere: no heading with id 'nowhere' there",
        'page.md:5: link pic.png#x: an anchor into a file that is not Markdown',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
