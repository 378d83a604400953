/**
 * What one callback invocation is given: the callback, its declared outputs and where it runs.
 * Shared by the invocation (invoke.ts) and its observation (invocation-observation.ts).
 */
import type { CallSite } from '../callsite.js';
import type { TfDType } from '../dtypes.js';
import type { CallbackIdentity, CallbackOp } from '../events.js';
import type { Tout } from '../tout/tout.js';

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
