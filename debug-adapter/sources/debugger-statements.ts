/**
 * Whether a program's own code (its entry and the local modules it imports, transitively) holds a
 * `debugger` statement. Such a program needs V8's debugger on from the start: a `debugger`
 * statement does nothing while it is off. A text scan: a match in a comment or a string only turns
 * the debugger on early (start-up time, never a missed stop). Package imports and computed paths
 * are not followed.
 */
import { existsSync, statSync } from 'node:fs';
import { READ_LIMITS, readBoundedTextSync } from '../../runtime/bounded-read.js';
import path from 'node:path';

/** Relative specifiers of static imports, re-exports, dynamic imports and require calls. */
const LOCAL_SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)['"](\.{1,2}\/[^'"\n]+)['"]/g;
const DEBUGGER_STATEMENT = /(?:^|[^\w$.])debugger\s*(?:;|\}|$)/m;
const SUFFIXES = ['', '.ts', '.tsx', '.mts', '.cts', '.js', '.mjs', '.cjs', '/index.ts', '/index.js'];
/** TypeScript sources are imported under their output's extension (`./util.js` is util.ts). */
const TS_FOR_JS: Record<string, string[]> = { '.js': ['.ts', '.tsx'], '.mjs': ['.mts'], '.cjs': ['.cts'] };
const MAX_FILES = 500;

export function hasDebuggerStatement(entries: readonly string[]): boolean {
  const seen = new Set<string>();
  const queue = [...entries];
  while (queue.length > 0 && seen.size < MAX_FILES) {
    const file = queue.shift()!;
    if (seen.has(file)) continue;
    seen.add(file);
    let text: string;
    try {
      text = readBoundedTextSync(file, { maxBytes: READ_LIMITS.source, what: 'Program file' });
    } catch {
      continue;
    }
    if (DEBUGGER_STATEMENT.test(text)) return true;
    for (const match of text.matchAll(LOCAL_SPECIFIER)) {
      const resolved = resolveLocal(path.dirname(file), match[1]!);
      if (resolved && !resolved.includes(`${path.sep}node_modules${path.sep}`)) queue.push(resolved);
    }
  }
  return false;
}

function resolveLocal(dir: string, specifier: string): string | undefined {
  const base = path.resolve(dir, specifier);
  const ext = path.extname(base);
  const candidates = [...SUFFIXES.map((s) => base + s), ...(TS_FOR_JS[ext] ?? []).map((e) => base.slice(0, -ext.length) + e)];
  return candidates.find((c) => existsSync(c) && statSync(c).isFile());
}
