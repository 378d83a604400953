/**
 * Compare's choice: two invocations of one callback in one debug session, the earlier as A and the
 * later as B (Δ = B − A), and which of their inputs or outputs is drawn. Which entries can be
 * compared with which, and the pair a pick makes. Plain data; the app holds it beside its state.
 */
import type { HistoryEntry, InvocationEntry, TensorRef } from './state.js';

export interface ComparePair {
  readonly sessionId: string;
  /** History keys of the earlier (A) and later (B) entry. */
  readonly a: string;
  readonly b: string;
  /** The input or output whose Δ is drawn; absent: the first that changed. */
  readonly ref?: TensorRef;
}

const isInvocation = (e: HistoryEntry | undefined): e is InvocationEntry => !!e && e.kind !== 'node';

/** Whether two history entries can be compared: two stops of one callback, in one session. */
export function comparable(x: HistoryEntry, y: HistoryEntry): boolean {
  return (
    isInvocation(x) &&
    isInvocation(y) &&
    x.key !== y.key &&
    x.sessionId === y.sessionId &&
    x.event.invocation.callback.token === y.event.invocation.callback.token
  );
}

/** The pair two comparable entries make: the earlier invocation is A. */
export function pairOf(x: InvocationEntry, y: InvocationEntry): ComparePair {
  const [a, b] = x.event.invocation.id <= y.event.invocation.id ? [x, y] : [y, x];
  return { sessionId: a.sessionId, a: a.key, b: b.key };
}

/** The stop of the same callback before `entry` (the one to compare a stop with first), if the history holds one. */
export function previousStop(history: readonly HistoryEntry[], entry: HistoryEntry): InvocationEntry | undefined {
  if (!isInvocation(entry)) return undefined;
  let best: InvocationEntry | undefined;
  for (const e of history) {
    if (!isInvocation(e) || !comparable(entry, e) || e.event.invocation.id >= entry.event.invocation.id) continue;
    if (!best || e.event.invocation.id > best.event.invocation.id) best = e;
  }
  return best;
}

/** The pair's two entries, while the history still holds both. */
export function pairEntries(history: readonly HistoryEntry[], pair: ComparePair): [InvocationEntry, InvocationEntry] | undefined {
  const a = history.find((e) => e.key === pair.a);
  const b = history.find((e) => e.key === pair.b);
  return isInvocation(a) && isInvocation(b) ? [a, b] : undefined;
}
