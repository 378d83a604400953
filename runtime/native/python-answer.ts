/**
 * Runs a `--python` with the script that locates TensorFlow and reads its one line of JSON,
 * trusting nothing about it: a program that is no Python, prints garbage, `null` or a flood, hangs
 * or dies gets a reason that says which, never an empty one or a raw TypeError.
 */
import { spawnSync } from 'node:child_process';

/** What the locating script prints. */
export interface PythonAnswer {
  readonly python: string;
  /** The tensorflow package's folder; absent when the Python has none. */
  readonly dir?: string;
  readonly version?: string | null;
}

/** Time a Python gets to answer: the script imports nothing heavy, so seconds are plenty. */
export const PYTHON_TIMEOUT_MS = 60_000;
/** Output a Python may print: the answer is one short line. */
const MAX_OUTPUT = 2 ** 20;

/** The answer of `exe -c script`, or why there is none (a phrase that follows the program's name). */
export function askPython(exe: string, script: string, timeoutMs = PYTHON_TIMEOUT_MS): PythonAnswer | { readonly why: string } {
  const run = spawnSync(exe, ['-c', script], {
    encoding: 'utf8',
    timeout: timeoutMs,
    killSignal: 'SIGKILL',
    maxBuffer: MAX_OUTPUT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (run.error) return { why: runError(run.error as NodeJS.ErrnoException, timeoutMs) };
  if (run.signal) return { why: `was killed by ${run.signal} before it answered` };
  if (run.status !== 0) {
    const said = lastLine(run.stderr);
    return { why: said ? `exited with code ${run.status}: ${said}` : `exited with code ${run.status} and printed nothing on stderr` };
  }
  const line = lastLine(run.stdout);
  if (!line) return { why: 'printed nothing (the locating script prints one line of JSON): is it a Python 3?' };
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { why: `printed ${excerpt(line)}, not the line of JSON the locating script prints: is it a Python 3?` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { why: `printed ${excerpt(line)}, not the JSON object the locating script prints: is it a Python 3?` };
  }
  const answer = value as Record<string, unknown>;
  const wrong = (key: string, what: string) => ({
    why: `printed an answer whose "${key}" is ${excerpt(JSON.stringify(answer[key]) ?? 'missing')}, not ${what}`,
  });
  if (typeof answer.python !== 'string' || answer.python === '') return wrong('python', 'the path of the Python');
  if (answer.dir !== undefined && (typeof answer.dir !== 'string' || answer.dir === '')) return wrong('dir', 'a folder');
  if (answer.version !== undefined && answer.version !== null && typeof answer.version !== 'string') return wrong('version', 'a version');
  return { python: answer.python, dir: answer.dir as string | undefined, version: answer.version as string | null | undefined };
}

function runError(error: NodeJS.ErrnoException, timeoutMs: number): string {
  switch (error.code) {
    case 'ENOENT':
      return 'not found';
    case 'EACCES':
      return 'cannot be run (permission denied)';
    case 'ETIMEDOUT':
      return `did not answer within ${timeoutMs / 1000} s and was stopped (the locating script takes well under a second): does it wait for input, or hang at startup?`;
    case 'ENOBUFS':
      return `printed more than ${MAX_OUTPUT / 2 ** 20} MB and was stopped (the locating script prints one line): is it a Python 3?`;
    default:
      return error.message;
  }
}

function lastLine(text: string | undefined): string {
  return (text ?? '').trim().split('\n').at(-1)?.trim() ?? '';
}

/** At most 80 characters of what a program printed, quoted so that control characters show. */
function excerpt(text: string): string {
  return JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text);
}
