/**
 * The debugger's agent inside the debuggee. It observes callback invocations through the runtime's
 * global hook state, decides in-process whether to stop (break on callback X, Tout mismatch,
 * NaN/Inf: a false V8 breakpoint condition costs 115–220 µs per hit, this costs nothing), and then
 * calls `callbackBreak`, on which the adapter holds its one unconditional breakpoint. It also keeps
 * the live inputs and outputs of the active invocations for the adapter's variables.
 *
 * Its API is `DebugAgent` (agent-protocol.ts), under the global AGENT_KEY; the adapter calls it
 * through agent-client.ts. `installAgent` must stay self-contained (no imports but types, no
 * module-level references): the adapter injects its source text into processes it attaches to.
 */
import type {
  CallbackInvocation,
  CallbackObserver,
  CallbackStart,
  InvocationFrame,
  KnownCallback,
  KnownGraph,
  LiveInvocation as RuntimeLive,
} from '../../runtime/events.js';
import type { NodeSite } from '../../runtime/graph-model/node-site.js';
import type { RawValues, TensorSummary } from '../../runtime/summary.js';
import type { NonFiniteFinder } from '../../runtime/graph-model/first-non-finite.js';
import type { NodeExecution, NodeObserver } from '../../runtime/graph-model/node-hooks.js';
import type {
  ActiveSnapshot,
  AgentConfig,
  BreakReason,
  CallbackScopeData,
  ConditionFailure,
  ConditionVerdict,
  DataBreakHit,
  DebugAgent,
  FlatValue,
  FunctionBreakpointRule,
  GraphRunRecord,
  KnownCallbackInfo,
  KnownGraphInfo,
  KnownNotice,
  LastBreak,
  MemoryPage,
  NodeSnapshot,
  NodeStepKind,
  ScopeValue,
  Side,
  ValueInfo,
  ValuePage,
  VariableWatch,
  WatchStatus,
} from './agent-protocol.js';
import type { AGENT_KEY as AgentKey, KNOWN_BINDING as KnownBinding } from './agent-protocol.js';

export type { ActiveSnapshot, AgentConfig, BreakReason, KnownCallbackInfo, KnownNotice } from './agent-protocol.js';

/** What the runtime's shared state gives the agent (runtime/hooks.ts `tools`). */
interface Tools {
  summarizeTensor(tensor: TensorLike): TensorSummary;
  summarizeValues(values: RawValues): TensorSummary;
  dtypeOfArray?(values: ArrayBufferView): string | undefined;
  addNodeObserver?(observer: NodeObserver): () => void;
  createNonFiniteFinder?(): NonFiniteFinder;
  nodeSite?(modelPath: string, node: string): NodeSite | undefined;
  untraced?<T>(fn: () => T): T;
  /** The program's TensorFlow.js (data breakpoints). */
  tf?: TfLike;
}

/** A tf.Variable as data breakpoints use it. */
interface VariableLike extends TensorLike {
  readonly name: string;
  assign(newValue: unknown): void;
  clone(): TensorLike;
  sub(other: TensorLike): TensorLike;
}

/** What data breakpoints use of TensorFlow.js. */
interface TfLike {
  Variable: { new (...args: never[]): VariableLike; prototype: { assign(this: VariableLike, newValue: unknown): void } };
  tidy<T>(fn: () => T): T;
  engine(): { registeredVariables: Record<string, unknown>; state: { scopeStack: unknown[] }; endScope(): void };
}

/** The runtime's shared state (runtime/hooks.ts), as far as the agent uses it. */
interface SharedState {
  observers: CallbackObserver[];
  nextToken: number;
  nextInvocation: number;
  tools?: Tools;
  known?: KnownCallback[];
  knownGraphs?: KnownGraph[];
  pausedMs?: number;
  nodeObservers?: readonly NodeObserver[];
}

/** A tfjs tensor as the agent sees it (no import of tfjs: any copy of it in the process). */
interface TensorLike {
  readonly dtype: string;
  readonly shape: number[];
  readonly size: number;
  readonly dataId: object;
  readonly isDisposed: boolean;
  dataSync(): ArrayLike<unknown>;
  reshape(shape: number[]): TensorLike;
  slice(begin: number[], size: number[]): TensorLike;
  dispose(): void;
}

interface NdArrayLike {
  readonly dtype: string;
  readonly shape: number[];
  readonly data: ArrayLike<unknown>;
}

/**
 * An invocation under way: the runtime's frame of it (its live objects, its events built when a
 * stop asks: nothing is built for a call that does not stop).
 */
type Entry = InvocationFrame;

/** Copies of an invocation's array inputs' values (keepInputs, or its first stop), for restoreInputs; undefined where none was kept. */
interface SavedInputs {
  readonly values: (ArrayLike<unknown> | undefined)[];
  /** Whether they were taken at a stop rather than as it started. */
  readonly late: boolean;
}

/** A JS literal's shape, values and what they are; summary cached. */
interface Literal {
  shape: number[];
  flat: readonly unknown[];
  leaf: string;
  summary?: TensorSummary;
}

/** The agent's own state besides its API (tests and the bridge reach these). */
export interface InstalledAgent extends DebugAgent {
  /** Invocations under way, outermost first. */
  readonly active: Entry[];
  lastBreak: LastBreak | undefined;
  pausedAt: number | undefined;
  signal(reason: BreakReason, entry: Entry, why?: Partial<LastBreak>): void;
}

/**
 * Installs the agent on `g` (once; a second call reconfigures the one there) and returns it.
 * `initial`: the launch configuration's filters, so that a stop at the program's start needs no
 * round trip.
 */
export function installAgent(g: typeof globalThis, initial?: Partial<AgentConfig>): InstalledAgent {
  // AGENT_KEY and KNOWN_BINDING, spelled here: this function cannot refer to anything outside itself.
  const AGENT_KEY_NAME: typeof AgentKey = '__tfjsCallbackDebugAgent_v3';
  const KNOWN_BINDING_NAME: typeof KnownBinding = '__tfjsCallbackDebugKnown';
  const holder = g as unknown as Record<string | symbol, unknown>;
  const existing = holder[AGENT_KEY_NAME] as InstalledAgent | undefined;
  if (existing) {
    if (initial) existing.configure(initial);
    return existing;
  }
  const STATE = Symbol.for('tfjs-callback-debugger.runtime.state');
  const state = (holder[STATE] ??= { observers: [], nextToken: 0, nextInvocation: 1 }) as SharedState;

  const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object';
  const isTensor = (v: unknown): v is TensorLike => isObject(v) && typeof v.dataSync === 'function' && Array.isArray(v.shape) && typeof v.dtype === 'string';
  const isNdArray = (v: unknown): v is NdArrayLike =>
    isObject(v) && !isTensor(v) && Array.isArray(v.shape) && typeof v.dtype === 'string' && v.data !== undefined;
  /** Runs the agent's own tensor reads outside a tfFunction trace under way (they are not the traced function's). */
  const untraced = <T>(fn: () => T): T => {
    const run = state.tools?.untraced;
    return run ? run(fn) : fn();
  };
  /** Summaries by data (a tensor's dataId, an NdArray's array): a stop asks for each one several times. */
  const summaries = new WeakMap<object, TensorSummary>();
  const num = (x: number | undefined) => (typeof x === 'number' ? Number(x.toPrecision(5)) : x);
  /**
   * NaN and ±Inf counts in words: runtime/non-finite-text.ts nonFiniteText's, its source of truth
   * (the agent imports nothing): the counts that are not 0, each infinity with its sign where the
   * signs were counted. agent.test compares the two.
   */
  const nonFiniteWords = (nan: number, inf: number, negInf: number | undefined): string => {
    const parts = [nan > 0 && `${nan} NaN`];
    if (negInf === undefined) parts.push(inf > 0 && `${inf} ±Inf`);
    else parts.push(negInf > 0 && `${negInf} −Inf`, inf - negInf > 0 && `${inf - negInf} +Inf`);
    return parts.filter(Boolean).join(', ');
  };

  const arrayName = (v: unknown): string | undefined => (ArrayBuffer.isView(v) ? Object.prototype.toString.call(v).slice(8, -1) : undefined);
  /** A typed array's TensorFlow dtype: the runtime's one table (runtime/dtypes.ts `dtypeOfArray`). */
  const arrayDType = (v: unknown): string | undefined => (ArrayBuffer.isView(v) ? state.tools?.dtypeOfArray?.(v) : undefined);

  /**
   * A JS literal a callback may return (a number, boolean or string, or a rectangular nested
   * array of one kind of them, as runtime/returned-values.ts `classify` accepts): its shape, its
   * values row-major and what they are; undefined for anything else. Arrays are cached: a stop
   * asks for each one several times.
   */
  const literals = new WeakMap<object, Literal | undefined>();
  const literal = (v: unknown): Literal | undefined => {
    if (typeof v === 'number') return { shape: [], flat: [v], leaf: Number.isInteger(v) ? 'integer' : 'number' };
    if (typeof v === 'boolean' || typeof v === 'string') return { shape: [], flat: [v], leaf: typeof v };
    if (!Array.isArray(v)) return undefined;
    if (literals.has(v)) return literals.get(v);
    const shape: number[] = [];
    // Deeper than any tensor's rank: an array that contains itself would nest forever.
    for (let level: unknown = v; Array.isArray(level); level = level[0]) if (shape.push(level.length) > 64) return undefined;
    const flat: unknown[] = [];
    const walk = (x: unknown, axis: number): boolean => {
      if (axis === shape.length) {
        if (Array.isArray(x)) return false;
        flat.push(x);
        return true;
      }
      if (!Array.isArray(x) || x.length !== shape[axis]) return false;
      for (const y of x) if (!walk(y, axis + 1)) return false;
      return true;
    };
    let found: Literal | undefined;
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
  const typeName = (v: unknown): string => {
    if (v === null || v === undefined) return String(v);
    if (typeof v !== 'object') return typeof v;
    if (typeof (v as { then?: unknown }).then === 'function') return 'Promise';
    return arrayName(v) ?? (Array.isArray(v) ? 'Array' : ((v as { constructor?: { name?: string } }).constructor?.name ?? 'Object'));
  };
  const entryOf = (id: number): Entry | undefined => active.find((x) => x.id === id);
  /** An invocation's inputs, or its outputs: the output tensors, else the values it returned. */
  const valuesOf = (e: Entry, side: Side): readonly unknown[] => {
    if (side === 'inputs') return e.args;
    if (e.outputs && e.outputs.length > 0) return e.outputs;
    if (e.state === 'running') return [];
    if (e.values) return e.values;
    const r = e.returned;
    return r === undefined || r === null ? [] : Array.isArray(r) ? r : [r];
  };
  /** How the Callback scope shows a value: from its summary where it has one, else by reference. */
  const scopeValue = (v: unknown): ScopeValue => {
    if (v === null || (typeof v !== 'object' && typeof v !== 'function')) {
      const text = typeof v === 'string' ? JSON.stringify(v) : typeof v === 'bigint' ? `${v}n` : Object.is(v, -0) ? '-0' : String(v);
      return { shown: 'primitive', text, type: typeof v };
    }
    const info = agent.info(v);
    const className = (v as { constructor?: { name?: string } }).constructor?.name ?? 'Object';
    if (info && ArrayBuffer.isView(v))
      return { shown: 'typedarray', description: agent.describe(v) ?? `${className}(${info.size})`, length: info.size, className };
    if (info && (isTensor(v) || isNdArray(v)) && (className === 'Tensor' || className === 'Variable' || className === 'NdArray'))
      return { shown: 'tensor', description: agent.describe(v) ?? info.kind, info, className };
    return { shown: 'remote' };
  };

  /** The values an input holds in place: an NdArray's data, a typed array, a plain array; undefined for anything else. */
  const arrayOf = (v: unknown): { length: number; [k: number]: unknown } | undefined => {
    if (ArrayBuffer.isView(v) && !(v instanceof DataView)) return v as unknown as { length: number; [k: number]: unknown };
    if (Array.isArray(v)) return v;
    const data = (v as { data?: unknown } | null)?.data;
    if (v !== null && typeof v === 'object' && (ArrayBuffer.isView(data) || Array.isArray(data)) && Array.isArray((v as { shape?: unknown }).shape))
      return data as { length: number; [k: number]: unknown };
    return undefined;
  };
  /** Copies of the array inputs' values, each up to KEEP_INPUTS_LIMIT (1 << 20) values. */
  const saveInputs = (args: readonly unknown[]): (ArrayLike<unknown> | undefined)[] =>
    args.map((arg) => {
      const values = arrayOf(arg);
      if (!values || values.length > 1 << 20) return undefined;
      return ArrayBuffer.isView(values) ? copyOf(values as unknown as Float64Array) : Array.prototype.slice.call(values);
    });
  /**
   * Typed-array copies of invocations that ended, reused by the next ones: a hot callback made a
   * new one a call, 3.5 % of its loop. Up to 8 per kind (by constructor: no key is built per call),
   * of up to 2^16 values each.
   */
  const spareCopies = new Map<Function, Float64Array[]>();
  const copyOf = (values: Float64Array): Float64Array => {
    const spares = spareCopies.get(values.constructor);
    if (spares) {
      for (let i = spares.length - 1; i >= 0; i--) {
        const spare = spares[i]!;
        if (spare.length !== values.length) continue;
        spares[i] = spares[spares.length - 1]!;
        spares.pop();
        spare.set(values);
        return spare;
      }
    }
    return values.slice();
  };
  const releaseCopies = (saved: SavedInputs | undefined) => {
    for (const copy of saved?.values ?? []) {
      if (!ArrayBuffer.isView(copy) || (copy as Float64Array).length > 1 << 16) continue;
      let spares = spareCopies.get(copy.constructor);
      if (!spares) {
        if (spareCopies.size >= 16) spareCopies.clear();
        spares = [];
        spareCopies.set(copy.constructor, spares);
      }
      if (spares.length < 8) spares.push(copy as Float64Array);
    }
  };
  /** The input copies of the invocations under way that have some. */
  const savedInputs = new Map<Entry, SavedInputs>();

  const active: Entry[] = [];
  const agent: InstalledAgent = {
    version: 3,
    config: { breakOnCallbacks: [], breakOnToutMismatch: true, breakOnNonFinite: false },
    active,
    lastBreak: undefined,
    ensureDebugger: undefined,

    configure(config: Partial<AgentConfig>) {
      Object.assign(agent.config, config);
      if (config.functionBreakpoints) setRules(config.functionBreakpoints);
      nodePatterns = rules.map((r) => r.pattern);
      updatePending();
      refreshNodePatterns();
      return agent.config;
    },

    /** Records why, then stops in callbackBreak. */
    signal(reason: BreakReason, entry: Entry, why?: Partial<LastBreak>) {
      agent.lastBreak = { ...why, reason, id: entry.id };
      agent.ensureDebugger?.();
      agent.callbackBreak();
      agent.lastBreak = undefined;
    },

    callbackBreak() {},

    pausedAt: undefined,
    pauseBegan() {
      agent.pausedAt = performance.now();
      // Restart Frame puts inputs back from a copy: an invocation without one gets it now.
      for (const e of active) {
        if (savedInputs.has(e) || e.state !== 'running') continue;
        savedInputs.set(e, { values: saveInputs(e.args), late: true });
      }
      // A node step ends at whatever stop comes next.
      if (stepKind !== undefined) {
        stepKind = undefined;
        syncNodeWatch();
      }
    },
    pauseEnded() {
      if (agent.pausedAt === undefined) return;
      state.pausedMs = (state.pausedMs ?? 0) + (performance.now() - agent.pausedAt);
      agent.pausedAt = undefined;
    },

    knownStatus(names: string[]) {
      const matched = names.filter((w) => w === '*' || known.some((k) => answersTo(w, k.name, k.token, k.functionName, k.node)) || graphAnswers(w));
      return { callbacks: known, graphs: knownGraphs.map(graphInfo), matched };
    },

    decideConditions(id: number, ids: number[], names: string[]): ConditionVerdict {
      const e = entryOf(id);
      if (!e) return { stop: false };
      sourceNames.set(e.callback.token, [...names]);
      let verdict: ConditionVerdict = { stop: false };
      for (const rule of rules) {
        if (!ids.includes(rule.spec.id)) continue;
        const out = evaluate(rule, bindable(names), e.args);
        if (out.thrown !== undefined) verdict = { stop: true, failure: failureOf(rule, out.thrown.error) };
        else if (out.held) verdict = { ...verdict, stop: true };
      }
      return verdict;
    },

    snapshot(): ActiveSnapshot[] {
      return active.map((e) => {
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
          snap.toutCheck = {
            ok: check.ok,
            mismatches: check.mismatches.map(
              (m) =>
                ({ message: m.message, short: m.short, index: m.index, problem: m.problem }) as {
                  message: string;
                  short: string;
                  index?: number;
                  problem: string;
                },
            ),
            narrowed: check.narrowed.map((n) => ({ ...n })),
            conversions: (check.conversions ?? []).map((c) => ({ ...c })),
          };
          if (end.error) snap.error = { name: end.error.name, message: end.error.message };
        }
        return snap;
      });
    },

    live(id: number) {
      return entryOf(id) as ReturnType<DebugAgent['live']>;
    },

    restoreInputs(id: number) {
      const e = entryOf(id);
      if (!e) return undefined;
      const saved = savedInputs.get(e);
      const out = { restored: 0, changed: 0, unsaved: 0, late: saved?.late === true };
      e.args.forEach((arg, i) => {
        const target = arrayOf(arg);
        if (!target) return;
        const copy = saved?.values[i];
        if (!copy || copy.length !== target.length) {
          out.unsaved++;
          return;
        }
        let changed = false;
        for (let k = 0; k < copy.length; k++) {
          if (!Object.is(target[k], copy[k])) {
            target[k] = copy[k];
            changed = true;
          }
        }
        out.restored++;
        if (changed) out.changed++;
      });
      return out;
    },

    values(id: number, side: Side) {
      const e = entryOf(id);
      return e ? valuesOf(e, side) : undefined;
    },

    details(id: number) {
      const e = entryOf(id);
      if (!e) return undefined;
      const side = (name: Side, declared: readonly string[] = []) => valuesOf(e, name).map((v, i) => agent.valueInfo(v, declared[i]));
      const s = e.start();
      return { inputs: side('inputs', s.Tin), outputs: side('outputs', s.Tout) };
    },

    page(id: number, side: Side, index: number, start: number, count: number) {
      const e = entryOf(id);
      if (!e) return { error: `invocation ${id} is not under way` };
      const values = valuesOf(e, side);
      const what = `${side === 'inputs' ? 'input' : 'output'} ${index} of invocation ${id}`;
      if (!(index >= 0 && index < values.length)) return { error: `${what} does not exist (${values.length} ${side})` };
      const info = agent.valueInfo(values[index], (side === 'inputs' ? e.start().Tin : e.start().Tout)?.[index]);
      if (info.opaque) return { error: `${what} is a ${info.kind}, not a tensor value` };
      return { info, start, values: agent.slice(values[index], start, count) };
    },

    scopeData(id: number): CallbackScopeData | undefined {
      const e = entryOf(id);
      if (!e) return undefined;
      return { inputs: e.args.map(scopeValue) };
    },

    info(v: unknown): ValueInfo | undefined {
      const tools = state.tools;
      if (isTensor(v)) {
        if (v.isDisposed) return { kind: 'Tensor', dtype: v.dtype, shape: [...v.shape], size: v.size, disposed: true };
        // Tensors are immutable, so a summary holds for their data; variables change data ids.
        let s = summaries.get(v.dataId);
        if (!s && tools) {
          s = untraced(() => tools.summarizeTensor(v));
          summaries.set(v.dataId, s);
        }
        const kind = (v as { constructor?: { name?: string } }).constructor?.name === 'Variable' ? 'Variable' : 'Tensor';
        return { kind, ...s, dtype: v.dtype, shape: [...v.shape], size: v.size, disposed: false } as ValueInfo;
      }
      if (isNdArray(v)) {
        let s = summaries.get(v.data);
        if (!s && tools) {
          s = tools.summarizeValues({ dtype: v.dtype, shape: v.shape, flat: v.data } as RawValues);
          summaries.set(v.data, s);
        }
        return { kind: 'NdArray', ...s, dtype: v.dtype, shape: [...v.shape], size: v.shape.reduce((a, b) => a * b, 1), disposed: false } as ValueInfo;
      }
      const dtype = arrayDType(v);
      if (dtype !== undefined) {
        const view = v as ArrayBufferView & ArrayLike<unknown>;
        let s = summaries.get(view);
        if (!s && tools) {
          s = tools.summarizeValues({ dtype, shape: [view.length], flat: view } as RawValues);
          summaries.set(view, s);
        }
        return { kind: arrayName(v), ...s, dtype, shape: [view.length], size: view.length, disposed: false } as ValueInfo;
      }
      return undefined;
    },

    valueInfo(v: unknown, declared?: string): ValueInfo {
      const i = agent.info(v);
      if (i) return i;
      const lit = literal(v);
      if (!lit) return { kind: typeName(v), dtype: '', shape: [], size: 0, disposed: false, opaque: true };
      const dtype = literalDType(lit.leaf, declared);
      if (!lit.summary && state.tools) {
        lit.summary = state.tools.summarizeValues({ dtype: lit.leaf === 'string' ? 'string' : 'float64', shape: lit.shape, flat: lit.flat } as RawValues);
      }
      return { kind: Array.isArray(v) ? 'Array' : typeof v, ...lit.summary, dtype, shape: [...lit.shape], size: lit.flat.length, disposed: false } as ValueInfo;
    },

    describe(v: unknown) {
      const i = agent.info(v);
      if (!i) return undefined;
      const sig = `${i.kind === i.dtype ? i.kind : `${i.kind} ${i.dtype}`}[${i.shape.join(',')}]`;
      if (i.disposed) return `${sig} (disposed)`;
      // A string tensor has no NaN to count, nor statistics.
      if ((i.min === undefined && i.nanCount === undefined) || i.dtype === 'string') return sig;
      const stats = i.min !== undefined ? ` min=${num(i.min)} max=${num(i.max)} mean=${num(i.mean)}` : '';
      // Statistics over the finite values, then what is not finite, in every view's words.
      const bad = nonFiniteWords(i.nanCount ?? 0, i.infCount ?? 0, i.negInfCount);
      return `${sig}${stats}${bad ? ` (${bad})` : ''}${i.exact === false ? ' (sampled)' : ''}`;
    },

    slice(v: unknown, start: number, count: number): FlatValue[] {
      const out = (values: ArrayLike<unknown>) => Array.from(values, (x) => (typeof x === 'bigint' ? Number(x) : x) as FlatValue);
      if (isTensor(v)) {
        if (v.isDisposed) return [];
        const end = Math.min(v.size, start + count);
        if (end <= start) return [];
        return untraced(() => {
          const flat = v.reshape([-1]);
          const part = flat.slice([start], [end - start]);
          try {
            return out(part.dataSync());
          } finally {
            part.dispose();
            flat.dispose();
          }
        });
      }
      if (isNdArray(v)) return out(Array.prototype.slice.call(v.data, start, start + count));
      if (ArrayBuffer.isView(v)) return out(Array.prototype.slice.call(v, start, start + count));
      const lit = literal(v);
      return lit ? out(lit.flat.slice(start, start + count)) : [];
    },

    // Model nodes: see "Model nodes" below.
    stepNodes(kind: NodeStepKind) {
      stepKind = kind;
      syncNodeWatch();
    },
    nodeValues(side: Side) {
      return pausedNode ? (side === 'inputs' ? pausedNode.e.inputs : pausedNode.e.outputs) : undefined;
    },
    nodePage(side: Side, index: number, start: number, count: number) {
      return nodePageOf(side, index, start, count);
    },
    graphRun(graph?: string): GraphRunRecord | undefined {
      const name = graph ?? pausedNode?.e.graph ?? lastRunGraph;
      const run = name !== undefined ? runRecords.get(name) : undefined;
      if (!run) return undefined;
      // The node stopped at: a node stop's, else the callback node whose callback is stopped in.
      const inCallback = [...active].reverse().find((a) => a.graph === name && a.node !== undefined)?.node;
      const at = pausedNode ? (pausedNode.e.graph === name ? pausedNode.e.node : undefined) : inCallback;
      const paused = at !== undefined ? { paused: at } : {};
      return { ...run.record, nodes: run.record.nodes.map((n) => ({ ...n })), ...paused };
    },
    nodeInfo(graph: string, node: string): NodeSnapshot | undefined {
      if (pausedNode && pausedNode.e.graph === graph && pausedNode.e.node === node) return pausedNode.snapshot;
      return runRecords.get(graph)?.snapshots.get(node);
    },

    // Data breakpoints and memory: see "Data breakpoints" below.
    watchVariables(list: VariableWatch[]) {
      return setWatches(list);
    },
    variableName(v: unknown) {
      if (isVariable(v)) return v.name;
      // A tfjs-layers LayerVariable (model.layers[i].kernel) holds its tf.Variable as `val`.
      const val = isObject(v) ? v.val : undefined;
      return isVariable(val) ? val.name : undefined;
    },
    dataValues() {
      return pausedData;
    },
    variables() {
      // No prototype: the scope lists the variables and nothing else.
      return Object.assign(Object.create(null) as Record<string, unknown>, registered());
    },
    variableList() {
      return Object.entries(registered()).flatMap(([name, v]) =>
        isVariable(v) ? [{ name, trainable: (v as { trainable?: unknown }).trainable !== false, info: agent.valueInfo(v) }] : [],
      );
    },
    memoryPin(v: unknown) {
      return pinMemory(v);
    },
    memoryRead(pin: number, offset: number, count: number) {
      return readMemory(pin, offset, count);
    },
  };

  /**
   * Whether a callback answers to `wanted`: its name, token, JS function name, node name, or the
   * node name's last part, its name in TensorFlow (StatefulPartitionedCall/log_huber: log_huber).
   */
  const answersTo = (wanted: string, name: string, token: string, functionName: string | undefined, node: string | undefined): boolean =>
    wanted === name ||
    wanted === token ||
    (functionName !== undefined && wanted === functionName) ||
    (node !== undefined && (wanted === node || wanted === node.slice(node.lastIndexOf('/') + 1)));

  const matches = (e: Entry) => {
    const wanted = agent.config.breakOnCallbacks;
    if (wanted.length === 0) return false;
    if (wanted.includes('*')) return true;
    const c = e.callback;
    for (const w of wanted) if (answersTo(w, c.name, c.token, c.functionName, e.node)) return true;
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
    pending = [...new Set([...agent.config.breakOnCallbacks, ...rules.map((r) => r.spec.name)])].filter(
      (w) => w !== '*' && !known.some((k) => answersTo(w, k.name, k.token, k.functionName, k.node)) && !graphAnswers(w),
    );
  };

  const nonFinite = (live: RuntimeLive) => {
    const tools = state.tools;
    if (!tools) return false;
    return (live.outputs ?? []).some((t) => {
      if (!isTensor(t) || t.isDisposed || t.dtype === 'string') return false;
      const s = untraced(() => tools.summarizeTensor(t));
      return (s.nanCount ?? 0) > 0 || (s.infCount ?? 0) > 0;
    });
  };

  const observer: CallbackObserver = {
    detail: 'light',
    onCallbackKnown(k: KnownCallback) {
      if (!addKnown(k)) return;
      if (nodePatterns.length > 0) refreshNodePatterns();
      if (pending.length === 0) return;
      const matched = pending.filter((w) => answersTo(w, k.name, k.token, k.functionName, k.node));
      if (matched.length > 0) pending = pending.filter((w) => !matched.includes(w));
      const notice: KnownNotice = { callback: { ...k }, matched };
      const binding = holder[KNOWN_BINDING_NAME];
      if (typeof binding === 'function') binding(JSON.stringify(notice));
    },
    onInvocationStart(frame: InvocationFrame) {
      started(frame);
    },
    onInvocationEnd(frame: InvocationFrame) {
      ended(frame);
    },
    // A runtime older than frames tells events only: they are made into a frame here.
    onCallbackStart(start: CallbackStart, live: RuntimeLive) {
      started(frameOfEvents(start, live));
    },
    onGraphKnown(g: KnownGraph) {
      addKnownGraph(g);
      if (nodePatterns.length > 0) refreshNodePatterns();
      if (pending.length === 0) return;
      const matched = pending.filter((w) => g.nodes.some((n) => nodeAnswers(compilePattern(w), n.name, n.op)));
      // Told even where nothing matched: a model that lacks a waiting node path brings its warning.
      pending = pending.filter((w) => !matched.includes(w));
      const notice: KnownNotice = { graph: graphInfo(g), matched };
      const binding = holder[KNOWN_BINDING_NAME];
      if (typeof binding === 'function') binding(JSON.stringify(notice));
    },
    onCallbackEnd(end: CallbackInvocation, live: RuntimeLive) {
      const entry = (active.find((e) => e.id === end.id) as EventsFrame | undefined) ?? frameOfEvents(end, live);
      entry.ended?.(end);
      ended(entry);
    },
  };

  /** An invocation started: a stop there is decided now (break on it, its function breakpoints, a node step into it). */
  const started = (entry: Entry) => {
    if (agent.config.keepInputs) savedInputs.set(entry, { values: saveInputs(entry.args), late: false });
    active.push(entry);
    if (stepKind === 'into') {
      // A step into from a node stop: the next node is this callback's.
      stepKind = undefined;
      syncNodeWatch();
      agent.signal('nodeStep', entry);
    } else if (matches(entry)) agent.signal('callback', entry);
    else if (rules.length > 0) {
      const why = callbackStop(entry);
      if (why) agent.signal('callback', entry, why);
    }
  };
  /** An invocation ended: a Tout mismatch or NaN/Inf stops there, then it is no longer under way. */
  const ended = (entry: Entry) => {
    const last = active.length - 1;
    const index = last >= 0 && active[last] === entry ? last : active.indexOf(entry);
    try {
      if (agent.config.breakOnToutMismatch && entry.state === 'toutMismatch') agent.signal('toutMismatch', entry);
      else if (agent.config.breakOnNonFinite && entry.state === 'returned' && nonFinite(entry)) agent.signal('nonFinite', entry);
    } finally {
      if (index === active.length - 1) active.pop();
      else if (index >= 0) active.splice(index, 1);
      // Ended: nothing restores its inputs any more (restoreInputs finds live invocations only).
      const saved = savedInputs.get(entry);
      if (saved) {
        savedInputs.delete(entry);
        releaseCopies(saved);
      }
    }
  };
  /** A frame made of a runtime's events (one older than frames), told its end event when it ends. */
  type EventsFrame = Entry & { ended?(end: CallbackInvocation): void };
  const frameOfEvents = (start: CallbackStart, live: RuntimeLive): EventsFrame => {
    let end: CallbackInvocation | undefined;
    let state: Entry['state'] = 'running';
    return {
      id: start.id,
      callback: start.callback,
      graph: start.graph,
      node: start.node,
      func: live.func,
      args: live.args,
      get returned() {
        return live.returned;
      },
      get outputs() {
        return live.outputs;
      },
      get values() {
        return live.values;
      },
      get state() {
        return state;
      },
      start: () => start,
      end: () => end,
      ended(event: CallbackInvocation) {
        end = event;
        state = event.error ? 'failed' : event.toutCheck.ok ? 'returned' : 'toutMismatch';
      },
    };
  };

  /*
   * Function breakpoints on callbacks and model nodes: each one's hits are counted and its
   * condition evaluated here, where the hit happens, so a hit that does not stop costs no pause
   * (a V8 pause the adapter resumes is two round trips, and 999 of them for a `>= 1000`).
   */
  type Condition = (...args: unknown[]) => unknown;
  interface Rule {
    readonly spec: FunctionBreakpointRule;
    readonly pattern: NodePattern;
    /** The condition compiled, by parameter list (a condition that does not compile keeps its error). */
    readonly compiled: Map<string, Condition | { error: unknown }>;
    /** Hits so far: kept when the breakpoints are set again with this id; a new id counts from 0. */
    hits: number;
    /** The hit condition, read once: a hit that does not stop is a count and this comparison. */
    readonly lets: (hits: number) => boolean;
  }
  let rules: Rule[] = [];
  /** Rules that answer to a node, by node name (with its op: a name is one op per model). */
  let nodeRuleCache = new Map<string, { op: string; rules: Rule[] }>();
  /** The source's parameter names of a callback (by token), from the adapter (`decideConditions`). */
  const sourceNames = new Map<string, string[]>();
  /** What a node breakpoint's condition sees: the Node scope's names (node-scope.ts `nodeBindings`). */
  const NODE_NAMES = ['inputs', 'outputs', 'attrs', 'op', 'node'];

  const setRules = (specs: FunctionBreakpointRule[]) => {
    const counts = new Map(rules.map((r) => [r.spec.id, r.hits]));
    rules = specs.map((spec) => ({
      spec,
      pattern: compilePattern(spec.name),
      compiled: new Map(),
      hits: counts.get(spec.id) ?? 0,
      lets: hitTest(spec.hitCondition),
    }));
    nodeRuleCache = new Map();
  };
  /** Counts a hit; whether the breakpoint's hit condition lets this one through. */
  const counted = (rule: Rule): boolean => rule.lets(++rule.hits);
  /** Parameter names as bindings: one that is no identifier (a destructured parameter) is `argN`. */
  const bindable = (names: readonly string[]): string[] => names.map((p, i) => (/^[A-Za-z_$][\w$]*$/.test(p) ? p : `arg${i}`));
  /** A condition with `values` under `names`; no condition holds. Tensors it makes are disposed. */
  const evaluate = (rule: Rule, names: readonly string[], values: readonly unknown[]): { held: boolean; thrown?: { error: unknown } } => {
    const source = rule.spec.condition?.trim();
    if (!source) return { held: true };
    const key = names.join(',');
    let test = rule.compiled.get(key);
    if (!test) {
      try {
        test = new Function(...names, `return !!(\n${source}\n);`) as Condition;
      } catch (error) {
        test = { error };
      }
      rule.compiled.set(key, test);
    }
    if (typeof test !== 'function') return { held: false, thrown: test };
    const run = test;
    try {
      const tf = tfjs();
      return { held: untraced(() => (tf ? tf.tidy(() => Boolean(run(...values))) : Boolean(run(...values)))) };
    } catch (error) {
      return { held: false, thrown: { error } };
    }
  };
  const failureOf = (rule: Rule, error: unknown): ConditionFailure => ({
    breakpoint: rule.spec.name,
    message: error instanceof Error ? `${error.name}: ${error.message}` : `threw ${typeof error === 'string' ? JSON.stringify(error) : String(error)}`,
  });

  /**
   * Whether the function breakpoints on this invocation's callback stop it, and why. A condition
   * that names what is not bound (a ReferenceError), on a callback whose source names the adapter
   * has not given, is left to the adapter (`undecided`): the JS may have renamed a parameter.
   */
  const callbackStop = (e: Entry): Partial<LastBreak> | undefined => {
    const c = e.callback;
    const given = sourceNames.get(c.token);
    let why: Partial<LastBreak> | undefined;
    const undecided: number[] = [];
    for (const rule of rules) {
      if (!answersTo(rule.spec.name, c.name, c.token, c.functionName, e.node) || !counted(rule)) continue;
      const out = evaluate(rule, bindable(given ?? e.start().parameterNames), e.args);
      if (out.held) why ??= {};
      else if (!out.thrown) continue;
      else if (!given && (out.thrown.error as Error | undefined)?.name === 'ReferenceError') undecided.push(rule.spec.id);
      else why = { conditionFailure: failureOf(rule, out.thrown.error) };
    }
    return why ?? (undecided.length > 0 ? { undecided } : undefined);
  };

  /** The node breakpoints that answer to a node (found once per node name). */
  const nodeRules = (node: string, op: string): Rule[] => {
    let cached = nodeRuleCache.get(node);
    if (!cached || cached.op !== op) {
      cached = { op, rules: rules.filter((r) => nodeAnswers(r.pattern, node, op)) };
      nodeRuleCache.set(node, cached);
    }
    return cached.rules;
  };
  /**
   * Counts a node's hits; the rules whose hit condition this one meets (undefined for none). Called
   * from the node observer's `wants`, so a hit that does not stop builds no node event at all.
   */
  const countNodeHits = (node: string, op: string): Rule[] | undefined => {
    if (livePatterns.length === 0 || CALLBACK_OPS.has(op)) return undefined;
    let met: Rule[] | undefined;
    for (const rule of nodeRules(node, op)) if (counted(rule)) (met ??= []).push(rule);
    return met;
  };
  /** Whether the node breakpoints whose hit condition a node's run met stop there (their conditions), and why. */
  const nodeStop = (e: NodeExecution, met: readonly Rule[]): Pick<LastBreak, 'matched' | 'conditionFailure'> | undefined => {
    let values: unknown[] | undefined;
    let matched: string[] | undefined;
    let conditionFailure: ConditionFailure | undefined;
    for (const rule of met) {
      if (rule.spec.condition) values ??= [e.inputs, e.outputs, e.attrs(), e.op, e.node];
      const out = evaluate(rule, NODE_NAMES, values ?? []);
      if (out.thrown) conditionFailure = failureOf(rule, out.thrown.error);
      else if (!out.held) continue;
      (matched ??= []).push(rule.spec.name);
    }
    if (!matched) return undefined;
    return conditionFailure ? { matched, conditionFailure } : { matched };
  };

  /*
   * Model nodes (runtime/graph-model/node-hooks.ts): node breakpoints, node steps, "NaN/Inf in the
   * graph", and the statuses of each run for the graph view. One node observer serves them all; it
   * is added only while one of them is on: with no node observer, models run as tfjs runs them.
   */
  const CALLBACK_OPS = new Set(['EagerPyFunc', 'PyFunc', 'PyFuncStateless']);
  /** A node breakpoint's name: a node name, its last part or an op; with `*`, a glob over names and ops. */
  interface NodePattern {
    readonly text: string;
    /** Whether it holds `*`. */
    readonly glob: boolean;
  }
  const compilePattern = (text: string): NodePattern => ({ text, glob: text.includes('*') });
  /**
   * `*` (any characters, newlines and slashes included) against a whole name, with no regular
   * expression: on a mismatch only the last `*` takes one more character, so a pattern of k stars
   * costs at most name × pattern steps, never the exponential backtracking of `^a.*b.*c$`.
   */
  const globMatches = (pattern: string, name: string): boolean => {
    let p = 0;
    let n = 0;
    let star = -1;
    let resume = 0;
    while (n < name.length) {
      if (p < pattern.length && pattern[p] === '*') {
        star = p++;
        resume = n;
      } else if (p < pattern.length && pattern[p] === name[n]) {
        p++;
        n++;
      } else if (star >= 0) {
        p = star + 1;
        n = ++resume;
      } else return false;
    }
    while (pattern[p] === '*') p++;
    return p === pattern.length;
  };
  const nodeAnswers = (p: NodePattern, name: string, op: string): boolean =>
    p.glob ? globMatches(p.text, name) || globMatches(p.text, op) : p.text === name || p.text === op || p.text === name.slice(name.lastIndexOf('/') + 1);
  let nodePatterns: NodePattern[] = [];
  /**
   * The patterns that may stop at a node: a name that only a callback answers to (a function
   * breakpoint on a callback) needs no node observer. Recomputed as callbacks and models become known.
   */
  let livePatterns: NodePattern[] = [];
  const refreshNodePatterns = () => {
    livePatterns = nodePatterns.filter(
      (p) =>
        knownGraphs.some((g) => g.nodes.some((n) => !CALLBACK_OPS.has(n.op) && nodeAnswers(p, n.name, n.op))) ||
        !known.some((k) => answersTo(p.text, k.name, k.token, k.functionName, k.node)),
    );
    syncNodeWatch();
  };

  /** The models loaded so far (the last 20), for matching node breakpoint names. */
  const knownGraphs: KnownGraph[] = [];
  const addKnownGraph = (g: KnownGraph) => {
    const at = knownGraphs.findIndex((k) => k.graph === g.graph && k.modelPath === g.modelPath);
    if (at >= 0) knownGraphs.splice(at, 1);
    knownGraphs.push(g);
    if (knownGraphs.length > 20) knownGraphs.shift();
  };
  for (const g of state.knownGraphs ?? []) addKnownGraph(g);
  const graphAnswers = (wanted: string): boolean => {
    const p = compilePattern(wanted);
    return knownGraphs.some((g) => g.nodes.some((n) => !CALLBACK_OPS.has(n.op) && nodeAnswers(p, n.name, n.op)));
  };
  const graphInfo = (g: KnownGraph): KnownGraphInfo => ({
    graph: g.graph,
    ...(g.modelPath !== undefined ? { modelPath: g.modelPath } : {}),
    nodeCount: g.nodes.length,
    ops: [...new Set(g.nodes.map((n) => n.op))].sort(),
  });

  const isFloat = (t: unknown) => isTensor(t) && /^(float|complex)/.test(t.dtype);
  const snapshotOf = (e: NodeExecution, live: boolean): NodeSnapshot => {
    const site = e.modelPath !== undefined ? state.tools?.nodeSite?.(e.modelPath, e.node) : undefined;
    return {
      graph: e.graph,
      ...(e.modelPath !== undefined ? { modelPath: e.modelPath } : {}),
      node: e.node,
      op: e.op,
      index: e.index,
      ...(e.frameKey !== undefined ? { frameKey: e.frameKey } : {}),
      inputNames: [...e.inputNames],
      attrs: e.attrs() as NodeSnapshot['attrs'],
      inputs: e.inputs.map((t) => (t ? (agent.info(t) ?? null) : null)),
      outputs: e.outputs.map((t) => agent.valueInfo(t)),
      live,
      ...(site ? { location: { ...site } } : {}),
    };
  };

  /** The node the program is stopped after (a node stop), with its live tensors. */
  let pausedNode: { e: NodeExecution; snapshot: NodeSnapshot } | undefined;
  const stopAtNode = (lastBreak: Omit<LastBreak, 'id' | 'node'>, e: NodeExecution) => {
    const snapshot = snapshotOf(e, true);
    pausedNode = { e, snapshot };
    agent.lastBreak = { ...lastBreak, id: 0, node: snapshot };
    try {
      agent.ensureDebugger?.();
      agent.callbackBreak();
    } finally {
      agent.lastBreak = undefined;
      pausedNode = undefined;
    }
  };

  /** A step from a node stop, or out of a graph's callback, under way: stop after the next node. */
  let stepKind: NodeStepKind | undefined;

  /** Graphs whose run ended since the last notice of ended runs, and whether that notice is due. */
  const endedRuns = new Set<string>();
  let endedRunsPending = false;
  /** Each graph's latest run, while the graph view watches. */
  const runRecords = new Map<string, { record: GraphRunRecord; snapshots: Map<string, NodeSnapshot> }>();
  let lastRunGraph: string | undefined;
  const record = (e: NodeExecution) => {
    let run = runRecords.get(e.graph);
    if (!run || e.index === 0) {
      run = { record: { graph: e.graph, ...(e.modelPath !== undefined ? { modelPath: e.modelPath } : {}), nodes: [] }, snapshots: new Map() };
      runRecords.set(e.graph, run);
    }
    lastRunGraph = e.graph;
    const snapshot = snapshotOf(e, false);
    const nan = snapshot.outputs.some((o, i) => isFloat(e.outputs[i]) && ((o.nanCount ?? 0) > 0 || (o.infCount ?? 0) > 0));
    run.record.nodes.push({ node: e.node, status: nan ? 'nan' : 'ran' });
    run.snapshots.set(e.node, snapshot);
  };

  let finder: NonFiniteFinder | undefined;
  /** The node `wants` last counted hits for, and the rules it met: onNode, told right after, decides on them. */
  let countedNode: string | undefined;
  let metRules: Rule[] | undefined;
  const nodeObserver: NodeObserver = {
    // With node breakpoints alone, the runtime tells only the hits that may stop: the others are counted here.
    wants(node: string, op: string) {
      countedNode = node;
      metRules = countNodeHits(node, op);
      const config = agent.config;
      return metRules !== undefined || config.watchGraph === true || config.breakOnGraphNonFinite === true || stepKind !== undefined;
    },
    onRunEnd(graph: string) {
      // The graph view's statuses go up to the last stop; the run's end is told too (the last
      // of a burst of runs, once within 200 ms: a training loop runs a model thousands of times).
      if (!agent.config.watchGraph || !runRecords.has(graph)) return;
      endedRuns.add(graph);
      if (endedRunsPending) return;
      endedRunsPending = true;
      setTimeout(() => {
        endedRunsPending = false;
        const binding = holder[KNOWN_BINDING_NAME];
        for (const name of endedRuns) {
          const run = agent.graphRun(name);
          if (run && typeof binding === 'function') binding(JSON.stringify({ graphRun: run, matched: [] } satisfies KnownNotice));
        }
        endedRuns.clear();
      }, 200);
    },
    onNode(e: NodeExecution) {
      // Counted in `wants` just before; a runtime that did not ask is counted now.
      const met = countedNode === e.node ? metRules : countNodeHits(e.node, e.op);
      countedNode = undefined;
      metRules = undefined;
      const config = agent.config;
      if (config.watchGraph) record(e);
      if (config.breakOnGraphNonFinite) {
        finder ??= state.tools?.createNonFiniteFinder?.();
        const origin = finder?.check(e);
        if (origin) return stopAtNode({ reason: 'graphNonFinite', origin: { ...origin } }, e);
      }
      if (stepKind !== undefined) {
        stepKind = undefined;
        syncNodeWatch();
        return stopAtNode({ reason: 'nodeStep' }, e);
      }
      // A callback node's breakpoint is its callback's: it stops inside, once (countNodeHits skips it).
      const why = met && nodeStop(e, met);
      if (why) stopAtNode({ reason: 'node', ...why }, e);
    },
  };
  let stopWatching: (() => void) | undefined;
  /** Adds the node observer while something needs it; removes it when nothing does. */
  const syncNodeWatch = () => {
    const c = agent.config;
    const on = c.breakOnGraphNonFinite === true || livePatterns.length > 0 || c.watchGraph === true || stepKind !== undefined;
    if (on && !stopWatching) {
      const add = state.tools?.addNodeObserver;
      if (add) {
        try {
          stopWatching = add(nodeObserver);
        } catch (err) {
          console.error(
            `tfjs-callbacks debugger: model nodes cannot be watched (node breakpoints, "NaN/Inf in the graph", the graph view): ${(err as Error).message}`,
          );
        }
      } else {
        // Before the runtime has loaded: straight into the shared list, which it reads when it loads a model.
        state.nodeObservers = [...(state.nodeObservers ?? []), nodeObserver];
        stopWatching = () => {
          state.nodeObservers = (state.nodeObservers ?? []).filter((o) => o !== nodeObserver);
        };
      }
    } else if (!on && stopWatching) {
      stopWatching();
      stopWatching = undefined;
    }
    if (!c.watchGraph) runRecords.clear();
  };

  const nodePageOf = (side: Side, index: number, start: number, count: number): ValuePage | { error: string } => {
    if (!pausedNode) return { error: 'the program is not stopped at a model node' };
    const values = side === 'inputs' ? pausedNode.e.inputs : pausedNode.e.outputs;
    const what = `${side === 'inputs' ? 'input' : 'output'} ${index} of node ${pausedNode.e.node}`;
    if (!(index >= 0 && index < values.length) || !values[index]) return { error: `${what} does not exist (${values.length} ${side})` };
    return { info: agent.valueInfo(values[index]), start, values: agent.slice(values[index], start, count) };
  };

  /*
   * Data breakpoints: while some tf.Variable is watched, tfjs's Variable.prototype.assign (what
   * optimizers and user code call) is wrapped: the old values are kept (a clone shares the data:
   * no copy), the assign applies, the condition is checked in-process, and a stop goes through
   * callbackBreak like every other. With nothing watched, assign is tfjs's own.
   */
  const tfjs = (): TfLike | undefined => state.tools?.tf;
  const isVariable = (v: unknown): v is VariableLike => {
    const tf = tfjs();
    if (tf) return v instanceof tf.Variable;
    return isTensor(v) && (v as { constructor?: { name?: string } }).constructor?.name === 'Variable' && typeof (v as { name?: unknown }).name === 'string';
  };
  /** The program's registered tf.Variables by name; none before TF.js is loaded. */
  const registered = (): Record<string, unknown> => tfjs()?.engine().registeredVariables ?? {};
  type Test = (oldValue: unknown, newValue: unknown, delta: number) => unknown;
  type Watch = VariableWatch & { test?: Test; hits: number };
  let watches = new Map<string, Watch[]>();
  let originalAssign: ((this: VariableLike, newValue: unknown) => void) | undefined;
  /** At a data breakpoint stop: [old, new, change]. */
  let pausedData: unknown[] | undefined;

  const setWatches = (list: VariableWatch[]): WatchStatus[] => {
    const tf = tfjs();
    const statuses: WatchStatus[] = [];
    const next = new Map<string, Watch[]>();
    for (const w of list) {
      const watch: Watch = { ...w, hits: 0 };
      if (w.condition.kind === 'expression') {
        try {
          watch.test = new Function('oldValue', 'newValue', 'delta', `return (\n${w.condition.source}\n);`) as Test;
        } catch (err) {
          statuses.push({ id: w.id, found: false, error: `the condition does not compile: ${(err as Error).message}` });
          continue;
        }
      }
      // Before TF.js is loaded (a breakpoint kept from the last session) the watch waits: `assign`
      // is wrapped when the runtime hands over TF.js (watchToolsArrival).
      next.set(w.variable, [...(next.get(w.variable) ?? []), watch]);
      statuses.push({ id: w.id, found: tf !== undefined && Object.hasOwn(tf.engine().registeredVariables, w.variable) });
    }
    watches = next;
    syncAssign();
    return statuses;
  };

  const syncAssign = () => {
    const tf = tfjs();
    if (!tf) return;
    const proto = tf.Variable.prototype;
    if (watches.size > 0 && !originalAssign) {
      const original = proto.assign;
      originalAssign = original;
      proto.assign = function watchedAssign(this: VariableLike, newValue: unknown) {
        const list = watches.get(this.name);
        if (!list || pausedData || this.isDisposed) return original.call(this, newValue);
        const old = untraced(() => this.clone());
        try {
          original.call(this, newValue);
          const hit = dataHit(this, old, list);
          if (hit) stopAtData(hit, this, old);
        } finally {
          old.dispose();
        }
      };
    } else if (watches.size === 0 && originalAssign) {
      proto.assign = originalAssign;
      originalAssign = undefined;
    }
  };

  /*
   * The runtime hands over its TF.js by setting the shared state's `tools` (runtime/hooks.ts). An
   * agent installed before that (a launch stops before the program's first line) wraps `assign`
   * for the watches waiting then: a data breakpoint kept from the last session holds from the start.
   */
  if (!state.tools) {
    let arrived: Tools | undefined;
    Object.defineProperty(state, 'tools', {
      configurable: true,
      enumerable: true,
      get: () => arrived,
      set(value: Tools | undefined) {
        arrived = value;
        syncAssign();
      },
    });
  }

  /** js-debug's hit condition forms (breakpoints.ts checked the text), read once into a test of the count. */
  const hitTest = (text: string | undefined): ((hits: number) => boolean) => {
    const t = (text ?? '').trim();
    if (t === '') return () => true;
    const m = /^(>=|<=|={1,3}|>|<|%)?\s*(\d+)$/.exec(t);
    if (!m) return () => false;
    const n = Number(m[2]);
    switch (m[1]) {
      case '>':
        return (hits) => hits > n;
      case '<':
        return (hits) => hits < n;
      case '<=':
        return (hits) => hits <= n;
      case '%':
        return (hits) => n > 0 && hits % n === 0;
      case '=':
      case '==':
      case '===':
        return (hits) => hits === n;
      default:
        return (hits) => hits >= n;
    }
  };
  const hitMet = (text: string | undefined, hits: number): boolean => hitTest(text)(hits);

  /*
   * A data breakpoint's condition runs with a time limit: one that loops would hang the program
   * inside `assign`. Node's vm runs it under a watchdog that stops it (about 85 µs a call: fine
   * once per assign, too much per node or callback hit, whose conditions run unlimited).
   * Without node:vm (a Node before process.getBuiltinModule) it runs as is.
   */
  const CONDITION_LIMIT_MS = 1000;
  interface LimitedScript {
    runInThisContext(options: { timeout: number }): unknown;
  }
  const vm = (globalThis as { process?: { getBuiltinModule?(id: string): unknown } }).process?.getBuiltinModule?.('node:vm') as
    | { Script: new (code: string) => LimitedScript }
    | undefined;
  const LIMITED_KEY = 'tfjs-callback-debugger.agent.limited';
  let limitedScript: LimitedScript | undefined;
  const limited = <T>(fn: () => T): T => {
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

  /** Whether an assign that just happened stops, and why: compared element by element in JS. */
  const dataHit = (v: VariableLike, old: TensorLike, list: Watch[]): DataBreakHit | undefined => {
    let maxAbs = 0;
    let oldBad = 0;
    let nan = 0;
    let inf = 0;
    let negInf = 0;
    const numeric = v.dtype !== 'string';
    if (numeric) {
      const a = untraced(() => old.dataSync());
      const b = untraced(() => v.dataSync());
      for (let i = 0; i < b.length; i++) {
        const x = Number(a[i]);
        const y = Number(b[i]);
        if (!Number.isFinite(x)) oldBad++;
        if (Number.isNaN(y)) nan++;
        else if (y === -Infinity) negInf++;
        else if (y === Infinity) inf++;
        if (x === y || (Number.isNaN(x) && Number.isNaN(y))) continue;
        const d = Math.abs(y - x);
        maxAbs = Number.isNaN(d) ? Infinity : Math.max(maxAbs, d);
      }
    }
    const ids: number[] = [];
    const whys: string[] = [];
    let conditionError: string | undefined;
    for (const w of list) {
      let held = false;
      let why = '';
      const c = w.condition;
      if (c.kind === 'always') {
        held = true;
        why = 'assigned';
      } else if (c.kind === 'nonFinite') {
        held = nan + negInf + inf > 0 && oldBad === 0;
        why = `became non-finite (${nonFiniteWords(nan, negInf + inf, negInf)})`;
      } else if (c.kind === 'changesBy') {
        held = maxAbs > c.threshold;
        why = `changed by ${Number(maxAbs.toPrecision(5))} > ${c.threshold} (largest |new - old|)`;
      } else if (w.test) {
        const test = w.test;
        const tf = tfjs();
        const scopes = tf?.engine().state.scopeStack.length ?? 0;
        try {
          held = Boolean(limited(() => (tf ? tf.tidy(() => Boolean(test(old, v, maxAbs))) : test(old, v, maxAbs))));
          why = `condition \`${c.source}\` held`;
        } catch (err) {
          held = true;
          const overran = (err as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT';
          conditionError = overran
            ? `the condition \`${c.source}\` ran over ${CONDITION_LIMIT_MS / 1000} s and was stopped (a data breakpoint's condition runs at each assign: keep it short)`
            : `the condition \`${c.source}\` threw: ${(err as Error).message}`;
          why = conditionError;
          // A stopped run leaves its tf.tidy scope open (no finally runs on termination): close it.
          if (tf) while (tf.engine().state.scopeStack.length > scopes) tf.engine().endScope();
        }
      }
      if (!held) continue;
      w.hits++;
      if (!hitMet(w.hitCondition, w.hits)) continue;
      ids.push(w.id);
      whys.push(why);
    }
    if (ids.length === 0) return undefined;
    const hit: DataBreakHit = {
      ids,
      variable: v.name,
      dtype: v.dtype,
      shape: [...v.shape],
      old: agent.valueInfo(old),
      new: agent.valueInfo(v),
      why: [...new Set(whys)].join('; '),
    };
    if (numeric) hit.maxAbsChange = maxAbs;
    if (conditionError !== undefined) hit.conditionError = conditionError;
    return hit;
  };

  const stopAtData = (hit: DataBreakHit, v: VariableLike, old: TensorLike) => {
    let change: TensorLike | undefined;
    if (v.dtype !== 'string' && v.dtype !== 'bool') {
      try {
        change = untraced(() => v.sub(old));
        hit.change = agent.valueInfo(change);
      } catch {
        change = undefined;
      }
    }
    pausedData = [old, v, change];
    agent.lastBreak = { reason: 'data', id: 0, data: hit };
    try {
      agent.ensureDebugger?.();
      agent.callbackBreak();
    } finally {
      agent.lastBreak = undefined;
      pausedData = undefined;
      change?.dispose();
    }
  };

  /*
   * Memory (DAP readMemory): a value's backing bytes as stored (little-endian), read page by page:
   * a tensor's pages are slices of it (only the page is copied out of the backend), a typed
   * array's or an NdArray's a view of its buffer. Pins are weak: a value the program dropped reads
   * as gone.
   */
  const pins = new Map<number, WeakRef<object>>();
  let nextPin = 1;
  /** Bytes per element of tfjs's storage by dtype (bool is a Uint8Array, complex64 re/im float32 pairs). */
  const TENSOR_BYTES: Record<string, number> = { float32: 4, int32: 4, bool: 1, complex64: 8 };
  const noBytes = (v: unknown): string | undefined => {
    if (isTensor(v)) {
      if (v.isDisposed) return 'the tensor is disposed';
      if (v.dtype === 'string') return 'a string tensor has no byte buffer (its values are JS strings)';
      return undefined;
    }
    if (isNdArray(v)) return ArrayBuffer.isView(v.data) ? undefined : 'this NdArray holds strings: it has no byte buffer';
    if (ArrayBuffer.isView(v)) return undefined;
    return 'not a tensor, NdArray or typed array';
  };
  const pinMemory = (v: unknown): number | { error: string } => {
    const why = noBytes(v);
    if (why) return { error: why };
    const pin = nextPin++;
    pins.set(pin, new WeakRef(v as object));
    if (pins.size > 1000) pins.delete(pins.keys().next().value!);
    return pin;
  };
  const base64 = (bytes: Uint8Array, from: number, length: number): string => Buffer.from(bytes.buffer, bytes.byteOffset + from, length).toString('base64');
  const readMemory = (pin: number, offset: number, count: number): MemoryPage | { error: string } => {
    const v = pins.get(pin)?.deref();
    if (v === undefined) return { error: 'the value is no longer there (the program dropped it)' };
    const why = noBytes(v);
    if (why) return { error: why };
    const range = (byteLength: number) => {
      const start = Math.min(Math.max(0, offset), byteLength);
      return { start, end: Math.min(byteLength, Math.max(start, offset + count)) };
    };
    if (isTensor(v)) {
      const bpe = TENSOR_BYTES[v.dtype] ?? 4;
      const byteLength = v.size * bpe;
      const { start, end } = range(byteLength);
      if (end <= start) return { offset: start, data: '', byteLength, dtype: v.dtype };
      const first = Math.floor(start / bpe);
      const last = Math.ceil(end / bpe);
      return untraced(() => {
        const whole = first === 0 && last === v.size;
        const flat = whole ? undefined : v.reshape([-1]);
        const part = flat?.slice([first], [last - first]);
        try {
          const view = (part ?? v).dataSync() as unknown as ArrayBufferView;
          const bytes = new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
          return { offset: start, data: base64(bytes, start - first * bpe, end - start), byteLength, dtype: v.dtype };
        } finally {
          part?.dispose();
          flat?.dispose();
        }
      });
    }
    const view = (isNdArray(v) ? v.data : v) as ArrayBufferView;
    const bytes = new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
    const { start, end } = range(bytes.length);
    const dtype = isNdArray(v) ? v.dtype : (arrayDType(v) ?? arrayName(v) ?? '');
    return { offset: start, data: base64(bytes, start, end - start), byteLength: bytes.length, dtype };
  };

  state.observers = [...state.observers, observer];
  if (initial) agent.configure(initial);
  // The program's tf.Variables by name wherever an expression is evaluated (Debug Console, watches,
  // conditions): an ESM program paused in a callback cannot reach its own top-level `model`.
  if (!Object.hasOwn(g, '$tfVariables')) Object.defineProperty(g, '$tfVariables', { configurable: true, enumerable: false, get: () => agent.variables() });
  holder[AGENT_KEY_NAME] = agent;
  return agent;
}
