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

/** The global function the adapter adds (`Runtime.addBinding`) to hear of callbacks as they become known. */
export const KNOWN_BINDING = '__tfjsCallbackDebugKnown';

/** A callback the program has (runtime/events.ts `KnownCallback`). */
export interface KnownCallbackInfo {
  name: string;
  token: string;
  functionName?: string;
  node?: string;
  graph?: string;
}

/** What the agent says through KNOWN_BINDING: a callback just became known, and the wanted names it answers to. */
export interface KnownNotice {
  callback: KnownCallbackInfo;
  matched: string[];
}

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
  /** Set by the adapter when the JS it runs renamed a parameter (`beta2` for `beta`): the names V8 sees. */
  generatedParameterNames?: string[];
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
  // KNOWN_BINDING, spelled here: this function cannot refer to anything outside itself.
  const KNOWN_BINDING_NAME: typeof KNOWN_BINDING = '__tfjsCallbackDebugKnown';
  const state = (g[STATE] ??= { observers: [], nextToken: 0, nextInvocation: 1 });

  const isTensor = (v: any) =>
    v !== null && typeof v === 'object' && typeof v.dataSync === 'function' && Array.isArray(v.shape) && typeof v.dtype === 'string';
  const isNdArray = (v: any) =>
    v !== null && typeof v === 'object' && !isTensor(v) && Array.isArray(v.shape) && typeof v.dtype === 'string' && v.data !== undefined;
  /** Summaries by data (a tensor's dataId, an NdArray's array): a stop asks for each one several times. */
  const summaries = new WeakMap<object, any>();
  const num = (x: any) => (typeof x === 'number' ? Number(x.toPrecision(5)) : x);

  /**
   * A typed array's TensorFlow dtype, by its [[TypedArrayName]] (subclasses and other realms
   * included). The runtime's one table is runtime/dtypes.ts `dtypeOfArray`; this copy exists
   * because the agent cannot import, and test/debug-adapter/agent.test.ts keeps the two equal.
   */
  const ARRAY_DTYPES: Record<string, string> = {
    Float32Array: 'float32', Float64Array: 'float64', Int8Array: 'int8', Int16Array: 'int16', Int32Array: 'int32', BigInt64Array: 'int64',
    Uint8Array: 'uint8', Uint8ClampedArray: 'uint8', Uint16Array: 'uint16', Uint32Array: 'uint32', BigUint64Array: 'uint64',
  };
  const arrayName = (v: any): string | undefined => (ArrayBuffer.isView(v) ? Object.prototype.toString.call(v).slice(8, -1) : undefined);
  const arrayDType = (v: any): string | undefined => {
    const name = arrayName(v);
    return name !== undefined && Object.hasOwn(ARRAY_DTYPES, name) ? ARRAY_DTYPES[name] : undefined;
  };

  /**
   * A JS literal a callback may return (a number, boolean or string, or a rectangular nested
   * array of one kind of them, as runtime/returned-values.ts `classify` accepts): its shape, its
   * values row-major and what they are; undefined for anything else. Arrays are cached: a stop
   * asks for each one several times.
   */
  const literals = new WeakMap<object, any>();
  const literal = (v: any): { shape: number[]; flat: readonly any[]; leaf: string; summary?: any } | undefined => {
    const t = typeof v;
    if (t === 'number') return { shape: [], flat: [v], leaf: Number.isInteger(v) ? 'integer' : 'number' };
    if (t === 'boolean' || t === 'string') return { shape: [], flat: [v], leaf: t };
    if (!Array.isArray(v)) return undefined;
    if (literals.has(v)) return literals.get(v);
    const shape: number[] = [];
    // Deeper than any tensor's rank: an array that contains itself would nest forever.
    for (let level: any = v; Array.isArray(level); level = level[0]) if (shape.push(level.length) > 64) return undefined;
    const flat: any[] = [];
    const walk = (x: any, axis: number): boolean => {
      if (axis === shape.length) {
        if (Array.isArray(x)) return false;
        flat.push(x);
        return true;
      }
      if (!Array.isArray(x) || x.length !== shape[axis]) return false;
      for (const y of x) if (!walk(y, axis + 1)) return false;
      return true;
    };
    let found: any;
    if (walk(v, 0)) {
      const kind = flat.length > 0 ? typeof flat[0] : 'number';
      const uniform = flat.every((x) => typeof x === kind);
      if (uniform && (kind === 'number' || kind === 'boolean' || kind === 'string')) {
        found = { shape, flat, leaf: kind === 'number' && flat.every((x) => Number.isInteger(x)) ? 'integer' : kind };
      }
    }
    literals.set(v, found);
    return found;
  };
  /** The dtype a literal takes for a declared dtype: runtime/tout-checks.ts `literalDType`'s rule. */
  const literalDType = (leaf: string, declared: string | undefined): string => {
    if (leaf === 'boolean') return 'bool';
    if (leaf === 'string') return 'string';
    const d = declared ?? '';
    const floating = /^(b?float|complex)/.test(d);
    if (leaf === 'integer') return floating || /^u?int/.test(d) ? d : 'int32';
    return floating ? d : 'float64';
  };
  /** What a value that is no tensor value is, for people: "Promise", "Object", "null", "bigint". */
  const typeName = (v: any): string => {
    if (v === null || v === undefined) return String(v);
    if (typeof v !== 'object') return typeof v;
    if (typeof v.then === 'function') return 'Promise';
    return arrayName(v) ?? (Array.isArray(v) ? 'Array' : (v.constructor?.name ?? 'Object'));
  };
  /** An invocation's inputs, or its outputs: the output tensors, else the values it returned. */
  const valuesOf = (e: any, side: 'inputs' | 'outputs'): readonly any[] => {
    const live = e.live;
    if (side === 'inputs') return live.args;
    if (live.outputs && live.outputs.length > 0) return live.outputs;
    if (!e.end) return [];
    if (live.values) return live.values;
    const r = live.returned;
    return r === undefined || r === null ? [] : Array.isArray(r) ? r : [r];
  };

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
      updatePending();
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

    /**
     * The adapter calls these around each stop it shows: the time in between goes to the runtime's
     * `pausedMs`, which an invocation's durationMs leaves out.
     */
    pausedAt: undefined as number | undefined,
    pauseBegan() {
      agent.pausedAt = performance.now();
    },
    pauseEnded() {
      if (agent.pausedAt === undefined) return;
      state.pausedMs = (state.pausedMs ?? 0) + (performance.now() - agent.pausedAt);
      agent.pausedAt = undefined;
    },

    /** The callbacks known so far, and which of `names` one of them answers to ('*' always does). */
    knownStatus(names: string[]): { callbacks: KnownCallbackInfo[]; matched: string[] } {
      return { callbacks: known, matched: names.filter((w) => w === '*' || known.some((k) => answersTo(w, k.name, k.token, k.functionName, k.node))) };
    },

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
      const side = (name: 'inputs' | 'outputs', declared: readonly string[] = []) => valuesOf(e, name).map((v: any, i: number) => agent.valueInfo(v, declared[i]));
      return { inputs: side('inputs', e.start.Tin), outputs: side('outputs', e.start.Tout) };
    },

    /** `{ info, start, values }` of an active invocation's input or output (tensorData), or why not. */
    page(id: number, side: 'inputs' | 'outputs', index: number, start: number, count: number) {
      const e = agent.active.find((x: any) => x.start.id === id);
      if (!e) return { error: `invocation ${id} is not under way` };
      const values = valuesOf(e, side);
      const what = `${side === 'inputs' ? 'input' : 'output'} ${index} of invocation ${id}`;
      if (!(index >= 0 && index < values.length)) return { error: `${what} does not exist (${values.length} ${side})` };
      const info = agent.valueInfo(values[index], (side === 'inputs' ? e.start.Tin : e.start.Tout)?.[index]);
      if (info.opaque) return { error: `${what} is a ${info.kind}, not a tensor value` };
      return { info, start, values: agent.slice(values[index], start, count) };
    },

    /** Summary of a tensor, Variable, NdArray or typed array, or undefined for anything else. */
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
      const dtype = arrayDType(v);
      if (dtype !== undefined) {
        let s = summaries.get(v);
        if (!s && tools) {
          s = tools.summarizeValues({ dtype, shape: [v.length], flat: v });
          summaries.set(v, s);
        }
        return { kind: arrayName(v), ...s, dtype, shape: [v.length], size: v.length, disposed: false };
      }
      return undefined;
    },

    /**
     * Summary of any value a callback takes or returns: `info` for tensors and arrays; JS numbers,
     * booleans, strings and nested arrays of them as values (kind "number", "Array", …) of the
     * dtype they take for `declared` (their Tout), as the runtime's Tout check has it; anything
     * else (an object, a Promise, null, a ragged array) by its type, with `opaque: true`.
     */
    valueInfo(v: any, declared?: string) {
      const i = agent.info(v);
      if (i) return i;
      const lit = literal(v);
      if (!lit) return { kind: typeName(v), dtype: '', shape: [], size: 0, disposed: false, opaque: true };
      const dtype = literalDType(lit.leaf, declared);
      if (!lit.summary && state.tools) lit.summary = state.tools.summarizeValues({ dtype: lit.leaf === 'string' ? 'string' : 'float64', shape: lit.shape, flat: lit.flat });
      return { kind: Array.isArray(v) ? 'Array' : typeof v, ...lit.summary, dtype, shape: [...lit.shape], size: lit.flat.length, disposed: false };
    },

    /** "Tensor float32[2,3] min=… max=… NaN=0", "Float64Array float64[6] min=…", or undefined for non-tensors. */
    describe(v: any) {
      const i = agent.info(v);
      if (!i) return undefined;
      const sig = `${i.kind === i.dtype ? i.kind : `${i.kind} ${i.dtype}`}[${i.shape.join(',')}]`;
      if (i.disposed) return `${sig} (disposed)`;
      if (i.min === undefined && i.nanCount === undefined) return sig;
      const stats = i.min !== undefined ? ` min=${num(i.min)} max=${num(i.max)} mean=${num(i.mean)}` : '';
      return `${sig}${stats} NaN=${i.nanCount ?? 0}${i.infCount ? ` Inf=${i.infCount}` : ''}${i.exact === false ? ' (sampled)' : ''}`;
    },

    /**
     * Values [start, start+count) of the flattened value (nested arrays row-major, a scalar as one
     * value), as JSON-safe numbers (bigints too), strings or booleans.
     */
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
      const lit = literal(v);
      return lit ? out(lit.flat.slice(start, start + count)) : [];
    },
  };

  /**
   * Whether a callback answers to `wanted`: its name, token, JS function name, node name, or the
   * node name's last part, its name in TensorFlow (StatefulPartitionedCall/log_huber: log_huber).
   */
  const answersTo = (wanted: string, name: string, token: string, functionName: string | undefined, node: string | undefined): boolean =>
    wanted === name || wanted === token || (functionName !== undefined && wanted === functionName) ||
    (node !== undefined && (wanted === node || wanted === node.slice(node.lastIndexOf('/') + 1)));

  const matches = (start: any) => {
    const wanted = agent.config.breakOnCallbacks as string[];
    if (wanted.length === 0) return false;
    if (wanted.includes('*')) return true;
    const c = start.callback;
    for (const w of wanted) if (answersTo(w, c.name, c.token, c.functionName, start.node)) return true;
    return false;
  };

  /** Callbacks known so far (each distinct one, the first 1000), from the runtime's registrations. */
  const known: KnownCallbackInfo[] = [];
  const knownKeys = new Set<string>();
  const addKnown = (k: KnownCallbackInfo): boolean => {
    const key = `${k.name}\u0000${k.token}\u0000${k.functionName ?? ''}\u0000${k.node ?? ''}`;
    if (knownKeys.has(key)) return false;
    knownKeys.add(key);
    if (known.length < 1000) known.push({ ...k });
    return true;
  };
  for (const k of state.known ?? []) addKnown(k);
  /** Wanted names no known callback answers to yet: while there are some, each new callback is told to the adapter. */
  let pending: string[] = [];
  const updatePending = () => {
    pending = (agent.config.breakOnCallbacks as string[]).filter((w) => w !== '*' && !known.some((k) => answersTo(w, k.name, k.token, k.functionName, k.node)));
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
    onCallbackKnown(k: KnownCallbackInfo) {
      if (!addKnown(k) || pending.length === 0) return;
      const matched = pending.filter((w) => answersTo(w, k.name, k.token, k.functionName, k.node));
      if (matched.length > 0) pending = pending.filter((w) => !matched.includes(w));
      const notice: KnownNotice = { callback: k, matched };
      if (typeof g[KNOWN_BINDING_NAME] === 'function') g[KNOWN_BINDING_NAME](JSON.stringify(notice));
    },
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
