/**
 * Messages between the tensor inspector webview (media/) and its panel in the extension host.
 * The tensor summaries and invocations are the debug adapter's `tensorCallback` event body
 * (debug-adapter/PROTOCOL.md); everything here is plain JSON.
 */

/**
 * One input or output: a tensor, NdArray, typed array, or a JS literal (kind "Array", "number",
 * "boolean", "string") with the dtype it takes; `opaque` for a value that is none of those
 * (kind says what it is: "Promise", "Object", "null", …; no dtype, shape or values).
 */
export interface TensorInfo {
  readonly kind: string;
  readonly dtype: string;
  readonly shape: readonly number[];
  readonly size: number;
  readonly disposed: boolean;
  readonly opaque?: boolean;
  readonly min?: number;
  readonly max?: number;
  readonly mean?: number;
  readonly nanCount?: number;
  readonly infCount?: number;
  readonly zeroCount?: number;
  readonly exact?: boolean;
  readonly counted?: number;
  readonly preview?: readonly (number | string | boolean)[];
}

export interface InvocationSnapshot {
  readonly id: number;
  readonly callback: { readonly name: string; readonly token: string; readonly kind: string; readonly stateful: boolean; readonly functionName?: string };
  readonly op: string;
  readonly graph?: string;
  readonly node?: string;
  readonly Tout: readonly string[];
  /** The inputs' dtypes as TensorFlow has them (a node's Tin); absent from older adapters. */
  readonly Tin?: readonly string[];
  readonly parameterNames: readonly string[];
  readonly callSite?: { readonly file: string; readonly line: number; readonly column: number };
  readonly phase: 'running' | 'returned';
  readonly toutCheck?: {
    readonly ok: boolean;
    readonly mismatches: readonly { readonly message: string; readonly index?: number; readonly problem: string }[];
    readonly narrowed: readonly { readonly index: number; readonly declared: string; readonly storedAs: string }[];
    /** py_function's conversions of returned arrays to Tout: warnings, not errors. */
    readonly conversions?: readonly { readonly index: number; readonly from: string; readonly fromDType: string; readonly to: string; readonly message: string }[];
  };
  readonly error?: { readonly name: string; readonly message: string };
}

/** The adapter's `tensorCallback` event body. */
export interface TensorCallbackEvent {
  readonly reason: string;
  readonly description: string;
  readonly invocation: InvocationSnapshot;
  readonly inputs: readonly (TensorInfo | null)[];
  readonly outputs: readonly (TensorInfo | null)[];
}

/** The adapter's `tensorData` response body. */
export interface TensorSlice {
  readonly info: TensorInfo;
  readonly start: number;
  readonly values: readonly (number | string | boolean)[];
}

export type Side = 'inputs' | 'outputs';

/** A slice of an invocation's input or output, by flat index. */
export interface SliceRequest {
  readonly sessionId: string;
  readonly invocationId: number;
  readonly side: Side;
  readonly index: number;
  readonly start: number;
  readonly count: number;
}

/** Extension host → webview. */
export type HostMessage =
  /** A stop in a callback: shown, and added to the session's history. */
  | { readonly type: 'invocation'; readonly sessionId: string; readonly event: TensorCallbackEvent; readonly live: boolean }
  /** The answer to a `tensorData` request. */
  | { readonly type: 'tensorData'; readonly requestId: number; readonly slice?: TensorSlice; readonly error?: string }
  /** The debug session the shown invocations belong to has ended: their data cannot be fetched any more. */
  | { readonly type: 'sessionEnded'; readonly sessionId: string }
  /** A new debug session started: the last session's stop is no longer what the program is doing. */
  | { readonly type: 'sessionStarted'; readonly sessionId: string };

/** Webview → extension host. */
export type WebviewMessage =
  | { readonly type: 'ready' }
  | ({ readonly type: 'tensorData'; readonly requestId: number } & SliceRequest)
  /** Put this text (a tensor as JSON) on the clipboard. */
  | { readonly type: 'copy'; readonly text: string };
