/**
 * The contract between the debug adapter and its agent in the debuggee (agent.ts): the agent's
 * API under one versioned global key, and every value that crosses. Types and constants only: the
 * agent implements `DebugAgent`, the adapter calls it through agent-client.ts with real functions
 * type-checked against it, and the extension's protocol (../extension-protocol.ts) reuses the
 * value shapes.
 */

/** The global the agent lives under; the version changes when the API below does. */
export const AGENT_KEY = '__tfjsCallbackDebugAgent_v2';
export const AGENT_VERSION = 2;

/** The global function the adapter adds (`Runtime.addBinding`) to hear of callbacks as they become known. */
export const KNOWN_BINDING = '__tfjsCallbackDebugKnown';

export interface AgentConfig {
  /** Callback names, tokens, function names or node names; '*' for all. */
  breakOnCallbacks: string[];
  breakOnToutMismatch: boolean;
  breakOnNonFinite: boolean;
  /** Stop at the first model node whose outputs hold NaN/Inf from finite inputs (runtime/graph-model/first-non-finite.ts). */
  breakOnGraphNonFinite?: boolean;
}

export type BreakReason = 'callback' | 'toutMismatch' | 'nonFinite' | 'graphNonFinite';

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

/** The callbacks known so far, and which of the asked names one of them answers to. */
export interface KnownStatus {
  callbacks: KnownCallbackInfo[];
  matched: string[];
}

/** A callback invocation under way, as plain JSON. */
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

/**
 * One input or output: a tensor, NdArray, typed array, or a JS literal (kind "Array", "number",
 * "boolean", "string") with the dtype it takes; `opaque` for a value that is none of those
 * (kind says what it is: "Promise", "Object", "null", …; no dtype, shape or values).
 */
export interface ValueInfo {
  kind: string;
  dtype: string;
  shape: number[];
  size: number;
  disposed: boolean;
  opaque?: boolean;
  min?: number;
  max?: number;
  mean?: number;
  nanCount?: number;
  infCount?: number;
  zeroCount?: number;
  exact?: boolean;
  counted?: number;
  preview?: (number | string | boolean)[];
}

/** A flat value as JSON: numbers (bigints as numbers), strings or booleans. */
export type FlatValue = number | string | boolean;

/** Values [start, start + values.length) of a value, flattened row-major. */
export interface ValuePage {
  info: ValueInfo;
  start: number;
  values: FlatValue[];
}

export type Side = 'inputs' | 'outputs';

/** Summaries of an invocation's inputs and outputs (or returned values). */
export interface InvocationDetails {
  inputs: ValueInfo[];
  outputs: ValueInfo[];
}

/** Why the agent last called `callbackBreak`. */
export interface LastBreak {
  reason: BreakReason;
  /** The invocation (callback stops); 0 for a graph stop. */
  id: number;
  /** For 'graphNonFinite': where the first NaN/Inf came from. */
  origin?: GraphNonFiniteOrigin;
}

/** The first NaN/Inf of a model run, as JSON (runtime/graph-model/first-non-finite.ts `NonFiniteOrigin`). */
export interface GraphNonFiniteOrigin {
  graph: string;
  node: string;
  op: string;
  kind: 'NaN' | 'Inf' | 'NaN and Inf';
  cause: 'node' | 'input';
  inputName?: string;
  message: string;
}

/**
 * How the Callback scope shows an input: a tensor or NdArray (`info` and its `describe` text), a
 * typed array, a primitive, or `remote`: a value the adapter shows by reference (an object, a
 * function, a plain array).
 */
export type ScopeValue =
  | { shown: 'tensor'; description: string; info: ValueInfo; className: string }
  | { shown: 'typedarray'; description: string; length: number; className: string }
  | { shown: 'primitive'; text: string; type: string }
  | { shown: 'remote' };

/** What the Callback scope shows of an invocation's inputs, in one answer. */
export interface CallbackScopeData {
  inputs: ScopeValue[];
}

/** The live objects of an invocation under way (kept in the debuggee; the adapter reaches them by reference). */
export interface LiveInvocation {
  func: (...args: unknown[]) => unknown;
  args: unknown[];
  outputs?: unknown[];
  returned?: unknown;
  values?: unknown[];
}

/** The agent's API, as the adapter calls it. */
export interface DebugAgent {
  readonly version: number;
  readonly config: AgentConfig;
  configure(config: Partial<AgentConfig>): AgentConfig;
  /** The adapter's unconditional breakpoint sits in this empty function. */
  callbackBreak(): void;
  /** What the last callbackBreak was for (set only while it runs). */
  readonly lastBreak: LastBreak | undefined;
  /** Set by the launch bridge: turns the V8 debugger on before a stop (bridge.ts). */
  ensureDebugger: (() => void) | undefined;
  /** Around each stop the adapter shows: the time in between is left out of durationMs. */
  pauseBegan(): void;
  pauseEnded(): void;
  knownStatus(names: string[]): KnownStatus;
  snapshot(): ActiveSnapshot[];
  /** The live objects of an active invocation. */
  live(id: number): LiveInvocation | undefined;
  /** An active invocation's inputs, or its outputs (the output tensors, else the values returned). */
  values(id: number, side: Side): readonly unknown[] | undefined;
  details(id: number): InvocationDetails | undefined;
  page(id: number, side: Side, index: number, start: number, count: number): ValuePage | { error: string };
  /** What the Callback scope shows of an invocation (see CallbackScopeData). */
  scopeData(id: number): CallbackScopeData | undefined;
  info(value: unknown): ValueInfo | undefined;
  valueInfo(value: unknown, declared?: string): ValueInfo;
  describe(value: unknown): string | undefined;
  slice(value: unknown, start: number, count: number): FlatValue[];
}
