/**
 * The tfjs-converter internals the runtime reads, in one place: a GraphModel's executor and its
 * graph of nodes with their op categories. tfjs exposes none of this publicly;
 * test/unit/tfjs-internals.test.ts fails loudly when a tfjs upgrade changes it.
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

/** A node as the executor hands it to its disposal checks: its data and control inputs by name. */
export interface ExecutedNode extends InternalNode {
  /** `name`, `name:1` (output 1) or `^name` (a control input), in the node's input order. */
  readonly inputNames: readonly string[];
  /** Its attributes as tfjs-converter parsed them (`{value, type}` by name). */
  readonly attrParams?: Readonly<Record<string, { readonly value: unknown; readonly type: string }>>;
  /** Its attributes as model.json has them (AttrValue JSON by TensorFlow's names). */
  readonly rawAttrs?: Readonly<Record<string, unknown>>;
}

/** The executor's map of computed tensors: node name (with a frame suffix inside control flow) → outputs. */
export type TensorMap = Readonly<Record<string, readonly (import('../tf.js').Tensor | undefined)[] | undefined>>;

/**
 * The two GraphExecutor methods tfjs-converter calls right after each node ran, with the node and
 * the map holding its outputs (execute(): `checkTensorForDisposalWithNodeLiveUntilInfo(node,
 * tensorMap, …)`; executeAsync's processStack: `checkTensorForDisposal(nodeName, node, tensorMap,
 * …)`, `nodeName` carrying the frame inside control flow). node-hooks.ts shadows them on the
 * prototype while someone observes nodes.
 */
export interface AfterNodeMethods {
  checkTensorForDisposalWithNodeLiveUntilInfo(node: ExecutedNode, tensorMap: TensorMap, ...rest: unknown[]): unknown;
  checkTensorForDisposal(nodeName: string, node: ExecutedNode, tensorMap: TensorMap, ...rest: unknown[]): unknown;
}

/** The prototype of a GraphModel's executor (tfjs-converter's GraphExecutor), with the methods node-hooks.ts shadows. */
export function graphExecutorPrototype(model: tf.GraphModel): AfterNodeMethods {
  const executor = (model as unknown as { executor?: object }).executor;
  const proto = executor ? (Object.getPrototypeOf(executor) as Partial<AfterNodeMethods> | null) : null;
  if (!proto || typeof proto.checkTensorForDisposal !== 'function' || typeof proto.checkTensorForDisposalWithNodeLiveUntilInfo !== 'function') {
    throw new Error(
      `tfjs-callback-debugger cannot observe graph nodes: tfjs-converter ${tf.version.tfjs}'s GraphExecutor no longer has ` +
        'checkTensorForDisposal / checkTensorForDisposalWithNodeLiveUntilInfo (runtime/graph-model/tfjs-internals.ts). ' +
        'Use the tfjs version this package was tested with (4.22), or report it.',
    );
  }
  return proto as AfterNodeMethods;
}
