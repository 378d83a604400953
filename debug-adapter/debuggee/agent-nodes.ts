/**
 * Model nodes as they cross between the agent and the adapter (and on to the graph view): a node
 * that ran, a graph's latest run, and where a run's first NaN/Inf came from. Types only;
 * agent-protocol.ts gives them with the rest of the contract.
 */
import type { NodeAttrValue } from '../../runtime/graph-model/node-attrs.js';
import type { ValueInfo } from './agent-values.js';

/** An attribute of a model node, as JSON (tensors' values left out: their dtype and shape). */
export type { NodeAttrValue } from '../../runtime/graph-model/node-attrs.js';

/** A model node that ran: where a node stop is, or one the graph view asks about (`nodeInfo`). */
export interface NodeSnapshot {
  /** The model's name (its folder's name unless given). */
  graph: string;
  /** The model.json it was loaded from, when it was loaded from a file. */
  modelPath?: string;
  node: string;
  op: string;
  /** Its place in its run's execution order, from 0. */
  index: number;
  /** Inside control flow, tfjs's key for this run of the node (`name-<frame>-<iteration>`). */
  frameKey?: string;
  /** Data inputs (`name` or `name:k`), in order. */
  inputNames: string[];
  attrs: Record<string, NodeAttrValue>;
  /** Summaries; null for an input tfjs had no tensor for. */
  inputs: (ValueInfo | null)[];
  outputs: ValueInfo[];
  /** Whether its tensors can be read now (`nodePage`): the paused node's can; tfjs disposes others after their last use. */
  live: boolean;
  /** Its `"name"` in model.json (1-based, end exclusive), for the graph frame. */
  location?: { file: string; line: number; column: number; endLine: number; endColumn: number };
}

/** What a node did in its graph's latest run. */
export type NodeRunStatus = 'ran' | 'nan';

/** A graph's latest run as far as it went: its nodes' statuses in execution order (nodes not listed did not run). */
export interface GraphRunRecord {
  graph: string;
  modelPath?: string;
  nodes: { node: string; status: NodeRunStatus }[];
  /** The node the program is paused at (a node stop), if it is in this run. */
  paused?: string;
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
