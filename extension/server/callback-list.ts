/**
 * The answer to CallbacksRequest (protocol.ts): the callbacks in open documents, for the
 * extension's "Break on Callback…" quick pick. Lines are 1-based, like call sites in traces.
 */
import { callbackNodesOf } from './model-checks.js';
import type { ProgramAnalysis, TraceMatch } from './program-analysis.js';
import type { CallbackEntry } from './protocol.js';
import { callbackLabel } from './wrapper-calls.js';

export function programCallbacks(analysis: ProgramAnalysis, match: TraceMatch | undefined): CallbackEntry[] {
  const out: CallbackEntry[] = [];
  for (const call of analysis.calls) {
    const token = match?.byCall.get(call)?.at(-1)?.callback.token;
    const name = callbackLabel(call) ?? token;
    if (!name) continue; // an anonymous callback never run: nothing to break on by name
    out.push({
      name,
      ...(call.functionName ? { functionName: call.functionName } : {}),
      kind: call.kind,
      uri: analysis.uri,
      line: call.line + 1,
      api: call.api,
      ...(token ? { token } : {}),
    });
  }
  return out;
}

export function modelCallbacks(uri: string, text: string): CallbackEntry[] {
  return callbackNodesOf(text).nodes.map((node) => ({
    name: node.node,
    kind: node.op === 'EagerPyFunc' ? 'py_function' : 'numpy_function',
    uri,
    line: node.location?.line ?? 1,
    ...(node.location ? { column: node.location.column } : {}),
    op: node.op,
    token: node.token,
  }));
}
