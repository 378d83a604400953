/**
 * What the adapter reads of the invocations under way: their snapshots as JSON, their live objects,
 * their inputs and outputs (summaries, pages, the Callback scope's view), and Restart Frame's
 * putting back of their array inputs.
 */
import type { ActiveSnapshot, DebugAgent, Side } from '../agent-protocol.js';
import type { AgentContext, Entry } from './context.js';
import type { InputCopies } from './input-copies.js';
import type { ValueReads } from './values.js';

type InvocationReads = Pick<DebugAgent, 'snapshot' | 'live' | 'restoreInputs' | 'values' | 'details' | 'page' | 'scopeData'>;

/** An invocation's inputs, or its outputs: the output tensors, else the values it returned. */
export function valuesOf(e: Entry, side: Side): readonly unknown[] {
  if (side === 'inputs') return e.args;
  if (e.outputs && e.outputs.length > 0) return e.outputs;
  if (e.state === 'running') return [];
  if (e.values) return e.values;
  const r = e.returned;
  return r === undefined || r === null ? [] : Array.isArray(r) ? r : [r];
}

/** An invocation under way as plain JSON. */
function snapshotOf(e: Entry): ActiveSnapshot {
  const s = e.start();
  const end = e.end();
  const snap: ActiveSnapshot = {
    id: s.id,
    callback: { ...s.callback },
    op: s.op,
    Tout: [...s.Tout],
    Tin: [...(s.Tin ?? [])],
    parameterNames: [...s.parameterNames],
    phase: end ? 'returned' : 'running',
  };
  if (s.graph !== undefined) snap.graph = s.graph;
  if (s.node !== undefined) snap.node = s.node;
  if (s.callSite) snap.callSite = { ...s.callSite };
  if (end) {
    const check = end.toutCheck;
    // A callback that threw has no verdict: nothing was returned to judge.
    if (check)
      snap.toutCheck = {
        ok: check.ok,
        mismatches: check.mismatches.map((m) => ({ message: m.message, short: m.short, index: m.index, problem: m.problem })),
        narrowed: check.narrowed.map((n) => ({ ...n })),
        conversions: (check.conversions ?? []).map((c) => ({ ...c })),
      };
    if (end.error) snap.error = { name: end.error.name, message: end.error.message };
  }
  return snap;
}

export function createInvocationReads(context: AgentContext, active: readonly Entry[], copies: InputCopies, reads: ValueReads): InvocationReads {
  const entryOf = (id: number): Entry | undefined => active.find((x) => x.id === id);
  return {
    snapshot: () => active.map(snapshotOf),
    live: (id) => entryOf(id) as ReturnType<DebugAgent['live']>,
    restoreInputs(id) {
      const e = entryOf(id);
      return e ? copies.restore(e) : undefined;
    },
    values(id, side) {
      const e = entryOf(id);
      return e ? valuesOf(e, side) : undefined;
    },
    details(id) {
      const e = entryOf(id);
      if (!e) return undefined;
      const side = (name: Side, declared: readonly string[] = []) => valuesOf(e, name).map((v, i) => context.agent.valueInfo(v, declared[i]));
      const s = e.start();
      return { inputs: side('inputs', s.Tin), outputs: side('outputs', s.Tout) };
    },
    page(id, side, index, start, count) {
      const e = entryOf(id);
      if (!e) return { error: `invocation ${id} is not under way` };
      const values = valuesOf(e, side);
      const what = `${side === 'inputs' ? 'input' : 'output'} ${index} of invocation ${id}`;
      if (!(index >= 0 && index < values.length)) return { error: `${what} does not exist (${values.length} ${side})` };
      const info = context.agent.valueInfo(values[index], (side === 'inputs' ? e.start().Tin : e.start().Tout)?.[index]);
      if (info.opaque) return { error: `${what} is a ${info.kind}, not a tensor value` };
      return { info, start, values: context.agent.slice(values[index], start, count) };
    },
    scopeData(id) {
      const e = entryOf(id);
      return e ? { inputs: e.args.map(reads.scopeValue) } : undefined;
    },
  };
}
