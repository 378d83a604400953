/**
 * The package's allow-list (.vscodeignore) read as vsce reads it, and the modules a shipped file
 * loads, for test/extension/package-contents.test.ts.
 */
import { readFileSync } from 'node:fs';
import { createRequire, isBuiltin } from 'node:module';
import path from 'node:path';
import { repoRoot } from '../fixtures/spawn.js';

/** vsce's own matcher (the version it uses), with its options. */
const minimatch = (
  createRequire(path.join(repoRoot, 'node_modules', '@vscode', 'vsce', 'out', 'package.js'))('minimatch') as {
    minimatch: (file: string, pattern: string, options: { dot: boolean }) => boolean;
  }
).minimatch;

export interface AllowList {
  /** The rules in file order, comments and blank lines left out. */
  readonly rules: readonly string[];
  /** Whether vsce keeps `file`: an ignore-everything list keeps what a `!` rule takes back. */
  allows(file: string): boolean;
  /** The `!` rules no file of `files` matches. */
  unused(files: readonly string[]): string[];
}

export function readAllowList(file = path.join(repoRoot, '.vscodeignore')): AllowList {
  const rules = readFileSync(file, 'utf8')
    .split(/[\n\r]/)
    .map((s) => s.trim())
    .filter((s) => s !== '' && !s.startsWith('#'));
  // As vsce does: a rule whose last segment has no `*` also names a folder (`rule/**`).
  const patterns = (rule: string) => {
    const body = rule.slice(1);
    return /(^|\/)[^/]*\*[^/]*$/.test(body) ? [body] : [body, `${body.replace(/\/$/, '')}/**`];
  };
  const takenBack = rules.filter((r) => r.startsWith('!'));
  const matches = (f: string, rule: string) => patterns(rule).some((p) => minimatch(f, p, { dot: true }));
  // vsce always keeps these two.
  const always = new Set(['package.json', 'README.md']);
  return {
    rules,
    allows: (f) => always.has(f) || takenBack.some((rule) => matches(f, rule)),
    unused: (files) => takenBack.filter((rule) => !files.some((f) => matches(f, rule))),
  };
}

/** A module specifier a file loads, and where. */
export interface Load {
  readonly file: string;
  readonly specifier: string;
}

/**
 * What a shipped JavaScript file loads by a literal specifier. tsc's output (the runtime, the
 * debuggee's side): its import/export statements, `import()`, `require()` and `require.resolve()`.
 * Bundles and dependencies: `require()` calls only (their strings and comments hold import-like text).
 */
export function loadsOf(file: string, text: string): Load[] {
  const ours = file.startsWith('dist/') && file !== 'dist/debug-adapter/main.js';
  const found = new Set<string>();
  const add = (re: RegExp) => {
    for (const m of text.matchAll(re)) found.add(m[2]!);
  };
  add(/\brequire\((['"])([^'"\n]+)\1\)/g);
  if (ours) {
    add(/^\s*(?:import|export)\b[^;'"]*?\bfrom\s+(['"])([^'"\n]+)\1/gm);
    add(/^\s*import\s+(['"])([^'"\n]+)\1/gm);
    add(/\bimport\((['"])([^'"\n]+)\1\)/g);
    add(/\.resolve\((['"])([^'"\n]+)\1\)/g);
    add(/\bcreateRequire\([^)]*\)\((['"])([^'"\n]+)\1\)/g);
  }
  return [...found].filter((s) => !s.startsWith('node:') && !isBuiltin(s)).map((specifier) => ({ file, specifier }));
}

/**
 * The shipped file a load reaches, resolved in the working tree as Node resolves a require (the
 * packaged tree is that tree less what the allow-list leaves out); undefined when nothing resolves.
 */
export function resolveLoad(load: Load): string | undefined {
  const from = path.join(repoRoot, load.file);
  try {
    const resolved = createRequire(from).resolve(load.specifier.replace(/\?.*$/, ''));
    return path.relative(repoRoot, resolved).split(path.sep).join('/');
  } catch {
    return undefined;
  }
}
