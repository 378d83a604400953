/**
 * The user's expressions that breakpoints evaluate on a paused frame: a logpoint's `{expressions}`,
 * and a function breakpoint's condition with the callback's inputs under its parameter names.
 */
import { agentExpression } from './agent-client.js';
import type { CdpConnection } from './cdp/connection.js';
import type { DebugAgent } from './debuggee/agent-protocol.js';

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

/** Whether `condition` holds with the inputs of invocation `id` bound to its parameter names (`argN` where a name is not one). */
export async function callbackConditionHolds(
  cdp: CdpConnection,
  condition: string,
  id: number,
  parameterNames: readonly string[],
  callFrameId: string,
): Promise<boolean> {
  const params = parameterNames.map((p, i) => (/^[A-Za-z_$][\w$]*$/.test(p) ? p : `arg${i}`));
  const args = agentExpression((agent, invocation: number) => agent.live(invocation)?.args, String(id));
  const expression = `(function (${params.join(', ')}) { return !!(${condition}); }).apply(null, ${args})`;
  const r = await cdp.send('Debugger.evaluateOnCallFrame', { callFrameId, expression, returnByValue: true, silent: true });
  return r.result.value === true;
}
