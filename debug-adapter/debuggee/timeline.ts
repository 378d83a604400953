/**
 * Where a debug session's time goes. With TFJS_CALLBACKS_TIMELINE naming a file, the extension,
 * the adapter and the debuggee's bridge each append one JSON line per milestone,
 * `{"at": <epoch ms>, "pid": …, "what": "adapter: go"}`, and a few also what the process keeps at that
 * point (`"counts": {"scripts": …}`); unset (the default), `mark` does nothing.
 * Epoch times from three processes line up on one machine, so `npm run bench:vscode` splits each
 * of its figures into phases from them. Lives beside the bridge, which the debuggee loads by path.
 */
import { appendFileSync } from 'node:fs';

export const TIMELINE_ENV = 'TFJS_CALLBACKS_TIMELINE';

export interface TimelineMark {
  /** Epoch milliseconds (fractional). */
  readonly at: number;
  readonly pid: number;
  readonly what: string;
  /** Sizes at this point (the adapter's when it lets a stop go: the scripts and memory references it keeps). */
  readonly counts?: Readonly<Record<string, number>>;
}

const file = process.env[TIMELINE_ENV];

export function mark(what: string, counts?: () => Readonly<Record<string, number>>): void {
  if (!file) return;
  const line: TimelineMark = { at: performance.timeOrigin + performance.now(), pid: process.pid, what, ...(counts ? { counts: counts() } : {}) };
  try {
    appendFileSync(file, `${JSON.stringify(line)}\n`);
  } catch {
    // A diagnostic: never the program's or the session's failure.
  }
}
