/**
 * Debug hooks: observers of every callback invocation.
 *
 * State lives on a global symbol so that every copy of the runtime in a process (the CLI's and the
 * program's, say) shares one list of observers and one token counter. A debugger that injects its
 * agent into a running program registers through the same symbol,
 * `Symbol.for('tfjs-callback-debugger.runtime.state')`, by replacing `observers` with a new array.
 */
import type { CallbackObserver, InvocationFrame, KnownCallback, KnownGraph } from './events.js';
import type { FitLogObserver, NodeObserver, OpBirthObserver, RuntimeTools } from './hook-types.js';
import { dtypeOfArray } from './dtypes.js';
import { freshSharedState, SHARED_STATE_KEY } from './shared-state.js';
import { summarizeTensor, summarizeValues } from './summary.js';
import { tf } from './tf.js';

/** What the runtime lends a debugger's agent; its type is in hook-types.ts, with the node events'. */
export type { RuntimeTools } from './hook-types.js';

interface SharedState {
  observers: CallbackObserver[];
  nextToken: number;
  nextInvocation: number;
  /** Summaries and dtypes for a debugger's agent, which has no import of the runtime. */
  tools?: RuntimeTools;
  /**
   * The first KNOWN_LIMIT callbacks made known (callbackKnown), for a debugger that attaches
   * later; observers are told of every one as it comes.
   */
  known?: KnownCallback[];
  /** The last KNOWN_GRAPHS models loaded (graphKnown), for a debugger that attaches later. */
  knownGraphs?: KnownGraph[];
  /**
   * Milliseconds a debugger held the program paused, all told: its agent adds each stop's length,
   * and an invocation's durationMs leaves out what was added while it ran.
   */
  pausedMs?: number;
  /** Observers of each graph-model node (graph-model/node-hooks.ts). */
  nodeObservers?: readonly NodeObserver[];
  /**
   * Moved on by a node observer whenever an answer of its `mayWant` may have changed: the nodes
   * every observer said no for are asked again.
   */
  nodeInterestEpoch?: number;
  /** Observers of the birth of NaN/Inf in any op (op-watch/op-watch.ts): with none, no op is watched. */
  opBirthObservers?: readonly OpBirthObserver[];
  /** Observers of each fit's logs (training/fit-logs.ts): with none, no fit is watched. */
  fitLogObservers?: readonly FitLogObserver[];
}

const KNOWN_LIMIT = 1000;

const globalHolder = globalThis as unknown as Record<symbol, SharedState | undefined>;
export const shared: SharedState = (globalHolder[SHARED_STATE_KEY] ??= freshSharedState());
shared.tools = { summarizeTensor, summarizeValues, dtypeOfArray, tf };

/** Watches every callback invocation; returns the function that stops watching. */
export function addCallbackObserver(observer: CallbackObserver): () => void {
  shared.observers = [...shared.observers, observer];
  return () => {
    shared.observers = shared.observers.filter((o) => o !== observer);
  };
}

export function hasObservers(): boolean {
  return shared.observers.length > 0;
}

/**
 * What the observer list asks of each call, read again only when the list is replaced (it is
 * replaced whole, here and by an injected agent): whether any observer wants events with detail,
 * and whether any wants events at all (an observer of frames alone has them built when it asks).
 */
let readFor: readonly CallbackObserver[] | undefined;
let readLength = 0;
let detailWanted = false;
let eventsWanted = false;
function readObservers(): void {
  const observers = shared.observers;
  if (observers === readFor && observers.length === readLength) return;
  readFor = observers;
  readLength = observers.length;
  detailWanted = observers.some((o) => o.detail !== 'light');
  eventsWanted = observers.some((o) => (!o.onInvocationStart && o.onCallbackStart) || (!o.onInvocationEnd && o.onCallbackEnd));
}

/** False when every observer asked for 'light' events (no summaries, no call-site lookup). */
export function wantsDetail(): boolean {
  readObservers();
  return detailWanted;
}

// A broken observer must not break the program it observes: its error becomes a warning.
export function notifyStart(frame: InvocationFrame): void {
  readObservers();
  // Built before anyone is told (a stop there may change the inputs that the summaries describe).
  if (eventsWanted) frame.start();
  for (const o of shared.observers) {
    try {
      if (o.onInvocationStart) o.onInvocationStart(frame);
      else o.onCallbackStart?.(frame.start(), frame);
    } catch (err) {
      warnObserverFailed(err);
    }
  }
}

export function notifyEnd(frame: InvocationFrame): void {
  readObservers();
  if (eventsWanted) frame.end();
  for (const o of shared.observers) {
    try {
      if (o.onInvocationEnd) o.onInvocationEnd(frame);
      else if (o.onCallbackEnd) o.onCallbackEnd(frame.end()!, frame);
    } catch (err) {
      warnObserverFailed(err);
    }
  }
}

/** A callback became known (a wrapper's function first called, a model's nodes loaded or bound). */
export function callbackKnown(callback: KnownCallback): void {
  const known = (shared.known ??= []);
  if (known.length < KNOWN_LIMIT) known.push(callback);
  for (const o of shared.observers) {
    if (!o.onCallbackKnown) continue;
    try {
      o.onCallbackKnown(callback);
    } catch (err) {
      warnObserverFailed(err);
    }
  }
}

/** How many loaded models' node lists are kept for a debugger that attaches later. */
const KNOWN_GRAPHS = 20;

/** A model was loaded: its nodes become known (node breakpoints match against them). */
export function graphKnown(graph: KnownGraph): void {
  const graphs = (shared.knownGraphs ??= []);
  graphs.push(graph);
  if (graphs.length > KNOWN_GRAPHS) graphs.shift();
  for (const o of shared.observers) {
    if (!o.onGraphKnown) continue;
    try {
      o.onGraphKnown(graph);
    } catch (err) {
      warnObserverFailed(err);
    }
  }
}

/** Milliseconds a debugger has held the program paused so far (see SharedState.pausedMs). */
export function pausedMs(): number {
  return shared.pausedMs ?? 0;
}

function warnObserverFailed(err: unknown): void {
  process.emitWarning(`a callback observer threw: ${err instanceof Error ? err.stack : String(err)}`, 'TfjsCallbackObserverWarning');
}

export function nextInvocationId(): number {
  return shared.nextInvocation++;
}

/** TensorFlow's default callback names: pyfunc_0, pyfunc_1, … */
export function nextToken(): string {
  return `pyfunc_${shared.nextToken++}`;
}
