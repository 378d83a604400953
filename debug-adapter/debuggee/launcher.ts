/**
 * Starts the debuggee under its guardian:
 *   node guardian.js → node --import tsx --import bridge --import register <program> <args>
 * The program's stdout and stderr come through the guardian's.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { FilterConfig, LaunchPlan } from '../launch-config.js';
import { adapterPaths, fileUrl } from '../paths.js';

export interface Debuggee {
  readonly process: ChildProcess;
  /** Resolves with the exit code when the debuggee (and so its guardian) has exited. */
  readonly exited: Promise<number>;
  /** Kills the debuggee and everything it started. */
  kill(): void;
}

export function startDebuggee(plan: LaunchPlan, socketPath: string): Debuggee {
  const nodeArgs = [
    '--import', adapterPaths.tsx,
    '--import', fileUrl(adapterPaths.bridge),
    '--import', fileUrl(adapterPaths.register),
    plan.entry,
    ...plan.args,
  ];
  const guardianArgs = adapterPaths.fromSource ? ['--import', adapterPaths.tsx, adapterPaths.guardian] : [adapterPaths.guardian];
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    ...plan.env,
    TFJS_CALLBACKS_DEBUG_SOCKET: socketPath,
    TFJS_CALLBACKS_DEBUG_CONFIG: JSON.stringify(plan.filters satisfies FilterConfig),
    TFJS_CALLBACKS_PROJECT_DIR: plan.cwd,
  };
  for (const [k, v] of Object.entries(plan.env)) if (v === '') delete env[k];
  const child = spawn(process.execPath, [...guardianArgs, JSON.stringify({ command: process.execPath, args: nodeArgs, cwd: plan.cwd })], {
    cwd: plan.cwd,
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const exited = new Promise<number>((resolve) => child.once('exit', (code, signal) => resolve(code ?? (signal ? 137 : 1))));
  return {
    process: child,
    exited,
    kill: () => {
      // Closing the lifeline makes the guardian kill the whole process group.
      child.stdin?.end();
    },
  };
}
