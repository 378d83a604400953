/**
 * A TF.js graph model whose callback nodes run JS functions, bound by node name or token.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseDType, type TfDType } from '../dtypes.js';
import { DynamicGraphError, ModelFormatError, UnboundCallbackError } from '../errors.js';
import type { CallbackKind } from '../events.js';
import { runExecution } from '../invocation/execution.js';
import { callbackKnown, graphKnown } from '../hooks.js';
import { invokeCallback, type CallbackSpec, type InvocationSite } from '../invocation/invoke.js';
import { tf, type Tensor } from '../tf.js';
import { CALLBACK_OPS, findCallbackNodes, givenName, nodesBoundBy, type CallbackNode } from './callback-nodes.js';
import { modelNodes, readModelFiles, type ModelFiles } from './model-files.js';
import { firstAsyncOnlyNode, type InternalNode } from './tfjs-internals.js';
import { noteGraphModel } from './node-hooks.js';
import { rememberModelText } from './node-site.js';

/** JS functions for callback nodes, keyed by node name or by token. */
export type CallbackBindings = Readonly<Record<string, Function>>;

export interface LoadCallbackModelOptions {
  readonly callbacks?: CallbackBindings;
  /** The model's name in traces; defaults to the model folder's name. */
  readonly name?: string;
}

export type ModelInputs = Tensor | Tensor[] | tf.NamedTensorMap;

/** The model whose execution is under way, for the registered op functions. */
const running = new AsyncLocalStorage<{ model: CallbackModel; async: boolean }>();

/**
 * Loads a graph model.json and binds its callback nodes. `modelJson`: its path, or a `file:` URL
 * (an ES module's `new URL('./model/model.json', import.meta.url)`, no node:url needed).
 */
export async function loadCallbackModel(modelJson: string | URL, options: LoadCallbackModelOptions = {}): Promise<CallbackModel> {
  const files = await readModelFiles(typeof modelJson === 'string' ? modelJson : fileURLToPath(modelJson));
  registerCallbackOps();
  const graphModel = await asModelFormatError(files.path, () => tf.loadGraphModel({ load: async () => files.artifacts }));
  let model: CallbackModel;
  try {
    model = await asModelFormatError(files.path, () => new CallbackModel(files, graphModel, options.name ?? path.basename(path.dirname(files.path))));
  } catch (err) {
    graphModel.dispose();
    throw err;
  }
  // Its executor's nodes can now be observed (node-hooks.ts): a tfjs that changed them fails here, loudly.
  noteGraphModel(graphModel);
  if (options.callbacks) model.bind(options.callbacks);
  return model;
}

/**
 * What TF.js or the callback-node reader throws on a model that passed model-files' checks: still
 * the model's fault, so a ModelFormatError naming the file, not a bare TypeError from tfjs.
 */
async function asModelFormatError<T>(file: string, load: () => T | Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (err) {
    if (err instanceof ModelFormatError) throw new ModelFormatError(`${file}: ${err.message}`);
    const error = err instanceof Error ? err : new Error(String(err));
    throw new ModelFormatError(
      `TF.js cannot build a graph from ${file}: ${error.name}: ${error.message}. Is it a model.json as tensorflowjs_converter writes it? Re-convert the model.`,
    );
  }
}

export class CallbackModel {
  readonly callbackNodes: readonly CallbackNode[];
  private readonly specs = new Map<string, { spec: CallbackSpec; site: InvocationSite; dataInputs: number }>();

  constructor(
    readonly files: ModelFiles,
    readonly graphModel: tf.GraphModel,
    readonly name: string,
  ) {
    this.callbackNodes = findCallbackNodes(files.json, files.text);
    for (const node of this.callbackNodes) callbackKnown({ name: node.node, token: node.token, node: node.node, graph: name });
    graphKnown({ graph: name, modelPath: files.path, nodes: modelNodes(files.json) });
    rememberModelText(files.path, files.text);
  }

  /** Binds JS functions to callback nodes by node name or token. */
  bind(bindings: CallbackBindings): this {
    for (const [key, func] of Object.entries(bindings)) {
      const nodes = nodesBoundBy(key, this.callbackNodes);
      if (nodes.length === 0) {
        throw new TypeError(
          `callbacks['${key}'] names no callback node of model '${this.name}'. Its callback nodes are: ${this.callbackNodes.map(describeNode).join('; ') || 'none'}.`,
        );
      }
      if (typeof func !== 'function') throw new TypeError(`callbacks['${key}'] must be a function, got ${typeof func}.`);
      for (const node of nodes) {
        this.specs.set(node.node, { spec: specFor(node, func), site: this.siteOf(node), dataInputs: node.inputs.length });
        if (func.name) callbackKnown({ name: node.node, token: node.token, functionName: func.name, node: node.node, graph: this.name });
      }
    }
    return this;
  }

  /** Callback nodes no function is bound to yet. */
  unbound(): CallbackNode[] {
    return this.callbackNodes.filter((n) => !this.specs.has(n.node));
  }

  /**
   * Runs the model synchronously. A model with control flow (tf.cond, tf.while_loop) or an async
   * callback cannot run this way in TF.js: that fails, saying to call run() or executeAsync().
   */
  execute(inputs: ModelInputs, outputs?: string | string[]): Tensor | Tensor[] {
    this.assertBound();
    const dynamic = this.asyncOnlyNode(inputs, outputs);
    if (dynamic) throw new DynamicGraphError(dynamicGraphMessage(this, dynamic));
    return runExecution(this.name, () => running.run({ model: this, async: false }, () => this.graphModel.execute(inputs, outputs)), this.files.path);
  }

  async executeAsync(inputs: ModelInputs, outputs?: string | string[]): Promise<Tensor | Tensor[]> {
    this.assertBound();
    return runExecution(this.name, () => running.run({ model: this, async: true }, () => this.graphModel.executeAsync(inputs, outputs)), this.files.path);
  }

  /**
   * Runs the model the way it can run: executeAsync when it has control flow (Switch/Merge,
   * If/While, dynamic shapes) on the way to the outputs or a bound callback is async, else execute.
   */
  async run(inputs: ModelInputs, outputs?: string | string[]): Promise<Tensor | Tensor[]> {
    const anyAsync = [...this.specs.values()].some(({ spec }) => spec.func.constructor.name === 'AsyncFunction');
    return anyAsync || this.asyncOnlyNode(inputs, outputs) ? this.executeAsync(inputs, outputs) : this.execute(inputs, outputs);
  }

  /** The outputs' dtypes as the model's signature declares them (DT_DOUBLE: float64), if it does. */
  outputDTypes(): (TfDType | undefined)[] {
    const signature = this.files.json.signature as ModelSignature | undefined;
    return this.outputNames.map((key) => parseDType(signature?.outputs?.[key]?.dtype));
  }

  get inputNames(): string[] {
    return this.graphModel.inputNodes;
  }

  get outputNames(): string[] {
    return this.graphModel.outputNodes;
  }

  dispose(): void {
    this.graphModel.dispose();
  }

  /**
   * @internal Runs a bound callback for the op function. `inputs` are what tfjs hands a custom op:
   * data inputs, then one per control input (`^node`), which the callback does not receive.
   */
  invoke(nodeName: string, inputs: Tensor[], async: boolean): Tensor[] | Promise<Tensor[]> {
    const bound = this.specs.get(nodeName);
    if (!bound) throw new UnboundCallbackError(unboundMessage(this, this.unbound()), this.unbound());
    const data = inputs.slice(0, bound.dataInputs);
    const outputs = async ? invokeCallback(bound.spec, data, bound.site, true) : invokeCallback(bound.spec, data, bound.site);
    if (bound.spec.tout.dtypes.length > 0) return outputs;
    return outputs instanceof Promise ? outputs.then(controlToken) : controlToken();
  }

  /** The node that makes these inputs → outputs need executeAsync, if one does. */
  private asyncOnlyNode(inputs: ModelInputs, outputs: string | string[] | undefined): InternalNode | undefined {
    const signature = this.files.json.signature as ModelSignature | undefined;
    // tfjs's `inputs`/`outputs` getters build their TensorInfo lists on every call: read them once.
    this.modelInputNames ??= this.graphModel.inputs.map((i) => i.name);
    this.modelOutputNames ??= this.graphModel.outputs.map((o) => o.name);
    const inputNames =
      inputs instanceof tf.Tensor || Array.isArray(inputs) ? this.modelInputNames : Object.keys(inputs).map((key) => signature?.inputs?.[key]?.name ?? key);
    const outputNames =
      outputs === undefined ? this.modelOutputNames : (Array.isArray(outputs) ? outputs : [outputs]).map((key) => signature?.outputs?.[key]?.name ?? key);
    // The graph never changes: one walk per inputs → outputs, not one per run.
    const key = `${inputNames.join('\u0000')}\u0001${outputNames.join('\u0000')}`;
    if (!this.asyncOnlyNodes.has(key)) this.asyncOnlyNodes.set(key, firstAsyncOnlyNode(this.graphModel, inputNames, outputNames) ?? null);
    return this.asyncOnlyNodes.get(key) ?? undefined;
  }
  private readonly asyncOnlyNodes = new Map<string, InternalNode | null>();
  private modelInputNames: string[] | undefined;
  private modelOutputNames: string[] | undefined;

  private siteOf(node: CallbackNode): InvocationSite {
    const callSite = node.location ? { file: this.files.path, ...node.location } : { file: this.files.path, line: 1, column: 1 };
    return { graph: this.name, node: node.node, callSite };
  }

  private assertBound(): void {
    const unbound = this.unbound();
    if (unbound.length > 0) throw new UnboundCallbackError(unboundMessage(this, unbound), unbound);
  }
}

function specFor(node: CallbackNode, func: Function): CallbackSpec {
  const kind: CallbackKind = node.op === 'EagerPyFunc' ? 'py_function' : 'numpy_function';
  return {
    identity: { name: node.node, token: node.token, kind, stateful: node.op !== 'PyFuncStateless', ...(func.name ? { functionName: func.name } : {}) },
    func,
    tout: { dtypes: node.Tout, single: false },
    op: node.op,
    ...(node.Tin.length === node.inputs.length ? { Tin: node.Tin } : {}),
  };
}

/**
 * What a node with Tout [] hands TF.js's executor: a callback run for its side effects has no
 * outputs, but executeAsync schedules the nodes after it (by control edge, `^node`) only once it
 * has a tensor, so it gets one placeholder, as tfjs-converter's own NoOp does. Nothing can read
 * it as data: TensorFlow's graph has no output to connect.
 */
function controlToken(): Tensor[] {
  return [tf.scalar(1)];
}

interface ModelSignature {
  readonly inputs?: Readonly<Record<string, { readonly name?: string }>>;
  readonly outputs?: Readonly<Record<string, { readonly name?: string; readonly dtype?: string }>>;
}

function dynamicGraphMessage(model: CallbackModel, node: InternalNode): string {
  const origin = CONTROL_FLOW_ORIGIN[node.op] ? ` (${CONTROL_FLOW_ORIGIN[node.op]})` : '';
  return (
    `Model '${model.name}' cannot run synchronously: node '${node.name}' is a ${node.op}${origin}, which TF.js runs only in its asynchronous executor. ` +
    `Call \`await model.run(inputs)\` (it picks the executor the model needs) or \`await model.executeAsync(inputs)\`.`
  );
}

/** Where TensorFlow's control-flow ops come from, for the message above. */
const CONTROL_FLOW_ORIGIN: Readonly<Record<string, string>> = {
  Switch: 'tf.cond or tf.while_loop, lowered',
  Merge: 'tf.cond or tf.while_loop, lowered',
  Enter: 'tf.while_loop, lowered',
  Exit: 'tf.while_loop, lowered',
  NextIteration: 'tf.while_loop, lowered',
  LoopCond: 'tf.while_loop, lowered',
  If: 'tf.cond with control flow v2',
  StatelessIf: 'tf.cond with control flow v2',
  While: 'tf.while_loop with control flow v2',
  StatelessWhile: 'tf.while_loop with control flow v2',
};

function describeNode(n: CallbackNode): string {
  return `'${n.node}' (${n.op}, token '${n.token}', Tin [${n.Tin.join(', ')}], Tout [${n.Tout.join(', ')}])`;
}

function unboundMessage(model: CallbackModel, unbound: readonly CallbackNode[]): string {
  // Suggest the name given in TensorFlow when it binds just this node.
  const keyOf = (n: CallbackNode) => (nodesBoundBy(givenName(n), model.callbackNodes).length === 1 ? givenName(n) : n.node);
  const keys = unbound.map(keyOf);
  const example = unbound.map((n) => {
    const key = keyOf(n);
    return `    ${/^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key)}: (${n.Tin.map((_, i) => `x${i}`).join(', ')}) => { /* return ${n.Tout.join(', ') || 'nothing'} */ },`;
  });
  return [
    `Model '${model.name}' (${model.files.path}) has ${unbound.length} callback node${unbound.length === 1 ? '' : 's'} with no JS function bound:`,
    ...unbound.map((n) => `  - node ${describeNode(n)}`),
    `A model carries only the callbacks' names and tokens, not their code: bind each by its name in TensorFlow (the node name's last part), node name or token, e.g.`,
    `  await loadCallbackModel(${JSON.stringify(model.files.path)}, { callbacks: {`,
    ...example,
    `  } });`,
    `or with the CLI: tfjs-callbacks run ${JSON.stringify(model.files.path)} --callbacks callbacks.ts (a module exporting ${keys.join(', ')}).`,
  ].join('\n');
}

let registered = false;

/** tf.registerOp must precede loadGraphModel; registered once per process for all models. */
export function registerCallbackOps(): void {
  if (registered) return;
  registered = true;
  for (const op of CALLBACK_OPS) {
    tf.registerOp(op, (nodeValue) => {
      const node = (nodeValue as unknown as { node?: { name: string } }).node;
      const run = running.getStore();
      if (!run || !node) {
        throw new Error(`A ${op} node ran outside a CallbackModel: load models with callback nodes through loadCallbackModel() so their callbacks are bound.`);
      }
      return run.model.invoke(node.name, nodeValue.inputs, run.async);
    });
  }
}
