/**
 * The one place the runtime imports TensorFlow.js. tfjs is a peer dependency: this resolves to
 * the user's own copy (the launcher's loader maps it there when the runtime is bundled elsewhere),
 * so callbacks, models and the program share one engine.
 */
import './engine-guard.js'; // first: where @tensorflow/tfjs comes from (plain node, symlinked installs)
import * as tf from '@tensorflow/tfjs';

export { tf };
export type Tensor = tf.Tensor;
export type TfjsDType = tf.DataType;

interface EngineInternals {
  isTapeOn(): boolean;
  state: { activeScope: { track: Tensor[] } | null };
}

/** True while a gradient tape records (inside tf.grad and friends). */
export function isTapeOn(): boolean {
  return (tf.engine() as unknown as EngineInternals).isTapeOn();
}

/** Ids of tensors made from now on are at least this: tells a callback's new tensors from older ones. */
export function tensorIdWatermark(): number {
  return (tf.engine().constructor as unknown as { nextTensorId: number }).nextTensorId;
}

/** Tensors made so far in the innermost tf.tidy scope. */
export function tensorsInCurrentScope(): Tensor[] {
  return [...((tf.engine() as unknown as EngineInternals).state.activeScope?.track ?? [])];
}
