/**
 * Where source breakpoints' hits are counted in the debuggee (agent-protocol.ts HIT_COUNTS_GLOBAL):
 * a read-only, permanent global function over counts in its closure, defined as the agent installs,
 * before the program runs (launch). Freezing globalThis afterwards leaves it working; a program that
 * froze globalThis before the agent came (attach) gets none, and the adapter counts instead.
 */
import { HIT_COUNTS_GLOBAL, type HitCounter } from '../agent-protocol.js';

/** Defines the counter on `g` (once); false when `g` takes no new property (frozen, sealed, not extensible). */
export function installHitCounts(g: typeof globalThis): boolean {
  if (typeof (g as unknown as Record<string, unknown>)[HIT_COUNTS_GLOBAL] === 'function') return true;
  // No prototype: a program that patches Object.prototype cannot touch a count.
  const counts: Record<string, number> = Object.create(null);
  const count: HitCounter = (key) => {
    counts[key] = (counts[key] ?? 0) + 1;
    return counts[key];
  };
  try {
    Object.defineProperty(g, HIT_COUNTS_GLOBAL, { value: count, writable: false, enumerable: false, configurable: false });
    return true;
  } catch {
    return false;
  }
}
