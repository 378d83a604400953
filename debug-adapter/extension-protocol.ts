/**
 * The adapter's additions to DAP, as the extension sees them (PROTOCOL.md): the `tensorCallback`
 * event and the `tensorData` request. The adapter (session.ts), the extension's inspector panel and
 * the webview (media/src/protocol.ts) import these; the value shapes are the agent's.
 */
import type { ActiveSnapshot, Side, ValueInfo, ValuePage } from './debuggee/agent-protocol.js';

export type { ActiveSnapshot, FlatValue, Side, ValueInfo, ValuePage } from './debuggee/agent-protocol.js';

/** The custom event sent after each stop inside a callback invocation. */
export const TENSOR_CALLBACK_EVENT = 'tensorCallback';
/** The custom request for a slice of a tensor's values. */
export const TENSOR_DATA_REQUEST = 'tensorData';

/** The `tensorCallback` event body: the innermost invocation, with its inputs' and outputs' summaries. */
export interface TensorCallbackEventBody {
  reason: string;
  description: string;
  invocation: ActiveSnapshot;
  inputs: ValueInfo[];
  outputs: ValueInfo[];
}

/** `tensorData` of an invocation's input or output (ids from `tensorCallback`). */
export interface InvocationDataArguments {
  invocationId: number;
  side: Side;
  index: number;
  start?: number;
  count?: number;
}

/** `tensorData` of any expression whose value is a tensor, NdArray or typed array. */
export interface ExpressionDataArguments {
  expression: string;
  /** The stack frame it is evaluated on (globally without one). */
  frameId?: number;
  start?: number;
  count?: number;
}

export type TensorDataArguments = InvocationDataArguments | ExpressionDataArguments;

/** The `tensorData` response body. */
export type TensorDataResponseBody = ValuePage;
