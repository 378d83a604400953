/**
 * The debugger's agent inside the debuggee. It observes callback invocations through the runtime's
 * global hook state, decides in-process whether to stop (break on callback X, Tout mismatch,
 * NaN/Inf: a false V8 breakpoint condition costs 115–220 µs per hit, this costs nothing), and then
 * calls `callbackBreak`, on which the adapter holds its one unconditional breakpoint. It also keeps
 * the live inputs and outputs of the active invocations for the adapter's variables.
 *
 * `installAgent` must stay self-contained (no imports, no module-level references): the adapter
 * injects its source text into processes it attaches to.
 */

export interface AgentConfig {
  /** Callback names, tokens, function names or node names; '*' for all. */
  breakOnCallbacks: string[];
  breakOnToutMismatch: boolean;
  breakOnNonFinite: boolean;
}

export type BreakReason = 'callback' | 'toutMismatch' | 'nonFinite';

export interface ActiveSnapshot {
  id: number;
  callback: { name: string; token: string; kind: string; stateful: boolean; functionName?: string };
  op: string;
  graph?: string;
  node?: string;
  Tout: string[];
  /** The inputs' dtypes as TensorFlow has them (a node's Tin). */
  Tin: string[];
  parameterNames: string[];
  callSite?: { file: string; line: number; column: number; endLine?: number; endColumn?: number };
  phase: 'running' | 'returned';
  toutCheck?: {
    ok: boolean;
    mismatches: { message: string; index?: number; problem: string }[];
    narrowed: { index: number; declared: string; storedAs: string }[];
    conversions: { index: number; from: string; fromDType: string; to: string; message: string }[];
  };
  error?: { name: string; message: string };
}

/* eslint-disable @typescript-eslint/no-explicit-any */
export function installAgent(g: any, initial?: Partial<AgentConfig>): any {
  if (g.__tfjsCallbackDebugAgent) {
    if (initial) g.__tfjsCallbackDebugAgent.configure(initial);
    return g.__tfjsCallbackDebugAgent;
  }
  const STATE = Symbol.for('tfjs-callback-debugger.runtime.state');
  const state = (g[STATE] ??= { observers: [], nextToken: 0, nextInvocation: 1 });

  const isTensor = (v: any) =>
    v !== null && typeof v === 'object' && typeof v.dataSync === 'function' && Array.isArray(v.shape) && typeof v.dtype === 'string';
  const isNdArray = (v: any) =>
    v !== null && typeof v === 'object' && !isTensor(v) && Array.isArray(v.shape) && typeof v.dtype === 'string' && v.data !== undefined;
  /** Summaries by data (a tensor's dataId, an NdArray's array): a stop asks for each one several times. */
  const summaries = new WeakMap<object, any>();
  const num = (x: any) => (typeof x === 'number' ? Number(x.toPrecision(5)) : x);

  const agent: any = {
    version: 1,
    config: { breakOnCallbacks: [], breakOnToutMismatch: true, breakOnNonFinite: false } as AgentConfig,
    /** Invocations under way, outermost first: { start, live, end?, reason? }. */
    active: [] as any[],
    /** What the last callbackBreak was for. */
    lastBreak: undefined as any,
    /**
     * Set by the launch bridge: makes sure the adapter has the V8 debugger on (it stays off until
     * the first stop when nothing needs it earlier) before `callbackBreak` is called.
     */
    ensureDebugger: undefined as undefined | (() => void),

    configure(config: Partial<AgentConfig>) {
      Object.assign(agent.config, config);
      return agent.config;
    },

    /** Records why, then stops in callbackBreak. */
    signal(reason: BreakReason, entry: any) {
      agent.lastBreak = { reason, id: entry.start.id };
      agent.ensureDebugger?.();
      agent.callbackBreak();
      agent.lastBreak = undefined;
    },

    /** The adapter's unconditional breakpoint sits in this empty function. */
    callbackBreak() {},

    snapshot(): ActiveSnapshot[] {
      return agent.active.map((e: any) => {
        const s = e.start;
        const snap: any = {
          id: s.id, callback: s.callback, op: s.op, Tout: [...s.Tout], Tin: [...(s.Tin ?? [])], parameterNames: [...s.parameterNames],
          phase: e.end ? 'returned' : 'running',
        };
        if (s.graph !== undefined) snap.graph = s.graph;
        if (s.node !== undefined) snap.node = s.node;
        if (s.callSite) snap.callSite = s.callSite;
        if (e.end) {
          snap.toutCheck = {
            ok: e.end.toutCheck.ok,
            mismatches: e.end.toutCheck.mismatches.map((m: any) => ({ message: m.message, index: m.index, problem: m.problem })),
            narrowed: e.end.toutCheck.narrowed,
            conversions: e.end.toutCheck.conversions ?? [],
          };
          if (e.end.error) snap.error = { name: e.end.error.name, message: e.end.error.message };
        }
        return snap;
      });
    },

    /** Summaries of an active invocation's inputs and of its outputs (or returned values). */
    details(id: number) {
      const e = agent.active.find((x: any) => x.start.id === id);
      if (!e) return undefined;
      const live = e.live;
      const returned = live.returned === undefined || live.returned === null ? [] : Array.isArray(live.returned) ? live.returned : [live.returned];
      const outputs = live.outputs && live.outputs.length > 0 ? live.outputs : e.end ? returned : [];
      return { inputs: live.args.map((a: any) => agent.info(a) ?? null), outputs: outputs.map((o: any) => agent.info(o) ?? null) };
    },

    /** Summary of a tensor-like value, or undefined for anything else. */
    info(v: any) {
      const tools = state.tools;
      if (isTensor(v)) {
        if (v.isDisposed) return { kind: 'Tensor', dtype: v.dtype, shape: [...v.shape], size: v.size, disposed: true };
        // Tensors are immutable, so a summary holds for their data; variables change data ids.
        let s = summaries.get(v.dataId);
        if (!s && tools) {
          s = tools.summarizeTensor(v);
          summaries.set(v.dataId, s);
        }
        return { kind: v.constructor?.name === 'Variable' ? 'Variable' : 'Tensor', ...s, dtype: v.dtype, shape: [...v.shape], size: v.size, disposed: false };
      }
      if (isNdArray(v)) {
        let s = summaries.get(v.data);
        if (!s && tools) {
          s = tools.summarizeValues({ dtype: v.dtype, shape: v.shape, flat: v.data });
          summaries.set(v.data, s);
        }
        return { kind: 'NdArray', ...s, dtype: v.dtype, shape: [...v.shape], size: v.shape.reduce((a: number, b: number) => a * b, 1), disposed: false };
      }
      if (ArrayBuffer.isView(v) && !(v instanceof DataView)) {
        const arr = v as any;
        let s = summaries.get(arr);
        if (!s && tools) {
          s = tools.summarizeValues({ dtype: 'float64', shape: [arr.length], flat: arr });
          summaries.set(arr, s);
        }
        return { kind: arr.constructor.name, ...s, dtype: arr.constructor.name, shape: [arr.length], size: arr.length, disposed: false };
      }
      return undefined;
    },

    /** "Tensor float32[2,3] min=… max=… NaN=0", or undefined for non-tensors. */
    describe(v: any) {
      const i = agent.info(v);
      if (!i) return undefined;
      const sig = `${i.kind === i.dtype ? i.kind : `${i.kind} ${i.dtype}`}[${i.shape.join(',')}]`;
      if (i.disposed) return `${sig} (disposed)`;
      if (i.min === undefined && i.nanCount === undefined) return sig;
      const stats = i.min !== undefined ? ` min=${num(i.min)} max=${num(i.max)} mean=${num(i.mean)}` : '';
      return `${sig}${stats} NaN=${i.nanCount ?? 0}${i.infCount ? ` Inf=${i.infCount}` : ''}${i.exact === false ? ' (sampled)' : ''}`;
    },

    /** Values [start, start+count) of the flattened value, as JSON-safe numbers, strings or booleans. */
    slice(v: any, start: number, count: number) {
      const out = (values: ArrayLike<any>) => Array.from(values, (x: any) => (typeof x === 'bigint' ? Number(x) : x));
      if (isTensor(v)) {
        if (v.isDisposed) return [];
        const end = Math.min(v.size, start + count);
        if (end <= start) return [];
        const flat = v.reshape([-1]);
        const part = flat.slice([start], [end - start]);
        try {
          return out(part.dataSync());
        } finally {
          part.dispose();
          flat.dispose();
        }
      }
      if (isNdArray(v)) return out(Array.prototype.slice.call(v.data, start, start + count));
      if (ArrayBuffer.isView(v)) return out(Array.prototype.slice.call(v, start, start + count));
      return [];
    },
  };

  const matches = (start: any) => {
    const wanted = agent.config.breakOnCallbacks as string[];
    if (wanted.length === 0) return false;
    if (wanted.includes('*')) return true;
    const c = start.callback;
    // A model node also answers to its name in TensorFlow (StatefulPartitionedCall/log_huber: log_huber).
    const given = start.node ? start.node.slice(start.node.lastIndexOf('/') + 1) : undefined;
    return wanted.includes(c.name) || wanted.includes(c.token) || (c.functionName && wanted.includes(c.functionName)) || (start.node && (wanted.includes(start.node) || wanted.includes(given)));
  };

  const nonFinite = (live: any) => {
    const tools = state.tools;
    if (!tools) return false;
    return (live.outputs ?? []).some((t: any) => {
      if (!isTensor(t) || t.isDisposed || t.dtype === 'string') return false;
      const s = tools.summarizeTensor(t);
      return s.nanCount > 0 || s.infCount > 0;
    });
  };

  const observer = {
    detail: 'light',
    onCallbackStart(start: any, live: any) {
      const entry = { start, live, end: undefined as any };
      agent.active.push(entry);
      if (matches(start)) agent.signal('callback', entry);
    },
    onCallbackEnd(end: any, live: any) {
      const last = agent.active.length - 1;
      const index = last >= 0 && agent.active[last].start.id === end.id ? last : agent.active.findIndex((e: any) => e.start.id === end.id);
      const entry = index >= 0 ? agent.active[index] : { start: end, live };
      entry.end = end;
      try {
        if (agent.config.breakOnToutMismatch && !end.toutCheck.ok) agent.signal('toutMismatch', entry);
        else if (agent.config.breakOnNonFinite && !end.error && nonFinite(live)) agent.signal('nonFinite', entry);
      } finally {
        if (index === agent.active.length - 1) agent.active.pop();
        else if (index >= 0) agent.active.splice(index, 1);
      }
    },
  };

  state.observers = [...state.observers, observer];
  if (initial) agent.configure(initial);
  g.__tfjsCallbackDebugAgent = agent;
  return agent;
}
