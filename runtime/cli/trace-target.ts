/**
 * Where `--trace` may write, checked before the program runs: the trace replaces its file at the
 * end, so a path that names the program, its callbacks module, any other file that is not a trace
 * this CLI wrote, or a folder is refused at once (an hour of training must not end in a lost
 * source file, or in a raw stack after the run).
 */
import { accessSync, closeSync, constants, openSync, readSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';

/** How every trace begins (trace-writer.ts writes its head with JSON.stringify(…, null, 2)). */
const TRACE_HEAD = '{\n  "version": 1,\n  "tool": "tfjs-callbacks"';

/** Why `trace` cannot be written, in words that say what to pass instead; undefined when it can. */
export function traceTargetProblem(trace: string, protectedFiles: readonly string[]): string | undefined {
  const file = path.resolve(trace);
  const suggestion = `give a new file name, e.g. --trace ${path.join(path.dirname(trace), `${path.parse(trace).name}.trace.json`)}`;
  const stats = statOrUndefined(file);
  if (stats?.isDirectory()) return `--trace ${trace} is a folder: give a file in it, e.g. --trace ${path.join(trace, 'trace.json')}.`;
  const real = realOrSelf(file);
  if (protectedFiles.some((p) => realOrSelf(path.resolve(p)) === real)) {
    return `--trace ${trace} is the file being run, which the trace would replace: ${suggestion}.`;
  }
  if (stats && !isTraceFile(file)) {
    return `--trace ${trace} already exists and is not a trace tfjs-callbacks wrote: it would be replaced. Remove it yourself if it is one to lose, or ${suggestion}.`;
  }
  return stats ? undefined : folderProblem(trace, path.dirname(file));
}

/** The nearest existing folder above a new trace file must be a folder we may write in. */
function folderProblem(trace: string, dir: string): string | undefined {
  let at = dir;
  while (!statOrUndefined(at)) at = path.dirname(at);
  if (!statOrUndefined(at)?.isDirectory()) return `--trace ${trace} is inside ${at}, which is a file, not a folder.`;
  try {
    accessSync(at, constants.W_OK);
  } catch {
    return `--trace ${trace} cannot be written: ${at} is not writable.`;
  }
  return undefined;
}

/** Whether a file starts the way every trace starts (read: its first bytes, a regular file only). */
function isTraceFile(file: string): boolean {
  if (!statOrUndefined(file)?.isFile()) return false;
  let fd: number | undefined;
  try {
    fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
    const head = Buffer.alloc(TRACE_HEAD.length);
    const read = readSync(fd, head, 0, head.length, 0);
    return head.toString('utf8', 0, read) === TRACE_HEAD;
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function statOrUndefined(file: string): ReturnType<typeof statSync> | undefined {
  try {
    return statSync(file);
  } catch {
    return undefined;
  }
}

function realOrSelf(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return file;
  }
}
