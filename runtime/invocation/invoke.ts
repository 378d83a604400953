/**
 * Runs one callback invocation: arguments in, Tout check, outputs out, debug hooks told.
 * Every wrapper and every model node goes through here, so the semantics are the same for both.
 *
 * Two paths share the steps below: runSync (wrappers, model.execute(): a returned Promise is an
 * error) and runAllowingAsync (model.executeAsync(): a returned Promise is awaited). What the
 * observers hear and when is invocation-observation.ts.
 */
import type { CallbackSpec, InvocationSite } from './callback-spec.js';
import { withGradients } from './callback-gradients.js';
import { CallbackError, InvalidArgumentError } from '../errors.js';
import { currentExecution, type MemoInput } from './execution.js';
import { hasObservers } from '../hooks.js';
import { InvocationObservation } from './invocation-observation.js';
import { viewOf, type NdArray } from '../ndarray.js';
import { convertOutputs, type ConvertedOutputs } from '../tout/outputs.js';
import { tensorIdWatermark, tensorsInCurrentScope, tf, type Tensor } from '../tf.js';

export type { CallbackSpec, InvocationSite } from './callback-spec.js';

type Observation = InvocationObservation | undefined;
type OnSuccess = ((outputs: Tensor[]) => void) | undefined;
type Args = readonly (Tensor | NdArray)[];

export function invokeCallback(spec: CallbackSpec, inputs: readonly Tensor[], site?: InvocationSite): Tensor[];
export function invokeCallback(spec: CallbackSpec, inputs: readonly Tensor[], site: InvocationSite | undefined, allowAsync: true): Tensor[] | Promise<Tensor[]>;
export function invokeCallback(spec: CallbackSpec, inputs: readonly Tensor[], site: InvocationSite = {}, allowAsync = false): Tensor[] | Promise<Tensor[]> {
  const observed = hasObservers();
  const execution = observed || !spec.identity.stateful ? currentExecution() : undefined;
  const args = argumentsFor(spec, inputs);
  const memoInputs = !spec.identity.stateful && execution ? memoInputsOf(inputs, args as NdArray[]) : undefined;
  const observation = observed ? new InvocationObservation(spec, inputs, site.graph ?? execution?.graph, site, args) : undefined;
  if (memoInputs) {
    const recalled = execution!.recall(memoKey(spec), memoInputs);
    if (recalled) {
      observation?.memoized(recalled);
      return recalled;
    }
  }
  const remember = memoInputs ? (outputs: Tensor[]) => execution!.remember(memoKey(spec), memoInputs, outputs) : undefined;
  return allowAsync ? runAllowingAsync(spec, inputs, args, observation, remember) : runSync(spec, inputs, args, observation, remember);
}

/**
 * The invocation without debug hooks, execution context or reuse: what invokeCallback does when
 * nothing observes and the callback is stateful. Exported for the hooks' cost benchmark.
 */
export function invokeUnobserved(spec: CallbackSpec, inputs: readonly Tensor[]): Tensor[] {
  return runSync(spec, inputs, argumentsFor(spec, inputs), undefined, undefined);
}

/** Reuse needs the same callback and the same declared outputs. */
function memoKey(spec: CallbackSpec): string {
  return `${spec.identity.token}|${spec.tout.dtypes.join(',')}`;
}

/** numpy-style callbacks get NdArray views, py_function callbacks the tensors themselves. */
function argumentsFor(spec: CallbackSpec, inputs: readonly Tensor[]): Args {
  if (spec.identity.kind === 'py_function') return inputs;
  const Tin = spec.Tin;
  return inputs.map((t, i) => viewOf(t, Tin?.[i]));
}

/**
 * Calls the function in a tidy, checks its outputs, and raises what went wrong: a throw as a
 * CallbackError, a returned Promise as an AsyncCallbackError, a Tout mismatch as an
 * InvalidArgumentError. Observers hear exactly one end, whatever happens.
 */
function runSync(spec: CallbackSpec, inputs: readonly Tensor[], args: Args, observation: Observation, onSuccess: OnSuccess): Tensor[] {
  try {
    const firstNewTensorId = tensorIdWatermark();
    let converted: ConvertedOutputs | undefined;
    const outputs = tf.tidy(() => {
      const ret = callFunction(spec, args, observation);
      if (isThenable(ret)) throw refusePromise(ret, spec, observation);
      converted = convertOutputs(ret, spec.tout, spec.identity.name, spec.identity.kind, firstNewTensorId);
      return outputsOf(converted, ret, spec, inputs, observation);
    });
    return settle(outputs, converted!, spec, onSuccess);
  } catch (err) {
    // Already told on every known path; this tells the unknown ones (a throw in the tape step).
    observation?.failed(err);
    throw err;
  }
}

/**
 * As runSync, but a callback that returns a Promise is awaited: the result is a Promise then, and
 * its rejection is raised as a CallbackError. Observers hear exactly one end, whatever happens.
 */
function runAllowingAsync(
  spec: CallbackSpec,
  inputs: readonly Tensor[],
  args: Args,
  observation: Observation,
  onSuccess: OnSuccess,
): Tensor[] | Promise<Tensor[]> {
  try {
    const firstNewTensorId = tensorIdWatermark();
    // What the tidy below saw: the checked return value, or the Promise to wait for.
    let outcome: ConvertedOutputs | Promise<unknown> | undefined;
    const kept = tf.tidy(() => {
      const ret = callFunction(spec, args, observation);
      if (isThenable(ret)) {
        outcome = Promise.resolve(ret);
        // An async callback may compute its result before its first await: keep what it made
        // so far alive until it settles (settleLater frees what did not become an output).
        return tensorsInCurrentScope();
      }
      outcome = convertOutputs(ret, spec.tout, spec.identity.name, spec.identity.kind, firstNewTensorId);
      return outputsOf(outcome, ret, spec, inputs, observation);
    });
    if (!(outcome instanceof Promise)) return settle(kept, outcome!, spec, onSuccess);
    return settleLater(outcome, kept, firstNewTensorId, spec, inputs, observation, onSuccess).catch((err: unknown) => {
      observation?.failed(err);
      throw err;
    });
  } catch (err) {
    observation?.failed(err);
    throw err;
  }
}

/** The outputs of an async callback once its Promise settles; frees what it made and did not return. */
function settleLater(
  pending: Promise<unknown>,
  madeBeforeAwait: readonly Tensor[],
  firstNewTensorId: number,
  spec: CallbackSpec,
  inputs: readonly Tensor[],
  observation: Observation,
  onSuccess: OnSuccess,
): Promise<Tensor[]> {
  const freeUnused = (outputs: readonly Tensor[]) => tf.dispose(madeBeforeAwait.filter((t) => !outputs.includes(t)));
  return pending.then(
    (ret) => {
      let converted: ConvertedOutputs | undefined;
      let outputs: Tensor[] = [];
      try {
        outputs = tf.tidy(() => {
          converted = convertOutputs(ret, spec.tout, spec.identity.name, spec.identity.kind, firstNewTensorId);
          return outputsOf(converted, ret, spec, inputs, observation);
        });
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

/** The callback's return value; what it throws is told to the observers and raised as a CallbackError. */
function callFunction(spec: CallbackSpec, args: Args, observation: Observation): unknown {
  try {
    return spec.func(...args);
  } catch (err) {
    observation?.failed(err);
    throw new CallbackError(spec.identity.name, spec.identity.kind, err);
  }
}

/** The checked outputs as the caller gets them, told to the observers (in the caller's tidy). */
function outputsOf(converted: ConvertedOutputs, ret: unknown, spec: CallbackSpec, inputs: readonly Tensor[], observation: Observation): Tensor[] {
  const outputs = withGradients(converted, inputs, spec);
  // Inside the tidy: an observer (the debugger) still sees the returned values of a mismatch.
  observation?.converted(converted, ret);
  return outputs;
}

/** The error for a Promise returned where the callback runs synchronously (told to the observers). */
function refusePromise(ret: PromiseLike<unknown>, spec: CallbackSpec, observation: Observation): AsyncCallbackError {
  Promise.resolve(ret).catch(() => {}); // reported as this error; not also as an unhandled rejection
  const error = syncPromiseError(spec);
  observation?.failed(error);
  return error;
}

/** The new tensors an async callback returned, when none became an output (kept ones stay). */
function freeReturned(converted: ConvertedOutputs | undefined, inputs: readonly Tensor[], firstNewTensorId: number): void {
  const refused = (converted?.returned ?? [])
    .map((r) => r.tensor)
    .filter((t): t is Tensor => t !== undefined && !t.isDisposed && !t.kept && t.id >= firstNewTensorId && !inputs.includes(t));
  tf.dispose(refused);
}

/** Raises the Tout error, or remembers a stateless result and hands the outputs over. */
function settle(outputs: Tensor[], converted: ConvertedOutputs, spec: CallbackSpec, onSuccess: OnSuccess): Tensor[] {
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

/** False for a value whose `then` cannot be read: the Tout check then says what is wrong with it. */
function isThenable(value: unknown): value is PromiseLike<unknown> {
  try {
    return value !== null && typeof value === 'object' && typeof (value as { then?: unknown }).then === 'function';
  } catch {
    return false;
  }
}
