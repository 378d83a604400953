/**
 * Node-level execution hooks for graph models: each node of a model the runtime loaded (and of a
 * tfFunction replay, trace/replay.ts) is told to observers right after it ran, in execution order, sync (execute) and async (executeAsync,
 * control flow included), with its input and output tensors.
 *
 * How: tfjs-converter has no such hook, but its executor calls a disposal check right after every
 * node (tfjs-internals.ts `graphExecutorPrototype`). While there is an observer, those two methods
 * are shadowed on the executor's prototype; with none, the prototype is as tfjs made it, so
 * models run at full speed. Observers live in the runtime's global state, so a debugger's agent
 * can add one through the runtime's `tools`.
 */
import { currentExecution, type Execution, onExecutionEnd } from '../invocation/execution.js';
import type { Tensor } from '../tf.js';
import type { NodeAttrValue, NodeExecution, NodeObserver } from '../hook-types.js';
import { shared } from '../hooks.js';
import { attrsAsJson, rawAttrsAsJson } from './node-attrs.js';
import { type AfterNodeMethods, type ExecutedNode, type TensorMap, graphExecutorPrototype } from './tfjs-internals.js';
import type { tf } from '../tf.js';

/** The node events' types live with the hooks' (hook-types.ts); here for the runtime's index and the agent. */
export type { NodeExecution, NodeObserver } from '../hook-types.js';

/** What one model run has seen: node order, timing, and the latest outputs of nodes inside control flow (inputs of later nodes). */
interface RunState {
  index: number;
  last: number;
  readonly produced: Map<string, readonly (Tensor | undefined)[]>;
}

const runs = new WeakMap<Execution, RunState>();

/**
 * Nodes (tfjs's node objects) that no observer may want, with the observers and the interest
 * epoch that said so (hook-types.ts `mayWant`).
 */
const unwanted = new WeakMap<ExecutedNode, { readonly observers: readonly NodeObserver[]; readonly epoch: number | undefined }>();

// A run observers saw nodes of: when it ends, those that want to know are told (the graph view's
// statuses of the whole run, not only up to the last stop).
onExecutionEnd((execution) => {
  if (!runs.has(execution)) return;
  runs.delete(execution);
  for (const observer of shared.nodeObservers ?? []) {
    try {
      observer.onRunEnd?.(execution.graph);
    } catch (err) {
      process.stderr.write(`tfjs-callbacks: a node observer failed at the end of a run of ${execution.graph}: ${(err as Error)?.message ?? String(err)}\n`);
    }
  }
});
const prototypes = new Set<AfterNodeMethods>();
const originals = new Map<AfterNodeMethods, AfterNodeMethods>();

/** Watches every node of every runtime model run; returns the function that stops watching. */
export function addNodeObserver(observer: NodeObserver): () => void {
  if (unavailable) throw unavailable;
  shared.nodeObservers = [...(shared.nodeObservers ?? []), observer];
  syncPatches();
  return () => {
    shared.nodeObservers = (shared.nodeObservers ?? []).filter((o) => o !== observer);
    syncPatches();
  };
}

/** Why nodes cannot be observed with this tfjs (its executor changed), once a model showed it. */
let unavailable: Error | undefined;

/**
 * Called for each model the runtime loads: its executor's prototype can then be shadowed. A tfjs
 * whose executor changed does not stop the model from running; observing its nodes says why not.
 */
export function noteGraphModel(model: tf.GraphModel): void {
  let proto: AfterNodeMethods;
  try {
    proto = graphExecutorPrototype(model);
  } catch (err) {
    unavailable = err as Error;
    if ((shared.nodeObservers?.length ?? 0) > 0) process.stderr.write(`tfjs-callbacks: ${unavailable.message}\n`);
    return;
  }
  if (prototypes.has(proto)) return;
  prototypes.add(proto);
  syncPatches();
}

/** Shadows the after-node methods while there are observers; restores tfjs's own when there are none. */
function syncPatches(): void {
  const on = (shared.nodeObservers?.length ?? 0) > 0;
  for (const proto of prototypes) {
    const original = originals.get(proto);
    if (on && !original) {
      const saved = {
        checkTensorForDisposal: proto.checkTensorForDisposal,
        checkTensorForDisposalWithNodeLiveUntilInfo: proto.checkTensorForDisposalWithNodeLiveUntilInfo,
      };
      originals.set(proto, saved);
      // `arguments` passed on as they came: a rest parameter and a spread allocated an array a node.
      proto.checkTensorForDisposalWithNodeLiveUntilInfo = function (node, tensorMap) {
        ran(node, node.name, tensorMap);
        // biome-ignore lint/complexity/noArguments: forwarded whole, whatever tfjs passes
        return Reflect.apply(saved.checkTensorForDisposalWithNodeLiveUntilInfo, this, arguments);
      };
      proto.checkTensorForDisposal = function (nodeName, node, tensorMap) {
        ran(node, nodeName, tensorMap);
        // biome-ignore lint/complexity/noArguments: forwarded whole, whatever tfjs passes
        return Reflect.apply(saved.checkTensorForDisposal, this, arguments);
      };
    } else if (!on && original) {
      proto.checkTensorForDisposal = original.checkTensorForDisposal;
      proto.checkTensorForDisposalWithNodeLiveUntilInfo = original.checkTensorForDisposalWithNodeLiveUntilInfo;
      originals.delete(proto);
    }
  }
}

/** A node ran (its outputs are in the map, its inputs not yet disposed): tell the observers. */
function ran(node: ExecutedNode, key: string, tensorMap: TensorMap): void {
  const observers = shared.nodeObservers;
  if (observers === undefined || observers.length === 0) return;
  const execution = currentExecution();
  if (!execution) return; // a model the runtime did not load
  let run = runs.get(execution);
  if (!run) {
    run = { index: 0, last: performance.now(), produced: new Map() };
    runs.set(execution, run);
  }
  // Inside control flow the map holds a node's outputs under its frame key (name-frame-iteration),
  // and later nodes name their inputs plainly; elsewhere the map has them under the name.
  if (key !== node.name) run.produced.set(node.name, tensorMap[key] ?? []);
  const index = run.index++;
  // This runs for every node of every observed run, mostly before V8 has compiled it: a node no
  // observer may want is one lookup from here (a node breakpoint's run of a 10-node model, 1,000 times).
  const skip = unwanted.get(node);
  if (skip !== undefined && skip.observers === observers && skip.epoch === shared.nodeInterestEpoch) return;
  // Only what some observer wants is built and timed (the clock too showed in a 100-node model's run).
  let interested = false;
  let event: NodeEvent | undefined;
  for (let i = 0; i < observers.length; i++) {
    const observer = observers[i]!;
    if (observer.mayWant !== undefined && !observer.mayWant(node.name, node.op)) continue;
    interested = true;
    if (observer.wants !== undefined && !observer.wants(node.name, node.op)) continue;
    event ??= new NodeEvent(execution, node, key, run, tensorMap, index, performance.now() - run.last);
    tell(observer, event);
  }
  if (!interested) unwanted.set(node, { observers, epoch: shared.nodeInterestEpoch });
  if (event) run.last = performance.now();
}

/**
 * A node that just ran, as observers are told of it. Its inputs and outputs are looked up when
 * first read (during onNode: a breakpoint that does not match never pays for them).
 */
class NodeEvent implements NodeExecution {
  readonly graph: string;
  readonly modelPath?: string;
  readonly node: string;
  readonly op: string;
  readonly frameKey?: string;
  private names: readonly string[] | undefined;
  private inputTensors: readonly (Tensor | undefined)[] | undefined;
  private outputTensors: readonly Tensor[] | undefined;

  constructor(
    execution: Execution,
    private readonly executed: ExecutedNode,
    private readonly key: string,
    private readonly run: RunState,
    private readonly tensorMap: TensorMap,
    readonly index: number,
    readonly ms: number,
  ) {
    this.graph = execution.graph;
    if (execution.modelPath !== undefined) this.modelPath = execution.modelPath;
    this.node = executed.name;
    this.op = executed.op;
    if (key !== executed.name) this.frameKey = key;
  }

  get inputNames(): readonly string[] {
    this.names ??= this.executed.inputNames.filter((n) => !n.startsWith('^'));
    return this.names;
  }

  get inputs(): readonly (Tensor | undefined)[] {
    this.inputTensors ??= this.inputNames.map((name) => inputTensor(name, this.run, this.tensorMap));
    return this.inputTensors;
  }

  get outputs(): readonly Tensor[] {
    this.outputTensors ??= (this.tensorMap[this.key] ?? []).filter((t): t is Tensor => t !== undefined);
    return this.outputTensors;
  }

  attrs(): Record<string, NodeAttrValue> {
    return attrsOf(this.executed);
  }
}

/** Whether anyone observes nodes (a graph runner skips building events when not). */
export function observingNodes(): boolean {
  return (shared.nodeObservers?.length ?? 0) > 0;
}

/** Tells the node observers that want it of one node that ran (models here; tfFunction replays, trace/replay.ts). */
export function tellNodeObservers(event: NodeExecution): void {
  for (const observer of shared.nodeObservers ?? []) {
    if (observer.mayWant && !observer.mayWant(event.node, event.op)) continue;
    if (!observer.wants || observer.wants(event.node, event.op)) tell(observer, event);
  }
}

function tell(observer: NodeObserver, event: NodeExecution): void {
  try {
    observer.onNode(event);
  } catch (err) {
    process.stderr.write(`tfjs-callbacks: a node observer failed at ${event.node} (${event.op}): ${(err as Error)?.message ?? String(err)}\n`);
  }
}

/** A node's attributes as JSON: model.json's, by TensorFlow's names; else tfjs's parsed ones. */
function attrsOf(node: ExecutedNode): Record<string, NodeAttrValue> {
  if (node.rawAttrs) return rawAttrsAsJson(node.rawAttrs);
  return attrsAsJson(Object.fromEntries(Object.entries(node.attrParams ?? {}).map(([name, param]) => [name, param.value])));
}

/** `name` or `name:k`: the latest outputs that node gave in this run, else what the map holds (inputs, weights). */
function inputTensor(name: string, run: RunState, tensorMap: TensorMap): Tensor | undefined {
  const colon = name.lastIndexOf(':');
  const index = colon > 0 && /^\d+$/.test(name.slice(colon + 1)) ? Number(name.slice(colon + 1)) : 0;
  const source = index > 0 || name.endsWith(':0') ? name.slice(0, colon) : name;
  const outputs = run.produced.get(source) ?? tensorMap[source];
  return outputs?.[index] ?? undefined;
}

// A debugger's agent (which has no import of the runtime) adds its node observer through this.
if (shared.tools) shared.tools.addNodeObserver = addNodeObserver;
