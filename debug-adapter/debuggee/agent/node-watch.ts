/*
 * Model nodes (runtime/graph-model/node-hooks.ts): node breakpoints, node steps, "NaN/Inf in the
 * graph", and the statuses of each run for the graph view. One node observer serves them all; it
 * is added only while one of them is on: with no node observer, models run as tfjs runs them.
 */
import type { NodeExecution, NodeObserver, NonFiniteFinder } from '../../../runtime/hook-types.js';
import type { LastBreak, NodeSnapshot, NodeStepKind, Side, ValuePage } from '../agent-protocol.js';
import type { AgentContext } from './context.js';
import type { FunctionBreakpoints, Rule } from './function-breakpoints.js';
import type { Known } from './known.js';
import type { NodePattern } from './node-patterns.js';
import { nodeSnapshot, type RunRecords } from './run-records.js';

/** The node the program is stopped after (a node stop), with its live tensors. */
export interface PausedNode {
  readonly e: NodeExecution;
  readonly snapshot: NodeSnapshot;
}

export interface NodeWatch {
  readonly paused: PausedNode | undefined;
  /** How many node breakpoint patterns may stop at a node now. */
  livePatterns(): number;
  /** The function breakpoints' names, as node patterns (configure). */
  setPatterns(patterns: readonly NodePattern[]): void;
  /** Recomputes which patterns may stop at a node (configure). */
  refresh(): void;
  /** A callback or model became known: some pattern may stop at a node now, or no longer. */
  knownChanged(): void;
  /** A step from a node stop, or out of a graph's callback: stop after the next node. */
  step(kind: NodeStepKind | undefined): void;
  readonly stepping: NodeStepKind | undefined;
  page(side: Side, index: number, start: number, count: number): ValuePage | { error: string };
}

interface WatchState {
  patterns: readonly NodePattern[];
  /**
   * The patterns that may stop at a node: a name that only a callback answers to (a function
   * breakpoint on a callback) needs no node observer.
   */
  livePatterns: readonly NodePattern[];
  stepKind: NodeStepKind | undefined;
  paused: PausedNode | undefined;
  finder: NonFiniteFinder | undefined;
  /** The node `wants` last counted hits for, and the rules it met: onNode, told right after, decides on them. */
  countedNode: string | undefined;
  metRules: Rule[] | undefined;
  stopWatching: (() => void) | undefined;
}

interface ObserverParts {
  readonly breakpoints: () => FunctionBreakpoints;
  readonly runs: RunRecords;
  /** Adds or removes the observer as what needs it changes. */
  readonly sync: () => void;
}

function stopAtNode(context: AgentContext, s: WatchState, lastBreak: Omit<LastBreak, 'id' | 'node'>, e: NodeExecution): void {
  const snapshot = nodeSnapshot(context, e, true);
  s.paused = { e, snapshot };
  try {
    context.breakWith({ ...lastBreak, id: 0, node: snapshot });
  } finally {
    s.paused = undefined;
  }
}

function createNodeObserver(context: AgentContext, s: WatchState, { breakpoints, runs, sync }: ObserverParts): NodeObserver {
  return {
    // With node breakpoints alone, only the nodes they name are asked about again (the runtime
    // keeps the others' no until sync() moves the epoch on).
    mayWant(node: string, op: string) {
      const config = context.agent.config;
      return config.watchGraph === true || config.breakOnGraphNonFinite === true || s.stepKind !== undefined || breakpoints().mayStopAt(node, op);
    },
    // With node breakpoints alone, the runtime tells only the hits that may stop: the others are counted here.
    wants(node: string, op: string) {
      s.countedNode = node;
      s.metRules = breakpoints().countNodeHits(node, op);
      const config = context.agent.config;
      return s.metRules !== undefined || config.watchGraph === true || config.breakOnGraphNonFinite === true || s.stepKind !== undefined;
    },
    onRunEnd: (graph: string) => {
      // A node step ends with the run it was in: V8's step takes it on into the program's code.
      if (s.stepKind !== undefined) {
        s.stepKind = undefined;
        sync();
      }
      runs.ended(graph);
    },
    /** Whether this node's run stops: NaN/Inf in the graph, a node step, then the node breakpoints it met. */
    onNode(e: NodeExecution) {
      // Counted in `wants` just before; a runtime that did not ask is counted now.
      const met = s.countedNode === e.node ? s.metRules : breakpoints().countNodeHits(e.node, e.op);
      s.countedNode = undefined;
      s.metRules = undefined;
      const config = context.agent.config;
      if (config.watchGraph) runs.record(e);
      // With "NaN/Inf in any op" on, the op watch has stopped at the kernel that made it: one stop, not two.
      if (config.breakOnGraphNonFinite && !config.breakOnOpNonFinite) {
        s.finder ??= context.state.tools?.createNonFiniteFinder?.();
        const origin = s.finder?.check(e);
        if (origin) return stopAtNode(context, s, { reason: 'graphNonFinite', origin: { ...origin } }, e);
      }
      if (s.stepKind !== undefined) {
        s.stepKind = undefined;
        sync();
        return stopAtNode(context, s, { reason: 'nodeStep' }, e);
      }
      // A callback node's breakpoint is its callback's: it stops inside, once (countNodeHits skips it).
      const why = met && breakpoints().nodeStop(e, met);
      if (why) stopAtNode(context, s, { reason: 'node', ...why }, e);
    },
  };
}

/** Adds the node observer; returns how to remove it, undefined where the runtime refused it. */
function addObserver(context: AgentContext, observer: NodeObserver): (() => void) | undefined {
  const { state } = context;
  const add = state.tools?.addNodeObserver;
  if (!add) {
    // Before the runtime has loaded: straight into the shared list, which it reads when it loads a model.
    state.nodeObservers = [...(state.nodeObservers ?? []), observer];
    return () => {
      state.nodeObservers = (state.nodeObservers ?? []).filter((o) => o !== observer);
    };
  }
  try {
    return add(observer);
  } catch (err) {
    console.error(
      `tfjs-callbacks debugger: model nodes cannot be watched (node breakpoints, "NaN/Inf in the graph", the graph view): ${(err as Error).message}`,
    );
    return undefined;
  }
}

export function createNodeWatch(context: AgentContext, known: Known, breakpoints: () => FunctionBreakpoints, runs: RunRecords): NodeWatch {
  const s: WatchState = {
    patterns: [],
    livePatterns: [],
    stepKind: undefined,
    paused: undefined,
    finder: undefined,
    countedNode: undefined,
    metRules: undefined,
    stopWatching: undefined,
  };
  /** Adds the node observer while something needs it; removes it when nothing does. */
  const sync = () => {
    const c = context.agent.config;
    // Whatever mayWant reads may have changed (breakpoints, the graph settings, a node step).
    context.state.nodeInterestEpoch = (context.state.nodeInterestEpoch ?? 0) + 1;
    const on = c.breakOnGraphNonFinite === true || s.livePatterns.length > 0 || c.watchGraph === true || s.stepKind !== undefined;
    if (on && !s.stopWatching) s.stopWatching = addObserver(context, observer);
    else if (!on && s.stopWatching) {
      s.stopWatching();
      s.stopWatching = undefined;
    }
    if (!c.watchGraph) runs.clear();
  };
  const observer = createNodeObserver(context, s, { breakpoints, runs, sync });
  const refresh = () => {
    s.livePatterns = s.patterns.filter((p) => known.graphAnswers(p) || !known.callbackAnswers(p.text));
    sync();
  };
  return {
    get paused() {
      return s.paused;
    },
    get stepping() {
      return s.stepKind;
    },
    livePatterns: () => s.livePatterns.length,
    setPatterns(next) {
      s.patterns = next;
    },
    refresh,
    knownChanged() {
      if (s.patterns.length > 0) refresh();
    },
    step(kind) {
      s.stepKind = kind;
      sync();
    },
    page(side, index, start, count) {
      const paused = s.paused;
      if (!paused) return { error: 'the program is not stopped at a model node' };
      const values = side === 'inputs' ? paused.e.inputs : paused.e.outputs;
      const what = `${side === 'inputs' ? 'input' : 'output'} ${index} of node ${paused.e.node}`;
      if (!(index >= 0 && index < values.length) || !values[index]) return { error: `${what} does not exist (${values.length} ${side})` };
      return { info: context.agent.valueInfo(values[index]), start, values: context.agent.slice(values[index], start, count) };
    },
  };
}
