/**
 * How the adapter names a callback invocation to people.
 */
import type { ActiveSnapshot } from '../debuggee/agent-protocol.js';

/** A named callback by its name; an unnamed one by its JS function's name rather than its token. */
export function displayName(active: ActiveSnapshot): string {
  const c = active.callback;
  return c.name !== c.token ? c.name : (c.functionName ?? c.name);
}
