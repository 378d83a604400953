/**
 * The contract between the debug adapter and its agent in the debuggee (agent/): the agent's
 * API under one versioned global key, and every value that crosses. Types and constants only: the
 * agent implements `DebugAgent`, the adapter calls it through cdp/agent-client.ts with real functions
 * type-checked against it, and the extension's protocol (../extension-protocol.ts) reuses the
 * value shapes (agent-values.ts, agent-nodes.ts: given here too).
 */

import type { NonFiniteOutOf } from '../../runtime/non-finite-text.js';
import type { ToutMismatch } from '../../runtime/tout-verdict.js';
import type { TrainingCurveChunk } from '../../runtime/fit-log-types.js';
export type { TrainingCurveChunk };
import type { GraphNonFiniteOrigin, GraphRunRecord, NodeSnapshot } from './agent-nodes.js';
import type { OpBirthIgnore, OpBirthSnapshot } from './agent-ops.js';
import type { ModelSummary } from './agent-model.js';
import type { CallbackScopeData, FlatValue, InvocationDetails, MemoryPage, Side, TrainingVariable, ValueInfo, ValuePage } from './agent-values.js';
import type { TensorDiff } from './agent-diffs.js';

export type { ModelLayer, ModelSummary } from './agent-model.js';
export type { GraphNonFiniteOrigin, GraphRunRecord, NodeAttrValue, NodeRunStatus, NodeSnapshot } from './agent-nodes.js';
export type { DeltaMap, DiffSide, ElementwiseDiff, LargestDelta, TensorDiff } from './agent-diffs.js';
export type { OpBirthIgnore, OpBirthSnapshot, OpLayer, ProgramSite } from './agent-ops.js';
export { OP_BIRTH_GRAPH, OP_CONDITION_NAMES, opBirthNode } from './agent-ops.js';
export type {
  CallbackScopeData,
  FlatValue,
  InvocationDetails,
  MemoryPage,
  NonFiniteValue,
  PinnedValue,
  ScopeValue,
  Side,
  TrainingVariable,
  ValueInfo,
  ValuePage,
} from './agent-values.js';

/** The global the agent lives under; the version changes when the API below does. */
export const AGENT_KEY = '__tfjsCallbackDebugAgent_v3';
/** The name of the agent's script and of every call the adapter makes into it: blackboxed, never shown. */
export const AGENT_SOURCE_URL = 'tfjs-callback-debugger-agent.js';
export const AGENT_VERSION = 3;

/** The most values of one input `keepInputs` copies; a larger input is restarted as it is. */
export const KEEP_INPUTS_LIMIT = 1 << 20;

/** What `restoreInputs` did: inputs put back as they came, inputs it had no copy of, and whether any had changed. */
export interface RestoredInputs {
  restored: number;
  changed: number;
  unsaved: number;
  /** The copy was made at the invocation's first stop, not as it started (writes before that stop stay). */
  late: boolean;
}

/** The global function the adapter adds (`Runtime.addBinding`) to hear of callbacks as they become known. */
export const KNOWN_BINDING = '__tfjsCallbackDebugKnown';

/** The global function the adapter adds to hear logpoints' lines, written where the line runs (no pause). */
export const LOGPOINT_BINDING = '__tfjsCallbackDebugLogpoint';

/**
 * The global function the adapter adds to hear the training curve while the program runs: the
 * agent calls it with a TrainingCurveChunk (JSON) as each fit begins, at most every TRAINING_SEND_MS,
 * and at a fit's end.
 */
export const TRAINING_BINDING = '__tfjsCallbackDebugTraining';
export const TRAINING_SEND_MS = 500;

/** A logpoint's message in parts: its text, and each `{expression}` as a function of the frame that reads it, with its source. */
export type LogpointPart = string | { readonly read: () => unknown; readonly source: string };

/** What the agent says through LOGPOINT_BINDING: the line of the adapter's source breakpoint `id`. */
export interface LogpointNotice {
  id: number;
  text: string;
}

/**
 * The global function that counts source breakpoints' hits where they happen (the V8 condition
 * calls it by this bare name: breakpoints/hit-counts.ts). The agent defines it as it installs,
 * read-only and permanent, and keeps the counts in its closure: a program that later freezes,
 * deletes or overwrites globals cannot reach or break them.
 */
export const HIT_COUNTS_GLOBAL = '__tfjsCallbackDebugHits_v1';

/** HIT_COUNTS_GLOBAL: counts a hit of the breakpoint `key` and returns its hits so far. */
export type HitCounter = (key: string) => number;

/**
 * A function breakpoint as the agent decides it: on a callback (its name, token, function name or
 * node name) or on model nodes (a node name, its last part, an op, or a glob with `*`). The agent
 * counts its hits and evaluates its condition where the hit happens, and pauses only when it stops.
 */
// A type, not an interface: it crosses as JSON (cdp/agent-client.ts `Json`).
export type FunctionBreakpointRule = {
  /** The DAP breakpoint id: hits are counted per id (new ids, new counts). */
  id: number;
  name: string;
  /** DAP `hitCondition`, already checked by the adapter (shared/hit-condition.ts parseHitCondition's forms). */
  hitCondition?: string;
  /**
   * A JS expression: for a callback, over its inputs by parameter name; for a node, over `inputs`,
   * `outputs` (tensors), `attrs`, `op` and `node`. One that throws stops, saying why.
   */
  condition?: string;
};

/** A function breakpoint's condition that threw: the stop says why. */
export interface ConditionFailure {
  /** The function breakpoint's name. */
  breakpoint: string;
  /** `ReferenceError: x is not defined`. */
  message: string;
}

/** What a function breakpoint's condition decided at a stop the agent left to the adapter (`decideConditions`). */
export interface ConditionVerdict {
  stop: boolean;
  failure?: ConditionFailure;
}

export interface AgentConfig {
  /** Callback names, tokens, function names or node names that always stop (launch `breakOnCallbacks`); '*' for all. */
  breakOnCallbacks: string[];
  /** Function breakpoints on callbacks and model nodes, with their hit conditions and conditions. */
  functionBreakpoints?: FunctionBreakpointRule[];
  breakOnToutMismatch: boolean;
  breakOnNonFinite: boolean;
  /** Stop at the first model node whose outputs hold NaN/Inf from finite inputs (runtime/graph-model/first-non-finite.ts). */
  breakOnGraphNonFinite?: boolean;
  /**
   * Stop at the first TF.js op whose float outputs hold NaN/Inf while its inputs were finite, or at
   * a tensor made from data that held them (runtime/op-watch/). Off: nothing is hooked.
   */
  breakOnOpNonFinite?: boolean;
  /** The filter's condition over the birth (OP_CONDITION_NAMES): it stops only where it holds (or throws). */
  opNonFiniteCondition?: string;
  /** Births dismissed for the session ("don't stop here again"). */
  opNonFiniteIgnored?: OpBirthIgnore[];
  /** Keep each model run's node statuses (ran / NaN) for the graph view (`graphRun`). */
  watchGraph?: boolean;
  /**
   * Copy each invocation's array inputs (an NdArray's data, a typed array) as it starts, up to
   * KEEP_INPUTS_LIMIT values each, so Restart Frame can put back what the callback wrote in place
   * (`restoreInputs`). Off, an invocation's inputs are copied at its first stop instead.
   */
  keepInputs?: boolean;
  /** Files whose source breakpoints wait to bind: a CommonJS module compiled for one stops first (agent/module-loads.ts). */
  moduleLoads?: string[];
  /**
   * Ask for the V8 debugger (`ensureDebugger`) as a callback starts: "Errors thrown in callbacks"
   * is on while the debugger is off, and V8 must be pausing on exceptions before the callback throws.
   */
  debuggerBeforeCallbacks?: boolean;
}

export type BreakReason = 'callback' | 'toutMismatch' | 'nonFinite' | 'graphNonFinite' | 'opNonFinite' | 'node' | 'nodeStep' | 'data' | 'moduleLoad';

/** A CommonJS module about to be compiled: its file, its code's length and source map (not the code). */
export interface ModuleLoad {
  file: string;
  length: number;
  sourceMapURL?: string;
}

/** A step from a stop in a graph run: `over` stops after the next node; `into` also at the first line of a callback that starts first. */
export type NodeStepKind = 'over' | 'into';

/** A callback the program has (runtime/events.ts `KnownCallback`). */
export interface KnownCallbackInfo {
  name: string;
  token: string;
  functionName?: string;
  node?: string;
  graph?: string;
}

/** A model's nodes, as a debugger matches node breakpoints against them. */
export interface KnownGraphInfo {
  graph: string;
  modelPath?: string;
  /** How many nodes; the names and ops stay in the debuggee. */
  nodeCount: number;
  ops: string[];
}

/** What the agent says through KNOWN_BINDING: a callback or a model's graph just became known, and the wanted names it answers to. */
export interface KnownNotice {
  callback?: KnownCallbackInfo;
  graph?: KnownGraphInfo;
  /** A watched graph's run ended (the graph view's statuses of the whole run); no name matched by it. */
  graphRun?: GraphRunRecord;
  matched: string[];
}

/** The callbacks and graphs known so far, and which of the asked names one of them answers to. */
export interface KnownStatus {
  callbacks: KnownCallbackInfo[];
  graphs?: KnownGraphInfo[];
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
  /** The runtime's Tout verdict (runtime/tout-verdict.ts), shown as sent: never judged or worded again. */
  toutCheck?: {
    ok: boolean;
    mismatches: (Pick<ToutMismatch, 'message' | 'short' | 'index'> & { problem: string })[];
    narrowed: { index: number; declared: string; storedAs: string }[];
    conversions: { index: number; from: string; fromDType: string; to: string; message: string }[];
  };
  error?: { name: string; message: string };
}

/** Why the agent last called `callbackBreak`. */
export interface LastBreak {
  reason: BreakReason;
  /** The invocation (callback stops); 0 for a graph stop. */
  id: number;
  /** For 'graphNonFinite': where the first NaN/Inf came from. */
  origin?: GraphNonFiniteOrigin;
  /** For 'opNonFinite': the birth of NaN/Inf, with the op's inputs and outputs. */
  op?: OpBirthSnapshot;
  /** For node stops ('node', 'nodeStep', 'graphNonFinite'): the node that just ran. */
  node?: NodeSnapshot;
  /** For 'node': the node breakpoint names it answered to. */
  matched?: string[];
  /** For 'callback' and 'node': a function breakpoint's condition threw (it stops, saying why). */
  conditionFailure?: ConditionFailure;
  /**
   * For 'callback': function breakpoints whose conditions name what the agent does not bind (the
   * source's parameter names where the JS it runs renamed them): the adapter decides them with
   * `decideConditions` and the source's names.
   */
  undecided?: number[];
  /** For 'nonFinite': each output's NaN/±Inf counts (null for one that is not a tensor). */
  nonFinite?: (NonFiniteOutOf | null)[];
  /** For 'data': the tf.Variable assigned and what changed. */
  data?: DataBreakHit;
  /** For 'moduleLoad': the module about to be compiled (never shown: the adapter binds and resumes). */
  load?: ModuleLoad;
}

/**
 * What a data breakpoint's condition asks of an assign (debug-adapter/breakpoints/data.ts parses
 * the DAP `condition`): every assign, NaN/Inf appearing, a change larger than a threshold, or a
 * JS expression over `oldValue`, `newValue` (tensors) and `delta` (the largest |new - old|).
 */
export type DataCondition = { kind: 'always' } | { kind: 'nonFinite' } | { kind: 'changesBy'; threshold: number } | { kind: 'expression'; source: string };

/** A data breakpoint as the agent keeps it: the tf.Variable's name (TF.js keeps names unique). */
export interface VariableWatch {
  /** The DAP breakpoint id. */
  id: number;
  variable: string;
  condition: DataCondition;
  /** DAP `hitCondition`, already checked by the adapter (shared/hit-condition.ts parseHitCondition's forms). */
  hitCondition?: string;
}

/** An assign a data breakpoint stopped on. */
export interface DataBreakHit {
  /** The ids of the watches that held. */
  ids: number[];
  variable: string;
  dtype: string;
  shape: number[];
  old: ValueInfo;
  new: ValueInfo;
  /** new - old, for numeric variables. */
  change?: ValueInfo;
  /** The largest |new - old| (Infinity where a value became or stopped being NaN/Inf). */
  maxAbsChange?: number;
  /** Why it stopped, in words: "became non-finite (3 NaN)", "changed by 0.52 > 0.1". */
  why: string;
  /** A condition expression that threw: the stop says so. */
  conditionError?: string;
}

/** A watch's state after `watchVariables`: whether a variable of that name is registered now. */
export interface WatchStatus {
  id: number;
  found: boolean;
  /** Why the agent cannot watch (no tfjs loaded yet, a condition that does not compile). */
  error?: string;
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
  /**
   * At a 'callback' stop with `undecided` function breakpoints: their conditions with the
   * invocation's inputs under `parameterNames` (the source's); the agent keeps those names for the
   * callback, so its later hits are decided in-process.
   */
  decideConditions(id: number, breakpoints: number[], parameterNames: string[]): ConditionVerdict;
  snapshot(): ActiveSnapshot[];
  /** The live objects of an active invocation. */
  live(id: number): LiveInvocation | undefined;
  /** Puts an active invocation's array inputs back as they came (Restart Frame); undefined when it is not under way. */
  restoreInputs(id: number): RestoredInputs | undefined;
  /** An active invocation's inputs, or its outputs (the output tensors, else the values returned). */
  values(id: number, side: Side): readonly unknown[] | undefined;
  details(id: number): InvocationDetails | undefined;
  page(id: number, side: Side, index: number, start: number, count: number): ValuePage | { error: string };
  /** One input or output of two stopped invocations compared, from the copies kept at their stops (agent-diffs.ts); or why not. */
  tensorDiff(a: number, b: number, side: Side, index: number): TensorDiff | { error: string };
  /** What the Callback scope shows of an invocation (see CallbackScopeData). */
  scopeData(id: number): CallbackScopeData | undefined;
  info(value: unknown): ValueInfo | undefined;
  valueInfo(value: unknown, declared?: string): ValueInfo;
  describe(value: unknown): string | undefined;
  /** A logpoint's line: its text with each `{expression}`'s value as text (a tensor by its summary); one that throws shows its error. */
  logpointText(parts: readonly LogpointPart[]): string;
  /** Sends the logpoint's line to the adapter (LOGPOINT_BINDING); false, so that V8 does not pause, once sent; true when no adapter listens. */
  writeLogpoint(id: number, parts: readonly LogpointPart[]): boolean;
  slice(value: unknown, start: number, count: number): FlatValue[];
  /** From a node stop: stop again after the next node of the run (`into`: or in a callback that starts first). Cleared by the next stop. */
  stepNodes(kind: NodeStepKind): void;
  /** The node step under way (its run has not reached the next node nor ended), if any. */
  nodeStepping(): NodeStepKind | undefined;
  /** The paused node's live inputs and outputs (a node stop), or the op's at an op stop ('opNonFinite'), for variables and conditions. */
  nodeValues(side: Side): readonly unknown[] | undefined;
  /** A page of the paused node's (or op's) input or output values. */
  nodePage(side: Side, index: number, start: number, count: number): ValuePage | { error: string };
  /** The latest run of `graph` (the paused one, else the last that ran) while `watchGraph` is on. */
  graphRun(graph?: string): GraphRunRecord | undefined;
  /** A node of the latest watched run: the paused one with live tensors, another with the summaries taken when it ran. */
  nodeInfo(graph: string, node: string): NodeSnapshot | undefined;
  /**
   * Data breakpoints: replaces the watched tf.Variables. While some are watched, tfjs's
   * `Variable.prototype.assign` is wrapped (keeps the old values, applies, checks the condition,
   * stops with reason 'data'); with none, it is tfjs's own again.
   */
  watchVariables(watches: VariableWatch[]): WatchStatus[];
  /** Whether `value` is a tf.Variable (or a tfjs-layers LayerVariable holding one): its name (a data breakpoint's dataId), else undefined. */
  variableName(value: unknown): string | undefined;
  /** At a data breakpoint stop: [old value, new value (the variable), change or undefined]. */
  dataValues(): readonly unknown[] | undefined;
  /**
   * The program's tf.Variables (`tf.engine().registeredVariables`) by name, as a fresh object (the
   * tf.Variables scope's value; the global `$tfVariables` gives it to the Debug Console and watches).
   */
  variables(): Record<string, unknown>;
  /** Each registered tf.Variable with its summary (the Show tf.Variables quick pick), in registration order. */
  variableList(): TrainingVariable[];
  /** Keeps a tensor, NdArray or typed array (weakly) for readMemory: its pin, or why it has no bytes. */
  memoryPin(value: unknown): number | { error: string };
  /** Bytes [offset, offset + count) of a pinned value's buffer, or why not. */
  memoryRead(pin: number, offset: number, count: number): MemoryPage | { error: string };
  /** `value` as a tf.LayersModel's summary (`where`: how the adapter found it), else undefined (not a model). */
  modelSummary(value: unknown, where: string): ModelSummary | undefined;
  /**
   * The training curve's points not yet sent (the same chunk TRAINING_BINDING carries), and where
   * the fit is now; undefined when no fit has begun since the agent came.
   */
  trainingCurve(): TrainingCurveChunk | undefined;
}
