/**
 * Logpoints where the line runs: V8 evaluates a logpoint's condition (breakpoints/source.ts), which
 * calls `writeLogpoint` with the message's parts, and the line goes to the adapter through its
 * binding, with no pause (a pause per hit was two round trips; js-debug pauses for none either).
 */
import { LOGPOINT_BINDING, type DebugAgent, type LogpointNotice, type LogpointPart } from '../agent-protocol.js';
import type { AgentContext } from './context.js';

/** How a logpoint prints a value: tensors by their summary, objects as JSON, the rest as text. */
function valueText(agent: DebugAgent, value: unknown): string {
  try {
    return agent.describe(value) ?? (typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value));
  } catch {
    return String(value);
  }
}

/** An expression that threw shows the first line of what it threw, in braces. */
function errorText(thrown: unknown): string {
  const text = thrown instanceof Error ? `${thrown.name}: ${thrown.message}` : String(thrown);
  return `{${text.split('\n')[0]}}`;
}

export function createLogpoints(context: AgentContext): Pick<DebugAgent, 'logpointText' | 'writeLogpoint'> {
  const logpointText = (parts: readonly LogpointPart[]): string =>
    parts
      .map((part) => {
        if (typeof part === 'string') return part;
        try {
          return valueText(context.agent, part());
        } catch (thrown) {
          return errorText(thrown);
        }
      })
      .join('');
  return {
    logpointText,
    writeLogpoint(id, parts) {
      const send = context.holder[LOGPOINT_BINDING];
      if (typeof send !== 'function') return true;
      const notice: LogpointNotice = { id, text: logpointText(parts) };
      send(JSON.stringify(notice));
      return false;
    },
  };
}
