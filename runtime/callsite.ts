/**
 * Where a wrapper was called from: the first stack frame outside the runtime. Under tsx the
 * stack is source-mapped, so this is the user's TS file and line.
 */
import { fileURLToPath } from 'node:url';
import path from 'node:path';

export interface CallSite {
  readonly file: string;
  /** 1-based, as stack traces and editors count. */
  readonly line: number;
  readonly column: number;
  /** Where the site ends (exclusive), when it is a span: a model node's name in model.json. */
  readonly endLine?: number;
  readonly endColumn?: number;
}

const RUNTIME_DIR = path.dirname(fileURLToPath(import.meta.url));
// Built, the runtime's frames may be source-mapped back to its TypeScript sources.
const RUNTIME_SOURCE_DIR = path.basename(path.dirname(RUNTIME_DIR)) === 'dist' ? path.join(RUNTIME_DIR, '..', '..', 'runtime') : RUNTIME_DIR;
// The path starts right after `(` or `at ` (Node's own `node:internal/...` frames have none to match).
const FRAME = /(?:\(|at )((?:file:\/\/)?\/[^():]+|[A-Za-z]:\\[^():]+):(\d+):(\d+)\)?$/;
/**
 * TensorFlow.js source-mapped frames read `<cwd>/tfjs-core/src/...` under tsx (its maps point
 * outside node_modules): they are TF.js's, not the user's.
 */
const TFJS_SOURCE = /[\\/]tfjs(-[a-z-]+)?[\\/]src[\\/]/;

/** The first frame of the user's code that is running now, past the runtime and TensorFlow.js. */
export function captureCallSite(limit = 40): CallSite | undefined {
  return firstUserFrame(captureStack(captureCallSite, limit).stack ?? '');
}

/** A stack captured now, below `above`, `limit` frames deep: V8 formats its `stack` only when it is read. */
export function captureStack(above: (...args: never[]) => unknown, limit = 40): { stack?: string } {
  const holder: { stack?: string } = {};
  const previous = Error.stackTraceLimit;
  Error.stackTraceLimit = limit;
  Error.captureStackTrace(holder, above);
  Error.stackTraceLimit = previous;
  return holder;
}

export function firstUserFrame(stack: string): CallSite | undefined {
  for (const line of stack.split('\n').slice(1)) {
    const match = FRAME.exec(line.trim());
    if (!match) continue;
    const file = match[1]!.startsWith('file://') ? fileURLToPath(match[1]!) : match[1]!;
    if (isLibraryFile(file)) continue;
    return { file, line: Number(match[2]), column: Number(match[3]) };
  }
  return undefined;
}

/**
 * The one rule for what is not the user's code: the runtime's own files (built or source; the
 * adapter passes where they are in the debuggee), anything under node_modules, and TF.js's
 * source-mapped sources. Call sites, the trace's errors and the adapter's call stack all use it.
 */
export function isLibraryFile(file: string, runtimeDirs: readonly string[] = [RUNTIME_DIR, RUNTIME_SOURCE_DIR]): boolean {
  return runtimeDirs.some((dir) => file.startsWith(dir + path.sep)) || file.includes(`${path.sep}node_modules${path.sep}`) || TFJS_SOURCE.test(file);
}

export function formatCallSite(site: CallSite | undefined, relativeTo = process.cwd()): string {
  if (!site) return '?';
  const rel = path.relative(relativeTo, site.file);
  // With the column: a converted model.json is one line, and terminals link file:line:column.
  return `${rel.startsWith('..') ? site.file : rel}:${site.line}:${site.column}`;
}
