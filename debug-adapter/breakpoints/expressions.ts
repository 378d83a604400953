/**
 * The user's expressions that breakpoints evaluate: a logpoint's message, with its `{expressions}`
 * read where the line runs (debuggee/agent/logpoints.ts formats them). A function breakpoint's
 * condition is evaluated by the agent, where the hit happens: debuggee/agent/function-breakpoints.ts.
 */
import { agentExpression } from '../cdp/agent-client.js';
import type { CdpConnection } from '../cdp/connection.js';
import type { LogpointPart } from '../debuggee/agent-protocol.js';
import { parseLogpointTemplate } from './logpoint-template.js';

/**
 * A logpoint's message as a JS array of its parts (logpoint-template.ts reads it): each text as a
 * string, each `{expression}` as an arrow function that reads it in the frame, with its source. An
 * expression that does not parse is its error, in braces (as one that throws shows), so the rest
 * of the message still compiles; a message that cannot be read to its end says where and why.
 */
export function logpointParts(template: string): string {
  const parts = parseLogpointTemplate(template).map((piece) => {
    if (piece.kind === 'text') return JSON.stringify(piece.text);
    if (piece.kind === 'unreadable') return JSON.stringify(`{${piece.message}}`);
    const syntax = syntaxError(piece.source);
    // The newline ends a line comment the expression may end with.
    return syntax === undefined ? `{ read: () => (${piece.source}\n), source: ${JSON.stringify(piece.source)} }` : JSON.stringify(`{${syntax}}`);
  });
  return `[${parts.join(', ')}]`;
}

/** Why `expression` does not parse as one, or undefined. Parsed only (a Function is made, never called). */
function syntaxError(expression: string): string | undefined {
  try {
    new Function(`return (${expression}\n);`);
    return undefined;
  } catch (err) {
    return `${(err as Error).name}: ${(err as Error).message}`;
  }
}

/**
 * The V8 condition that writes a logpoint's line where the line runs, without pausing: false once
 * the line went to the adapter (the agent's LOGPOINT_BINDING); true, so V8 pauses and `logMessage` writes it,
 * when the agent or the binding is not there.
 */
export function logpointCondition(template: string, id: number): string {
  const write = agentExpression((agent, bp: number, parts: LogpointPart[]) => agent.writeLogpoint(bp, parts), String(id), logpointParts(template));
  return `(() => { try { return ${write}; } catch { return true; } })()`;
}

/** A logpoint's message on a paused frame (a logpoint V8 paused for); if the agent is not there, why. */
export async function logMessage(cdp: CdpConnection, template: string, callFrameId: string): Promise<string> {
  const expression = agentExpression((agent, parts: LogpointPart[]) => agent.logpointText(parts), logpointParts(template));
  const r = await cdp.send('Debugger.evaluateOnCallFrame', { callFrameId, expression, returnByValue: true, silent: true });
  return r.exceptionDetails ? `${template} {${r.exceptionDetails.exception?.description?.split('\n')[0] ?? 'error'}}` : String(r.result.value);
}
