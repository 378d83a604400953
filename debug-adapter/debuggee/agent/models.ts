/**
 * The model at a stop (the `modelInfo` request): whether a value is a tf.LayersModel (by its
 * shape: any copy of tfjs-layers in the process), and its summary — layers with class, output
 * shape and parameter count, and each weight's tf.Variable with its summary. Reads no tensor
 * besides the weights' own summaries (runtime/summary.ts), so the program's tensors stay as
 * they were.
 */
import type { ModelLayer } from '../agent-model.js';
import type { DebugAgent } from '../agent-protocol.js';
import type { AgentContext } from './context.js';
import { isObject } from './kinds.js';

type ModelMethods = Pick<DebugAgent, 'modelSummary'>;

interface LayerVariableLike {
  readonly trainable?: boolean;
  readonly val?: unknown;
}

interface LayerLike {
  readonly name: string;
  readonly outputShape: unknown;
  readonly weights: readonly LayerVariableLike[];
  getClassName(): string;
  countParams(): number;
}

interface ModelLike extends LayerLike {
  readonly layers: readonly LayerLike[];
  readonly trainableWeights: readonly unknown[];
  fit: unknown;
}

/** A tf.LayersModel (a Sequential, a functional tf.model()): layers, fit, getClassName. */
export function isLayersModel(v: unknown): v is ModelLike {
  return isObject(v) && Array.isArray(v.layers) && typeof v.fit === 'function' && typeof v.getClassName === 'function' && typeof v.countParams === 'function';
}

export function createModels(context: AgentContext): ModelMethods {
  const layerOf = (layer: LayerLike): ModelLayer => {
    let outputShape: string;
    try {
      outputShape = JSON.stringify(layer.outputShape);
    } catch {
      outputShape = 'multiple';
    }
    let params = 0;
    try {
      params = layer.countParams();
    } catch {
      // Not built yet: no weights.
    }
    const weights = (layer.weights ?? []).flatMap((w) => {
      const name = context.agent.variableName(w);
      const v = w.val ?? w;
      return name ? [{ name, trainable: w.trainable !== false, info: context.agent.valueInfo(v) }] : [];
    });
    return { name: layer.name, className: safeClassName(layer), outputShape, params, weights };
  };
  return {
    modelSummary(value, where) {
      if (!isLayersModel(value)) return undefined;
      const inner = sequentialInner(value);
      const layers = (inner ? value.layers.slice(1) : value.layers).map(layerOf);
      const totalParams = layers.reduce((n, l) => n + l.params, 0);
      const trainableParams = layers.reduce((n, l) => n + l.weights.filter((w) => w.trainable).reduce((k, w) => k + w.info.size, 0), 0);
      const named = inner ? { name: inner, className: 'Sequential' } : { name: value.name, className: safeClassName(value) };
      return { ...named, where, layers, totalParams, trainableParams };
    },
  };
}

/**
 * A tf.Sequential fits and predicts through a model of its own (`<name>_model`, its layers after an
 * InputLayer named `<first layer>_input`): that one is on the stack while the Sequential's call has
 * returned. Shown as the Sequential, as its summary() lists it: the Sequential's name, else undefined.
 */
function sequentialInner(model: ModelLike): string | undefined {
  const [input, first] = model.layers;
  if (!input || !first || !model.name.endsWith('_model')) return undefined;
  return safeClassName(input) === 'InputLayer' && input.name === `${first.name}_input` ? model.name.slice(0, -'_model'.length) : undefined;
}

function safeClassName(layer: { getClassName(): string }): string {
  try {
    return layer.getClassName();
  } catch {
    return 'Layer';
  }
}
