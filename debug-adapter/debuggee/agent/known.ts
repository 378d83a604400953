/**
 * The callbacks and models the program has made known (the runtime's registrations, kept in its
 * shared state for an agent that comes later), and the wanted names no callback or node answers to
 * yet: while there are some, each newcomer is told to the adapter with the names it answers to.
 */
import type { KnownCallback, KnownGraph } from '../../../runtime/events.js';
import type { KnownCallbackInfo, KnownGraphInfo, KnownNotice, KnownStatus } from '../agent-protocol.js';
import { isCallbackOp } from '../../../runtime/graph-model/callback-ops.js';
import { answersTo, knownKey } from '../../shared/callback-answers.js';
import type { AgentContext } from './context.js';
import { compilePattern, nodeAnswers, type NodePattern } from './node-patterns.js';

/** How many distinct callbacks are kept, and how many models (the last ones loaded). */
const KNOWN_CALLBACKS = 1000;
const KNOWN_GRAPHS = 20;

export interface Known {
  readonly callbacks: readonly KnownCallbackInfo[];
  readonly graphs: readonly KnownGraph[];
  /** Whether some known callback answers to `wanted`. */
  callbackAnswers(wanted: string): boolean;
  /** Whether a node (not a callback node) of a known model answers to `pattern`. */
  graphAnswers(pattern: NodePattern): boolean;
  status(names: string[]): KnownStatus;
  /** The names waiting for a callback or node to answer: the launch's and the function breakpoints'. */
  setWanted(names: readonly string[]): void;
  /** A callback became known: false when it was known already; told to the adapter while names wait. */
  addCallback(k: KnownCallback): boolean;
  /** A model loaded: told to the adapter while names wait. */
  addGraph(g: KnownGraph): void;
}

const graphInfo = (g: KnownGraph): KnownGraphInfo => ({
  graph: g.graph,
  ...(g.modelPath !== undefined ? { modelPath: g.modelPath } : {}),
  nodeCount: g.nodes.length,
  ops: [...new Set(g.nodes.map((n) => n.op))].sort(),
});

export function createKnown(context: AgentContext): Known {
  const callbacks: KnownCallbackInfo[] = [];
  const keys = new Set<string>();
  const graphs: KnownGraph[] = [];
  let pending: string[] = [];
  const rememberCallback = (k: KnownCallbackInfo): boolean => {
    const key = knownKey(k);
    if (keys.has(key)) return false;
    keys.add(key);
    if (callbacks.length < KNOWN_CALLBACKS) callbacks.push({ ...k });
    return true;
  };
  const rememberGraph = (g: KnownGraph) => {
    const at = graphs.findIndex((k) => k.graph === g.graph && k.modelPath === g.modelPath);
    if (at >= 0) graphs.splice(at, 1);
    graphs.push(g);
    if (graphs.length > KNOWN_GRAPHS) graphs.shift();
  };
  const callbackAnswers = (wanted: string) => callbacks.some((k) => answersTo(wanted, k));
  const graphAnswers = (p: NodePattern) => graphs.some((g) => g.nodes.some((n) => !isCallbackOp(n.op) && nodeAnswers(p, n.name, n.op)));
  const answered = (w: string) => w === '*' || callbackAnswers(w) || graphAnswers(compilePattern(w));
  /** Takes `matched` off the waiting names and tells the adapter. */
  const tell = (notice: KnownNotice) => {
    pending = pending.filter((w) => !notice.matched.includes(w));
    context.tell(notice);
  };
  for (const k of context.state.known ?? []) rememberCallback(k);
  for (const g of context.state.knownGraphs ?? []) rememberGraph(g);

  return {
    callbacks,
    graphs,
    callbackAnswers,
    graphAnswers,
    status: (names) => ({ callbacks, graphs: graphs.map(graphInfo), matched: names.filter(answered) }),
    setWanted(names) {
      pending = [...new Set(names)].filter((w) => !answered(w));
    },
    addCallback(k) {
      if (!rememberCallback(k)) return false;
      if (pending.length > 0) tell({ callback: { ...k }, matched: pending.filter((w) => answersTo(w, k)) });
      return true;
    },
    addGraph(g) {
      rememberGraph(g);
      // Told even where nothing matched: a model that lacks a waiting node path brings its warning.
      if (pending.length > 0) tell({ graph: graphInfo(g), matched: pending.filter((w) => g.nodes.some((n) => nodeAnswers(compilePattern(w), n.name, n.op))) });
    },
  };
}
