/**
 * F5's program, started while VS Code is still setting its session up. The extension host calls
 * `prelaunch` with the finished launch configuration (from resolveDebugConfigurationWithSubstitutedVariables,
 * which VS Code calls 30–200 ms before the adapter's launch request here), and the launch request
 * carrying its key adopts the process, already loading tsx and TF.js, held at its bridge as always.
 * One not adopted within ADOPT_MS (the session never started) is killed.
 */
import { BridgeListener } from './cdp/transports.js';
import { startDebuggee, type Debuggee } from './debuggee/launcher.js';
import { planLaunch, type LaunchArguments, type LaunchPlan } from './launch-config.js';
import { adapterPaths } from './paths.js';

/** The launch argument naming a prelaunched program (the extension adds it to the configuration). */
export const PRELAUNCH_KEY = '__tfjsCallbacksPrelaunch';

/** Long enough for VS Code to start any session; short enough that an abandoned one goes soon. */
const ADOPT_MS = 10_000;

export interface Prelaunched {
  readonly plan: LaunchPlan;
  readonly listener: BridgeListener;
  readonly debuggee: Debuggee;
}

const waiting = new Map<string, Prelaunched & { readonly timer: NodeJS.Timeout }>();
let count = 0;

/**
 * Starts the program of a launch configuration; returns the key its launch request adopts it by,
 * or undefined when the configuration cannot be planned (the launch request then says why).
 */
export function prelaunch(args: LaunchArguments): string | undefined {
  let plan: LaunchPlan;
  try {
    plan = planLaunch(args, adapterPaths.cli);
  } catch {
    return undefined;
  }
  const listener = new BridgeListener();
  const debuggee = startDebuggee(plan, listener.socketPath);
  const key = `${process.pid}.${++count}`;
  const timer = setTimeout(() => {
    waiting.delete(key);
    debuggee.kill();
    listener.dispose();
  }, ADOPT_MS);
  timer.unref();
  waiting.set(key, { plan, listener, debuggee, timer });
  return key;
}

/** The program prelaunched under `key` (once), or undefined: the launch then starts its own. */
export function adopt(key: unknown): Prelaunched | undefined {
  const found = typeof key === 'string' ? waiting.get(key) : undefined;
  if (!found) return undefined;
  waiting.delete(key as string);
  clearTimeout(found.timer);
  return found;
}
