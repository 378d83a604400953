/**
 * Conditions and logpoint expressions run with a time limit: one that loops would hang the program
 * (inside `assign`, or at a logpoint's line, where Pause gets no answer either). Node's vm runs it
 * under a watchdog that stops it (about 60-100 µs a call: fine once per assign or logpoint line, too
 * much per node or callback hit, whose conditions run unlimited). Without node:vm (a Node before
 * process.getBuiltinModule) it runs as is.
 */

export const CONDITION_LIMIT_MS = 1000;

interface LimitedScript {
  runInContext(context: object, options: { timeout: number }): unknown;
}

interface Vm {
  Script: new (code: string) => LimitedScript;
  createContext(box: object): object;
}

/** Whether `err` is the watchdog stopping a run that went over CONDITION_LIMIT_MS. */
export const overran = (err: unknown): boolean => (err as { code?: string } | undefined)?.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT';

/** Runs `fn` stopped after CONDITION_LIMIT_MS (it throws ERR_SCRIPT_EXECUTION_TIMEOUT: `overran`). */
export function createLimited(): <T>(fn: () => T) => T {
  // The built-in module, not an import: the injected agent loads no modules.
  const vm = (globalThis as { process?: { getBuiltinModule?(id: string): unknown } }).process?.getBuiltinModule?.('node:vm') as Vm | undefined;
  // The script finds `fn` in a context of the agent's own, never on the program's global: a
  // program that froze globalThis (or replaced its names) cannot take the limit away.
  let limited: { script: LimitedScript; context: object; box: { fn: (() => unknown) | undefined } } | undefined;
  return <T>(fn: () => T): T => {
    if (!vm) return fn();
    if (!limited) {
      const box = { fn: undefined as (() => unknown) | undefined };
      limited = { script: new vm.Script('fn()'), context: vm.createContext(box), box };
    }
    const { script, context, box } = limited;
    const outer = box.fn;
    box.fn = fn;
    try {
      return script.runInContext(context, { timeout: CONDITION_LIMIT_MS }) as T;
    } finally {
      box.fn = outer;
    }
  };
}
