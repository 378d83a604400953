/**
 * Inputs for `tfjs-callbacks run model.json`: read from --inputs, or made from the model's
 * placeholders (batch 1, seeded values) so a model can be run with no input file.
 */
import { READ_LIMITS, readBoundedText } from '../bounded-read.js';
import type { CallbackModel } from '../graph-model/callback-model.js';
import { tf, type Tensor } from '../tf.js';

/** --inputs that cannot be the model's inputs: the user's file, so no stack trace. */
export class InputsError extends Error {
  override name = 'InputsError';
}

/** inputs.json: `{ "x": [[1, 2], [3, 4]] }` or `{ "x": { "dtype": "int32", "shape": [2], "data": [1, 2] } }`. */
type InputSpec = unknown[] | number | { dtype?: tf.DataType; shape?: number[]; data: unknown[] };

export async function readModelInputs(file: string, model: CallbackModel): Promise<tf.NamedTensorMap> {
  let parsed: Record<string, InputSpec>;
  const expected = `Expected JSON like {"${model.inputNames[0] ?? 'x'}": [[1, 2, 3]]}.`;
  try {
    parsed = JSON.parse(await readBoundedText(file, { maxBytes: READ_LIMITS.json, what: '--inputs file' })) as Record<string, InputSpec>;
  } catch (err) {
    throw new InputsError(`Cannot read inputs from ${file}: ${(err as Error).message} ${expected}`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new InputsError(`${file} holds ${Array.isArray(parsed) ? 'a list' : JSON.stringify(parsed)}, not an object of inputs by name. ${expected}`);
  }
  // An input is named by its signature key or its placeholder node: the converter may key the
  // signature 'x:0' for a placeholder named 'x'.
  const inputs = model.inputNames.map((key, i) => ({ key, node: model.graphModel.inputs[i]?.name ?? key }));
  const describe = (input: { key: string; node: string }) => (input.key === input.node ? input.key : `${input.node} (or ${input.key})`);
  const unknown = Object.keys(parsed).filter((k) => !inputs.some((input) => input.key === k || input.node === k));
  if (unknown.length)
    throw new InputsError(
      `${file} names ${unknown.join(', ')}, which ${unknown.length === 1 ? 'is not an input' : 'are not inputs'} of the model; its inputs are ${inputs.map(describe).join(', ')}.`,
    );
  const missing = inputs.filter((input) => !(input.key in parsed) && !(input.node in parsed));
  if (missing.length) throw new InputsError(`${file} lacks the model input${missing.length === 1 ? '' : 's'} ${missing.map(describe).join(', ')}.`);
  const map: tf.NamedTensorMap = {};
  for (const [name, spec] of Object.entries(parsed)) map[name] = toTensor(name, spec, file);
  return map;
}

function toTensor(name: string, spec: InputSpec, file: string): Tensor {
  // tf.tensor takes a ragged list ([[1, 2], [3]]) with the first row's shape and reads the short
  // row's missing values as NaN, and null as 0: checked here, naming the row.
  const where = `Input '${name}' in ${file}`;
  if (typeof spec === 'number' || typeof spec === 'boolean') return tf.tensor(spec);
  if (Array.isArray(spec)) {
    const shape = rectangularShape(spec, where, name);
    return tf.tensor(spec as tf.TensorLike, shape);
  }
  if (spec === null || typeof spec !== 'object' || !Array.isArray(spec.data)) {
    throw new InputsError(
      `${where} is ${spec === null ? 'null' : typeof spec}: give nested lists ([[1, 2, 3]]) or {"dtype": "float32", "shape": [3], "data": [1, 2, 3]}.`,
    );
  }
  const dataShape = rectangularShape(spec.data, where, `${name}.data`, spec.dtype === 'string');
  if (spec.shape !== undefined) {
    if (!Array.isArray(spec.shape) || !spec.shape.every((d) => Number.isInteger(d) && d >= 0)) {
      throw new InputsError(`${where} has shape ${JSON.stringify(spec.shape)}: a shape is a list of whole numbers ≥ 0.`);
    }
    const size = spec.shape.reduce((a, b) => a * b, 1);
    const count = dataShape.reduce((a, b) => a * b, 1);
    if (size !== count)
      throw new InputsError(
        `${where} has ${count} value${count === 1 ? '' : 's'} in data, but its shape [${spec.shape.join(', ')}] holds ${size}: give ${size} values or fix the shape.`,
      );
  }
  try {
    return tf.tensor(spec.data as tf.TensorLike, spec.shape ?? dataShape, spec.dtype);
  } catch (err) {
    throw new InputsError(`${where} is not a tensor: ${(err as Error).message}`);
  }
}

/**
 * The shape of nested lists whose rows all have the same length and whose leaves are numbers or
 * booleans (strings for a string tensor); an error naming the first row that differs.
 */
function rectangularShape(value: unknown[], where: string, label: string, strings = false): number[] {
  const shape: number[] = [];
  for (let level: unknown = value; Array.isArray(level); level = level[0]) shape.push(level.length);
  const walk = (item: unknown, depth: number, at: string): void => {
    if (depth === shape.length) {
      const ok = strings ? typeof item === 'string' : typeof item === 'number' || typeof item === 'boolean';
      if (!ok)
        throw new InputsError(
          `${where}: ${at} is ${Array.isArray(item) ? 'a list' : JSON.stringify(item)}, not a ${strings ? 'string' : 'number'} (the rows before it are ${shape.length}-deep lists of ${strings ? 'strings' : 'numbers'}).`,
        );
      return;
    }
    if (!Array.isArray(item) || item.length !== shape[depth]) {
      const got = Array.isArray(item) ? `has ${item.length} element${item.length === 1 ? '' : 's'}` : `is ${JSON.stringify(item)}`;
      throw new InputsError(
        `${where} is ragged: row ${at} ${got}, but ${label}${'[0]'.repeat(depth)} has ${shape[depth]}. Every row at one level must have the same length (shape [${shape.join(', ')}]).`,
      );
    }
    item.forEach((child, i) => walk(child, depth + 1, `${at}[${i}]`));
  };
  walk(value, 0, label);
  return shape;
}

/** The dtypes a seeded input can have: numbers (bool from them). */
const SEEDED_DTYPES = ['float32', 'int32', 'bool'];

/** Seeded inputs from the placeholders' signatures: unknown dimensions become 1. */
export function seededModelInputs(model: CallbackModel): tf.NamedTensorMap {
  const map: tf.NamedTensorMap = {};
  for (const input of model.graphModel.inputs) {
    // TF.js reads numbers as a string tensor's bytes (garbage) or fails on the count: say what to do instead.
    if (!SEEDED_DTYPES.includes(input.dtype)) throw new InputsError(unseededMessage(input.name, input.dtype, input.shape ?? []));
    const shape = (input.shape ?? []).map((d) => (d < 0 ? 1 : d));
    const size = shape.reduce((a, b) => a * b, 1);
    const values = Float32Array.from({ length: size }, (_, i) => Math.sin(i + 1));
    map[input.name] =
      input.dtype === 'int32'
        ? tf.tensor(
            Int32Array.from(values, (v) => Math.round(v * 10)),
            shape,
            'int32',
          )
        : tf.tensor(values, shape, input.dtype);
  }
  return map;
}

function unseededMessage(name: string, dtype: string, shape: readonly number[]): string {
  const example = dtype === 'string' ? '["text"]' : '[1]';
  return `Input '${name}' is a ${dtype} placeholder (shape [${shape.join(', ')}]): the CLI seeds numbers only. Give its values with --inputs <file.json>, e.g. {"${name}": {"dtype": "${dtype}", "shape": [1], "data": ${example}}}.`;
}
