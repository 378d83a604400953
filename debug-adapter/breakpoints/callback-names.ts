/**
 * Names a function breakpoint or a `breakOnCallbacks` entry may give, checked against the callbacks
 * the program has made known (the agent tells them as they come: a wrapper's function when first
 * called, a model's nodes when it loads). A name no callback answers to stays unverified, with the
 * known callbacks listed closest first, so a typo does not fail silently.
 *
 * A name with a scope (`StatefulPartitionedCall/dense_1/Relu`) names a model's node: until a model
 * has loaded, nothing could answer to it, so it stays quietly unverified ("will bind when a model
 * with this node loads"), with no warning and no suggestion; once a model has loaded that lacks it,
 * the warning and the closest names come, once.
 *
 * Whether a callback answers to a name is the agent's decision (shared/callback-answers.ts `answersTo`): it sends
 * the names each new callback matched. This side keeps the list and words the messages.
 */
import { readFileSync } from 'node:fs';
import { editDistance } from '../../runtime/edit-distance.js';
import { knownKey, lastPart, namesOf } from '../shared/callback-answers.js';
import type { KnownCallbackInfo, KnownGraphInfo, KnownNotice } from '../debuggee/agent-protocol.js';

/** How many callbacks a message lists before "…". */
const LISTED = 8;

/** A function breakpoint as the client sees it: verified once some callback answers to its name. */
export interface FunctionBreakpointStatus {
  readonly id: number;
  readonly verified: boolean;
  readonly message?: string;
}

/** A name with a scope: only a model's node (or a callback node, by its node name) answers to it. */
export const isNodePath = (name: string): boolean => name.includes('/');

export class CallbackNames {
  /** `nodeNamesOf`: a loaded model's node names, for the closest names (the agent sends only its ops). */
  constructor(private readonly nodeNamesOf: (graph: KnownGraphInfo) => readonly string[] = modelNodeNames) {}

  private readonly callbacks: KnownCallbackInfo[] = [];
  /** Models loaded so far: node breakpoints answer to their node names and ops. */
  private readonly graphs = new Map<string, KnownGraphInfo>();
  private readonly keys = new Set<string>();
  private readonly matched = new Set<string>();
  private readonly warned = new Set<string>();
  /** The status each function breakpoint was last reported with. */
  private readonly reported = new Map<number, string>();

  /** The statuses of function breakpoints just set (their response). */
  statuses(breakpoints: readonly { id: number; name: string }[]): FunctionBreakpointStatus[] {
    return breakpoints.map((bp) => {
      const status = this.status(bp);
      this.reported.set(bp.id, JSON.stringify(status));
      return status;
    });
  }

  /**
   * What to tell the client now: the function breakpoints whose status changed since reported,
   * and warnings for names (function breakpoints', then `breakOnCallbacks` entries) no callback
   * answers to: a likely typo at once, any other at the end (`final`).
   */
  report(
    breakpoints: readonly { id: number; name: string }[],
    launchNames: readonly string[],
    final: boolean,
  ): { changed: FunctionBreakpointStatus[]; warnings: string[] } {
    const changed: FunctionBreakpointStatus[] = [];
    for (const bp of breakpoints) {
      const status = this.status(bp);
      const key = JSON.stringify(status);
      if (this.reported.get(bp.id) === key) continue;
      this.reported.set(bp.id, key);
      changed.push(status);
    }
    const wanted = [
      ...breakpoints.map((bp) => [bp.name, 'Function breakpoint'] as const),
      ...launchNames.map((name) => [name, 'breakOnCallbacks entry'] as const),
    ];
    const warnings = wanted.map(([name, what]) => this.warning(name, what, final)).filter((w): w is string => w !== undefined);
    return { changed, warnings };
  }

  private status(bp: { id: number; name: string }): FunctionBreakpointStatus {
    return this.isMatched(bp.name) ? { id: bp.id, verified: true } : { id: bp.id, verified: false, message: this.unmatchedMessage(bp.name) };
  }

  knowsGraph(graph: string): boolean {
    return [...this.graphs.values()].some((g) => g.graph === graph);
  }

  /** Whether a name waits for a model: a node path no model loaded so far had. */
  awaitsModel(names: readonly string[]): boolean {
    return names.some((name) => isNodePath(name) && !this.isMatched(name));
  }

  /** The agent's `knownStatus(names)`: everything known so far. */
  reset(status: { callbacks: KnownCallbackInfo[]; graphs?: KnownGraphInfo[]; matched: string[] }): void {
    for (const c of status.callbacks) this.addCallback(c);
    for (const g of status.graphs ?? []) this.graphs.set(`${g.graph}\u0000${g.modelPath ?? ''}`, g);
    for (const m of status.matched) this.matched.add(m);
  }

  /** A callback became known (the agent's notice). */
  add(notice: KnownNotice): void {
    if (notice.callback) this.addCallback(notice.callback);
    if (notice.graph) this.graphs.set(`${notice.graph.graph}\u0000${notice.graph.modelPath ?? ''}`, notice.graph);
    for (const m of notice.matched) this.matched.add(m);
  }

  isMatched(name: string): boolean {
    return name === '*' || this.matched.has(name);
  }

  /** Whether any callback is known yet. */
  get anyKnown(): boolean {
    return this.callbacks.length > 0 || this.graphs.size > 0;
  }

  /** Why `name` is unverified. */
  private unmatchedMessage(name: string): string {
    if (isNodePath(name) && this.graphs.size === 0) return `No model with a node '${name}' has loaded yet: it will bind when a model with this node loads.`;
    if (!this.anyKnown) {
      return (
        `No callback or model node has answered to '${name}' yet: it binds when a callback with this name, token, JS function name or model node name ` +
        'is first called or its model loads, or when a model with a node of this name or op (MatMul, dense/*) loads.'
      );
    }
    return `No callback or model node answers to '${name}' (by name, token, JS function name, node name or op). ${this.known(name)}`;
  }

  /**
   * A warning for the Debug Console, once per name: now when a known callback's name is close to
   * it (a likely typo), or at the end (`final`) when nothing ever answered to it; a node path when
   * a model has loaded without it, and never before.
   */
  private warning(name: string, what: string, final: boolean): string | undefined {
    // Launch entries name callbacks; function breakpoints also name model nodes and ops.
    const targets = what === 'Function breakpoint' ? 'callback or model node' : 'callback';
    if (this.isMatched(name) || this.warned.has(name) || !this.anyKnown) return undefined;
    const close = this.closestKey(name);
    if (isNodePath(name)) {
      // A node of a model not loaded yet: nothing to say until a model has loaded that lacks it.
      if (this.graphs.size === 0) return undefined;
      this.warned.add(name);
      const models = [...this.graphs.values()].map((g) => `'${g.graph}'`).join(', ');
      const mean = close ? ` Did you mean '${close}'?` : '';
      return `${what} '${name}' matches no ${targets}: no model loaded so far (${models}) has this node.${mean} ${this.known(name)}`;
    }
    if (close && isLikelyTypo(name, close)) {
      this.warned.add(name);
      return `${what} '${name}' matches no ${targets}. Did you mean '${close}'? ${this.known(name)}`;
    }
    if (!final) return undefined;
    this.warned.add(name);
    return `${what} '${name}' matched no ${targets} in this run. ${this.known(name)}`;
  }

  /** The callbacks (closest to `name` first) and the loaded models' ops, as a sentence. */
  private known(name: string): string {
    const parts: string[] = [];
    if (this.callbacks.length > 0) parts.push(`Callbacks so far, closest first: ${this.listFor(name)}.`);
    for (const g of this.graphs.values()) {
      // A node path is told the closest node names; an op or a short name, the ops.
      const nodes = isNodePath(name) ? this.nodeNamesOf(g) : [];
      const closest = nodes.length > 0 ? `, closest first: ${closestFirst(name, nodes)};` : ';';
      parts.push(`Model '${g.graph}' has ${g.nodeCount} nodes${closest} its ops, closest first: ${closestFirst(name, g.ops)}.`);
    }
    return parts.join(' ');
  }

  private addCallback(c: KnownCallbackInfo): void {
    const key = knownKey(c);
    if (this.keys.has(key)) return;
    this.keys.add(key);
    this.callbacks.push(c);
  }

  /** How a callback is listed: its JS function's or given name, a node's name in TensorFlow. */
  private static label(c: KnownCallbackInfo): string {
    if (c.node) {
      const given = lastPart(c.node);
      return c.functionName && c.functionName !== given ? `${given} (${c.functionName})` : given;
    }
    if (c.name !== c.token) return c.name;
    return c.functionName ? `${c.functionName} (${c.token})` : c.token;
  }

  private closestKey(name: string): string | undefined {
    let best: string | undefined;
    let bestDistance = Infinity;
    const graphs = [...this.graphs.values()];
    const keys = [
      ...this.callbacks.flatMap((c) => namesOf(c)),
      ...graphs.flatMap((g) => g.ops),
      ...(isNodePath(name) ? graphs.flatMap((g) => this.nodeNamesOf(g)) : []),
    ];
    for (const key of keys) {
      const d = editDistance(name.toLowerCase(), key.toLowerCase());
      if (d < bestDistance) [best, bestDistance] = [key, d];
    }
    return best;
  }

  /** The known callbacks, closest to `name` first (edit distance over every name each answers to). */
  private listFor(name: string): string {
    const scored = new Map<string, number>();
    for (const c of this.callbacks) {
      const distance = Math.min(...namesOf(c).map((k) => editDistance(name.toLowerCase(), k.toLowerCase())));
      const label = CallbackNames.label(c);
      scored.set(label, Math.min(distance, scored.get(label) ?? Infinity));
    }
    const sorted = [...scored.entries()].sort((a, b) => a[1] - b[1]).map(([label]) => label);
    return sorted.length > LISTED ? `${sorted.slice(0, LISTED).join(', ')}, … (${sorted.length - LISTED} more)` : sorted.join(', ');
  }
}

/** `names` sorted by edit distance to `name` (case ignored), the first LISTED of them. */
function closestFirst(name: string, names: readonly string[]): string {
  const sorted = [...names].sort((a, b) => editDistance(name.toLowerCase(), a.toLowerCase()) - editDistance(name.toLowerCase(), b.toLowerCase()));
  return sorted.length > LISTED ? `${sorted.slice(0, LISTED).join(', ')}, … (${sorted.length - LISTED} more)` : sorted.join(', ');
}

const nodeNameCache = new Map<string, readonly string[]>();

/** The node names of a loaded model's model.json (read once per file); none where it cannot be read. */
export function modelNodeNames(graph: KnownGraphInfo): readonly string[] {
  const file = graph.modelPath;
  if (!file) return [];
  let names = nodeNameCache.get(file);
  if (!names) {
    try {
      const json = JSON.parse(readFileSync(file, 'utf8')) as { modelTopology?: { node?: { name?: unknown; op?: unknown }[] } };
      names = (json.modelTopology?.node ?? []).filter((n) => typeof n.name === 'string' && n.op !== 'Const').map((n) => n.name as string);
    } catch {
      names = [];
    }
    nodeNameCache.set(file, names);
  }
  return names;
}

/**
 * Close enough to be a slip of the keyboard: a third of the longer name or less differs (case
 * ignored), so a doubled key or two still counts ('widdenn' for 'widen') while a prefix does not.
 */
export function isLikelyTypo(wanted: string, known: string): boolean {
  const d = editDistance(wanted.toLowerCase(), known.toLowerCase());
  return d <= Math.max(1, Math.floor(Math.max(wanted.length, known.length) / 3));
}
