/**
 * model.json's fields checked before anything reads them: a garbled file (a node list that is a
 * number, a node without a name, an attr of the wrong type, a malformed weightsManifest entry)
 * gets a message naming the field, instead of a TypeError from deep inside tfjs-converter.
 * Only what TF.js's loader and this runtime read is checked; other fields pass through.
 */
import { CALLBACK_OPS } from './callback-nodes.js';

/** A field of model.json that is not what tensorflowjs_converter writes. */
export class ModelFieldError extends Error {
  override name = 'ModelFieldError';
  constructor(
    /** Where in the file, as a JS path: `modelTopology.node[3].attr.Tout`. */
    readonly field: string,
    /** What was wrong, after the field: "is a number, not a list of nodes". */
    readonly problem: string,
  ) {
    super(`${field} ${problem}`);
  }
}

type Json = unknown;

/** Throws ModelFieldError for the first field that is not as tensorflowjs_converter writes it. */
export function checkModelJson(json: Json): void {
  const root = object(json, 'model.json', 'a JSON object');
  if (root.format !== undefined) string(root.format, 'format');
  const topology = object(root.modelTopology, 'modelTopology', 'an object (the GraphDef)');
  checkNodeList(topology.node, 'modelTopology.node');
  checkInputsExist(topology.node as Record<string, Json>[], [], 'modelTopology.node');
  if (topology.library !== undefined) checkLibrary(topology.library, 'modelTopology.library');
  if (topology.versions !== undefined) object(topology.versions, 'modelTopology.versions', 'an object');
  if (root.weightsManifest !== undefined) checkWeightsManifest(root.weightsManifest, 'weightsManifest');
  if (root.signature !== undefined) checkSignature(root.signature, 'signature');
}

/** A GraphDef node list, as `modelTopology.node` or a library function's `nodeDef`. */
export function checkNodeList(value: Json, field: string): void {
  const nodes = array(value, field, 'a list of nodes');
  nodes.forEach((node, i) => checkNode(node, `${field}[${i}]`));
}

function checkNode(value: Json, field: string): void {
  const node = object(value, field, 'a node object ({"name", "op", "input", "attr"})');
  nonEmptyString(node.name, `${field}.name`);
  nonEmptyString(node.op, `${field}.op`);
  if (node.input !== undefined) array(node.input, `${field}.input`, 'a list of input names').forEach((input, i) => string(input, `${field}.input[${i}]`));
  if (node.device !== undefined) string(node.device, `${field}.device`);
  if (node.attr !== undefined) {
    const attrs = object(node.attr, `${field}.attr`, 'an object of attrs');
    for (const [key, attr] of Object.entries(attrs)) checkAttr(attr, `${field}.attr.${key}`);
  }
  if ((CALLBACK_OPS as readonly string[]).includes(node.op as string)) checkCallbackAttrs(node, field);
}

/**
 * Every input names a node of the same graph (or an argument of the function): TF.js builds its
 * graph by name and fails deep inside on one that names nothing.
 */
function checkInputsExist(nodes: readonly Record<string, Json>[], args: readonly string[], field: string): void {
  const names = new Set<string>([...nodes.map((n) => n.name as string), ...args]);
  nodes.forEach((node, i) => {
    ((node.input ?? []) as string[]).forEach((input, k) => {
      // `^name` (control), `name:1` (main graph), `name:output:0` (function body).
      const name = input.replace(/^\^/, '').split(':')[0]!;
      if (!names.has(name))
        throw new ModelFieldError(`${field}[${i}].input[${k}]`, `is ${JSON.stringify(input)}, which names no node of the graph (node '${node.name}' reads it)`);
    });
  });
}

/** A TensorShapeProto: `{"dim": [{"size": "3"}, …]}` or `{"unknownRank": true}`. */
function checkShape(value: Json, field: string): void {
  const shape = object(value, field, 'a TensorShape object ({"dim": [{"size": …}]})');
  if (shape.unknownRank !== undefined) boolean(shape.unknownRank, `${field}.unknownRank`);
  if (shape.dim === undefined) return;
  array(shape.dim, `${field}.dim`, 'a list of dimensions').forEach((d, i) => {
    const dim = object(d, `${field}.dim[${i}]`, 'a dimension object ({"size": …})');
    if (dim.size !== undefined) integerLike(dim.size, `${field}.dim[${i}].size`);
  });
}

/** An AttrValue: an object with one of TensorFlow's value kinds, each of its JSON type. */
function checkAttr(value: Json, field: string): void {
  const attr = object(value, field, 'an AttrValue object ({"s"}, {"i"}, {"type"}, {"list"}, …)');
  if (attr.s !== undefined) string(attr.s, `${field}.s`);
  if (attr.i !== undefined) integerLike(attr.i, `${field}.i`);
  if (attr.f !== undefined) numberLike(attr.f, `${field}.f`);
  if (attr.b !== undefined) boolean(attr.b, `${field}.b`);
  if (attr.type !== undefined) dtypeLike(attr.type, `${field}.type`);
  if (attr.shape !== undefined) checkShape(attr.shape, `${field}.shape`);
  if (attr.tensor !== undefined) {
    const tensor = object(attr.tensor, `${field}.tensor`, 'a TensorProto object');
    if (tensor.dtype !== undefined) dtypeLike(tensor.dtype, `${field}.tensor.dtype`);
    if (tensor.tensorShape !== undefined) checkShape(tensor.tensorShape, `${field}.tensor.tensorShape`);
  }
  if (attr.func !== undefined) object(attr.func, `${field}.func`, 'a NameAttrList object');
  if (attr.list !== undefined) {
    const list = object(attr.list, `${field}.list`, 'a ListValue object');
    for (const [key, items] of Object.entries(list)) array(items, `${field}.list.${key}`, 'a list');
    (list.shape as Json[] | undefined)?.forEach((shape, i) => checkShape(shape, `${field}.list.shape[${i}]`));
    (list.type as Json[] | undefined)?.forEach((t, i) => dtypeLike(t, `${field}.list.type[${i}]`));
    (list.s as Json[] | undefined)?.forEach((s, i) => string(s, `${field}.list.s[${i}]`));
    (list.i as Json[] | undefined)?.forEach((n, i) => integerLike(n, `${field}.list.i[${i}]`));
  }
}

/**
 * TensorFlow's PyFunc, PyFuncStateless and EagerPyFunc always carry Tout (`{"list": {}}` for a
 * callback with no outputs): without it the callback's outputs are unknown, not none.
 */
function checkCallbackAttrs(node: Record<string, Json>, field: string): void {
  const attrs = (node.attr ?? {}) as Record<string, Record<string, Json>>;
  const tout = attrs.Tout;
  if (tout === undefined || (tout.list === undefined && tout.type === undefined)) {
    throw new ModelFieldError(
      `${field}.attr.Tout`,
      `is missing on callback node '${node.name}' (${node.op}): TensorFlow always writes the outputs' dtypes there ({"list": {"type": ["DT_FLOAT"]}}, or {"list": {}} for none). Re-convert the model, or add the attr.`,
    );
  }
}

function checkLibrary(value: Json, field: string): void {
  const library = object(value, field, 'an object');
  if (library.function === undefined) return;
  array(library.function, `${field}.function`, 'a list of functions').forEach((fn, i) => {
    const where = `${field}.function[${i}]`;
    const def = object(fn, where, 'a FunctionDef object');
    const signature = object(def.signature, `${where}.signature`, 'an OpDef object');
    nonEmptyString(signature.name, `${where}.signature.name`);
    const args = signature.inputArg === undefined ? [] : array(signature.inputArg, `${where}.signature.inputArg`, 'a list of arguments');
    const argNames = args.map((arg, a) => {
      nonEmptyString(object(arg, `${where}.signature.inputArg[${a}]`, 'an ArgDef object').name, `${where}.signature.inputArg[${a}].name`);
      return (arg as { name: string }).name;
    });
    if (def.nodeDef !== undefined) {
      checkNodeList(def.nodeDef, `${where}.nodeDef`);
      checkInputsExist(def.nodeDef as Record<string, Json>[], argNames, `${where}.nodeDef`);
    }
    if (def.ret !== undefined) object(def.ret, `${where}.ret`, 'an object');
  });
}

const WEIGHT_DTYPES = ['float32', 'int32', 'bool', 'string', 'complex64'];
const QUANTIZED_DTYPES = ['uint8', 'uint16', 'float16'];

function checkWeightsManifest(value: Json, field: string): void {
  array(value, field, 'a list of weight groups').forEach((group, g) => {
    const where = `${field}[${g}]`;
    const entry = object(group, where, 'a weight group ({"paths", "weights"})');
    array(entry.paths, `${where}.paths`, 'a list of weight file paths').forEach((p, i) => nonEmptyString(p, `${where}.paths[${i}]`));
    array(entry.weights, `${where}.weights`, 'a list of weight entries').forEach((w, i) => checkWeightEntry(w, `${where}.weights[${i}]`));
  });
}

function checkWeightEntry(value: Json, field: string): void {
  const weight = object(value, field, 'a weight entry ({"name", "shape", "dtype"})');
  nonEmptyString(weight.name, `${field}.name`);
  array(weight.shape, `${field}.shape`, 'a list of dimensions').forEach((d, i) => {
    if (!Number.isInteger(d) || (d as number) < 0) throw new ModelFieldError(`${field}.shape[${i}]`, `is ${describe(d)}, not a dimension (a whole number ≥ 0)`);
  });
  if (!WEIGHT_DTYPES.includes(weight.dtype as string))
    throw new ModelFieldError(`${field}.dtype`, `is ${describe(weight.dtype)}, not one of ${WEIGHT_DTYPES.join(', ')}`);
  if (weight.quantization !== undefined) {
    const q = object(weight.quantization, `${field}.quantization`, 'an object');
    if (!QUANTIZED_DTYPES.includes(q.dtype as string))
      throw new ModelFieldError(`${field}.quantization.dtype`, `is ${describe(q.dtype)}, not one of ${QUANTIZED_DTYPES.join(', ')}`);
  }
}

function checkSignature(value: Json, field: string): void {
  const signature = object(value, field, 'an object');
  for (const side of ['inputs', 'outputs'] as const) {
    if (signature[side] === undefined) continue;
    const entries = object(signature[side], `${field}.${side}`, 'an object of tensor infos');
    for (const [key, info] of Object.entries(entries)) {
      const tensor = object(info, `${field}.${side}.${key}`, 'a TensorInfo object');
      if (tensor.name !== undefined) string(tensor.name, `${field}.${side}.${key}.name`);
      if (tensor.dtype !== undefined) dtypeLike(tensor.dtype, `${field}.${side}.${key}.dtype`);
    }
  }
}

function object(value: Json, field: string, what: string): Record<string, Json> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new ModelFieldError(field, `is ${describe(value)}, not ${what}`);
  return value as Record<string, Json>;
}

function array(value: Json, field: string, what: string): Json[] {
  if (!Array.isArray(value)) throw new ModelFieldError(field, `is ${describe(value)}, not ${what}`);
  return value;
}

function string(value: Json, field: string): void {
  if (typeof value !== 'string') throw new ModelFieldError(field, `is ${describe(value)}, not a string`);
}

function nonEmptyString(value: Json, field: string): void {
  if (typeof value !== 'string' || value === '') throw new ModelFieldError(field, `is ${describe(value)}, not a non-empty string`);
}

function boolean(value: Json, field: string): void {
  if (typeof value !== 'boolean') throw new ModelFieldError(field, `is ${describe(value)}, not true or false`);
}

/** int64 fields are JSON strings in proto3 JSON ("12"); older writers use numbers. */
function integerLike(value: Json, field: string): void {
  if (!(Number.isInteger(value) || (typeof value === 'string' && /^-?\d+$/.test(value))))
    throw new ModelFieldError(field, `is ${describe(value)}, not an integer`);
}

function numberLike(value: Json, field: string): void {
  const ok =
    typeof value === 'number' ||
    (typeof value === 'string' && ['NaN', 'Infinity', '-Infinity'].includes(value)) ||
    (typeof value === 'string' && value.trim() !== '' && !Number.isNaN(Number(value)));
  if (!ok) throw new ModelFieldError(field, `is ${describe(value)}, not a number`);
}

/** A DataType: its name ("DT_FLOAT") or its enum number. */
function dtypeLike(value: Json, field: string): void {
  if (!(typeof value === 'string' || Number.isInteger(value))) throw new ModelFieldError(field, `is ${describe(value)}, not a dtype ("DT_FLOAT", …)`);
}

function describe(value: Json): string {
  if (value === undefined) return 'missing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  return `${typeof value === 'number' ? 'the number' : 'the boolean'} ${String(value)}`;
}
