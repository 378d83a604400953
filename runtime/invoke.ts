/**
 * Runs one callback invocation: arguments in, Tout check, outputs out, debug hooks told.
 * Every wrapper and every model node goes through here, so the semantics are the same for both.
 */
import { captureCallSite, type CallSite } from './callsite.js';
import { parameterNames } from './callbacks.js';
import { CallbackError, InvalidArgumentError, NotDifferentiableError, describeThrown } from './errors.js';
import type { CallbackIdentity, CallbackInvocation, CallbackOp, CallbackStart, LiveInvocation } from './events.js';
import { declareDType } from './declared-dtypes.js';
import { currentExecution, type MemoInput } from './execution.js';
import { hasObservers, nextInvocationId, notifyEnd, notifyStart, pausedMs, wantsDetail } from './hooks.js';
import { viewOf, type NdArray } from './ndarray.js';
import { convertOutputs, returnedList, type ConvertedOutputs } from './outputs.js';
import { summarizeTensor, summarizeValues, type TensorSummary } from './summary.js';
import { isTapeOn, tensorIdWatermark, tensorsInCurrentScope, tf, type Tensor } from './tf.js';
import type { Tout } from './tout.js';
import type { TfDType } from './dtypes.js';

export interface CallbackSpec {
  readonly identity: CallbackIdentity;
  readonly func: Function;
  readonly tout: Tout;
  readonly op: CallbackOp;
  /**
   * The inputs' dtypes as TensorFlow has them (a model node's Tin; for a wrapper, what each input
   * stands for): numpy-style callbacks get their arrays in these dtypes. Default: the tensors'.
   */
  readonly Tin?: readonly TfDType[];
}

/** Where the invocation happens: set for model nodes, found from the stack for wrappers. */
export interface InvocationSite {
  readonly graph?: string;
  readonly node?: string;
  readonly callSite?: CallSite;
}

export function invokeCallback(spec: CallbackSpec, inputs: readonly Tensor[], site?: InvocationSite): Tensor[];
export function invokeCallback(spec: CallbackSpec, inputs: readonly Tensor[], site: InvocationSite | undefined, allowAsync: true): Tensor[] | Promise<Tensor[]>;
export function invokeCallback(spec: CallbackSpec, inputs: readonly Tensor[], site: InvocationSite = {}, allowAsync = false): Tensor[] | Promise<Tensor[]> {
  const observed = hasObservers();
  const execution = observed || !spec.identity.stateful ? currentExecution() : undefined;
  const args = argumentsFor(spec, inputs);
  const memoInputs = !spec.identity.stateful && execution ? memoInputsOf(inputs, args as NdArray[]) : undefined;
  const observation = observed ? new Observation(spec, inputs, site.graph ?? execution?.graph, site, { func: spec.func, args }) : undefined;
  if (memoInputs) {
    const recalled = execution!.recall(memoKey(spec), memoInputs);
    if (recalled) {
      observation?.memoized(recalled);
      return recalled;
    }
  }
  const remember = memoInputs ? (outputs: Tensor[]) => execution!.remember(memoKey(spec), memoInputs, outputs) : undefined;
  return run(spec, inputs, args, allowAsync, observation, remember);
}

/**
 * The invocation without debug hooks, execution context or reuse: what invokeCallback does when
 * nothing observes and the callback is stateful. Exported for the hooks' cost benchmark.
 */
export function invokeUnobserved(spec: CallbackSpec, inputs: readonly Tensor[]): Tensor[] {
  return run(spec, inputs, argumentsFor(spec, inputs), false, undefined, undefined) as Tensor[];
}

/** Reuse needs the same callback and the same declared outputs. */
function memoKey(spec: CallbackSpec): string {
  return `${spec.identity.token}|${spec.tout.dtypes.join(',')}`;
}

/** numpy-style callbacks get NdArray views, py_function callbacks the tensors themselves. */
function argumentsFor(spec: CallbackSpec, inputs: readonly Tensor[]): readonly (Tensor | NdArray)[] {
  if (spec.identity.kind === 'py_function') return inputs;
  const Tin = spec.Tin;
  return inputs.map((t, i) => viewOf(t, Tin?.[i]));
}

/**
 * Calls the function in a tidy, checks its outputs, and raises what went wrong. Whatever the
 * callback returns or throws, sync or async, observers hear exactly one end (Observation.end).
 */
function run(
  spec: CallbackSpec,
  inputs: readonly Tensor[],
  args: readonly (Tensor | NdArray)[],
  allowAsync: boolean,
  observation: Observation | undefined,
  onSuccess: ((outputs: Tensor[]) => void) | undefined,
): Tensor[] | Promise<Tensor[]> {
  try {
    const result = runObserved(spec, inputs, args, allowAsync, observation, onSuccess);
    if (!(result instanceof Promise)) return result;
    return result.catch((err: unknown) => {
      observation?.failed(err);
      throw err;
    });
  } catch (err) {
    // Already told on every known path; this catches the unknown ones (a throw in the tape step).
    observation?.failed(err);
    throw err;
  }
}

function runObserved(
  spec: CallbackSpec,
  inputs: readonly Tensor[],
  args: readonly (Tensor | NdArray)[],
  allowAsync: boolean,
  observation: Observation | undefined,
  onSuccess: ((outputs: Tensor[]) => void) | undefined,
): Tensor[] | Promise<Tensor[]> {
  const firstNewTensorId = tensorIdWatermark();
  // A flag, not `thrown !== undefined`: `throw undefined` is a throw too.
  let didThrow = false;
  let thrown: unknown;
  let pending: Promise<unknown> | undefined;
  let madeBeforeAwait: Tensor[] = [];
  let converted: ConvertedOutputs | undefined;
  const finish = (ret: unknown): Tensor[] => {
    converted = convertOutputs(ret, spec.tout, spec.identity.name, spec.identity.kind, firstNewTensorId);
    let outputs = converted.tensors;
    if (outputs.length > 0 && inputs.length > 0 && isTapeOn()) {
      const returned = converted.returned;
      if (spec.identity.kind !== 'py_function') outputs = outputs.map((o) => notDifferentiable(o, inputs, spec));
      // Values py_function converted from arrays or numbers have no path back to its inputs: their
      // gradient is zeros, as TensorFlow's (a tape through tensor ops is kept).
      else outputs = outputs.map((o, i) => (returned[i]?.tensor ? o : zeroGradient(o, inputs)));
      outputs.forEach((o, i) => declareDType(o, spec.tout.dtypes[i]!));
    }
    // Inside the tidy: an observer (the debugger) still sees the returned values of a mismatch.
    observation?.converted(converted, ret);
    return outputs;
  };
  const outputs = tf.tidy(() => {
    let ret: unknown;
    try {
      ret = spec.func(...args);
    } catch (err) {
      didThrow = true;
      thrown = err;
      observation?.failed(err);
      return [];
    }
    if (isThenable(ret)) {
      if (allowAsync) {
        pending = Promise.resolve(ret);
        // An async callback may compute its result before its first await: keep what it made
        // so far alive until it settles, then free what did not become an output.
        madeBeforeAwait = tensorsInCurrentScope();
        return madeBeforeAwait;
      } else {
        Promise.resolve(ret).catch(() => {}); // reported below; not also as an unhandled rejection
        didThrow = true;
        thrown = syncPromiseError(spec);
        observation?.failed(thrown);
      }
      return [];
    }
    return finish(ret);
  });
  if (pending) {
    const freeUnused = (outputs: readonly Tensor[]) => tf.dispose(madeBeforeAwait.filter((t) => !outputs.includes(t)));
    return pending.then(
      (ret) => {
        let outputs: Tensor[] = [];
        try {
          outputs = tf.tidy(() => finish(ret));
        } finally {
          freeUnused(outputs);
          // Tensors made after the first await are in no tidy: free the returned ones it refused.
          if (outputs.length === 0) freeReturned(converted, inputs, firstNewTensorId);
        }
        return settle(outputs, converted!, spec, onSuccess);
      },
      (err) => {
        freeUnused([]);
        observation?.failed(err);
        throw new CallbackError(spec.identity.name, spec.identity.kind, err);
      },
    );
  }
  if (thrown instanceof AsyncCallbackError) throw thrown;
  if (didThrow) throw new CallbackError(spec.identity.name, spec.identity.kind, thrown);
  return settle(outputs, converted!, spec, onSuccess);
}

/** The new tensors an async callback returned, when none became an output (kept ones stay). */
function freeReturned(converted: ConvertedOutputs | undefined, inputs: readonly Tensor[], firstNewTensorId: number): void {
  const refused = (converted?.returned ?? []).map((r) => r.tensor).filter((t): t is Tensor => t !== undefined && !t.isDisposed && !t.kept && t.id >= firstNewTensorId && !inputs.includes(t));
  tf.dispose(refused);
}

/** One observed invocation: tells the observers it started, then how it ended, once. */
class Observation {
  private readonly began: number;
  private readonly pausedBefore: number;
  private readonly start: CallbackStart;
  private readonly tout: Tout;
  private ended = false;

  constructor(
    spec: CallbackSpec,
    inputs: readonly Tensor[],
    graph: string | undefined,
    site: InvocationSite,
    private readonly live: LiveInvocation,
    private readonly detail = wantsDetail(),
  ) {
    this.start = startEvent(spec, inputs, graph, site, detail);
    this.tout = spec.tout;
    notifyStart(this.start, live);
    this.began = performance.now();
    this.pausedBefore = pausedMs();
  }

  converted(converted: ConvertedOutputs, returned: unknown): void {
    this.end(() => {
      this.live.returned = returned;
      this.live.outputs = converted.tensors;
      this.live.values = valuesOf(returned, this.tout);
      return endEvent(this.start, this.detail ? outputSummaries(converted, this.tout) : NO_SUMMARIES, this.elapsed(), checkOf(converted), false);
    });
  }

  failed(error: unknown): void {
    this.end(() => {
      this.live.outputs = [];
      return endEvent(this.start, NO_SUMMARIES, this.elapsed(), OK_CHECK, false, { thrown: error });
    });
  }

  memoized(outputs: readonly Tensor[]): void {
    this.end(() => {
      this.live.outputs = outputs;
      return endEvent(this.start, this.detail ? outputs.map((t, i) => summarizeTensor(t, this.tout.dtypes[i])) : NO_SUMMARIES, 0, OK_CHECK, true);
    });
  }

  /**
   * The one end event. A later call is ignored (a failure after the check was told), and an event
   * that cannot be built (a returned value that throws when summarised) is told as that failure.
   */
  private end(build: () => CallbackInvocation): void {
    if (this.ended) return;
    this.ended = true;
    let event: CallbackInvocation;
    try {
      event = build();
    } catch (err) {
      event = endEvent(this.start, NO_SUMMARIES, this.elapsed(), OK_CHECK, false, { thrown: err });
    }
    notifyEnd(event, this.live);
  }

  /** Time the callback ran, less the time a debugger held it paused meanwhile. */
  private elapsed(): number {
    return Math.max(0, performance.now() - this.began - (pausedMs() - this.pausedBefore));
  }
}

/** The returned list for a debugger; none when reading it throws (the Tout error says why). */
function valuesOf(returned: unknown, tout: Tout): readonly unknown[] {
  try {
    return returnedList(returned, tout);
  } catch {
    return [];
  }
}

/** Raises the Tout error, or remembers a stateless result and hands the outputs over. */
function settle(outputs: Tensor[], converted: ConvertedOutputs, spec: CallbackSpec, onSuccess: ((outputs: Tensor[]) => void) | undefined): Tensor[] {
  if (converted.mismatches.length > 0) {
    const first = converted.mismatches[0]!;
    const message = converted.mismatches.map((m) => m.message).join('\n');
    throw new InvalidArgumentError(message, spec.identity.name, first.problem, first.index);
  }
  onSuccess?.(outputs);
  return outputs;
}

/** A Promise from a callback run synchronously. */
class AsyncCallbackError extends TypeError {
  override name = 'AsyncCallbackError';
}

function syncPromiseError(spec: CallbackSpec): AsyncCallbackError {
  return new AsyncCallbackError(
    `callback '${spec.identity.name}' returned a Promise, but it runs synchronously. Wrapped callbacks are synchronous, ` +
      `as in TensorFlow: compute the result before returning. An async callback bound to a graph model node needs executeAsync().`,
  );
}

function memoInputsOf(inputs: readonly Tensor[], views: readonly NdArray[]): MemoInput[] {
  return inputs.map((t, i) => ({ dataId: t.dataId as object, dtype: t.dtype, shape: t.shape, values: views[i]!.data as ArrayLike<unknown> }));
}

/** numpy callbacks have no gradient: asking for one must say which callback and what to use. */
function notDifferentiable(output: Tensor, inputs: readonly Tensor[], spec: CallbackSpec): Tensor {
  const wrapped = tf.customGrad((...xs: unknown[]) => ({
    value: output.clone(),
    gradFunc: () => {
      throw new NotDifferentiableError(
        `Cannot compute a gradient through ${spec.identity.kind} callback '${spec.identity.name}': ` +
          `it takes and returns arrays, not tensors, so TensorFlow.js cannot see its computation. ` +
          `Use pyFunction (tf.py_function) with tf ops inside the callback to make it differentiable.`,
      );
    },
  }));
  return (wrapped as (...t: Tensor[]) => Tensor)(...inputs);
}

/** `output`, with a gradient of zeros for every input. */
function zeroGradient(output: Tensor, inputs: readonly Tensor[]): Tensor {
  const wrapped = tf.customGrad((...xs: unknown[]) => ({
    value: output.clone(),
    gradFunc: () => (xs.slice(0, inputs.length) as Tensor[]).map((x) => tf.zerosLike(x)),
  }));
  return (wrapped as (...t: Tensor[]) => Tensor)(...inputs);
}

/** Built field by field: this runs on every observed call, where spreads showed in profiles. */
function startEvent(spec: CallbackSpec, inputs: readonly Tensor[], graph: string | undefined, site: InvocationSite, detail: boolean): CallbackStart {
  const start: { -readonly [K in keyof CallbackStart]: CallbackStart[K] } = {
    id: nextInvocationId(),
    callback: spec.identity,
    op: spec.op,
    Tout: spec.tout.dtypes,
    Tin: spec.Tin ?? inputs.map((t) => t.dtype),
    inputs: detail ? inputs.map((t, i) => summarizeTensor(t, spec.Tin?.[i])) : NO_SUMMARIES,
    parameterNames: parameterNames(spec.func),
  };
  if (graph !== undefined) start.graph = graph;
  if (site.node !== undefined) start.node = site.node;
  const callSite = site.callSite ?? (detail ? captureCallSite() : undefined);
  if (callSite) start.callSite = callSite;
  return start;
}

const NO_SUMMARIES: readonly TensorSummary[] = Object.freeze([]);

function endEvent(
  start: CallbackStart,
  outputs: readonly TensorSummary[],
  durationMs: number,
  toutCheck: CallbackInvocation['toutCheck'],
  memoized: boolean,
  /** Boxed: `throw undefined` failed too. */
  failure?: { readonly thrown: unknown },
): CallbackInvocation {
  const event: { -readonly [K in keyof CallbackInvocation]: CallbackInvocation[K] } = Object.assign({}, start) as CallbackInvocation;
  event.outputs = outputs;
  event.durationMs = durationMs;
  event.toutCheck = toutCheck;
  event.memoized = memoized;
  if (failure) event.error = errorOf(failure.thrown);
  return event;
}

/** The event's copy of what was thrown: plain strings, read so that no getter can throw here. */
function errorOf(error: unknown): NonNullable<CallbackInvocation['error']> {
  if (!(error instanceof Error)) return { name: 'Error', message: `threw ${describeThrown(error)}` };
  const read = (f: () => unknown) => {
    try {
      const v = f();
      return typeof v === 'string' ? v : undefined;
    } catch {
      return undefined;
    }
  };
  const name = read(() => error.name) ?? 'Error';
  const message = read(() => error.message) ?? describeThrown(error);
  const stack = read(() => error.stack);
  return stack ? { name, message, stack } : { name, message };
}

function outputSummaries(converted: ConvertedOutputs, tout: Tout): TensorSummary[] {
  if (converted.mismatches.length === 0) return converted.tensors.map((t, i) => summarizeTensor(t, tout.dtypes[i]));
  // On a mismatch there are no output tensors: summarise what the callback returned instead.
  return converted.returned.map((r) => {
    if (r.tensor) return summarizeTensor(r.tensor);
    return summarizeValues({ dtype: r.dtype ?? 'float64', shape: r.shape, flat: r.flat ?? [] });
  });
}

function checkOf(converted: ConvertedOutputs): CallbackInvocation['toutCheck'] {
  return { ok: converted.mismatches.length === 0, mismatches: converted.mismatches, narrowed: converted.narrowed, conversions: converted.conversions };
}

const OK_CHECK: CallbackInvocation['toutCheck'] = Object.freeze({ ok: true, mismatches: Object.freeze([]), narrowed: Object.freeze([]), conversions: Object.freeze([]) });

/** False for a value whose `then` cannot be read: the Tout check then says what is wrong with it. */
function isThenable(value: unknown): value is PromiseLike<unknown> {
  try {
    return value !== null && typeof value === 'object' && typeof (value as { then?: unknown }).then === 'function';
  } catch {
    return false;
  }
}
