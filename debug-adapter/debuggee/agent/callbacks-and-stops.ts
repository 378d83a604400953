/**
 * Callback invocations as the runtime tells them (runtime/hooks.ts observers): the ones under
 * way, and whether each stops, decided in-process (break on callback X, its function
 * breakpoints, a node step into it, a Tout mismatch, NaN/Inf: a false V8 breakpoint condition
 * costs 115–220 µs per hit, this costs nothing).
 */
import type { CallbackInvocation, CallbackObserver, CallbackStart, LiveInvocation as RuntimeLive } from '../../../runtime/events.js';
import type { NonFiniteOutOf } from '../../../runtime/non-finite-text.js';
import { answersTo } from '../../shared/callback-answers.js';
import type { AgentContext, Entry } from './context.js';
import type { FunctionBreakpoints } from './function-breakpoints.js';
import type { InputCopies } from './input-copies.js';
import { isTensor } from './kinds.js';
import type { Known } from './known.js';
import type { NodeWatch } from './node-watch.js';

/** What the observer decides with. */
export interface StopParts {
  readonly known: Known;
  readonly breakpoints: FunctionBreakpoints;
  readonly nodes: NodeWatch;
  readonly copies: InputCopies;
}

/** A frame made of a runtime's events (one older than frames), told its end event when it ends. */
type EventsFrame = Entry & { ended?(end: CallbackInvocation): void };

function frameOfEvents(start: CallbackStart, live: RuntimeLive): EventsFrame {
  let end: CallbackInvocation | undefined;
  let state: Entry['state'] = 'running';
  return {
    id: start.id,
    callback: start.callback,
    graph: start.graph,
    node: start.node,
    func: live.func,
    args: live.args,
    get returned() {
      return live.returned;
    },
    get outputs() {
      return live.outputs;
    },
    get values() {
      return live.values;
    },
    get state() {
      return state;
    },
    start: () => start,
    end: () => end,
    ended(event: CallbackInvocation) {
      end = event;
      state = event.error ? 'failed' : event.toutCheck?.ok === false ? 'toutMismatch' : 'returned';
    },
  };
}

/** Each output's NaN/±Inf counts (null for what is not a numeric tensor), when some output holds NaN or ±Inf. */
function nonFinite(context: AgentContext, live: RuntimeLive): (NonFiniteOutOf | null)[] | undefined {
  const tools = context.state.tools;
  if (!tools) return undefined;
  let any = false;
  const counts = (live.outputs ?? []).map((t): NonFiniteOutOf | null => {
    if (!isTensor(t) || t.isDisposed || t.dtype === 'string') return null;
    const s = context.untraced(() => tools.summarizeTensor(t as never));
    if ((s.nanCount ?? 0) > 0 || (s.infCount ?? 0) > 0) any = true;
    const { dtype, size, nanCount, infCount, negInfCount, exact, counted } = s;
    return { dtype, size, nanCount, infCount, ...(negInfCount !== undefined ? { negInfCount } : {}), exact, counted };
  });
  return any ? counts : undefined;
}

/** The observer the agent adds to the runtime's; `active` holds the invocations under way, outermost first. */
export function createCallbackObserver(context: AgentContext, active: Entry[], parts: StopParts): CallbackObserver {
  const { known, breakpoints, nodes, copies } = parts;
  const matches = (e: Entry) => {
    const wanted = context.agent.config.breakOnCallbacks;
    if (wanted.length === 0) return false;
    if (wanted.includes('*')) return true;
    const c = { ...e.callback, node: e.node };
    return wanted.some((w) => answersTo(w, c));
  };
  /** An invocation started: a stop there is decided now (break on it, its function breakpoints, a node step into it). */
  const started = (entry: Entry) => {
    const { agent } = context;
    // Errors thrown in callbacks: V8 pauses on exceptions once the debugger is on (the adapter sets it then).
    if (agent.config.debuggerBeforeCallbacks) agent.ensureDebugger?.();
    if (agent.config.keepInputs) copies.save(entry, false);
    active.push(entry);
    if (nodes.stepping === 'into') {
      // A step into from a node stop: the next node is this callback's.
      nodes.step(undefined);
      agent.signal('nodeStep', entry);
    } else if (matches(entry)) agent.signal('callback', entry);
    else if (breakpoints.rules.length > 0) {
      const why = breakpoints.callbackStop(entry);
      if (why) agent.signal('callback', entry, why);
    }
  };
  /** An invocation ended: a Tout mismatch or NaN/Inf stops there, then it is no longer under way. */
  const ended = (entry: Entry) => {
    const { agent } = context;
    const last = active.length - 1;
    const index = last >= 0 && active[last] === entry ? last : active.indexOf(entry);
    try {
      if (agent.config.breakOnToutMismatch && entry.state === 'toutMismatch') agent.signal('toutMismatch', entry);
      else if (agent.config.breakOnNonFinite && entry.state === 'returned') {
        const counts = nonFinite(context, entry);
        if (counts) agent.signal('nonFinite', entry, { nonFinite: counts });
      }
    } finally {
      if (index === active.length - 1) active.pop();
      else if (index >= 0) active.splice(index, 1);
      // Ended: nothing restores its inputs any more (restoreInputs finds live invocations only).
      copies.release(entry);
    }
  };
  return {
    detail: 'light',
    onCallbackKnown(k) {
      if (known.addCallback(k)) nodes.knownChanged();
    },
    onGraphKnown(g) {
      known.addGraph(g);
      nodes.knownChanged();
    },
    onInvocationStart: started,
    onInvocationEnd: ended,
    // A runtime older than frames tells events only: they are made into a frame here.
    onCallbackStart(start: CallbackStart, live: RuntimeLive) {
      started(frameOfEvents(start, live));
    },
    onCallbackEnd(end: CallbackInvocation, live: RuntimeLive) {
      const entry = (active.find((e) => e.id === end.id) as EventsFrame | undefined) ?? frameOfEvents(end, live);
      entry.ended?.(end);
      ended(entry);
    },
  };
}
