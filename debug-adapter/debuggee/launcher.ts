/**
 * Starts the debuggee in a process group of its own, and beside it a watchdog that kills that
 * group if the adapter dies:
 *   node --require boot.cjs <runtimeArgs> <program> <args>
 * Before Node starts the program, the bootloader (boot.cts) imports the bridge, tsx, the runtime's
 * loader and the bridge's `?hold` (`bridgePreloads`): the bridge's worker boots while tsx loads;
 * `?hold` waits for the adapter's go.
 */
import { constants } from 'node:os';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { childrenFile } from './child-tracker.js';
import { adapterPaths, fileUrl } from '../paths.js';
import { type BridgeConfig, CONFIG_ENV, SOCKET_ENV } from './bridge-protocol.js';
import { dropsTfStartupLines, STDERR_FILTERED_ENV } from '../../runtime/tf-startup-logs.js';

/** What starting the program takes: the launch plan (launch-config.ts `LaunchPlan`) as far as the launch goes. */
export interface ProgramStart {
  readonly cwd: string;
  /** The script node runs: the program, or the runtime CLI for a model. */
  readonly entry: string;
  readonly args: readonly string[];
  /** Node's options of the user's, before the entry. */
  readonly runtimeArgs: readonly string[];
  readonly env: Record<string, string>;
  /** Variables the configuration removes (`null`): an empty string given is kept as one. */
  readonly envRemoved: readonly string[];
  /** What the bridge configures the agent with before the program's first line. */
  readonly filters: BridgeConfig;
  /** The user's own code the launch runs first: the program, or a model's callbacks module. */
  readonly userCode: readonly string[];
}

export interface Debuggee {
  readonly process: ChildProcess;
  /** Resolves with the exit code when the debuggee has exited. */
  readonly exited: Promise<number>;
  /** Resolves once the watchdog guards the debuggee's process group. */
  readonly guarded: Promise<void>;
  /** Whether its stderr is to be shown without TensorFlow's startup lines (runtime/tf-startup-logs.ts). */
  readonly dropsTfStartupLines: boolean;
  /** Kills the debuggee and everything it started. */
  kill(): void;
}

/**
 * What a debuggee imports before its program, in order: the bridge, tsx, the runtime's loader,
 * and the bridge again with `?hold`: the bootloader's list (boot-program.ts), for a launch and in
 * the Debug Terminal, which leaves tsx out where the user's own compiler runs the program.
 */
export function bridgePreloads(): string[] {
  const bridge = fileUrl(adapterPaths.bridge);
  // From TypeScript sources the bridge itself needs tsx loaded first.
  return adapterPaths.fromSource
    ? [adapterPaths.tsx, bridge, fileUrl(adapterPaths.register), `${bridge}?hold`]
    : [bridge, adapterPaths.tsx, fileUrl(adapterPaths.register), `${bridge}?hold`];
}

/** Node's options that load the bootloader (from source, tsx's CommonJS hooks first: it is a .cts). */
export function bootOptions(): string[] {
  return adapterPaths.fromSource ? ['--require', adapterPaths.tsxCjs, '--require', adapterPaths.boot] : ['--require', adapterPaths.boot];
}

export function startDebuggee(plan: ProgramStart, socketPath: string): Debuggee {
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    ...plan.env,
    [SOCKET_ENV]: socketPath,
    [CONFIG_ENV]: JSON.stringify(plan.filters),
    // The program's packages are looked up beside it (its tfjs is the one the runtime must use)...
    TFJS_CALLBACKS_PROJECT_DIR: plan.userCode[0] ? path.dirname(plan.userCode[0]) : plan.cwd,
    // ...and the runtime loads before it, so a CommonJS require() of it gets that one instance.
    TFJS_CALLBACKS_PRELOAD_RUNTIME: '1',
    // In VS Code's extension host process.execPath is Electron's binary: it must run as Node.
    ...(process.versions.electron ? { ELECTRON_RUN_AS_NODE: '1' } : {}),
    // The adapter filters its stderr: the CLI (a model's launch runs it) need not.
    [STDERR_FILTERED_ENV]: '1',
  };
  for (const k of plan.envRemoved) delete env[k];
  const child = spawn(process.execPath, [...bootOptions(), ...plan.runtimeArgs, plan.entry, ...plan.args], {
    cwd: plan.cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const exited = new Promise<number>((resolve) => {
    child.once('error', () => resolve(127));
    // A signal's death as shells report it: 128 + its number (SIGKILL 137, SIGTERM 143).
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 128 + (constants.signals[signal] ?? 15) : 1)));
  });
  // The watchdog: a shell that waits for its stdin (a pipe from this adapter) to close, which
  // happens however the adapter ends, SIGKILL included, and then kills the debuggee's process
  // group, the groups of the detached children it recorded (child-tracker.ts), and removes the
  // session's private directory. A paused debuggee cannot watch for that itself, and its
  // children would outlive it. A shell starts in a millisecond; a second Node process cost the
  // launch ~50 ms of CPU.
  const children = childrenFile(socketPath);
  const watchdog = spawn('/bin/sh', ['-c', WATCHDOG_SCRIPT, String(child.pid), children, path.dirname(socketPath)], { stdio: ['pipe', 'ignore', 'ignore'] });
  watchdog.on('error', () => {}); // no /bin/sh: the bridge still ends the program with the adapter
  const guarded = new Promise<void>((resolve) => {
    watchdog.once('spawn', () => resolve());
    watchdog.once('error', () => resolve());
  });
  return {
    process: child,
    exited,
    guarded,
    dropsTfStartupLines: dropsTfStartupLines(env),
    kill: () => {
      for (const pid of [child.pid!, ...recordedChildren(children)]) killGroup(pid);
      watchdog.stdin?.end();
    },
  };
}

/** $0: the debuggee's pid; $1: the record of detached children; $2: the private directory. */
const WATCHDOG_SCRIPT = `cat >/dev/null
kill -9 -"$0" 2>/dev/null
if [ -f "$1" ]; then
  while read -r p; do
    case "$p" in ''|*[!0-9]*) continue ;; esac
    [ "$p" -gt 1 ] && kill -9 -"$p" 2>/dev/null
  done < "$1"
fi
rm -rf "$2"`;

/** The pids child-tracker.ts recorded (none when the file is gone). */
function recordedChildren(file: string): number[] {
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .map(Number)
    .filter((pid) => Number.isInteger(pid) && pid > 1);
}

/**
 * SIGKILL to the process group `pid` leads (detached children lead their own). Only the group:
 * a pid that ended may be reused by another process, a group id not while the group lives.
 */
function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}
