/**
 * Where the runtime keeps its backend choice in a process, shared by every copy of the runtime
 * (runtime/backend.ts) and read by the debuggee's bridge without loading TF.js: the bridge tells the
 * adapter which backend the preloads chose, so the extension's status bar can show it for a
 * Debug Terminal's program too, whose backend line goes to the terminal, not to the Debug Console.
 */
export const BACKEND_STATE_KEY = Symbol.for('tfjs-callback-debugger.runtime.backend');

export interface BackendState<Report> {
  report: Report | undefined;
  printed: boolean;
}

/** The backend this process chose, if it chose one (no import of the runtime). */
export function chosenBackend(): string | undefined {
  const state = (globalThis as unknown as Record<symbol, BackendState<{ backend?: unknown }> | undefined>)[BACKEND_STATE_KEY];
  const backend = state?.report?.backend;
  return typeof backend === 'string' ? backend : undefined;
}
