/**
 * The tfjs-converter internals the runtime reads, in one place: a GraphModel's executor and its
 * graph of nodes with their op categories. tfjs exposes none of this publicly;
 * test/runtime/tfjs-internals.test.ts fails loudly when a tfjs upgrade changes it.
 */
import { tf } from '../tf.js';

export interface InternalNode {
  readonly name: string;
  readonly op: string;
  /** tfjs-converter's op category: 'control', 'dynamic', 'custom', 'graph', 'arithmetic', … */
  readonly category: string;
  /** Data and control inputs (a `^name` input is a control input). */
  readonly inputs: readonly InternalNode[];
}

interface InternalExecutor {
  readonly graph: { readonly nodes: Readonly<Record<string, InternalNode>> };
  readonly weightMap: Readonly<Record<string, unknown>>;
}

/** The graph tfjs-converter built from model.json, as its executor runs it. */
export function executorOf(model: tf.GraphModel): InternalExecutor {
  const executor = (model as unknown as { executor?: Partial<InternalExecutor> }).executor;
  const nodes = executor?.graph?.nodes;
  const sample = nodes ? Object.values(nodes)[0] : undefined;
  if (!executor || !nodes || !executor.weightMap || (sample && (typeof sample.category !== 'string' || !Array.isArray(sample.inputs)))) {
    throw new Error(
      `tfjs-callback-debugger cannot read this GraphModel's graph: tfjs-converter ${tf.version.tfjs} no longer has ` +
        `executor.graph.nodes with {category, inputs} or executor.weightMap (runtime/graph-model/tfjs-internals.ts). ` +
        `Use the tfjs version this package was tested with (4.22), or report it.`,
    );
  }
  return executor as InternalExecutor;
}

/**
 * Op categories TF.js runs only in executeAsync: control flow (Switch/Merge from tf.cond,
 * Enter/Exit/NextIteration, If/While), dynamic shapes and hash tables: tfjs-converter's own rule
 * (model_analysis.ts, getExecutionSubgraph).
 */
const ASYNC_ONLY_CATEGORIES = new Set(['control', 'dynamic', 'hash_table']);

/**
 * The first node that computing `outputs` from `inputs` must run and that only executeAsync can
 * (node names, `:n` suffixes allowed), or undefined when execute() can run it all.
 */
export function firstAsyncOnlyNode(model: tf.GraphModel, inputs: readonly string[], outputs: readonly string[]): InternalNode | undefined {
  const { graph, weightMap } = executorOf(model);
  const stopAt = new Set(inputs.map(nodeName));
  const seen = new Set<string>();
  const frontier = outputs.map((o) => graph.nodes[nodeName(o)]).filter((n): n is InternalNode => n !== undefined);
  while (frontier.length > 0) {
    const node = frontier.pop()!;
    if (ASYNC_ONLY_CATEGORIES.has(node.category)) return node;
    if (weightMap[node.name] !== undefined || stopAt.has(node.name)) continue;
    for (const input of node.inputs) {
      if (seen.has(input.name)) continue;
      seen.add(input.name);
      frontier.push(input);
    }
  }
  return undefined;
}

/** `name:1` → `name`; `^name` → `name`. */
function nodeName(tensorName: string): string {
  return tensorName.replace(/^\^/, '').replace(/:\d+$/, '');
}
