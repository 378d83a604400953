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
const FRAME = /\(?((?:file:\/\/)?\/[^():]+|[A-Za-z]:\\[^():]+):(\d+):(\d+)\)?$/;

export function captureCallSite(): CallSite | undefined {
  const holder: { stack?: string } = {};
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 30;
  Error.captureStackTrace(holder, captureCallSite);
  Error.stackTraceLimit = limit;
  return firstUserFrame(holder.stack ?? '');
}

export function firstUserFrame(stack: string): CallSite | undefined {
  for (const line of stack.split('\n').slice(1)) {
    const match = FRAME.exec(line.trim());
    if (!match) continue;
    const file = match[1]!.startsWith('file://') ? fileURLToPath(match[1]!) : match[1]!;
    if (isInternal(file)) continue;
    return { file, line: Number(match[2]), column: Number(match[3]) };
  }
  return undefined;
}

function isInternal(file: string): boolean {
  return file.startsWith(RUNTIME_DIR + path.sep) || file.startsWith(RUNTIME_SOURCE_DIR + path.sep) || file.includes(`${path.sep}node_modules${path.sep}`);
}

export function formatCallSite(site: CallSite | undefined, relativeTo = process.cwd()): string {
  if (!site) return '?';
  const rel = path.relative(relativeTo, site.file);
  // With the column: a converted model.json is one line, and terminals link file:line:column.
  return `${rel.startsWith('..') ? site.file : rel}:${site.line}:${site.column}`;
}
