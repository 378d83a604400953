/**
 * Name scopes (`block_1/dense/MatMul` is in `block_1/dense`, inside `block_1`) as the tree the view
 * collapses. A chain of scopes that only hold the next one (`a/b/c/…/z/Relu`) is one scope, and
 * a scope with more than GROUP_LIMIT nodes and sub-scopes holds them in synthetic groups of
 * consecutive items (`1–100 of 20001`, nested when there are more than GROUP_LIMIT groups), so no
 * expansion draws more than GROUP_LIMIT boxes. Built and walked with loops and explicit stacks,
 * never recursion: a name may be 10,000 scopes deep, a scope may hold 20,000 nodes. Pure: no DOM.
 */
import type { GraphNode, NodeStatus } from '../graph-protocol.js';

/** The most boxes expanding one scope or group draws (a scope with more holds groups). */
export const GROUP_LIMIT = 100;

export interface Scope {
  /** Its place in ScopeTree.scopes: the same graph builds the same indices (the view saves them). */
  readonly index: number;
  /** The name scope's path (`a/b`; '' for the top level); a group's: the name scope it is part of. */
  readonly path: string;
  /** The path below its parent's (`b`; `b/c/d` for merged scopes); a group's: `1–100 of 2001`. */
  readonly label: string;
  /** How many name scopes a merged chain stands for (1 for most scopes, 0 for groups and the top level). */
  readonly levels: number;
  /** A synthetic group: positions `first`–`last` (from 1) of the `of` items of its name scope. */
  readonly group?: { readonly first: number; readonly last: number; readonly of: number };
  /** The scope or group it is in (set again when a group takes it in). */
  parent: Scope | undefined;
  /** Sub-scopes and groups directly in it, drawn after its nodes. */
  scopes: Scope[];
  /** Nodes directly in it (not in a sub-scope or group). */
  nodes: GraphNode[];
  /** Nodes in it and all it holds. */
  total: number;
  callbacks: number;
}

export interface ScopeTree {
  readonly root: Scope;
  /** Every scope and group, by index. */
  readonly scopes: readonly Scope[];
  /** Each node's name → the scope or group that holds it directly. */
  readonly holder: ReadonlyMap<string, Scope>;
}

export const nodeId = (name: string): string => `n:${name}`;
export const scopeId = (scope: Scope): string => `s:${scope.index}`;

/** A node's name scope: `a/b` for `a/b/c`; '' at the top level (a leading '/' starts no scope). */
export function scopeOf(name: string): string {
  const slash = name.lastIndexOf('/');
  return slash > 0 ? name.slice(0, slash) : '';
}

/** What a scope is made with; the rest is filled in as the tree is built. */
type ScopeFields = Omit<Scope, 'index' | 'scopes' | 'nodes' | 'total' | 'callbacks'>;

/** One name scope while the tree is built: sub-scopes by their next path part. */
interface Raw {
  readonly path: string;
  readonly parts: Map<string, Raw>;
  readonly order: Raw[];
  readonly nodes: GraphNode[];
}

export function buildScopes(graph: { readonly nodes: readonly GraphNode[] }): ScopeTree {
  const top: Raw = { path: '', parts: new Map(), order: [], nodes: [] };
  for (const node of graph.nodes) rawScopeOf(top, node.name).nodes.push(node);
  const scopes: Scope[] = [];
  const make = (fields: ScopeFields): Scope => {
    const scope: Scope = { ...fields, index: scopes.length, scopes: [], nodes: [], total: 0, callbacks: 0 };
    scopes.push(scope);
    return scope;
  };
  const root = make({ path: '', label: '', levels: 0, parent: undefined });
  // Raw scopes to turn into scopes, each with the scope it goes in; a scope holding only the next is merged into it.
  const pending: { raw: Raw; into: Scope }[] = [{ raw: top, into: root }];
  const holder = new Map<string, Scope>();
  for (let k = 0; k < pending.length; k++) {
    const { raw, into } = pending[k]!;
    for (const node of raw.nodes) {
      into.nodes.push(node);
      holder.set(node.name, into);
    }
    for (let sub of raw.order) {
      let levels = 1;
      while (sub.nodes.length === 0 && sub.order.length === 1) {
        sub = sub.order[0]!;
        levels++;
      }
      const label = into.path === '' ? sub.path : sub.path.slice(into.path.length + 1);
      const scope = make({ path: sub.path, label, levels, parent: into });
      into.scopes.push(scope);
      pending.push({ raw: sub, into: scope });
    }
  }
  countNodes(scopes);
  // Scopes with too many items hold groups; a group with too many holds groups again (appended, so looked at in turn).
  for (let k = 0; k < scopes.length; k++) {
    const scope = scopes[k]!;
    if (scope.nodes.length + scope.scopes.length > GROUP_LIMIT) groupItems(scope, make, holder);
  }
  return { root, scopes, holder };
}

/** The raw scope `name` is directly in, made as needed, one path part at a time. */
function rawScopeOf(top: Raw, name: string): Raw {
  let raw = top;
  let start = 0;
  for (let slash = name.indexOf('/', 1); slash > 0; slash = name.indexOf('/', slash + 1)) {
    const part = name.slice(start, slash);
    let sub = raw.parts.get(part);
    if (!sub) {
      sub = { path: name.slice(0, slash), parts: new Map(), order: [], nodes: [] };
      raw.parts.set(part, sub);
      raw.order.push(sub);
    }
    raw = sub;
    start = slash + 1;
  }
  return raw;
}

/** Totals and callback counts, innermost first (before grouping, a parent comes before what it holds). */
function countNodes(scopes: readonly Scope[]): void {
  for (let k = scopes.length - 1; k >= 0; k--) {
    const scope = scopes[k]!;
    scope.total += scope.nodes.length;
    for (const node of scope.nodes) if (node.callback) scope.callbacks++;
    if (scope.parent) {
      scope.parent.total += scope.total;
      scope.parent.callbacks += scope.callbacks;
    }
  }
}

type Item = { readonly node: GraphNode } | { readonly scope: Scope };

/** Puts a scope's (or group's) items into groups of GROUP_LIMIT^k consecutive items, at most GROUP_LIMIT groups. */
function groupItems(scope: Scope, make: (fields: ScopeFields) => Scope, holder: Map<string, Scope>): void {
  const items: Item[] = [];
  for (const node of scope.nodes) items.push({ node });
  for (const sub of scope.scopes) items.push({ scope: sub });
  let size = GROUP_LIMIT;
  while (Math.ceil(items.length / size) > GROUP_LIMIT) size *= GROUP_LIMIT;
  const offset = scope.group ? scope.group.first - 1 : 0;
  const of = scope.group ? scope.group.of : items.length;
  scope.nodes = [];
  scope.scopes = [];
  for (let start = 0; start < items.length; start += size) {
    const end = Math.min(items.length, start + size);
    if (end - start === 1) {
      // One item left over is itself, not a group of one.
      placeItem(scope, items[start]!, holder);
      continue;
    }
    const range = { first: offset + start + 1, last: offset + end, of };
    const group = make({ path: scope.path, label: `${range.first}–${range.last} of ${range.of}`, levels: 0, group: range, parent: scope });
    for (let i = start; i < end; i++) placeItem(group, items[i]!, holder);
    for (const node of group.nodes) if (node.callback) group.callbacks++;
    group.total = group.nodes.length;
    for (const sub of group.scopes) {
      group.total += sub.total;
      group.callbacks += sub.callbacks;
    }
    scope.scopes.push(group);
  }
}

function placeItem(into: Scope, item: Item, holder: Map<string, Scope>): void {
  if ('node' in item) {
    into.nodes.push(item.node);
    holder.set(item.node.name, into);
  } else {
    into.scopes.push(item.scope);
    item.scope.parent = into;
  }
}

/** The scopes and groups that hold a node (outermost first), which must be expanded for it to be drawn. */
export function ancestorsOf(tree: ScopeTree, name: string): Scope[] {
  const out: Scope[] = [];
  for (let scope = tree.holder.get(name); scope?.parent; scope = scope.parent) out.push(scope);
  return out.reverse();
}

/** Given ranks lowest: a scope of weights and ops that did not run has not run. */
const RANK: Readonly<Record<NodeStatus, number>> = { given: 0, 'not-run': 1, ran: 2, nan: 3, paused: 4 };

/** A collapsed scope's status: the most telling of its nodes' (paused, then NaN, then ran; given only when all are). */
export function scopeStatus(scope: Scope, statusOf: (node: string) => NodeStatus): NodeStatus {
  let best: NodeStatus = 'given';
  const stack = [scope];
  for (let s = stack.pop(); s; s = stack.pop()) {
    for (const node of s.nodes) {
      const status = statusOf(node.name);
      if (RANK[status] > RANK[best]) best = status;
    }
    for (const sub of s.scopes) stack.push(sub);
  }
  return best;
}
