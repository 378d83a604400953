/**
 * tfFunction: TF.js's counterpart of `@tf.function`. The first call with a new input signature
 * traces `fn` at kernel level (and returns its eager result); later calls with that signature
 * replay the graph. Traces are specialized to the shapes they saw (tfjs ops compute shapes and
 * constants in JS), so a new shape or dtype traces again, even under a signature with `null` dims.
 */
import { captureCallSite, formatCallSite } from '../callsite.js';
import { runExecution } from '../invocation/execution.js';
import { isTapeOn, tf } from '../tf.js';
import { TraceError } from './errors.js';
import { edgesOf, type TensorSpec, type TracedGraph } from './graph.js';
import { replay, type Replayable } from './replay.js';
import { checkInputSignature, signatureOf, type InputSpec } from './signature.js';
import { asyncFix, inlineScope, isTracing, traceCall } from './tracer.js';
import { exportConcrete, pickConcrete, type ExportedModel, type ExportOptions } from './export-model.js';

export interface TfFunctionOptions {
  /** Fixes the arguments: one tensor spec each; other calls are refused. */
  readonly inputSignature?: readonly InputSpec[];
  /** The graph's name in errors, the debugger and `graph`; defaults to the function's name. */
  readonly name?: string;
}

/** One traced graph: the signature it was traced for, and the graph itself. */
export interface ConcreteFunction {
  readonly inputs: readonly TensorSpec[];
  /** Traced under a gradient tape (tfjs dispatches other kernels there: the graph is another). */
  readonly underTape: boolean;
  readonly graph: TracedGraph;
}

export interface TracedFunction<A extends unknown[], R> {
  (...args: A): R;
  /** Every graph traced so far, oldest first. */
  readonly concreteFunctions: readonly ConcreteFunction[];
  /** The graph the last call traced or replayed; undefined before the first call. */
  readonly graph: TracedGraph | undefined;
  /**
   * Writes a traced graph as a TF.js graph model (`dir`/model.json + one weights shard) that
   * loadCallbackModel loads, its callbacks bound by name or token. Which graph: the only one,
   * `options.signature` (an index into concreteFunctions), or the one for `options.inputs`
   * (traced now if it was not). Nothing is written when a node cannot be: see GraphExportError.
   */
  export(dir: string, options?: ExportOptions): ExportedModel;
  /** Frees the tensors the graphs captured (variables stay theirs); a later call is refused. */
  dispose(): void;
}

interface Concrete extends ConcreteFunction {
  readonly replayable: Replayable;
  /** The input signature's key (signature.ts), the same under a tape or not. */
  readonly key: string;
}

/**
 * Traces `fn` into a graph once per input signature and replays it on later calls.
 *
 * ```ts
 * const f = tfFunction((x: Tensor) => tf.sinh(x).mul(tf.sinh(x)));
 * f(tf.ones([2, 3])); // traces, returns the eager result
 * f(tf.zeros([2, 3])); // replays the graph: Sinh, Sinh, Multiply
 * ```
 * pyFunction / numpyFunction calls inside are one node each and run again on every call.
 * Refused at the line that does it: host reads of traced tensors (`dataSync`, `data`), random
 * ops, an async `fn`.
 */
export function tfFunction<A extends unknown[], R>(fn: (...args: A) => R, options: TfFunctionOptions = {}): TracedFunction<A, R> {
  const definedAt = captureCallSite();
  const name = options.name ?? (fn.name || 'tf_function');
  if (typeof fn !== 'function') throw new TypeError(`tfFunction expects a function, got ${typeof fn} (at ${formatCallSite(definedAt)}).`);
  if (fn.constructor?.name === 'AsyncFunction') {
    throw new TraceError(`tfFunction '${name}' is async (at ${formatCallSite(definedAt)}): ${asyncFix()}`, definedAt);
  }
  const byKey = new Map<string, Concrete>();
  const concretes: Concrete[] = [];
  let last: Concrete | undefined;
  let disposed = false;

  const traced = (...args: A): R => {
    // Inside another trace: inlined into that graph, as TensorFlow inlines a nested tf.function, as a name scope of its own.
    if (isTracing()) return inlineScope(name, () => fn(...args));
    if (disposed) throw new Error(`tfFunction '${name}' (defined at ${formatCallSite(definedAt)}) was disposed; make a new one to call it again.`);
    if (options.inputSignature) checkInputSignature(name, options.inputSignature, args, captureCallSite());
    const signature = signatureOf(name, args);
    const underTape = isTapeOn();
    const key = `${underTape ? 'tape' : 'plain'}|${signature.key}`;
    return runExecution(name, () => {
      const known = byKey.get(key);
      if (known) {
        last = known;
        return replay(name, known.replayable, signature.leaves) as R;
      }
      const recorded = traceCall(name, fn as (...args: unknown[]) => R, args, signature.leaves, underTape);
      const { result, ...replayable } = recorded;
      const graph = graphOf(name, signature.specs, replayable);
      last = { inputs: signature.specs, underTape, graph, replayable, key: signature.key };
      byKey.set(key, last);
      concretes.push(last);
      return result;
    });
  };
  Object.defineProperty(traced, 'name', { value: name });
  Object.defineProperties(traced, {
    concreteFunctions: { get: () => concretes.map(({ inputs, underTape, graph }) => ({ inputs, underTape, graph })) },
    graph: { get: () => last?.graph },
  });
  (traced as { export?: TracedFunction<A, R>['export'] }).export = (dir, exportOptions = {}) => {
    if (disposed) throw new Error(`tfFunction '${name}' (defined at ${formatCallSite(definedAt)}) was disposed; it has no graph to export.`);
    const pickable = () => concretes.map((c) => ({ key: c.key, underTape: c.underTape, inputs: c.inputs }));
    const traceFor = (inputs: readonly unknown[]) => {
      tf.dispose((traced as (...args: unknown[]) => unknown)(...inputs) as tf.TensorContainer);
      return signatureOf(name, inputs).key;
    };
    const index = pickConcrete(name, pickable, exportOptions, (inputs) => signatureOf(name, inputs).key, traceFor);
    const c = concretes[index]!;
    return exportConcrete({ graph: c.graph, replays: c.replayable.replays, captureTensors: c.replayable.captureTensors }, dir, exportOptions);
  };
  (traced as { dispose?: () => void }).dispose = () => {
    disposed = true;
    for (const c of concretes) disposeCaptures(c.replayable);
    byKey.clear();
  };
  return traced as TracedFunction<A, R>;
}

function graphOf(name: string, inputs: readonly TensorSpec[], r: Replayable): TracedGraph {
  return { name, inputs, captures: r.captures, nodes: r.nodes, edges: edgesOf(r.nodes), output: r.output };
}

function disposeCaptures(r: Replayable): void {
  r.captureTensors.forEach((t, i) => {
    if (r.captures[i]!.kind !== 'variable') t.dispose();
  });
}
