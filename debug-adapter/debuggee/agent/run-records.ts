/**
 * Model runs as the graph view sees them (`watchGraph`): each graph's latest run, its nodes'
 * statuses (ran, NaN) and snapshots, and a notice to the adapter when a run ends.
 */
import type { NodeExecution } from '../../../runtime/hook-types.js';
import type { GraphRunRecord, NodeSnapshot } from '../agent-protocol.js';
import type { AgentContext } from './context.js';
import { isTensor } from './kinds.js';

/** Where a run's end is told: once per burst of runs (a training loop runs a model thousands of times). */
const ENDED_RUNS_NOTICE_MS = 200;

/** Where the program is paused, for a run record to say: at a node (a node stop), else in a callback node's callback. */
export interface PausedWhere {
  readonly atNode: { readonly graph: string; readonly node: string } | undefined;
  /** The callback node of `graph` whose callback is under way (the innermost). */
  callbackNode(graph: string): string | undefined;
}

export interface RunRecords {
  /** A node that ran, recorded in its graph's latest run. */
  record(e: NodeExecution): void;
  /** A run whose nodes were told ended: its record is told to the adapter (the last of a burst). */
  ended(graph: string): void;
  /** The latest run of `graph` (else the paused one's, else the last that ran), with the node it is paused at. */
  graphRun(graph: string | undefined, paused: PausedWhere): GraphRunRecord | undefined;
  /** A recorded node's snapshot. */
  snapshot(graph: string, node: string): NodeSnapshot | undefined;
  clear(): void;
}

const isFloat = (t: unknown) => isTensor(t) && /^(float|complex)/.test(t.dtype);

/** A model node that ran, as JSON: `live` where its tensors can still be read (a node stop). */
export function nodeSnapshot(context: AgentContext, e: NodeExecution, live: boolean): NodeSnapshot {
  const site = e.modelPath !== undefined ? context.state.tools?.nodeSite?.(e.modelPath, e.node) : undefined;
  const { agent } = context;
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
}

export function createRunRecords(context: AgentContext): RunRecords {
  const runs = new Map<string, { record: GraphRunRecord; snapshots: Map<string, NodeSnapshot> }>();
  let lastRunGraph: string | undefined;
  /** Graphs whose run ended since the last notice of ended runs, and whether that notice is due. */
  const endedRuns = new Set<string>();
  let endedRunsPending = false;
  const graphRun = (graph: string | undefined, paused: PausedWhere): GraphRunRecord | undefined => {
    const { atNode } = paused;
    const name = graph ?? atNode?.graph ?? lastRunGraph;
    const run = name !== undefined ? runs.get(name) : undefined;
    if (!run || name === undefined) return undefined;
    // The node stopped at: a node stop's, else the callback node whose callback is stopped in.
    const at = atNode ? (atNode.graph === name ? atNode.node : undefined) : paused.callbackNode(name);
    return { ...run.record, nodes: run.record.nodes.map((n) => ({ ...n })), ...(at !== undefined ? { paused: at } : {}) };
  };
  return {
    record(e) {
      let run = runs.get(e.graph);
      if (!run || e.index === 0) {
        run = { record: { graph: e.graph, ...(e.modelPath !== undefined ? { modelPath: e.modelPath } : {}), nodes: [] }, snapshots: new Map() };
        runs.set(e.graph, run);
      }
      lastRunGraph = e.graph;
      const snapshot = nodeSnapshot(context, e, false);
      const nan = snapshot.outputs.some((o, i) => isFloat(e.outputs[i]) && ((o.nanCount ?? 0) > 0 || (o.infCount ?? 0) > 0));
      run.record.nodes.push({ node: e.node, status: nan ? 'nan' : 'ran' });
      run.snapshots.set(e.node, snapshot);
    },
    ended(graph) {
      // The graph view's statuses go up to the last stop; the run's end is told too.
      if (!context.agent.config.watchGraph || !runs.has(graph)) return;
      endedRuns.add(graph);
      if (endedRunsPending) return;
      endedRunsPending = true;
      setTimeout(() => {
        endedRunsPending = false;
        for (const name of endedRuns) {
          const run = context.agent.graphRun(name);
          if (run) context.tell({ graphRun: run, matched: [] });
        }
        endedRuns.clear();
      }, ENDED_RUNS_NOTICE_MS);
    },
    graphRun,
    snapshot: (graph, node) => runs.get(graph)?.snapshots.get(node),
    clear: () => runs.clear(),
  };
}
