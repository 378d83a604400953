/**
 * Logpoints where the line runs: V8 evaluates a logpoint's condition (breakpoints/source.ts), which
 * calls `writeLogpoint` with the message's parts, and the line goes to the adapter through its
 * binding, with no pause (a pause per hit was two round trips; js-debug pauses for none either).
 * Each `{expression}` runs with the conditions' time limit, and its value is cut as an evaluate
 * result is, here, so a huge value never crosses to the adapter whole. The limit stops a loop only
 * at a pause (logMessage): V8 holds back the watchdog's interrupt while it evaluates a breakpoint's
 * condition, so there a slow expression is caught once it returns, and skipped at later hits.
 */
import { shownResult } from './result-cut.js';
import { LOGPOINT_BINDING, type DebugAgent, type LogpointNotice, type LogpointPart } from '../agent-protocol.js';
import { CONDITION_LIMIT_MS, createLimited, overran } from './condition-limit.js';
import type { AgentContext } from './context.js';

/** How a logpoint prints a value: tensors by their summary, objects as JSON, the rest as text. */
function valueText(agent: DebugAgent, value: unknown): string {
  try {
    return agent.describe(value) ?? (typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value));
  } catch {
    return String(value);
  }
}

/** An expression that threw shows the first line of what it threw, in braces; one that ran too long says so. */
function errorText(thrown: unknown, source: string, skipped: boolean): string {
  if (overran(thrown))
    return `{${source} ran over ${CONDITION_LIMIT_MS / 1000} s: a logpoint's expression runs each time its line runs, keep it short${skipped ? '; this logpoint skips it from now on' : ''}}`;
  const text = thrown instanceof Error ? `${thrown.name}: ${thrown.message}` : String(thrown);
  return `{${text.split('\n')[0]}}`;
}

export function createLogpoints(context: AgentContext): Pick<DebugAgent, 'logpointText' | 'writeLogpoint'> {
  const limited = createLimited();
  /** The expressions (logpoint id and source) that ran over the limit once: not run again, so a loop's line costs no second each time. */
  const stopped = new Set<string>();
  const partText = (part: LogpointPart, id: number | undefined): string => {
    if (typeof part === 'string') return part;
    const key = `${id}\n${part.source}`;
    if (stopped.has(key)) return `{${part.source} skipped: it ran over ${CONDITION_LIMIT_MS / 1000} s at an earlier hit}`;
    try {
      return shownResult(
        limited(() => valueText(context.agent, part.read())),
        part.source,
      );
    } catch (thrown) {
      const skipped = overran(thrown) && id !== undefined;
      if (skipped) stopped.add(key);
      return errorText(thrown, part.source, skipped);
    }
  };
  const text = (parts: readonly LogpointPart[], id?: number): string => parts.map((part) => partText(part, id)).join('');
  return {
    logpointText: (parts) => text(parts),
    writeLogpoint(id, parts) {
      const send = context.holder[LOGPOINT_BINDING];
      if (typeof send !== 'function') return true;
      const notice: LogpointNotice = { id, text: text(parts, id) };
      send(JSON.stringify(notice));
      return false;
    },
  };
}
