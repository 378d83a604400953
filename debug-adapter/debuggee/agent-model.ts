/**
 * A tf.LayersModel at a stop, as it crosses from the agent to the adapter (and on to the
 * inspector's Model section): its layers with class, output shape and parameter count, and each
 * weight as a tf.Variable with its summary (dtype, shape, min/mean/max, NaN/Inf). A leaf (the
 * agent's bundle takes it); agent-protocol.ts gives its types with the rest of the contract.
 */
import type { TrainingVariable } from './agent-values.js';

/** One layer, as `model.summary()` prints it, with its weights. */
export interface ModelLayer {
  name: string;
  /** `layer.getClassName()`: Dense, Conv2D, a custom layer's own. */
  className: string;
  /** `JSON.stringify(layer.outputShape)` as summary() prints it (`[null,4]`), or `multiple`. */
  outputShape: string;
  /** `layer.countParams()`; 0 for a layer not built yet. */
  params: number;
  /** Its weights (`layer.weights`): each one's tf.Variable, by the name `$tfVariables` knows it. */
  weights: TrainingVariable[];
}

/** The model: found how (`where`), its layers, and its parameter counts as summary() totals them. */
export interface ModelSummary {
  name: string;
  className: string;
  /** How it was found, in words: "`this` of fitLoop (its fit is under way)", "local `model` of main". */
  where: string;
  layers: ModelLayer[];
  totalParams: number;
  trainableParams: number;
}
