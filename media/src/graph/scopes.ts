/**
 * Name scopes (`block_1/dense/MatMul` is in `block_1/dense`, inside `block_1`) and what the view
 * draws for a set of expanded scopes: a node of an expanded scope is drawn as itself, a collapsed
 * scope as one box with its node count, and edges join whatever stands for their two ends. Large
 * graphs open with as many scope levels expanded as fit in a budget of boxes. Pure: no DOM.
 */
import type { GraphData, GraphNode, NodeStatus } from '../graph-protocol.js';

export interface Scope {
  /** `a/b`; '' for the graph's top level. */
  readonly path: string;
  readonly depth: number;
  readonly scopes: Scope[];
  /** Nodes directly in this scope (not in a sub-scope). */
  readonly nodes: GraphNode[];
  /** Nodes in this scope and all its sub-scopes. */
  total: number;
  callbacks: number;
}

/** What the view draws: a node, or a collapsed scope. Ids never clash: a scope may share a node's name. */
export type Item =
  | { readonly kind: 'node'; readonly id: string; readonly node: GraphNode }
  | { readonly kind: 'scope'; readonly id: string; readonly scope: Scope };

export interface VisibleEdge {
  readonly from: string;
  readonly to: string;
  /** Only control dependencies join these two items. */
  readonly control: boolean;
  /** How many node-to-node edges it stands for. */
  readonly count: number;
}

export interface VisibleGraph {
  readonly items: readonly Item[];
  readonly edges: readonly VisibleEdge[];
  /** Each node's name → the id of the item that stands for it. */
  readonly itemOf: ReadonlyMap<string, string>;
}

/** Graphs up to this many nodes open fully expanded; larger ones open collapsed to about this many boxes. */
export const BOX_BUDGET = 150;

export const nodeId = (name: string): string => `n:${name}`;
export const scopeId = (path: string): string => `s:${path}`;

export function scopeOf(name: string): string {
  const slash = name.lastIndexOf('/');
  return slash > 0 ? name.slice(0, slash) : '';
}

export function buildScopes(graph: GraphData): Scope {
  const root: Scope = { path: '', depth: 0, scopes: [], nodes: [], total: 0, callbacks: 0 };
  const byPath = new Map<string, Scope>([['', root]]);
  const scopeAt = (path: string): Scope => {
    const known = byPath.get(path);
    if (known) return known;
    const parent = scopeAt(scopeOf(path));
    const scope: Scope = { path, depth: parent.depth + 1, scopes: [], nodes: [], total: 0, callbacks: 0 };
    parent.scopes.push(scope);
    byPath.set(path, scope);
    return scope;
  };
  for (const node of graph.nodes) {
    let scope: Scope | undefined = scopeAt(scopeOf(node.name));
    scope.nodes.push(node);
    for (let path = scope.path; ; path = scopeOf(path)) {
      scope = byPath.get(path)!;
      scope.total++;
      if (node.callback) scope.callbacks++;
      if (path === '') break;
    }
  }
  return root;
}

/** Scope paths that hold `name` (outermost first), which must be expanded for it to be drawn. */
export function ancestorsOf(name: string): string[] {
  const out: string[] = [];
  for (let path = scopeOf(name); path !== ''; path = scopeOf(path)) out.unshift(path);
  return out;
}

/**
 * The scopes a graph opens with: all of them when it has at most `budget` nodes; else whole levels,
 * outermost first, while the boxes drawn stay within `budget` (a level is expanded entirely or not at all).
 */
export function initialExpansion(root: Scope, budget = BOX_BUDGET): Set<string> {
  const expanded = new Set<string>();
  let level = root.scopes;
  if (root.total <= budget) {
    for (; level.length > 0; level = level.flatMap((s) => s.scopes)) for (const s of level) expanded.add(s.path);
    return expanded;
  }
  let boxes = root.nodes.length + root.scopes.length;
  for (; level.length > 0; level = level.flatMap((s) => s.scopes)) {
    // Expanding a scope replaces its box with its own nodes and sub-scope boxes.
    const added = level.reduce((sum, s) => sum + s.nodes.length + s.scopes.length - 1, 0);
    if (boxes + added > budget) break;
    boxes += added;
    for (const s of level) expanded.add(s.path);
  }
  return expanded;
}

/** What is drawn for these expanded scopes. */
export function visibleGraph(graph: GraphData, root: Scope, expanded: ReadonlySet<string>): VisibleGraph {
  const items: Item[] = [];
  const itemOf = new Map<string, string>();
  const under = (scope: Scope, id: string) => {
    for (const node of scope.nodes) itemOf.set(node.name, id);
    for (const s of scope.scopes) under(s, id);
  };
  const walk = (scope: Scope) => {
    for (const node of scope.nodes) {
      const id = nodeId(node.name);
      items.push({ kind: 'node', id, node });
      itemOf.set(node.name, id);
    }
    for (const s of scope.scopes) {
      if (expanded.has(s.path)) {
        walk(s);
      } else {
        const id = scopeId(s.path);
        items.push({ kind: 'scope', id, scope: s });
        under(s, id);
      }
    }
  };
  walk(root);
  const edges = new Map<string, { from: string; to: string; control: boolean; count: number }>();
  for (const node of graph.nodes) {
    const to = itemOf.get(node.name)!;
    for (const input of node.inputs) {
      const from = itemOf.get(input.node);
      if (from === undefined || from === to) continue;
      const key = `${from}\u0000${to}`;
      const edge = edges.get(key);
      if (edge) {
        edge.count++;
        edge.control &&= input.control;
      } else {
        edges.set(key, { from, to, control: input.control, count: 1 });
      }
    }
  }
  return { items, edges: [...edges.values()], itemOf };
}

/** Given ranks lowest: a scope of weights and ops that did not run has not run. */
const RANK: Readonly<Record<NodeStatus, number>> = { given: 0, 'not-run': 1, ran: 2, nan: 3, paused: 4 };

/** A collapsed scope's status: the most telling of its nodes' (paused, then NaN, then ran; given only when all are). */
export function scopeStatus(scope: Scope, statusOf: (node: string) => NodeStatus): NodeStatus {
  let best: NodeStatus = 'given';
  const visit = (s: Scope) => {
    for (const node of s.nodes) {
      const status = statusOf(node.name);
      if (RANK[status] > RANK[best]) best = status;
    }
    for (const sub of s.scopes) visit(sub);
  };
  visit(scope);
  return best;
}
