/**
 * Where source breakpoints' hits are counted. In the debuggee, by the V8 condition, so a hit that
 * does not stop costs no pause: it calls the agent's counter (agent-protocol.ts HIT_COUNTS_GLOBAL)
 * by its bare name, never through `globalThis`, which a program may freeze, delete or replace. A
 * program with no counter (it froze globalThis before the agent came: attach) has its hits counted
 * here instead, each one a short pause, and the user is told so.
 */
import type { CdpConnection } from '../cdp/connection.js';
import { HIT_COUNTS_GLOBAL } from '../debuggee/agent-protocol.js';

/**
 * `condition && hit test`, the hit counted only when the condition holds (as DAP clients count).
 * `key` is unique to this adapter's breakpoint: a program attached to again starts new counts.
 */
export function v8Condition(condition: string | undefined, hitTest: string | undefined, key: string): string | undefined {
  const user = condition?.trim() ? condition : undefined;
  if (!hitTest) return user;
  const hit = `((n) => ${hitTest})(${HIT_COUNTS_GLOBAL}(${JSON.stringify(key)}))`;
  // The user's text may end in a line comment: its own line closes it.
  return user ? `(${user}\n) && ${hit}` : hit;
}

/** Why the debuggee cannot count hits, or undefined when it can (its counter is there). */
export async function whyNoCounter(cdp: CdpConnection): Promise<string | undefined> {
  const expression = `typeof ${HIT_COUNTS_GLOBAL} === 'function' ? '' : Object.isExtensible(globalThis) ? 'missing' : 'frozen'`;
  const r = await cdp.send('Runtime.evaluate', { expression, returnByValue: true, silent: true }).catch(() => undefined);
  const found = r && !r.exceptionDetails ? String(r.result.value) : 'unknown';
  if (found === '') return undefined;
  const why =
    found === 'frozen'
      ? 'this program froze globalThis (or made it take no new names) before the debugger attached'
      : "the debugger's agent is not in this program";
  return `Hit counts are kept by the debugger, not in the program: ${why}. Each hit of a breakpoint with a hit count pauses the program for a moment.`;
}

/** Hits counted in the adapter, per breakpoint id, for a debuggee without its counter. */
export class AdapterHitCounts {
  private readonly hits = new Map<number, number>();

  /** Counts a hit of breakpoint `id`; whether it stops. */
  hit(id: number, met: (hits: number) => boolean): boolean {
    const n = (this.hits.get(id) ?? 0) + 1;
    this.hits.set(id, n);
    return met(n);
  }
}
