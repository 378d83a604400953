/**
 * What the view draws for the scopes the user expanded: a node of an open scope as itself, a
 * collapsed scope or group as one box with its node count, and edges joining whatever stands for
 * their two ends. At most MAX_BOXES boxes are drawn, so the layout's input stays bounded (dagre
 * recurses along paths of the graph it is given: layout.ts); an expansion past that stays
 * collapsed, the most recent ones kept. Large graphs open with whole scope levels expanded within
 * BOX_BUDGET. Loops and explicit stacks only. Pure: no DOM.
 */
import type { GraphData, GraphNode } from '../graph-protocol.js';
import { nodeId, type Scope, type ScopeTree, scopeId } from './scopes.js';

/** Graphs up to this many nodes open fully expanded; larger ones open collapsed to about this many boxes. */
export const BOX_BUDGET = 150;

/** The most boxes drawn at once: expanding past it collapses the least recently expanded scopes. */
export const MAX_BOXES = 500;

/** What the view draws: a node, or a collapsed scope or group. Ids never clash: a scope may share a node's name. */
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

/** Boxes drawn in a scope's place when it is open: its nodes, sub-scopes and groups. */
const boxesIn = (scope: Scope): number => scope.nodes.length + scope.scopes.length;

/**
 * The scopes a graph opens with, outermost first: all of them when it has at most `budget` nodes;
 * else whole levels while the boxes drawn stay within `budget` (a level is expanded entirely or not at all).
 */
export function initialExpansion(tree: ScopeTree, budget = BOX_BUDGET): Scope[] {
  const expanded: Scope[] = [];
  const all = tree.root.total <= budget;
  let boxes = boxesIn(tree.root);
  for (let level = tree.root.scopes; level.length > 0; level = level.flatMap((s) => s.scopes)) {
    // Expanding a scope replaces its box with its own boxes.
    const added = level.reduce((sum, s) => sum + boxesIn(s) - 1, 0);
    if (!all && boxes + added > budget) break;
    boxes += added;
    for (const s of level) expanded.push(s);
  }
  return expanded;
}

export interface OpenScopes {
  /** The scopes drawn open (the top level always). */
  readonly open: ReadonlySet<Scope>;
  /** Expanded scopes left collapsed: opening them too would draw more than `cap` boxes. */
  readonly heldBack: readonly Scope[];
}

/**
 * Which of the expanded scopes are drawn open: those whose enclosing scopes are all expanded, the
 * most recently expanded first (`expanded` in the order they were expanded), as long as the boxes
 * drawn stay within `cap`; the rest are held back.
 */
export function openScopes(tree: ScopeTree, expanded: Iterable<Scope>, cap = MAX_BOXES): OpenScopes {
  const wanted = new Set(expanded);
  const open = new Set<Scope>([tree.root]);
  const reachable = reachableOf(tree.root, wanted);
  const heldBack: Scope[] = [];
  let boxes = boxesIn(tree.root);
  const newestFirst = [...wanted].reverse();
  for (const scope of newestFirst) {
    if (open.has(scope) || !reachable.get(scope)) continue;
    // Opening it opens the enclosing scopes not open yet; every scope on the way adds a box or more but the innermost.
    const chain: Scope[] = [];
    let cost = 0;
    for (let s: Scope | undefined = scope; s && !open.has(s) && boxes + cost <= cap; s = s.parent) {
      chain.push(s);
      cost += boxesIn(s) - 1;
    }
    if (boxes + cost > cap) {
      heldBack.push(scope);
      continue;
    }
    for (const s of chain) open.add(s);
    boxes += cost;
  }
  return { open, heldBack };
}

/** Whether each wanted scope's enclosing scopes are all wanted too (memoised walks up, so linear overall). */
function reachableOf(root: Scope, wanted: ReadonlySet<Scope>): Map<Scope, boolean> {
  const known = new Map<Scope, boolean>([[root, true]]);
  for (const scope of wanted) {
    const path: Scope[] = [];
    let s: Scope | undefined = scope;
    while (s && !known.has(s) && wanted.has(s)) {
      path.push(s);
      s = s.parent;
    }
    const answer = s !== undefined && known.get(s) === true;
    for (const p of path) known.set(p, answer);
  }
  return known;
}

/** What is drawn with these scopes open (openScopes). */
export function visibleGraph(graph: GraphData, tree: ScopeTree, open: ReadonlySet<Scope>): VisibleGraph {
  const items: Item[] = [];
  const itemOf = new Map<string, string>();
  const showNodes = (scope: Scope) => {
    for (const node of scope.nodes) {
      const id = nodeId(node.name);
      items.push({ kind: 'node', id, node });
      itemOf.set(node.name, id);
    }
  };
  // Depth first, in the tree's order: each frame is a scope and the next of its sub-scopes to look at.
  showNodes(tree.root);
  const frames: { scope: Scope; next: number }[] = [{ scope: tree.root, next: 0 }];
  while (frames.length > 0) {
    const frame = frames[frames.length - 1]!;
    const sub = frame.scope.scopes[frame.next++];
    if (!sub) {
      frames.pop();
    } else if (open.has(sub)) {
      showNodes(sub);
      frames.push({ scope: sub, next: 0 });
    } else {
      const id = scopeId(sub);
      items.push({ kind: 'scope', id, scope: sub });
      const under = [sub];
      for (let s = under.pop(); s; s = under.pop()) {
        for (const node of s.nodes) itemOf.set(node.name, id);
        for (const inner of s.scopes) under.push(inner);
      }
    }
  }
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
