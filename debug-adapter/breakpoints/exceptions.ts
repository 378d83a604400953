/**
 * Which exception pauses become stops. V8 (Node 20) cannot be asked the question people mean:
 * the runtime catches every callback's error (to raise TensorFlow's CallbackError), and Node's
 * module runner catches a program's top-level error, so V8's "uncaught" pauses never fire for
 * a callback that throws; blackbox patterns do not mute caught exceptions that Node's own
 * internals throw (see PROTOCOL.md, "Exception pauses", for what was measured). So with either
 * filter on V8 pauses on every exception ('all'), and this decides, from the frames:
 *
 * - *Caught exceptions*: a throw whose top frame is the user's code (not the runtime, the loader,
 *   tsx, node_modules, Node's internals or the adapter's own files), or an exception V8 knows is
 *   uncaught, with user code on the stack;
 * - *Uncaught exceptions*: an exception V8 knows is uncaught, with user code on the stack, or one
 *   thrown by (or under) the user's code in a callback that nothing between the throw and the
 *   callback's frame catches: it escapes the callback, and the program gets the runtime's
 *   CallbackError. Whether a frame catches is read from its source (js-scan.ts).
 *
 * Everything else resumes at once.
 */
import type { Protocol } from 'devtools-protocol';
import type { AgentClient } from '../agent-client.js';
import { displayName } from '../callback-display.js';
import type { ActiveSnapshot } from '../debuggee/agent-protocol.js';
import { inTryWithCatch, isAsyncFunction, offsetOf } from '../js-scan.js';
import type { Stop } from '../pauses/pause-state.js';
import type { Scripts } from '../scripts.js';
import { isUserFrame } from '../stack.js';

/** What deciding an exception stop reads: the scripts, and the agent for the callbacks under way. */
export interface ExceptionContext {
  readonly scripts: Scripts;
  readonly agent: AgentClient;
}

export interface ExceptionFilters {
  readonly caught: boolean;
  readonly uncaught: boolean;
}

/** The `data` of an exception pause: the thrown value as a remote object, and V8's prediction. */
interface ExceptionData {
  readonly type?: string;
  readonly className?: string;
  readonly description?: string;
  readonly value?: unknown;
  readonly uncaught?: boolean;
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
  if (data.uncaught) {
    return { stop: { reason: 'exception', description: `Paused on uncaught exception: ${thrown}`, text: thrown, exception: exception('unhandled') } };
  }
  if (filters.uncaught) {
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
