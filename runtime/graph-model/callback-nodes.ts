/**
 * Finds the callback nodes of a graph model (PyFunc, PyFuncStateless, EagerPyFunc) and reads
 * their attrs raw: tfjs-converter's decoding lowercases the token and narrows DT_DOUBLE/DT_INT64,
 * and a debugger must show TensorFlow's own names and dtypes.
 */
import { isLossy, parseDType, storageOf, type TfDType } from '../dtypes.js';
import { ModelFormatError } from '../errors.js';
import type { CallbackOp } from '../events.js';
import type { Narrowing } from '../tout-verdict.js';
import type { GraphDefNode, ModelJson, RawAttr } from './model-json.js';
import { isCallbackOp } from './callback-ops.js';
import { locateNodes, type NodeLocations, type TextRange } from './node-locations.js';

export { CALLBACK_OPS } from './callback-ops.js';

export interface CallbackNode {
  readonly node: string;
  readonly op: CallbackOp;
  /** The token TensorFlow registered the Python function under, case preserved. */
  readonly token: string;
  readonly Tin: readonly TfDType[];
  readonly Tout: readonly TfDType[];
  readonly inputs: readonly string[];
  /** Declared dtypes TF.js holds narrower (DT_DOUBLE as float32, …). */
  readonly narrowed: readonly Narrowing[];
  /** The graph function holding the node, when it is not in the main graph. */
  readonly inFunction?: string;
  /** Where the node's name is written in model.json, when the text was given. */
  readonly location?: TextRange;
}

/**
 * The name given in TensorFlow (`name=` of the wrapper, else its op): the last part of the node
 * name, which function inlining prefixes (`StatefulPartitionedCall/log_huber` → `log_huber`).
 */
export function givenName(node: CallbackNode): string {
  return node.node.slice(node.node.lastIndexOf('/') + 1);
}

/**
 * The nodes a binding key binds: those whose node name or token it is; failing that, those whose
 * given name it is (`log_huber` binds `StatefulPartitionedCall/log_huber`).
 */
export function nodesBoundBy(key: string, nodes: readonly CallbackNode[]): CallbackNode[] {
  const exact = nodes.filter((n) => n.node === key || n.token === key);
  return exact.length > 0 ? exact : nodes.filter((n) => givenName(n) === key);
}

/** True when one of `keys` (a callbacks module's exports) binds `node`. */
export function isBoundBy(node: CallbackNode, keys: ReadonlySet<string>): boolean {
  return keys.has(node.node) || keys.has(node.token) || keys.has(givenName(node));
}

/** GraphDef's DataType enum numbers, for models that write them as numbers. */
export const ENUM_NUMBERS: Record<number, string> = {
  1: 'DT_FLOAT',
  2: 'DT_DOUBLE',
  3: 'DT_INT32',
  4: 'DT_UINT8',
  5: 'DT_INT16',
  6: 'DT_INT8',
  7: 'DT_STRING',
  8: 'DT_COMPLEX64',
  9: 'DT_INT64',
  10: 'DT_BOOL',
  14: 'DT_BFLOAT16',
  17: 'DT_UINT16',
  18: 'DT_COMPLEX128',
  19: 'DT_HALF',
  22: 'DT_UINT32',
  23: 'DT_UINT64',
};

export function findCallbackNodes(json: ModelJson, text?: string): CallbackNode[] {
  const topology = json.modelTopology ?? {};
  const found: CallbackNode[] = [];
  let locations: NodeLocations | undefined;
  // Scanned only when the model has callback nodes: most models in a workspace have none.
  const locate = (name: string, inFunction?: string) => (text === undefined ? undefined : (locations ??= locateNodes(text)).find(name, inFunction));
  for (const node of listOf(topology.node, 'modelTopology.node')) collect(node, undefined, found, locate);
  for (const fn of listOf(topology.library?.function, 'modelTopology.library.function')) {
    for (const node of listOf(fn?.nodeDef, `library function '${fn?.signature?.name}' nodeDef`)) collect(node, fn.signature?.name, found, locate);
  }
  return found;
}

/** A node list of the model, [] when absent; a text editor shows a half-written model.json too. */
function listOf<T>(value: T[] | undefined, field: string): T[] {
  if (value === undefined) return [];
  if (!Array.isArray(value))
    throw new ModelFormatError(
      `${field} is ${value === null ? 'null' : typeof value}, not a list: it is not a model.json as tensorflowjs_converter writes it.`,
    );
  return value;
}

function collect(
  node: GraphDefNode,
  inFunction: string | undefined,
  out: CallbackNode[],
  locate: (name: string, inFunction?: string) => TextRange | undefined,
): void {
  if (node === null || typeof node !== 'object' || !isCallbackOp(node.op)) return;
  const attr = node.attr ?? {};
  // TensorFlow always writes Tout ({"list": {}} for none): without it the outputs are unknown, not none.
  if (attr.Tout?.list === undefined && attr.Tout?.type === undefined) {
    throw new ModelFormatError(
      `Callback node '${node.name}' (${node.op}) has no Tout attr: TensorFlow always writes the outputs' dtypes there ({"list": {"type": ["DT_FLOAT"]}}, or {"list": {}} for none). Re-convert the model, or add the attr.`,
    );
  }
  const Tout = dtypeList(attr.Tout, node, 'Tout');
  const location = locate(node.name, inFunction);
  out.push({
    node: node.name,
    op: node.op as CallbackOp,
    token: decodeToken(attr.token, node),
    Tin: dtypeList(attr.Tin, node, 'Tin'),
    Tout,
    inputs: (node.input ?? []).filter((i) => !i.startsWith('^')),
    narrowed: Tout.flatMap((declared, index) => (isLossy(declared) ? [{ index, declared, storedAs: storageOf(declared) }] : [])),
    ...(inFunction ? { inFunction } : {}),
    ...(location ? { location } : {}),
  });
}

function decodeToken(attr: RawAttr | undefined, node: GraphDefNode): string {
  if (!attr?.s) return node.name;
  return Buffer.from(attr.s, 'base64').toString('utf8');
}

function dtypeList(attr: RawAttr | undefined, node: GraphDefNode, key: string): TfDType[] {
  const raw = attr?.list?.type ?? (attr?.type !== undefined ? [attr.type] : []);
  return raw.map((t) => {
    const spelling = typeof t === 'number' ? ENUM_NUMBERS[t] : t;
    const dtype = parseDType(spelling);
    if (!dtype) throw new ModelFormatError(`Node '${node.name}' (${node.op}) has ${key} ${JSON.stringify(t)}, which is not a TensorFlow dtype TF.js can hold.`);
    return dtype;
  });
}
