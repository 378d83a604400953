/**
 * A TF.js graph model whose callback nodes run JS functions, bound by node name or token.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import path from 'node:path';
import { UnboundCallbackError } from '../errors.js';
import type { CallbackKind } from '../events.js';
import { runExecution } from '../execution.js';
import { invokeCallback, type CallbackSpec, type InvocationSite } from '../invoke.js';
import { tf, type Tensor } from '../tf.js';
import { CALLBACK_OPS, findCallbackNodes, type CallbackNode } from './callback-nodes.js';
import { readModelFiles, type ModelFiles } from './model-files.js';

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

export async function loadCallbackModel(modelJsonPath: string, options: LoadCallbackModelOptions = {}): Promise<CallbackModel> {
  const files = await readModelFiles(modelJsonPath);
  registerCallbackOps();
  const graphModel = await tf.loadGraphModel({ load: async () => files.artifacts });
  const model = new CallbackModel(files, graphModel, options.name ?? path.basename(path.dirname(files.path)));
  if (options.callbacks) model.bind(options.callbacks);
  return model;
}

export class CallbackModel {
  readonly callbackNodes: readonly CallbackNode[];
  private readonly specs = new Map<string, { spec: CallbackSpec; site: InvocationSite }>();

  constructor(
    readonly files: ModelFiles,
    readonly graphModel: tf.GraphModel,
    readonly name: string,
  ) {
    this.callbackNodes = findCallbackNodes(files.json, files.text);
  }

  /** Binds JS functions to callback nodes by node name or token. */
  bind(bindings: CallbackBindings): this {
    for (const [key, func] of Object.entries(bindings)) {
      const nodes = this.callbackNodes.filter((n) => n.node === key || n.token === key);
      if (nodes.length === 0) {
        throw new TypeError(
          `callbacks['${key}'] names no callback node of model '${this.name}'. Its callback nodes are: ${this.callbackNodes.map(describeNode).join('; ') || 'none'}.`,
        );
      }
      if (typeof func !== 'function') throw new TypeError(`callbacks['${key}'] must be a function, got ${typeof func}.`);
      for (const node of nodes) this.specs.set(node.node, { spec: specFor(node, func), site: this.siteOf(node) });
    }
    return this;
  }

  /** Callback nodes no function is bound to yet. */
  unbound(): CallbackNode[] {
    return this.callbackNodes.filter((n) => !this.specs.has(n.node));
  }

  execute(inputs: ModelInputs, outputs?: string | string[]): Tensor | Tensor[] {
    this.assertBound();
    return runExecution(this.name, () => running.run({ model: this, async: false }, () => this.graphModel.execute(inputs, outputs)));
  }

  async executeAsync(inputs: ModelInputs, outputs?: string | string[]): Promise<Tensor | Tensor[]> {
    this.assertBound();
    return runExecution(this.name, () => running.run({ model: this, async: true }, () => this.graphModel.executeAsync(inputs, outputs)));
  }

  /** execute, or executeAsync when a bound callback is an async function. */
  async run(inputs: ModelInputs, outputs?: string | string[]): Promise<Tensor | Tensor[]> {
    const anyAsync = [...this.specs.values()].some(({ spec }) => spec.func.constructor.name === 'AsyncFunction');
    return anyAsync ? this.executeAsync(inputs, outputs) : this.execute(inputs, outputs);
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

  /** @internal Runs a bound callback for the op function. */
  invoke(nodeName: string, inputs: Tensor[], async: boolean): Tensor[] | Promise<Tensor[]> {
    const bound = this.specs.get(nodeName);
    if (!bound) throw new UnboundCallbackError(unboundMessage(this, this.unbound()), this.unbound());
    return async ? invokeCallback(bound.spec, inputs, bound.site, true) : invokeCallback(bound.spec, inputs, bound.site);
  }

  private siteOf(node: CallbackNode): InvocationSite {
    return { graph: this.name, node: node.node, callSite: { file: this.files.path, line: node.line ?? 1, column: 1 } };
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
  };
}

function describeNode(n: CallbackNode): string {
  return `'${n.node}' (${n.op}, token '${n.token}', Tin [${n.Tin.join(', ')}], Tout [${n.Tout.join(', ')}])`;
}

function unboundMessage(model: CallbackModel, unbound: readonly CallbackNode[]): string {
  const keys = unbound.map((n) => n.node);
  const example = unbound.map((n) => `    ${/^[A-Za-z_$][\w$]*$/.test(n.node) ? n.node : JSON.stringify(n.node)}: (${n.Tin.map((_, i) => `x${i}`).join(', ')}) => { /* return ${n.Tout.join(', ') || 'nothing'} */ },`);
  return [
    `Model '${model.name}' (${model.files.path}) has ${unbound.length} callback node${unbound.length === 1 ? '' : 's'} with no JS function bound:`,
    ...unbound.map((n) => `  - node ${describeNode(n)}`),
    `A model carries only the callbacks' names and tokens, not their code: bind each by node name or token, e.g.`,
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
