/**
 * A process's whole life, start → exit, seen from outside through /proc, so a debugged run and a
 * plain run are timed the same way whoever starts them: the start is the kernel's record of the
 * process (`starttime`, in clock ticks since boot: 10 ms steps), the exit the first poll that finds
 * it gone or a zombie (polled every 2 ms).
 */
import { readdirSync, readFileSync } from 'node:fs';

export interface Lifetime {
  readonly pid: number;
  /** Epoch ms. */
  readonly startMs: number;
  readonly exitMs: number;
  readonly ms: number;
  /**
   * The process's own CPU time (user + system, all its threads), as last read before it was gone:
   * a zombie's final figure, or at most one 2 ms poll short of it.
   */
  readonly cpuMs: number;
}

const TICK_MS = 10; // USER_HZ is 100 on Linux

const selfStartTicks = Number(statFields(process.pid)?.[19]);
const selfOriginMs = performance.timeOrigin;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Fields of /proc/<pid>/stat after the command name (which may hold spaces). */
function statFields(pid: number): string[] | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return text.slice(text.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

function argv(pid: string): string[] {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  } catch {
    return [];
  }
}

/**
 * Watches for a node process with `program` among its arguments (node … <program> …) and resolves
 * with its lifetime once it has exited. `stop()` gives up (resolves undefined).
 */
export function watchLifetime(program: string, self = process.pid): { done: Promise<Lifetime | undefined>; stop(): void } {
  let stopped = false;
  const name = program.slice(program.lastIndexOf('/') + 1);
  const done = (async () => {
    let pid: number | undefined;
    while (!stopped && pid === undefined) {
      for (const entry of readdirSync('/proc')) {
        if (!/^\d+$/.test(entry) || Number(entry) === self) continue;
        const args = argv(entry);
        // As given, or relative to the workspace (a debugger may pass either).
        if (/(^|\/)node[\d.]*$/.test(args[0] ?? '') && args.some((a) => a === program || (a.endsWith(name) && program.endsWith(a.replace(/^\.\//, ''))))) {
          pid = Number(entry);
          break;
        }
      }
      if (pid === undefined) await sleep(2);
    }
    if (pid === undefined) return undefined;
    const fields = statFields(pid);
    if (!fields) return undefined;
    // After ')': state is field 3, starttime field 22 (1-based over the whole line): index 19 here.
    // Ticks are counted from boot; /proc/stat's boot time can be off in a VM restored from a
    // snapshot, so this process's own start is the reference (performance.timeOrigin).
    const startMs = selfOriginMs + (Number(fields[19]) - selfStartTicks) * TICK_MS;
    let cpuMs = 0;
    for (;;) {
      const f = statFields(pid);
      if (f) cpuMs = (Number(f[11]) + Number(f[12])) * TICK_MS;
      if (!f || f[0] === 'Z' || f[0] === 'X') break;
      if (stopped) return undefined;
      await sleep(2);
    }
    const exitMs = Date.now();
    return { pid, startMs, exitMs, ms: exitMs - startMs, cpuMs };
  })();
  return {
    done,
    stop: () => {
      stopped = true;
    },
  };
}

/** CPU time (ms, user + system) of every process now, by pid, with its command's name. */
export function cpuTimes(): Map<number, { name: string; ms: number }> {
  const out = new Map<number, { name: string; ms: number }>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const f = statFields(Number(entry));
    if (!f) continue;
    const args = argv(entry).filter(Boolean);
    // The script a node process runs tells more than "node": code-server's server, its extension host, a debuggee.
    // A node process by its script (code-server's server, its extension host, a debuggee), Chromium's by its --type.
    const exe = (args[0] ?? '?').split('/').pop()!;
    const script = args.find((a, i) => i > 0 && !a.startsWith('-') && /\.(m?js|ts)$|bootstrap|server-main/.test(a));
    const type = args.find((a) => a.startsWith('--type='))?.slice('--type='.length);
    const name = exe.startsWith('chrom') ? `chromium ${type ?? 'browser'}` : `${exe}${script ? ` ${script.split('/').slice(-2).join('/')}` : ''}`;
    out.set(Number(entry), { name, ms: (Number(f[11]) + Number(f[12])) * TICK_MS });
  }
  return out;
}

/** Which processes other than `except` used CPU between two `cpuTimes()`, most first (ms). */
export function cpuUsedBetween(
  before: Map<number, { name: string; ms: number }>,
  after: Map<number, { name: string; ms: number }>,
  except: number[] = [],
): [string, number][] {
  const used = new Map<string, number>();
  for (const [pid, a] of after) {
    if (except.includes(pid)) continue;
    const ms = a.ms - (before.get(pid)?.ms ?? 0);
    if (ms > 0) used.set(a.name, (used.get(a.name) ?? 0) + ms);
  }
  return [...used].sort((x, y) => y[1] - x[1]);
}
