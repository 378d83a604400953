/**
 * Inputs for `tfjs-callbacks run model.json`: read from --inputs, or made from the model's
 * placeholders (batch 1, seeded values) so a model can be run with no input file.
 */
import { readFile } from 'node:fs/promises';
import type { CallbackModel } from '../graph-model/callback-model.js';
import { tf, type Tensor } from '../tf.js';

/** inputs.json: `{ "x": [[1, 2], [3, 4]] }` or `{ "x": { "dtype": "int32", "shape": [2], "data": [1, 2] } }`. */
type InputSpec = unknown[] | number | { dtype?: tf.DataType; shape?: number[]; data: unknown[] };

export async function readModelInputs(file: string, model: CallbackModel): Promise<tf.NamedTensorMap> {
  let parsed: Record<string, InputSpec>;
  try {
    parsed = JSON.parse(await readFile(file, 'utf8')) as Record<string, InputSpec>;
  } catch (err) {
    throw new Error(`Cannot read inputs from ${file}: ${(err as Error).message}. Expected JSON like {"${model.inputNames[0] ?? 'x'}": [[1, 2, 3]]}.`);
  }
  // An input is named by its signature key or its placeholder node: the converter may key the
  // signature 'x:0' for a placeholder named 'x'.
  const inputs = model.inputNames.map((key, i) => ({ key, node: model.graphModel.inputs[i]?.name ?? key }));
  const describe = (input: { key: string; node: string }) => (input.key === input.node ? input.key : `${input.node} (or ${input.key})`);
  const unknown = Object.keys(parsed).filter((k) => !inputs.some((input) => input.key === k || input.node === k));
  if (unknown.length) throw new Error(`${file} names ${unknown.join(', ')}, which ${unknown.length === 1 ? 'is not an input' : 'are not inputs'} of the model; its inputs are ${inputs.map(describe).join(', ')}.`);
  const missing = inputs.filter((input) => !(input.key in parsed) && !(input.node in parsed));
  if (missing.length) throw new Error(`${file} lacks the model input${missing.length === 1 ? '' : 's'} ${missing.map(describe).join(', ')}.`);
  const map: tf.NamedTensorMap = {};
  for (const [name, spec] of Object.entries(parsed)) map[name] = toTensor(name, spec, file);
  return map;
}

function toTensor(name: string, spec: InputSpec, file: string): Tensor {
  try {
    if (typeof spec === 'number' || Array.isArray(spec)) return tf.tensor(spec as tf.TensorLike);
    return tf.tensor(spec.data as tf.TensorLike, spec.shape, spec.dtype);
  } catch (err) {
    throw new Error(`Input '${name}' in ${file} is not a tensor: ${(err as Error).message}`);
  }
}

/** Seeded inputs from the placeholders' signatures: unknown dimensions become 1. */
export function seededModelInputs(model: CallbackModel): tf.NamedTensorMap {
  const map: tf.NamedTensorMap = {};
  for (const input of model.graphModel.inputs) {
    const shape = (input.shape ?? []).map((d) => (d < 0 ? 1 : d));
    const size = shape.reduce((a, b) => a * b, 1);
    const values = Float32Array.from({ length: size }, (_, i) => Math.sin(i + 1));
    map[input.name] = input.dtype === 'int32' ? tf.tensor(Int32Array.from(values, (v) => Math.round(v * 10)), shape, 'int32') : tf.tensor(values, shape, input.dtype);
  }
  return map;
}
