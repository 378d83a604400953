/**
 * The `tfjsCallbacks/callbacks` request: the callbacks in open documents, for the extension's
 * "Break on Callback…" quick pick. Lines are 1-based, like call sites in traces.
 */
import type { CallbackKind, CallbackOp } from '../../runtime/events.js';
import { callbackNodesOf } from './model-checks.js';
import type { ProgramAnalysis, TraceMatch } from './program-analysis.js';
import { callbackLabel } from './wrapper-calls.js';

export const CALLBACKS_REQUEST = 'tfjsCallbacks/callbacks';

export interface CallbacksParams {
  /** Only this document; all open documents when absent. */
  readonly uri?: string;
}

export interface CallbackEntry {
  /** What the debugger breaks on: the `name` option, the function's name, or the node's name. */
  readonly name: string;
  readonly functionName?: string;
  readonly kind: CallbackKind;
  readonly uri: string;
  /** 1-based line of the wrapper call, or of the node in model.json. */
  readonly line: number;
  /** 1-based column of the node's name in model.json (converted models are one line). */
  readonly column?: number;
  /** The wrapper function (`numpyFunction`, …) or, for a model node, the op. */
  readonly api?: string;
  readonly op?: CallbackOp;
  /** A model node's token, or the token the last run gave a wrapper callback. */
  readonly token?: string;
}

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
