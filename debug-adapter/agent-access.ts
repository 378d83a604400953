/**
 * How the adapter refers to the agent in the debuggee, and how it names a callback to people.
 */
import type { ActiveSnapshot } from './debuggee/agent.js';

/** The agent's global, as an expression evaluated in the debuggee. */
export const AGENT = 'globalThis.__tfjsCallbackDebugAgent';

/** A named callback by its name; an unnamed one by its JS function's name rather than its token. */
export function displayName(active: ActiveSnapshot): string {
  const c = active.callback;
  return c.name !== c.token ? c.name : (c.functionName ?? c.name);
}
