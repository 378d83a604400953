/**
 * The types the debug hooks (hooks.ts) share with the modules that fill them in (graph-model/,
 * trace/tracer.ts) and with a debugger's agent: node events and the tools the runtime lends.
 * Types only, importing no module that imports hooks.ts, so hooks.ts names nothing above it.
 */
import type { dtypeOfArray } from './dtypes.js';
import type { summarizeTensor, summarizeValues } from './summary.js';
import type { Tensor, tf } from './tf.js';
import type { FitInfo, FitLogPoint, FitPosition } from './fit-log-types.js';

/** An attribute as JSON; a tensor attribute by its dtype and shape. */
export type NodeAttrValue =
  | number
  | string
  | boolean
  | null
  | readonly (number | string | boolean)[]
  | { readonly dtype: string; readonly shape: readonly number[] };

/** One node that just ran. Its tensors belong to the model run: read them during onNode, and clone one to keep it. */
export interface NodeExecution {
  /** The model's name. */
  readonly graph: string;
  /** The model.json it was loaded from (absent for tfFunction replays). */
  readonly modelPath?: string;
  /** The node's name in model.json. */
  readonly node: string;
  readonly op: string;
  /** Inside control flow, tfjs's key for this run of the node (`name-<frame>-<iteration>`); else absent. */
  readonly frameKey?: string;
  /** Its place in this model run's execution order, from 0. */
  readonly index: number;
  /** Data inputs in order (`name` or `name:k`), with their tensors (undefined where tfjs had none). */
  readonly inputNames: readonly string[];
  readonly inputs: readonly (Tensor | undefined)[];
  readonly outputs: readonly Tensor[];
  /** The node's attributes as JSON (read when asked: most events never need them). */
  attrs(): Record<string, NodeAttrValue>;
  /** Milliseconds since the previous node of this run was told to an observer (the first: since the run began). */
  readonly ms: number;
}

export interface NodeObserver {
  onNode(execution: NodeExecution): void;
  /**
   * Whether onNode needs this node; absent: every node. A debugger with one node breakpoint on a
   * 100-node model is told of one node, and the other 99 build no event (they cost 1.3x the run).
   * Asked once for each node that ran, and onNode follows at once when it says yes: an observer
   * may count the node's runs here (the agent's hit counts), so a run it will not stop at costs no event.
   */
  wants?(node: string, op: string): boolean;
  /**
   * Whether `wants` can say yes for this node at all (its name and op decide). Where every
   * observer says no, the node's later runs ask no one, until an observer moves the shared
   * `nodeInterestEpoch` on: most nodes then cost a count and a lookup. Absent: yes.
   */
  mayWant?(node: string, op: string): boolean;
  /** A model run whose nodes were told is over (all of it ran, or it failed): its graph's name. */
  onRunEnd?(graph: string): void;
}

/** Where a model run's first NaN/Inf came from (graph-model/first-non-finite.ts). */
export interface NonFiniteOrigin {
  readonly graph: string;
  readonly node: string;
  readonly op: string;
  /** What the outputs held. */
  readonly kind: 'NaN' | 'Inf' | 'NaN and Inf';
  /** The node made them from finite inputs, or an input (`inputName`) of it already held them. */
  readonly cause: 'node' | 'input';
  readonly inputName?: string;
  readonly message: string;
}

/** Checks each node of a run as it is told; reports one origin per run (index 0 starts a run). */
export interface NonFiniteFinder {
  check(execution: NodeExecution): NonFiniteOrigin | undefined;
}

/** A line of the program's (callsite.ts CallSite's fields: 1-based line and column). */
export interface ProgramLine {
  readonly file: string;
  readonly line: number;
  readonly column: number;
}

/** A layer by its name and class (`dense_Dense1`, `Dense`). */
export interface LayerRef {
  readonly name: string;
  readonly className: string;
}

/** Where a fit is: its epoch and batch, from 0 as tfjs counts them. */
export interface FitStep {
  readonly epoch: number;
  readonly batch: number;
}

/** The forward op a backward kernel differentiates. */
export interface GradientOf {
  readonly op: string;
  readonly layer?: LayerRef;
  /** The program's line where the forward op ran. */
  readonly site?: ProgramLine;
}

/** Where the first non-finite value of an output is: which output, its flat index and its coordinates. */
export interface FirstNonFinite {
  readonly output: number;
  readonly index: number;
  readonly coords: readonly number[];
  readonly value: number;
}

/**
 * A birth of NaN/Inf the op watch found (op-watch/op-birth.ts builds it, with its message): a
 * kernel made them from finite inputs ('op'), a tensor was made from data that held them ('data'),
 * or an input already held them where the watch did not see it made ('input').
 */
export interface OpBirth {
  readonly kind: 'NaN' | 'Inf' | 'NaN and Inf';
  readonly cause: 'op' | 'data' | 'input';
  /** The kernel (`Log`, `RealDiv`); for 'data', how the tensor was made (`tf.tensor`). */
  readonly op: string;
  /** The TF.js op the program called, when it is not the kernel itself (`logLoss` ran `Log`). */
  readonly within?: string;
  /** Forward, backward (a gradient kernel), or an optimizer's update of the weights. */
  readonly pass: 'forward' | 'backward' | 'update';
  readonly gradientOf?: GradientOf;
  /** For 'update': the optimizer's class (`SGD`, `Adam`). */
  readonly optimizer?: string;
  /** The layer whose `call()` ran the op (for a backward kernel, the forward op's layer). */
  readonly layer?: LayerRef;
  readonly fit?: FitStep;
  /** The model (graph model, tfFunction) whose run ran the op, when one did. */
  readonly model?: string;
  /** The program's own line that led to it (the nearest frame of its files, async callers included). */
  readonly site?: ProgramLine;
  /** The kernel's inputs in order, under TF.js's names (`x`, `a`, `b`); none for 'data'. */
  readonly inputNames: readonly string[];
  readonly inputs: readonly (Tensor | undefined)[];
  readonly outputs: readonly Tensor[];
  readonly attrs: Readonly<Record<string, unknown>>;
  readonly first?: FirstNonFinite;
  /** Its place in the run: how many kernels the watch had checked. */
  readonly sequence: number;
  readonly message: string;
}

/** Told of each birth of NaN/Inf (op-watch/op-birth.ts), synchronously, while its tensors are live. */
export interface OpBirthObserver {
  onBirth(birth: OpBirth): void;
}

/** Told of each fit's begin and of each point of its curve (training/fit-logs.ts), synchronously, as the fit tells its callbacks. */
export interface FitLogObserver {
  onFitBegin?(fit: FitInfo): void;
  onFitPoint(point: FitLogPoint): void;
  /** The fit's History was synced: it returns next. */
  onFitEnd?(fit: number): void;
}

/** Where a loaded model's node sits in its model.json (graph-model/node-site.ts). */
export interface NodeSite {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly endLine: number;
  readonly endColumn: number;
}

/**
 * What the runtime lends a debugger's agent, which has no import of the runtime (it is injected
 * into the program): the agent types it with `import type { RuntimeTools }`.
 */
export interface RuntimeTools {
  readonly summarizeTensor: typeof summarizeTensor;
  readonly summarizeValues: typeof summarizeValues;
  /** The one typed-array→dtype table (dtypes.ts), so the agent keeps no copy of its own. */
  readonly dtypeOfArray: typeof dtypeOfArray;
  /** Set when graph-model/node-hooks.ts loads: observers of every model node. */
  addNodeObserver?: (observer: NodeObserver) => () => void;
  /** Set when graph-model/first-non-finite.ts loads: the first NaN/Inf of a model run. */
  createNonFiniteFinder?: () => NonFiniteFinder;
  /** Set when op-watch/op-watch.ts loads: observers of the birth of NaN/Inf in any op. */
  addOpBirthObserver?: (observer: OpBirthObserver) => () => void;
  /** Set when op-watch/op-watch.ts loads: a kernel's attrs as JSON (the Op scope's). */
  attrsAsJson?: (attrs: Readonly<Record<string, unknown>>) => Record<string, NodeAttrValue>;
  /** Set when op-watch/op-watch.ts loads: installs or removes the watch as `opBirthObservers` says. */
  syncOpWatch?: () => void;
  /** Set when training/fit-logs.ts loads: observers of what each model.fit / fitDataset tells its callbacks. */
  addFitLogObserver?: (observer: FitLogObserver) => () => void;
  /** Set when training/fit-logs.ts loads: installs or removes the fit-log watch as `fitLogObservers` says. */
  syncFitLogs?: () => void;
  /** Set when training/fit-logs.ts loads: the batch a fit is at now, if one runs. */
  fitPosition?: () => FitPosition | undefined;
  /** Set when graph-model/node-site.ts loads: where a loaded model's node is in its model.json. */
  nodeSite?: (modelPath: string, node: string) => NodeSite | undefined;
  /** Set when trace/tracer.ts loads: runs a debugger's reads outside a tfFunction trace under way. */
  untraced?: <T>(fn: () => T) => T;
  /** The program's one TensorFlow.js (tf.ts): data breakpoints wrap its `Variable.prototype.assign`. */
  readonly tf?: typeof tf;
}
