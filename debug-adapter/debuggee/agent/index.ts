/**
 * The debugger's agent inside the debuggee. It observes callback invocations and model nodes
 * through the runtime's global hook state, decides in-process whether to stop, and then calls
 * `callbackBreak`, on which the adapter holds its one unconditional breakpoint. It also keeps the
 * live inputs and outputs of the active invocations for the adapter's variables.
 *
 * Its API is `DebugAgent` (../agent-protocol.ts), under the global AGENT_KEY; the adapter calls it
 * through agent-client.ts. A launch's bridge imports these modules; a program the adapter attaches
 * to gets them as one script (scripts/build.mjs bundles ./injected.ts), so they import no
 * runtime code (types only) and only leaf modules of the adapter's.
 */
import { AGENT_KEY, AGENT_VERSION, type AgentConfig, OP_BIRTH_GRAPH, opBirthNode } from '../agent-protocol.js';
import { createCallbackObserver } from './callbacks-and-stops.js';
import { type AgentContext, createContext, type Entry, type InstalledAgent, installedOn } from './context.js';
import { createDataBreakpoints } from './data-breakpoints.js';
import { createFunctionBreakpoints } from './function-breakpoints.js';
import { installHitCounts } from './hit-counts.js';
import { createInputCopies, type InputCopies } from './input-copies.js';
import { createInvocationReads } from './invocations.js';
import { createKnown, type Known } from './known.js';
import { createMemory } from './memory.js';
import { createModels } from './models.js';
import { createNodeWatch, type NodeWatch } from './node-watch.js';
import { createRunRecords, type RunRecords } from './run-records.js';
import { createLogpoints } from './logpoints.js';
import { watchModuleLoads } from './module-loads.js';
import { createOpBirthStops, type OpBirthStops } from './op-births.js';
import { createStopCopies, type StopCopies } from './stop-copies.js';
import { createTrainingCurve } from './training-curve.js';
import { createValueReads } from './values.js';

export type { InstalledAgent } from './context.js';
export type { ActiveSnapshot, AgentConfig, BreakReason, KnownCallbackInfo, KnownNotice } from '../agent-protocol.js';

/**
 * Installs the agent on `g` (once; a second call reconfigures the one there) and returns it.
 * `initial`: the launch configuration's filters, so that a stop at the program's start needs no
 * round trip.
 */
export function installAgent(g: typeof globalThis, initial?: Partial<AgentConfig>): InstalledAgent {
  // First, before anything the program could have made fail: source breakpoints count hits there.
  installHitCounts(g);
  const existing = installedOn(g);
  if (existing) {
    if (initial) existing.configure(initial);
    return existing;
  }
  const context = createContext(g);
  const active: Entry[] = [];
  const copies = createInputCopies();
  const known = createKnown(context);
  const runs = createRunRecords(context);
  const breakpoints = createFunctionBreakpoints(context, () => nodes.livePatterns());
  const nodes = createNodeWatch(context, known, () => breakpoints, runs);
  const ops = createOpBirthStops(context);
  const loads = watchModuleLoads(g, (why) => context.breakWith(why));
  const stops = createStopCopies(context);
  context.agent = assemble(context, { active, copies, known, nodes, runs, breakpoints, ops, loads, stops });
  context.state.observers = [...context.state.observers, createCallbackObserver(context, active, { known, breakpoints, nodes, copies })];
  if (initial) context.agent.configure(initial);
  // The program's tf.Variables by name wherever an expression is evaluated (Debug Console, watches,
  // conditions): an ESM program paused in a callback cannot reach its own top-level `model`.
  if (!Object.hasOwn(g, '$tfVariables'))
    Object.defineProperty(g, '$tfVariables', { configurable: true, enumerable: false, get: () => context.agent.variables() });
  context.holder[AGENT_KEY] = context.agent;
  return context.agent;
}

interface Parts {
  readonly active: Entry[];
  readonly copies: InputCopies;
  readonly known: Known;
  readonly nodes: NodeWatch;
  readonly runs: RunRecords;
  readonly breakpoints: ReturnType<typeof createFunctionBreakpoints>;
  readonly ops: OpBirthStops;
  /** Sets the files whose breakpoints wait (module-loads.ts). */
  readonly loads: (files: readonly string[] | undefined) => void;
  /** Copies of stopped invocations' values, for Compare (stop-copies.ts). */
  readonly stops: StopCopies;
}

/** The agent object the adapter calls: its state and configuration here, each capability's methods from its module. */
function assemble(context: AgentContext, parts: Parts): InstalledAgent {
  const { active, copies, known, nodes, runs, breakpoints, ops, loads, stops } = parts;
  const reads = createValueReads(context);
  const agent: InstalledAgent = {
    version: AGENT_VERSION,
    config: { breakOnCallbacks: [], breakOnToutMismatch: true, breakOnNonFinite: false },
    active,
    lastBreak: undefined,
    ensureDebugger: undefined,
    pausedAt: undefined,
    configure(config: Partial<AgentConfig>) {
      Object.assign(agent.config, config);
      if (config.functionBreakpoints) breakpoints.set(config.functionBreakpoints);
      nodes.setPatterns(breakpoints.rules.map((r) => r.pattern));
      known.setWanted([...agent.config.breakOnCallbacks, ...breakpoints.rules.map((r) => r.spec.name)]);
      nodes.refresh();
      ops.sync();
      if ('moduleLoads' in config) loads(config.moduleLoads);
      return agent.config;
    },
    /** Records why, then stops in callbackBreak. */
    signal(reason, entry, why) {
      context.breakWith({ ...why, reason, id: entry.id });
    },
    callbackBreak() {},
    pauseBegan() {
      agent.pausedAt = performance.now();
      // Restart Frame puts inputs back from a copy: an invocation without one gets it now.
      for (const e of active) if (e.state === 'running') copies.save(e, true);
      // Compare: the values of the invocation the inspector shows at this stop (the innermost).
      const shown = active[active.length - 1];
      if (shown) stops.keep(shown);
      // A node step ends at whatever stop comes next.
      if (nodes.stepping !== undefined) nodes.step(undefined);
    },
    pauseEnded() {
      if (agent.pausedAt === undefined) return;
      context.state.pausedMs = (context.state.pausedMs ?? 0) + (performance.now() - agent.pausedAt);
      agent.pausedAt = undefined;
    },
    knownStatus: (names) => known.status(names),
    decideConditions(id, ids, names) {
      const e = active.find((x) => x.id === id);
      return e ? breakpoints.decide(e, ids, names) : { stop: false };
    },
    ...createInvocationReads(context, active, copies, reads),
    tensorDiff: (a, b, side, index) => stops.diff(a, b, side, index),
    info: reads.info,
    valueInfo: reads.valueInfo,
    describe: reads.describe,
    slice: reads.slice,
    stepNodes: (kind) => nodes.step(kind),
    nodeStepping: () => nodes.stepping,
    nodeValues: (side) => {
      const at = ops.paused ?? nodes.paused?.e;
      return at ? (side === 'inputs' ? at.inputs : at.outputs) : undefined;
    },
    nodePage: (side, index, start, count) => (ops.paused ? ops.page(side, index, start, count) : nodes.page(side, index, start, count)),
    graphRun: (graph) => runs.graphRun(graph, pausedWhere(nodes, active)),
    nodeInfo(graph, node) {
      const op = ops.pausedSnapshot;
      if (op && graph === OP_BIRTH_GRAPH && node === op.op) return opBirthNode(op);
      const paused = nodes.paused;
      if (paused && paused.e.graph === graph && paused.e.node === node) return paused.snapshot;
      return runs.snapshot(graph, node);
    },
    ...createDataBreakpoints(context),
    ...createMemory(context, reads),
    ...createLogpoints(context),
    ...createModels(context),
    ...createTrainingCurve(context),
  };
  return agent;
}

/** Where the program is paused, as a graph's run record tells it. */
const pausedWhere = (nodes: NodeWatch, active: readonly Entry[]) => ({
  atNode: nodes.paused && { graph: nodes.paused.e.graph, node: nodes.paused.e.node },
  callbackNode: (graph: string) => [...active].reverse().find((a) => a.graph === graph && a.node !== undefined)?.node,
});
