/**
 * The user's expressions that breakpoints evaluate on a paused frame: a logpoint's `{expressions}`.
 * (A function breakpoint's condition is evaluated by the agent, where the hit happens: debuggee/agent/function-breakpoints.ts.)
 */
import { agentExpression } from '../cdp/agent-client.js';
import type { CdpConnection } from '../cdp/connection.js';
import type { DebugAgent } from '../debuggee/agent-protocol.js';

/** How a logpoint prints a value: tensors by their summary, objects as JSON, the rest as text. */
function logText(agent: DebugAgent, value: unknown): string {
  try {
    return agent.describe(value) ?? (typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value));
  } catch {
    return String(value);
  }
}

/** A logpoint's message with its {expressions} evaluated on the frame; a failing one shows its error. */
export async function logMessage(cdp: CdpConnection, template: string, callFrameId: string): Promise<string> {
  const out: string[] = [];
  for (const part of template.split(/(\{[^{}]+\})/)) {
    if (!part.startsWith('{') || !part.endsWith('}')) {
      out.push(part);
      continue;
    }
    const expression = agentExpression(logText, `(${part.slice(1, -1)})`);
    const r = await cdp.send('Debugger.evaluateOnCallFrame', { callFrameId, expression, returnByValue: true, silent: true });
    out.push(r.exceptionDetails ? `{${r.exceptionDetails.exception?.description?.split('\n')[0] ?? 'error'}}` : String(r.result.value));
  }
  return out.join('');
}
