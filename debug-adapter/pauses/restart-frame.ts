/**
 * Restart Frame, as js-debug offers it, and for callbacks: on a callback's frame (or its graph
 * frame while it runs) the callback runs again on the inputs it was given, put back first where it
 * wrote them in place (the agent's copies: `restoreInputs`); on a plain JS frame V8 restarts the
 * function (`Debugger.restartFrame`, mode 'StepInto'). Refused, saying why, where V8 cannot
 * (an async function, the program's outermost frame) or the frame is gone (a callback that returned).
 */
import type { AgentClient } from '../cdp/agent-client.js';
import type { ActiveSnapshot, RestoredInputs } from '../debuggee/agent-protocol.js';
import { isAsyncFunction, offsetOf } from '../sources/js-scan.js';
import type { PausedState } from '../state/pause-state.js';
import type { Scripts } from '../sources/scripts.js';
import type { StackFrameEntry } from '../state/stack.js';
import { displayName } from '../state/frame-names.js';

export type RestartPlan = { readonly callFrameId: string; readonly active?: ActiveSnapshot; readonly name: string } | { readonly refused: string };

/** What restarting `frame` means, or why it cannot be restarted. */
export async function planRestart(frame: StackFrameEntry | undefined, paused: PausedState | undefined, scripts: Scripts): Promise<RestartPlan> {
  if (!paused) return { refused: 'Restart Frame needs the program paused.' };
  if (!frame) return { refused: 'That frame is not one of this stop’s: ask for the stack again.' };
  if (frame.kind === 'graph') {
    if (!frame.active) return { refused: `${frame.name} is a model node, not a function: it cannot be restarted.` };
    if (!frame.evalInCallback || !frame.evalFrame)
      return { refused: `Callback ${displayName(frame.active)} has returned: its frame is gone. Restart Frame works while the callback runs.` };
    return { callFrameId: frame.evalFrame.callFrameId, active: frame.active, name: displayName(frame.active) };
  }
  const frames = paused.event.callFrames;
  const index = frames.findIndex((f) => f.callFrameId === frame.callFrame.callFrameId);
  if (index === frames.length - 1) return { refused: `${frame.name} is the program's outermost frame: V8 cannot restart it.` };
  const start = frame.callFrame.functionLocation;
  const source = start ? await scripts.text(start.scriptId) : undefined;
  if (start && source !== undefined && isAsyncFunction(source, offsetOf(source, start.lineNumber, start.columnNumber ?? 0)))
    return { refused: `${frame.name} is an async function: V8 cannot restart it.` };
  return { callFrameId: frame.callFrame.callFrameId, ...(frame.active ? { active: frame.active } : {}), name: frame.name };
}

/** Puts a callback's inputs back as they came; the Debug Console line that says what was done. */
export async function restoreInputs(agent: AgentClient, active: ActiveSnapshot): Promise<string> {
  const r: RestoredInputs | undefined = await agent.call((a, id) => a.restoreInputs(id), active.id);
  const name = displayName(active);
  if (!r) return `Restarting callback ${name}.\n`;
  const parts = [`Restarting callback ${name} on the same inputs`];
  if (r.changed > 0) parts.push(`${r.changed} of them put back as they came (the callback had written to ${r.changed === 1 ? 'it' : 'them'})`);
  if (r.unsaved > 0) parts.push(`${r.unsaved} too large to keep a copy of, restarted as ${r.unsaved === 1 ? 'it is' : 'they are'}`);
  if (r.late && r.restored > 0) parts.push('copied at the first stop: writes before it stay');
  return `${parts.join('; ')}.\n`;
}
