/**
 * Which exception pauses become stops. V8 (Node 20) cannot be asked the question people mean:
 * the runtime catches every callback's error (to raise TensorFlow's CallbackError), and Node's
 * module runner catches a program's top-level error, so V8's "uncaught" pauses never fire for
 * a callback that throws; blackbox patterns do not mute caught exceptions that Node's own
 * internals throw (see PROTOCOL.md, "Exception pauses", for what was measured). So with any of
 * these filters on V8 pauses on every exception ('all'), and this decides, from the frames:
 *
 * - *Caught exceptions*: a throw whose top frame is the user's code (not the runtime, the loader,
 *   tsx, node_modules, Node's internals or the adapter's own files), or an exception V8 knows is
 *   uncaught, with user code on the stack;
 * - *Errors thrown in callbacks* (on by default): an exception thrown by (or under) the user's code
 *   in a callback that nothing between the throw and the callback's frame catches: it escapes the
 *   callback, and the program gets the runtime's CallbackError. Whether a frame catches is read
 *   from its source (sources/js-scan.ts);
 * - *Uncaught exceptions*: an exception V8 knows is uncaught, with user code on the stack, and one
 *   that escapes a callback as above (before this filter had a box of its own, the callback's error
 *   was what Uncaught stopped on: a program that catches nothing dies of it).
 *
 * Everything else resumes at once; a pause with no runtime invocation on its stack (no callback
 * under way) resumes without asking the agent which callbacks are under way.
 */
import type { Protocol } from 'devtools-protocol';
import type { AgentClient } from '../cdp/agent-client.js';
import { displayName } from '../state/frame-names.js';
import { nonFiniteOutputsText } from '../../runtime/non-finite-text.js';
import type { ActiveSnapshot, LastBreak, NodeSnapshot } from '../debuggee/agent-protocol.js';
import { inTryWithCatch, isAsyncFunction, offsetOf } from '../sources/js-scan.js';
import type { Stop } from '../state/pause-state.js';
import type { Scripts } from '../sources/scripts.js';
import { isUserFrame } from '../state/stack.js';

/** What deciding an exception stop reads: the scripts, and the agent for the callbacks under way. */
export interface ExceptionContext {
  readonly scripts: Scripts;
  readonly agent: AgentClient;
}

export interface ExceptionFilters {
  readonly caught: boolean;
  readonly uncaught: boolean;
  /** "Errors thrown in callbacks": an exception escaping a callback. */
  readonly callbackErrors: boolean;
}

/** Whether V8 must pause on every exception for these filters (the adapter decides each pause). */
export function pausesOnExceptions(filters: ExceptionFilters): boolean {
  return filters.caught || filters.uncaught || filters.callbackErrors;
}

/** The `data` of an exception pause: the thrown value as a remote object, and V8's prediction. */
interface ExceptionData {
  readonly type?: string;
  readonly className?: string;
  readonly description?: string;
  readonly value?: unknown;
  readonly uncaught?: boolean;
}

/**
 * The stops the agent makes for the exception filters of its own (Tout mismatch, NaN/Inf in a
 * callback's output, NaN/Inf in the graph), in a stop's words; undefined for any other break.
 */
export function agentExceptionStop(why: LastBreak | undefined, active: readonly ActiveSnapshot[]): { stop: Stop; node?: NodeSnapshot } | undefined {
  if (why?.reason === 'graphNonFinite' && why.origin) {
    const { origin } = why;
    const description = `NaN/Inf in the graph: ${origin.message}`;
    // The widget's second line: how many of each, in which of the node's outputs.
    const counts = why.node ? nonFiniteOutputsText(why.node.outputs) : '';
    const stop: Stop = {
      reason: 'exception',
      description,
      text: `${origin.graph} › ${origin.node} (${origin.op})`,
      exception: { id: 'GraphNonFinite', description: counts ? `${description}\nnode \`${origin.node}\`: ${counts}` : description },
    };
    return { stop, ...(why.node ? { node: why.node } : {}) };
  }
  const entry = active.find((a) => a.id === why?.id);
  if (!entry) return undefined;
  const name = displayName(entry);
  const where = entry.node !== undefined ? `${entry.graph} › ${entry.node} (${entry.op})` : `${name} (${entry.op})`;
  if (why?.reason === 'toutMismatch') {
    // The runtime's words as sent: its short form after our name, its whole messages as details.
    const full = entry.toutCheck?.mismatches.map((m) => m.message).join('\n') ?? '';
    const description = `Tout mismatch in ${name}: ${entry.toutCheck?.mismatches[0]?.short ?? ''}`;
    return { stop: { reason: 'exception', description, text: `Tout mismatch in ${where}`, exception: { id: 'ToutMismatch', description, details: full } } };
  }
  if (why?.reason === 'nonFinite') {
    const counts = why.nonFinite ? nonFiniteOutputsText(why.nonFinite) : '';
    const description = `NaN/Inf in an output of ${name}${counts ? `: ${counts}` : ''}`;
    return { stop: { reason: 'exception', description, text: where, exception: { id: 'NonFinite', description } } };
  }
  return undefined;
}

/** The stop an exception pause makes, or undefined to resume. */
export async function exceptionStop(
  context: ExceptionContext,
  event: Protocol.Debugger.PausedEvent,
  filters: ExceptionFilters,
): Promise<{ stop: Stop; active?: ActiveSnapshot[] } | undefined> {
  const frames = event.callFrames;
  const data = (event.data ?? {}) as ExceptionData;
  const userFrame = frames.findIndex((f) => isUserFrame(context.scripts, f));
  if (userFrame < 0) return undefined;
  const thrown = thrownText(data);
  const exception = (breakMode: 'always' | 'unhandled') => ({
    id: data.className ?? (data.type === 'object' ? 'Error' : (data.type ?? 'Error')),
    description: thrown,
    breakMode,
    ...(data.description && data.description !== thrown ? { details: data.description } : {}),
  });
  if (data.uncaught && (filters.uncaught || filters.caught)) {
    return { stop: { reason: 'exception', description: `Paused on uncaught exception: ${thrown}`, text: thrown, exception: exception('unhandled') } };
  }
  if ((filters.uncaught || filters.callbackErrors) && frames.slice(userFrame).some((f) => isInvocationFrame(context.scripts, f))) {
    const escaping = await escapingCallback(context, frames, userFrame);
    if (escaping) {
      const name = displayName(escaping.callback);
      return {
        stop: { reason: 'exception', description: `Paused on exception escaping callback ${name}: ${thrown}`, text: thrown, exception: exception('unhandled') },
        active: escaping.active,
      };
    }
  }
  if (filters.caught && userFrame === 0) {
    return { stop: { reason: 'exception', description: `Paused on exception: ${thrown}`, text: thrown, exception: exception('always') } };
  }
  return undefined;
}

/**
 * A frame of the runtime's invokeCallback (runtime/invocation/invoke.js, in the launcher's copy or
 * a project's own): a callback is under way only below one. Cheaper than asking the agent.
 */
function isInvocationFrame(scripts: Pick<Scripts, 'sources'>, frame: Protocol.Debugger.CallFrame): boolean {
  const file = scripts.sources.get(frame.location.scriptId)?.file;
  return !!file && INVOKE_FILE.test(file);
}

const INVOKE_FILE = /[\\/]runtime[\\/]invocation[\\/]invoke\.[cm]?[jt]s$/;

function thrownText(data: ExceptionData): string {
  if (data.description) return data.description.split('\n')[0]!;
  if (data.type === 'string') return JSON.stringify(data.value);
  return String(data.value ?? 'exception');
}

/**
 * The innermost callback under way, when the exception leaves it: its frame is on the stack
 * below user code, and no frame from the throw down to it catches (an async function's frame
 * does: its exception becomes a rejection, which does not leave the caller as a throw).
 */
async function escapingCallback(
  context: ExceptionContext,
  frames: readonly Protocol.Debugger.CallFrame[],
  userFrame: number,
): Promise<{ callback: ActiveSnapshot; active: ActiveSnapshot[] } | undefined> {
  const active = await context.agent.snapshot();
  const callback = active.at(-1);
  if (!callback) return undefined;
  const location = await context.agent.functionLocation(callback.id);
  if (!location) return undefined;
  const own = frames.findIndex((f) => sameLocation(f.functionLocation, location));
  if (own < 0 || userFrame > own) return undefined;
  for (let i = 0; i <= own; i++) {
    const frame = frames[i]!;
    const start = frame.functionLocation;
    if (!start) continue;
    const src = await context.scripts.text(frame.location.scriptId);
    if (src === undefined) continue;
    const from = offsetOf(src, start.lineNumber, start.columnNumber ?? 0);
    if (inTryWithCatch(src, from, offsetOf(src, frame.location.lineNumber, frame.location.columnNumber ?? 0))) return undefined;
    if (i < own && isAsyncFunction(src, from)) return undefined;
  }
  return { callback, active };
}

function sameLocation(a: Protocol.Debugger.Location | undefined, b: Protocol.Debugger.Location): boolean {
  return !!a && a.scriptId === b.scriptId && a.lineNumber === b.lineNumber && (a.columnNumber ?? 0) === (b.columnNumber ?? 0);
}
