/**
 * Messages between the tensor inspector webview (media/) and its panel in the extension host.
 * The tensor summaries, invocations and slices are the debug adapter's: their one definition is
 * debug-adapter/extension-protocol.ts (the `tensorCallback` and `graphNode` events, the `tensorData` request),
 * imported here as types only, so nothing of the adapter is bundled into the page. The page holds
 * them read-only, and as event-check.ts lets them in: fields older adapters did not send may be
 * absent, and an input or output that is not a tensor may be null.
 */
import type * as adapter from '../../debug-adapter/extension-protocol.js';

/** A type read-only all the way down, as the page holds what it was sent. */
type Frozen<T> = T extends readonly (infer U)[] ? readonly Frozen<U>[] : T extends object ? { readonly [K in keyof T]: Frozen<T[K]> } : T;
/** `T` with the fields `K` optional. */
type Tolerant<T, K extends keyof T> = Omit<T, K> & Partial<Pick<T, K>>;

export type Side = adapter.Side;

/** A value of a page or preview as sent: NaN and ±Infinity as NonFiniteValue (JSON has neither). */
export type WireValue = Frozen<adapter.FlatValue>;

/** One input or output's summary (adapter `ValueInfo`). */
export type TensorInfo = Frozen<adapter.ValueInfo>;

type WireToutCheck = NonNullable<adapter.ActiveSnapshot['toutCheck']>;

/** The invocation (adapter `ActiveSnapshot`); `Tin` and py_function's `conversions` are absent from older adapters. */
export type InvocationSnapshot = Frozen<
  Tolerant<Omit<adapter.ActiveSnapshot, 'toutCheck'>, 'Tin' | 'generatedParameterNames'> & { toutCheck?: Tolerant<WireToutCheck, 'conversions'> }
>;

/** The adapter's `tensorCallback` event body. */
export type TensorCallbackEvent = Frozen<Omit<adapter.TensorCallbackEventBody, 'invocation' | 'inputs' | 'outputs'>> & {
  readonly invocation: InvocationSnapshot;
  readonly inputs: readonly (TensorInfo | null)[];
  readonly outputs: readonly (TensorInfo | null)[];
};

/** The node a node stop or a graph-view click is about (adapter `NodeSnapshot`); `frameKey`, `modelPath` and `location` may be absent. */
export type NodeStopSnapshot = Frozen<Omit<adapter.NodeSnapshot, 'inputs' | 'outputs'>> & {
  readonly inputs: readonly (TensorInfo | null)[];
  readonly outputs: readonly (TensorInfo | null)[];
};

/** The adapter's `graphNode` event body (also what the panel makes of a `nodeInfo` answer). */
export type NodeStopEvent = Frozen<Omit<adapter.GraphNodeEventBody, 'node'>> & { readonly node: NodeStopSnapshot };

/** The adapter's `tensorData` response body. */
export type TensorSlice = Frozen<adapter.TensorDataResponseBody>;

/** What the adapter sends fits what the page takes: these fail to compile when the two drift apart. */
type Holds<T extends true> = T;
export type WireEventFits = Holds<adapter.TensorCallbackEventBody extends TensorCallbackEvent ? true : false>;
export type WireSliceFits = Holds<adapter.TensorDataResponseBody extends TensorSlice ? true : false>;
export type WireNodeEventFits = Holds<adapter.GraphNodeEventBody extends NodeStopEvent ? true : false>;

/** Whose tensors a slice is of: an invocation's (`tensorData` by invocationId) or the paused node's (by graph and node). */
export type SliceOwner = Readonly<Pick<adapter.InvocationDataArguments, 'invocationId'>> | Readonly<Pick<adapter.NodeDataArguments, 'graph' | 'node'>>;

/** A slice of an input or output, by flat index: the `tensorData` arguments (either kind), and the session to ask. */
export type SliceRequest = { readonly sessionId: string } & (
  | Readonly<Required<adapter.InvocationDataArguments>>
  | Readonly<Required<adapter.NodeDataArguments>>
);

/** The adapter's `tensorBytes` response body: base64 bytes from `offset` of a buffer `byteLength` long. */
export type TensorBytes = Frozen<adapter.TensorBytesResponseBody>;
export type WireBytesFit = Holds<adapter.TensorBytesResponseBody extends TensorBytes ? true : false>;

/** Bytes of an input or output (the `tensorBytes` arguments, either kind), and the session to ask. */
export type BytesRequest = { readonly sessionId: string } & (
  | Readonly<Omit<Required<adapter.InvocationDataArguments>, 'start' | 'count'>>
  | Readonly<Omit<Required<adapter.NodeDataArguments>, 'start' | 'count'>>
) & { readonly offset: number; readonly count: number };

/** A pinned expression at one stop (adapter `PinnedValue`), and the adapter's `pinnedValues` event body. */
export type PinnedValue = Frozen<adapter.PinnedValue>;
export type PinnedValuesEvent = Frozen<adapter.PinnedValuesEventBody>;
export type WirePinsFit = Holds<adapter.PinnedValuesEventBody extends PinnedValuesEvent ? true : false>;

/** Compare: the adapter's `tensorDiff` response body (Δ map values as sent: NaN and ±Infinity as NonFiniteValue). */
export type TensorDiffAnswer = Frozen<adapter.TensorDiffResponseBody>;
export type WireDiffFits = Holds<adapter.TensorDiffResponseBody extends TensorDiffAnswer ? true : false>;

/** Compare: one input or output of two invocations (the `tensorDiff` arguments), and the session to ask. */
export type DiffRequest = { readonly sessionId: string } & Frozen<adapter.TensorDiffArguments>;

/** The adapter's `modelInfo` response body: the model at the stop (the Model section, model-view.ts). */
export type ModelSummary = Frozen<adapter.ModelInfoResponseBody>;
/** A weight of a layer: its tf.Variable's name and summary. */
export type ModelWeight = ModelSummary['layers'][number]['weights'][number];
export type WireModelFits = Holds<adapter.ModelInfoResponseBody extends ModelSummary ? true : false>;

/** The adapter's `trainingCurve` event body: a fit's logs since the last one (runtime/fit-log-types.ts). */
export type TrainingCurveEvent = Frozen<adapter.TrainingCurveEventBody>;
export type FitPositionView = Frozen<adapter.FitPosition>;
export type WireTrainingFits = Holds<adapter.TrainingCurveEventBody extends TrainingCurveEvent ? true : false>;

/** Extension host → webview. */
export type HostMessage =
  /** A stop in a callback: shown, and added to the session's history. */
  | { readonly type: 'invocation'; readonly sessionId: string; readonly event: TensorCallbackEvent; readonly live: boolean }
  /**
   * A model node: a stop at it (`graphNode`), or one clicked in the graph view (`nodeInfo`). `live`: the program is
   * paused at this node, so its tensors can be fetched (with `event.node.live`).
   */
  | { readonly type: 'node'; readonly sessionId: string; readonly event: NodeStopEvent; readonly live: boolean }
  /** The answer to a `tensorData` request. */
  | { readonly type: 'tensorData'; readonly requestId: number; readonly slice?: TensorSlice; readonly error?: string }
  /** The answer to a `modelInfo` request. */
  | { readonly type: 'modelInfo'; readonly requestId: number; readonly model?: ModelSummary; readonly error?: string }
  /** The answer to a `tensorBytes` request. */
  | { readonly type: 'tensorBytes'; readonly requestId: number; readonly bytes?: TensorBytes; readonly error?: string }
  /** The answer to a `tensorDiff` request (Compare). */
  | { readonly type: 'tensorDiff'; readonly requestId: number; readonly diff?: TensorDiffAnswer; readonly error?: string }
  /** The training curve's points since the last (`trainingCurve`), while running and at each stop: drawn in the Training section. */
  | { readonly type: 'training'; readonly sessionId: string; readonly event: TrainingCurveEvent }
  /** The debug session the shown invocations belong to has ended: their data cannot be fetched any more. */
  | { readonly type: 'sessionEnded'; readonly sessionId: string }
  /** A new debug session started: the last session's stop is no longer what the program is doing. */
  | { readonly type: 'sessionStarted'; readonly sessionId: string }
  /** The pinned expressions (the extension's, in the workspace): on `ready` and whenever they change. */
  | { readonly type: 'pins'; readonly expressions: readonly string[] }
  /** The pins' values at a stop (the adapter's `pinnedValues`). */
  | { readonly type: 'pinned'; readonly sessionId: string; readonly event: PinnedValuesEvent };

/** Webview → extension host. */
export type WebviewMessage =
  | { readonly type: 'ready' }
  | ({ readonly type: 'tensorData'; readonly requestId: number } & SliceRequest)
  | ({ readonly type: 'tensorBytes'; readonly requestId: number } & BytesRequest)
  | ({ readonly type: 'tensorDiff'; readonly requestId: number } & DiffRequest)
  /** The model at the session's stop (adapter `modelInfo`), for the Model section. */
  | { readonly type: 'modelInfo'; readonly requestId: number; readonly sessionId: string }
  /** A weight picked in the Model section: open it in the inspector, or offer its actions (Break on Value Change…). */
  | { readonly type: 'modelWeight'; readonly sessionId: string; readonly action: 'inspect' | 'actions'; readonly weight: ModelWeight }
  /** Put this text (a tensor as JSON, or in `format`: 'NumPy', 'CSV') on the clipboard. */
  | { readonly type: 'copy'; readonly text: string; readonly format?: string }
  /** Unpin (the inspector's Unpin button). */
  | { readonly type: 'unpin'; readonly expression: string };
