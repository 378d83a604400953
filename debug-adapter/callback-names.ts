/**
 * Names a function breakpoint or a `breakOnCallbacks` entry may give, checked against the callbacks
 * the program has made known (the agent tells them as they come: a wrapper's function when first
 * called, a model's nodes when it loads). A name no callback answers to stays unverified, with the
 * known callbacks listed closest first, so a typo does not fail silently.
 *
 * Whether a callback answers to a name is the agent's decision (agent.ts `answersTo`): it sends
 * the names each new callback matched. This side keeps the list and words the messages.
 */
import type { KnownCallbackInfo, KnownGraphInfo, KnownNotice } from './debuggee/agent-protocol.js';

/** How many callbacks a message lists before "…". */
const LISTED = 8;

/** A function breakpoint as the client sees it: verified once some callback answers to its name. */
export interface FunctionBreakpointStatus {
  readonly id: number;
  readonly verified: boolean;
  readonly message?: string;
}

export class CallbackNames {
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
   * it (a likely typo), or at the end (`final`) when nothing ever answered to it.
   */
  private warning(name: string, what: string, final: boolean): string | undefined {
    // Launch entries name callbacks; function breakpoints also name model nodes and ops.
    const targets = what === 'Function breakpoint' ? 'callback or model node' : 'callback';
    if (this.isMatched(name) || this.warned.has(name) || !this.anyKnown) return undefined;
    const close = this.closestKey(name);
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
      const ops = [...g.ops].sort((a, b) => editDistance(name.toLowerCase(), a.toLowerCase()) - editDistance(name.toLowerCase(), b.toLowerCase()));
      const listed = ops.length > LISTED ? `${ops.slice(0, LISTED).join(', ')}, … (${ops.length - LISTED} more)` : ops.join(', ');
      parts.push(`Model '${g.graph}' has ${g.nodeCount} nodes; its ops, closest first: ${listed}.`);
    }
    return parts.join(' ');
  }

  private addCallback(c: KnownCallbackInfo): void {
    const key = `${c.name}\u0000${c.token}\u0000${c.functionName ?? ''}\u0000${c.node ?? ''}`;
    if (this.keys.has(key)) return;
    this.keys.add(key);
    this.callbacks.push(c);
  }

  /** Every name a callback answers to (agent.ts `answersTo`). */
  private static namesOf(c: KnownCallbackInfo): string[] {
    const names = [c.name, c.token];
    if (c.functionName) names.push(c.functionName);
    if (c.node) names.push(c.node, c.node.slice(c.node.lastIndexOf('/') + 1));
    return names;
  }

  /** How a callback is listed: its JS function's or given name, a node's name in TensorFlow. */
  private static label(c: KnownCallbackInfo): string {
    if (c.node) {
      const given = c.node.slice(c.node.lastIndexOf('/') + 1);
      return c.functionName && c.functionName !== given ? `${given} (${c.functionName})` : given;
    }
    if (c.name !== c.token) return c.name;
    return c.functionName ? `${c.functionName} (${c.token})` : c.token;
  }

  private closestKey(name: string): string | undefined {
    let best: string | undefined;
    let bestDistance = Infinity;
    const keys = [...this.callbacks.flatMap((c) => CallbackNames.namesOf(c)), ...[...this.graphs.values()].flatMap((g) => g.ops)];
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
      const distance = Math.min(...CallbackNames.namesOf(c).map((k) => editDistance(name.toLowerCase(), k.toLowerCase())));
      const label = CallbackNames.label(c);
      scored.set(label, Math.min(distance, scored.get(label) ?? Infinity));
    }
    const sorted = [...scored.entries()].sort((a, b) => a[1] - b[1]).map(([label]) => label);
    return sorted.length > LISTED ? `${sorted.slice(0, LISTED).join(', ')}, … (${sorted.length - LISTED} more)` : sorted.join(', ');
  }
}

/**
 * Close enough to be a slip of the keyboard: a third of the longer name or less differs (case
 * ignored), so a doubled key or two still counts ('widdenn' for 'widen') while a prefix does not.
 */
export function isLikelyTypo(wanted: string, known: string): boolean {
  const d = editDistance(wanted.toLowerCase(), known.toLowerCase());
  return d <= Math.max(1, Math.floor(Math.max(wanted.length, known.length) / 3));
}

/** Levenshtein distance. */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}
