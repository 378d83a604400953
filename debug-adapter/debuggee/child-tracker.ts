/**
 * Records the pids of the children the program starts with `detached: true`. Those lead process
 * groups of their own, so killing the debuggee's group misses them: the session's end kills each
 * recorded group too (launcher.ts, and the watchdog if the adapter dies).
 *
 * The record is a file of pids, one a line, in the session's private socket directory, appended
 * synchronously at spawn: nothing is lost if the debuggee is killed the next instant.
 */
import { appendFileSync } from 'node:fs';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import path from 'node:path';

/** The record's name inside the session's socket directory. */
export const CHILDREN_FILE = 'detached-children';

export function childrenFile(socketPath: string): string {
  return path.join(path.dirname(socketPath), CHILDREN_FILE);
}

type Spawner = (...args: unknown[]) => { pid?: number } | undefined;

/** Wraps child_process's asynchronous spawners (ESM named imports too) so detached children are recorded. */
export function trackDetachedChildren(file: string): void {
  const cp = createRequire(import.meta.url)('node:child_process') as Record<string, Spawner>;
  for (const name of ['spawn', 'fork', 'exec', 'execFile']) {
    const original = cp[name]!;
    const wrapped = function (this: unknown, ...args: unknown[]) {
      const child = original.apply(this, args);
      if (child?.pid && isDetached(args)) {
        try {
          appendFileSync(file, `${child.pid}\n`);
        } catch {
          // The session's directory is gone: the session is ending anyway.
        }
      }
      return child;
    };
    // Keeps name, length and util.promisify.custom (exec's promisified form is not tracked).
    Object.defineProperties(wrapped, Object.getOwnPropertyDescriptors(original));
    cp[name] = wrapped as Spawner;
  }
  syncBuiltinESMExports();
}

/** Whether the options argument (the first plain object among the arguments) asks for `detached`. */
function isDetached(args: unknown[]): boolean {
  const options = args.find((a) => typeof a === 'object' && a !== null && !Array.isArray(a)) as { detached?: unknown } | undefined;
  return options?.detached === true;
}
