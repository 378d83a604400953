/**
 * The adapter's additions to DAP, as the extension sees them (PROTOCOL.md): the `tensorCallback`
 * event and the `tensorData` request. The adapter (session.ts), the extension's inspector panel and
 * the webview (media/src/protocol.ts) import these; the value shapes are the agent's.
 */
import type { ActiveSnapshot, DataBreakHit, GraphRunRecord, MemoryPage, NodeSnapshot, Side, ValueInfo, ValuePage } from './debuggee/agent-protocol.js';
import type { ModelSummary, PinnedValue, TensorDiff, TrainingCurveChunk, TrainingVariable } from './debuggee/agent-protocol.js';

export type {
  ActiveSnapshot,
  DataBreakHit,
  DeltaMap,
  DiffSide,
  ElementwiseDiff,
  LargestDelta,
  TensorDiff,
  FlatValue,
  GraphRunRecord,
  ModelLayer,
  ModelSummary,
  NodeAttrValue,
  NodeRunStatus,
  NodeSnapshot,
  PinnedValue,
  Side,
  TrainingCurveChunk,
  TrainingVariable,
  ValueInfo,
  ValuePage,
} from './debuggee/agent-protocol.js';
export type { FitInfo, FitLogPoint, FitPosition, LogValue } from '../runtime/fit-log-types.js';

/**
 * The backend a launched program (F5, Debug Graph, a Debug Terminal's) chose before its first line:
 * the status bar's "→ backend" (a terminal's backend line goes to the terminal, out of VS Code's reach).
 */
export const BACKEND_EVENT = 'tfjsBackend';
export interface BackendEventBody {
  backend: string;
}

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

/** `tensorData` of the paused node's input or output (a node stop, `graphNode`). */
export interface NodeDataArguments {
  graph: string;
  node: string;
  side: Side;
  index: number;
  start?: number;
  count?: number;
}

export type TensorDataArguments = InvocationDataArguments | ExpressionDataArguments | NodeDataArguments;

/** The custom event sent after each stop at a model node (a node breakpoint, a step to a node, NaN/Inf in the graph). */
export const GRAPH_NODE_EVENT = 'graphNode';

export interface GraphNodeEventBody {
  reason: string;
  description: string;
  node: NodeSnapshot;
}

/** The custom event sent at each stop while the graph is watched (`graphWatch`): the statuses of the latest run. */
export const GRAPH_RUN_EVENT = 'graphRun';

export type GraphRunEventBody = GraphRunRecord;

/** The custom request that turns recording node statuses on or off (the graph view is open). Answered with no body. */
export const GRAPH_WATCH_REQUEST = 'graphWatch';

export interface GraphWatchArguments {
  on: boolean;
}

/** The custom request for one node of the latest watched run (a click in the graph view). */
export const NODE_INFO_REQUEST = 'nodeInfo';

export interface NodeInfoArguments {
  graph: string;
  node: string;
}

/** The `nodeInfo` response body; an error response when the node did not run in the latest watched run. */
export type NodeInfoResponseBody = NodeSnapshot;

/** `toggleSkipFile`: steps pass over the file, or go through it (js-debug's "Toggle Skipping this File"). */
export const TOGGLE_SKIP_FILE_REQUEST = 'toggleSkipFile';

export interface ToggleSkipFileArguments {
  /** The file's path, as the call stack's source gives it. */
  readonly path: string;
}

export interface ToggleSkipFileResponseBody {
  /** Whether steps pass over the file now. */
  readonly skipped: boolean;
}

/** The `tensorData` response body. */
export type TensorDataResponseBody = ValuePage;

/**
 * The custom request for the bytes of an invocation's or the paused node's input or output, as
 * stored (little-endian): the inspector's byte view, which needs no hex editor extension.
 */
export const TENSOR_BYTES_REQUEST = 'tensorBytes';

type WithoutRange<T> = Omit<T, 'start' | 'count'>;

export type TensorBytesArguments = (WithoutRange<InvocationDataArguments> | WithoutRange<NodeDataArguments>) & {
  /** The first byte. */
  offset: number;
  /** At most this many bytes (capped at 1 MiB). */
  count: number;
};

/** The `tensorBytes` response body: `data` is base64, from `offset` of a buffer `byteLength` long. */
export type TensorBytesResponseBody = MemoryPage;

/**
 * The custom event sent after each `stopped` event of a data breakpoint (a watched tf.Variable was
 * assigned): which variable, why it stopped, and the old and new values' summaries. Their values
 * page through `tensorData` by `expressions` (evaluated anywhere while stopped there).
 */
export const DATA_BREAKPOINT_EVENT = 'dataBreakpoint';

/**
 * The inspector shows a data breakpoint stop as a node (extension/data-breakpoint-node.ts) of this
 * graph: the variable, its old value as input 0, its new value and the change as outputs 0 and 1;
 * `tensorData` with this graph pages them while the program is stopped there.
 */
export const DATA_BREAKPOINT_GRAPH = 'data breakpoint';

export interface DataBreakpointEventBody {
  reason: string;
  description: string;
  hit: DataBreakHit;
  /** `tensorData` expressions for the old value, the new value and (numeric variables) the change. */
  expressions: { old: string; new: string; change?: string };
}

/** `trainingVariables`: the program's tf.Variables with their summaries, while it is paused (TF.js: Show tf.Variables). No arguments. */
export const TRAINING_VARIABLES_REQUEST = 'trainingVariables';

export interface TrainingVariablesResponseBody {
  variables: TrainingVariable[];
}

/**
 * The inspector shows a tf.Variable picked in Show tf.Variables as a node of this graph (node: the
 * variable's name, output 0 its value); `tensorData` with this graph pages it while the program is paused.
 */
export const VARIABLES_GRAPH = 'tf.Variables';

/**
 * A function breakpoint named `tf.Variable <name>` is a data breakpoint on that variable (VS Code
 * has no API for an extension to add a data breakpoint, and the Breakpoints view shows and keeps
 * function breakpoints): its condition and hit condition read as a data breakpoint's.
 */
export const VARIABLE_BREAKPOINT_PREFIX = 'tf.Variable ';

/** The variable a `tf.Variable <name>` function breakpoint watches (quotes around the name allowed), else undefined. */
export function variableBreakpointTarget(functionName: string): string | undefined {
  const m = /^tf\.Variable\s+(?:'([^']+)'|"([^"]+)"|(\S(?:.*\S)?))\s*$/s.exec(functionName);
  return m ? (m[1] ?? m[2] ?? m[3]) : undefined;
}

/**
 * The custom request behind "Don't stop here again" at a stop of *NaN/Inf in any op*: no more stops
 * this session at this op (`what: "op"`), or at births at this line of the program (`"line"`).
 */
export const IGNORE_OP_BIRTH_REQUEST = 'ignoreOpBirth';

export interface IgnoreOpBirthArguments {
  readonly what: 'op' | 'line';
}

export interface IgnoreOpBirthResponseBody {
  /** What was dismissed, in words: "no more stops at `Log` this session". */
  readonly ignored: string;
}

/**
 * `setPins`: the expressions pinned in the Tensor Inspector (all of them: the list replaces the
 * last one), evaluated at every stop of the session from then on. Answered with no body.
 */
export const SET_PINS_REQUEST = 'setPins';

export interface SetPinsArguments {
  expressions: string[];
}

/**
 * The custom event sent after each stop while there are pins: every pin evaluated on the top user
 * frame, in one round trip. `stop` counts the session's stops from 1.
 */
export const PINNED_VALUES_EVENT = 'pinnedValues';

export interface PinnedValuesEventBody {
  stop: number;
  /** At most this many values per pin (its first ones, row-major); the summary covers them all. */
  valueLimit: number;
  pins: PinnedValue[];
}

/**
 * The inspector's Compare: one input or output of two stopped invocations (of one callback, or any
 * two), from the copies the agent keeps of each stop's values (the last 16 stops, 256 MiB at most:
 * debuggee/agent-diffs.ts). Answered after the program has moved on, while the session lasts.
 */
export const TENSOR_DIFF_REQUEST = 'tensorDiff';

export interface TensorDiffArguments {
  /** The earlier stop's invocation (Δ is b − a). */
  a: { invocationId: number };
  b: { invocationId: number };
  side: Side;
  index: number;
}

/** The `tensorDiff` response body; an error response says which invocation's values are not kept, and why. */
export type TensorDiffResponseBody = TensorDiff;

/**
 * `modelInfo`: the tf.LayersModel at the stop, while the program is paused (the inspector's Model
 * section): the model whose method (fit, predict…) is under way on the stack (the outermost frame
 * whose `this` is one), else one held by a local of the frame asked (or of the top frame), else
 * of another frame's scopes. An error response says none is reachable.
 */
export const MODEL_INFO_REQUEST = 'modelInfo';

export interface ModelInfoArguments {
  /** The stack frame whose locals are looked in first (the top frame without one). */
  frameId?: number;
}

export type ModelInfoResponseBody = ModelSummary;

/**
 * The custom event of the training curve (media/src/training-view.ts): what each `model.fit` /
 * `fitDataset` told its callbacks since the last event (TrainingCurveChunk, runtime/fit-log-types.ts),
 * sent while the program runs (at most every 500 ms, and at a fit's end) and at each stop (`paused`),
 * where `current` is the batch stopped in.
 */
export const TRAINING_CURVE_EVENT = 'trainingCurve';

export type TrainingCurveEventBody = TrainingCurveChunk & { paused: boolean };
