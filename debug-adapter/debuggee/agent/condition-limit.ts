/**
 * A data breakpoint's condition runs with a time limit: one that loops would hang the program
 * inside `assign`. Node's vm runs it under a watchdog that stops it (about 85 µs a call: fine
 * once per assign, too much per node or callback hit, whose conditions run unlimited).
 * Without node:vm (a Node before process.getBuiltinModule) it runs as is.
 */

export const CONDITION_LIMIT_MS = 1000;

interface LimitedScript {
  runInThisContext(options: { timeout: number }): unknown;
}

/** Where the script run under the watchdog finds the function it calls. */
const LIMITED_KEY = 'tfjs-callback-debugger.agent.limited';

/** Runs `fn` stopped after CONDITION_LIMIT_MS (it throws ERR_SCRIPT_EXECUTION_TIMEOUT). */
export function createLimited(): <T>(fn: () => T) => T {
  // The built-in module, not an import: the injected agent loads no modules.
  const vm = (globalThis as { process?: { getBuiltinModule?(id: string): unknown } }).process?.getBuiltinModule?.('node:vm') as
    | { Script: new (code: string) => LimitedScript }
    | undefined;
  let limitedScript: LimitedScript | undefined;
  return <T>(fn: () => T): T => {
    if (!vm) return fn();
    limitedScript ??= new vm.Script(`globalThis[Symbol.for(${JSON.stringify(LIMITED_KEY)})]()`);
    const slot = globalThis as unknown as Record<symbol, unknown>;
    slot[Symbol.for(LIMITED_KEY)] = fn;
    try {
      return limitedScript.runInThisContext({ timeout: CONDITION_LIMIT_MS }) as T;
    } finally {
      delete slot[Symbol.for(LIMITED_KEY)];
    }
  };
}
