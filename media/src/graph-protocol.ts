/**
 * Messages between the graph view webview (media/src/graph/) and its panel in the extension host
 * (extension/graph-panel.ts): the one definition both sides import. The graph is the model.json's
 * top graph as the panel read it (media/src/graph/model.ts); node names come from an untrusted
 * file, so the page only ever renders them as text.
 */

/**
 * Where a node is in the current run: not reached yet, ran, produced NaN/Inf, or stopped at; or
 * `given`, a Placeholder or Const, whose value is fed or stored and which never runs as an op.
 */
export type NodeStatus = 'not-run' | 'given' | 'ran' | 'nan' | 'paused';

export const NODE_STATUSES: readonly NodeStatus[] = ['not-run', 'given', 'ran', 'nan', 'paused'];

/** Ops whose value is given to a run (fed inputs, stored weights and constants): they never run. */
export const GIVEN_OPS: ReadonlySet<string> = new Set(['Placeholder', 'PlaceholderWithDefault', 'Const']);

/** One input of a node: `name`, `name:1` (output 1) or `^name` (a control dependency). */
export interface GraphInput {
  readonly node: string;
  readonly output: number;
  readonly control: boolean;
}

export interface GraphNode {
  readonly name: string;
  readonly op: string;
  readonly inputs: readonly GraphInput[];
  /** A callback node (EagerPyFunc, PyFunc, PyFuncStateless): the debugger can stop inside it. */
  readonly callback: boolean;
}

export interface GraphData {
  /** What the view is titled with: the model.json's path, relative to the workspace. */
  readonly title: string;
  readonly nodes: readonly GraphNode[];
  /** Graph functions of `library.function` (bodies of If/While/PartitionedCall): not drawn, counted. */
  readonly functions: number;
  /** What the reader left out and why (an input naming no node, a duplicate name), shown in the view. */
  readonly warnings: readonly string[];
}

export interface NodeStatusUpdate {
  readonly node: string;
  readonly status: NodeStatus;
}

/** Extension host → graph view. */
export type GraphHostMessage =
  /** The graph to show (replaces the one shown; statuses start as not-run). */
  | { readonly type: 'graph'; readonly graph: GraphData }
  /**
   * Node statuses of the current run. `reset` first marks every node not-run (a new run). At most
   * one node is paused: a new `paused` turns the last one to `ran`. The paused node is revealed
   * (its scopes expanded) and scrolled into view.
   */
  | { readonly type: 'status'; readonly updates: readonly NodeStatusUpdate[]; readonly reset?: boolean }
  /** The model could not be shown: what was wrong and what to do. */
  | { readonly type: 'error'; readonly message: string }
  /**
   * One line about the debugger and this view (the session ended, the program is paused in another
   * model, why a click showed no tensors); an empty text clears it.
   */
  | { readonly type: 'notice'; readonly text: string };

/** Graph view → extension host. */
export type GraphViewMessage =
  | { readonly type: 'ready' }
  /**
   * A node (not a collapsed scope) was clicked: the panel shows its tensors in the inspector when
   * the program is paused and the node ran in the run shown, else reveals it in model.json.
   */
  | { readonly type: 'nodeClicked'; readonly node: string }
  /** "Break on this node" (any node): the panel adds a function breakpoint named by the node's full name. */
  | { readonly type: 'breakOnNode'; readonly node: string }
  /** "Break on every <op>": the panel adds a function breakpoint named by the op. */
  | { readonly type: 'breakOnOp'; readonly op: string };
