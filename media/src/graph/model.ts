/**
 * A model.json's top graph (`modelTopology.node`, TensorFlow's GraphDef as JSON) as the graph view
 * shows it: each node's op, its inputs (data or `^control`, `name:1` for output 1), and whether it
 * is a callback node. Pure: the panel runs it on the file it read; tests run it on fixtures.
 */
import { isCallbackOp } from '../../../runtime/graph-model/callback-ops.js';
import type { GraphData, GraphInput, GraphNode } from '../graph-protocol.js';

export class GraphModelError extends Error {
  override name = 'GraphModelError';
}

/** `name`, `name:2` or `^name` → the node it names, its output index, and whether it is a control input. */
export function parseInput(input: string): GraphInput {
  const control = input.startsWith('^');
  const ref = control ? input.slice(1) : input;
  const colon = ref.lastIndexOf(':');
  if (colon > 0 && /^\d+$/.test(ref.slice(colon + 1))) return { node: ref.slice(0, colon), output: Number(ref.slice(colon + 1)), control };
  return { node: ref, output: 0, control };
}

/** The graph of a parsed model.json; throws GraphModelError naming the field that is not a GraphDef's. */
export function graphFromModelJson(json: unknown, title: string): GraphData {
  const topology = field(json, 'modelTopology', 'model.json');
  const rawNodes = topology?.node;
  if (!Array.isArray(rawNodes)) {
    throw new GraphModelError(
      `${title}: modelTopology.node is ${describe(rawNodes)}, not a list of nodes: this is not a graph model as tensorflowjs_converter writes it (a layers model has no graph to show).`,
    );
  }
  const warnings: string[] = [];
  const seen = new Set<string>();
  const nodes: GraphNode[] = [];
  rawNodes.forEach((raw: unknown, i) => {
    const where = `modelTopology.node[${i}]`;
    const node = raw as { name?: unknown; op?: unknown; input?: unknown } | null;
    if (node === null || typeof node !== 'object' || typeof node.name !== 'string' || node.name === '' || typeof node.op !== 'string') {
      throw new GraphModelError(`${title}: ${where} is not a node with a string "name" and "op"; re-convert the model or fix that entry.`);
    }
    if (node.input !== undefined && (!Array.isArray(node.input) || node.input.some((x) => typeof x !== 'string'))) {
      throw new GraphModelError(`${title}: ${where}.input (node '${node.name}') is not a list of input names.`);
    }
    if (seen.has(node.name)) {
      warnings.push(`Node '${node.name}' appears twice (${where}): only the first is shown.`);
      return;
    }
    seen.add(node.name);
    const inputs = ((node.input as string[] | undefined) ?? []).map(parseInput);
    nodes.push({ name: node.name, op: node.op, inputs, callback: isCallbackOp(node.op) });
  });
  // An input naming no node would make the layout invent one: dropped, and said.
  const kept = nodes.map((node) => {
    const missing = node.inputs.filter((input) => !seen.has(input.node));
    if (missing.length === 0) return node;
    for (const m of missing) warnings.push(`Node '${node.name}' has input '${m.node}', which names no node of the graph: that edge is not drawn.`);
    return { ...node, inputs: node.inputs.filter((input) => seen.has(input.node)) };
  });
  const functions = field(topology, 'library', 'modelTopology')?.function;
  return { title, nodes: kept, functions: Array.isArray(functions) ? functions.length : 0, warnings };
}

type Fields = Record<string, unknown> | undefined;

function field(value: unknown, key: string, where: string): Fields {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new GraphModelError(`${where} is ${describe(value)}, not an object: it is not a model.json as tensorflowjs_converter writes it.`);
  }
  const inner = (value as Record<string, unknown>)[key];
  if (inner === undefined) return undefined;
  if (inner === null || typeof inner !== 'object' || Array.isArray(inner)) {
    throw new GraphModelError(`${where}.${key} is ${describe(inner)}, not an object: it is not a model.json as tensorflowjs_converter writes it.`);
  }
  return inner as Record<string, unknown>;
}

function describe(value: unknown): string {
  if (value === undefined) return 'missing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return `a ${typeof value}`;
}
