/**
 * What the graph view makes of the adapter's `graphRun` records, free of the vscode API so it is
 * tested with node --test: whether a run is of the model shown, the statuses it gives the nodes,
 * and what a click on a node can show (its tensors, or only where it is written, and why).
 */
import { realpath } from 'node:fs/promises';
import path from 'node:path';
import type { GraphRunRecord } from '../debug-adapter/extension-protocol.js';
import type { NodeStatusUpdate } from '../media/src/graph-protocol.js';

/**
 * The statuses a run gives: `ran`/`nan` for each node it lists, in execution order, then `paused`
 * for the node the program is paused at. Sent with `reset`, so nodes it does not list are not-run.
 */
export function statusUpdatesOfRun(run: GraphRunRecord): NodeStatusUpdate[] {
  const updates: NodeStatusUpdate[] = run.nodes.map(({ node, status }) => ({ node, status }));
  if (run.paused !== undefined) updates.push({ node: run.paused, status: 'paused' });
  return updates;
}

/** The model.json the view shows. */
export interface ShownModel {
  readonly file: string;
}

/**
 * Whether a run is of the shown model: the same file (real paths, so links and `..` agree), or,
 * when the run has no modelPath (a model built in code, or an older adapter), a graph named as the
 * model's folder (the runtime's default model name).
 */
export async function runIsOfModel(run: Pick<GraphRunRecord, 'graph' | 'modelPath'>, model: ShownModel): Promise<boolean> {
  if (run.modelPath === undefined) return run.graph === modelFolderName(model.file);
  const [a, b] = await Promise.all([realOrResolved(run.modelPath), realOrResolved(model.file)]);
  return a === b;
}

export function modelFolderName(file: string): string {
  return path.basename(path.dirname(path.resolve(file)));
}

async function realOrResolved(file: string): Promise<string> {
  try {
    return await realpath(file);
  } catch {
    // Gone or unreadable: compared as written, resolved.
    return path.resolve(file);
  }
}

/** The latest run of the shown model in a debug session, and where that session is. */
export interface ShownRun {
  readonly sessionId: string;
  readonly run: GraphRunRecord;
  /** The session is stopped (at a node, a callback or a line), so the debuggee's agent can answer. */
  readonly stopped: boolean;
  readonly ended: boolean;
}

export type ClickPlan =
  /** Ask the session for the node (`nodeInfo`) and show it in the inspector. */
  | { readonly kind: 'inspect'; readonly sessionId: string; readonly graph: string; readonly paused: boolean }
  /** Only reveal it in model.json; `why` says why no tensors. */
  | { readonly kind: 'reveal'; readonly why: string };

export function planNodeClick(node: string, shown: ShownRun | undefined): ClickPlan {
  if (!shown) return { kind: 'reveal', why: `No tensors for ${node}: no debug session has run this model while the graph view was open.` };
  if (shown.ended) return { kind: 'reveal', why: `No tensors for ${node}: the debug session of the run shown has ended.` };
  if (!shown.stopped) return { kind: 'reveal', why: `No tensors for ${node}: the program is running; pause it (a node breakpoint) to read them.` };
  if (!shown.run.nodes.some((n) => n.node === node) && shown.run.paused !== node)
    return { kind: 'reveal', why: `No tensors for ${node}: it did not run in the run shown.` };
  return { kind: 'inspect', sessionId: shown.sessionId, graph: shown.run.graph, paused: shown.run.paused === node };
}
