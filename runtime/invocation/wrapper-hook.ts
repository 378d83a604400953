/**
 * The one place wrap.ts meets tracing: while a tfFunction trace records, a pyFunction /
 * numpyFunction / compat.v1.pyFunc call goes to the recorder, which makes it one callback node.
 * Outside a trace the wrapper pays one null check.
 */
import type { CallbackKind, CallbackOp } from '../events.js';
import type { NumericArray } from '../dtypes.js';
import type { Tensor, tf } from '../tf.js';
import type { ToutSpec } from '../tout/tout.js';

/**
 * What a wrapper takes as `inp`: a tensor, or what tf.tensor() accepts (numbers become float32, as
 * in TF.js), or any typed array, which keeps its dtype (a Float64Array is float64, a BigInt64Array
 * int64). Here, beside the call it is part of, so wrap.ts and tracing share it one way.
 */
export type Input = Tensor | tf.TensorLike | NumericArray;

/** A wrapper call as runWrapped received it. */
export interface WrapperCall {
  readonly kind: CallbackKind;
  readonly op: CallbackOp;
  readonly func: Function;
  readonly inp: readonly Input[];
  readonly Tout: ToutSpec;
  readonly stateful: boolean;
  readonly name: string | undefined;
}

export type RunWrapper = (call: WrapperCall) => Tensor | Tensor[];

export interface WrapperRecorder {
  /** Runs the call with `run` (the wrapper's own path) and records it. */
  record(call: WrapperCall, run: RunWrapper): Tensor | Tensor[];
}

/** Set while a trace records (tracer.ts); null otherwise. */
export let wrapperRecorder: WrapperRecorder | null = null;

/** Installs `recorder` (null removes it); returns the one it replaced. */
export function setWrapperRecorder(recorder: WrapperRecorder | null): WrapperRecorder | null {
  const previous = wrapperRecorder;
  wrapperRecorder = recorder;
  return previous;
}
