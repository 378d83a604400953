/**
 * What debug hooks see of each callback invocation. Plain data: JSON-serialisable, so the CLI's
 * trace and the debugger can carry it unchanged.
 */
import type { CallSite } from './callsite.js';
import type { TfDType } from './dtypes.js';
import type { TensorSummary } from './summary.js';
import type { ToutCheck } from './tout-verdict.js';

export type { ToutCheck } from './tout-verdict.js';

/** The wrapper API the callback came from. */
export type CallbackKind = 'py_function' | 'numpy_function' | 'py_func';
/** The TensorFlow op the callback is (or would be, for eager wrappers) in a graph. */
export type CallbackOp = 'EagerPyFunc' | 'PyFunc' | 'PyFuncStateless';

export interface CallbackIdentity {
  /** The name given, or the token when none was. */
  readonly name: string;
  /** TensorFlow-style token: `pyfunc_N` for wrappers, the node's `token` attr for models. */
  readonly token: string;
  readonly kind: CallbackKind;
  readonly stateful: boolean;
  /** The JS function's own name, when it has one. */
  readonly functionName?: string;
}

/** Known before the callback runs. */
export interface CallbackStart {
  readonly id: number;
  readonly callback: CallbackIdentity;
  readonly op: CallbackOp;
  /** The graphFunction or model that ran it; undefined for a plain eager call. */
  readonly graph?: string;
  /** The graph node, for model callbacks. */
  readonly node?: string;
  readonly Tout: readonly TfDType[];
  /** The inputs' dtypes as TensorFlow has them (a node's Tin); TF.js may hold them narrower. */
  readonly Tin: readonly TfDType[];
  readonly callSite?: CallSite;
  readonly inputs: readonly TensorSummary[];
  /** The callback's parameter names, where the function source shows them. */
  readonly parameterNames: readonly string[];
}

/** Known after it returned (or threw). */
export interface CallbackInvocation extends CallbackStart {
  readonly outputs: readonly TensorSummary[];
  readonly durationMs: number;
  /** The runtime's verdict on what it returned; absent when it threw (nothing was returned to judge). */
  readonly toutCheck?: ToutCheck;
  /** True when a stateless callback's result was reused for identical inputs. */
  readonly memoized: boolean;
  readonly error?: { readonly name: string; readonly message: string; readonly stack?: string };
}

/**
 * The live objects of an invocation, for debuggers (not serialisable, not kept after the call):
 * the JS function, the arguments it receives (Tensors or NdArrays) and, at the end, what it
 * returned and the output tensors made from that.
 */
export interface LiveInvocation {
  readonly func: Function;
  readonly args: readonly unknown[];
  /** The callback's return value, as returned (set at the end). */
  returned?: unknown;
  /** The output tensors (set at the end; empty on a Tout mismatch or an error). */
  outputs?: readonly unknown[];
  /** `returned` as the list of values the Tout check saw (set at the end): one per output. */
  values?: readonly unknown[];
}

/**
 * The runtime's own record of one invocation under way (its live objects too), for observers with
 * onInvocationStart/onInvocationEnd: its events are built only when asked, so an observer that
 * needs them at a stop alone (a debugger's agent) costs a call no event objects.
 */
export interface InvocationFrame extends LiveInvocation {
  readonly id: number;
  readonly callback: CallbackIdentity;
  /** The graphFunction or model that ran it; undefined for a plain eager call. */
  readonly graph: string | undefined;
  /** The graph node, for model callbacks. */
  readonly node: string | undefined;
  /** 'running' until it ends; then how: returned (or reused), returned what Tout refuses, or threw. */
  readonly state: 'running' | 'returned' | 'toutMismatch' | 'failed';
  /** Its start event (built on the first call, then the same object). */
  start(): CallbackStart;
  /** Its end event once it ended (built on the first call, then the same object); undefined before. */
  end(): CallbackInvocation | undefined;
}

export interface CallbackObserver {
  /**
   * 'light': events without tensor summaries or a stack-derived call site (inputs and outputs are
   * empty lists), for observers that only need the live objects, such as a debugger's agent.
   * Default 'full'.
   */
  readonly detail?: 'full' | 'light';
  onCallbackStart?(start: CallbackStart, live: LiveInvocation): void;
  onCallbackEnd?(invocation: CallbackInvocation, live: LiveInvocation): void;
  /**
   * Told instead of onCallbackStart where present: the invocation's frame, whose events are built
   * only if the observer asks (frame.start()).
   */
  onInvocationStart?(frame: InvocationFrame): void;
  /** Told instead of onCallbackEnd where present: the same frame, ended. */
  onInvocationEnd?(frame: InvocationFrame): void;
  /**
   * A callback became known: a wrapper's function when first called, a model's callback nodes
   * when it loads (again with the JS function's name once one is bound). For a debugger that
   * tells people which names a breakpoint could have.
   */
  onCallbackKnown?(callback: KnownCallback): void;
  /** A model was loaded: its nodes, for node breakpoints. */
  onGraphKnown?(graph: KnownGraph): void;
}

/** A model's nodes, for a debugger that matches node breakpoints (by name, last part, op) against them. */
export interface KnownGraph {
  readonly graph: string;
  readonly modelPath?: string;
  readonly nodes: readonly { readonly name: string; readonly op: string }[];
}

/** A callback the program has, by every name a debugger may be told to stop in it. */
export interface KnownCallback {
  readonly name: string;
  readonly token: string;
  readonly functionName?: string;
  /** The model's node, for model callbacks. */
  readonly node?: string;
  readonly graph?: string;
}
