/**
 * Kernel-level tracing: while a traced function runs, the engine's runKernel, runKernelFunc,
 * makeTensor, readSync and read are shadowed by own properties of the one engine (restored in
 * `finally`), so every op call is seen; what they see goes to the trace's record (trace-recorder.ts).
 * What this relies on (tfjs 4.22): every op reaches the engine as kernels (runKernel, runKernelFunc),
 * every tensor made from data through makeTensor, every host read through readSync or read, and
 * tfjs-core and tfjs-layers call them all on the one engine object.
 *
 * Recorded: the outermost kernel calls (nested ones are a kernel's own business), customGrad
 * forward kernels inline, wrapper calls as one callback node each. Refused at the user's line:
 * host reads of traced tensors, random ops, async functions, a user customGrad under a tape.
 */
import { shared } from '../hooks.js';
import { tf, type Tensor } from '../tf.js';
import { TraceError, traceErrorHere } from './errors.js';
import type { Capture, OutputStructure, TracedNode, WrapperReplay } from './graph.js';
import { setWrapperRecorder, type RunWrapper } from '../invocation/wrapper-hook.js';
import { type EngineInternals, type KernelFuncParams, type KernelInputs, Trace } from './trace-recorder.js';

const SHADOWED = ['runKernel', 'runKernelFunc', 'makeTensor', 'readSync', 'read'] as const;
type Shadowed = (typeof SHADOWED)[number];

/** A finished trace: the graph's parts, the captures' tensors (snapshots and variables), the eager result. */
export interface Recorded<R> {
  readonly result: R;
  readonly nodes: TracedNode[];
  readonly replays: ReadonlyMap<number, WrapperReplay & { readonly run: RunWrapper }>;
  readonly captures: Capture[];
  readonly captureTensors: Tensor[];
  readonly output: OutputStructure;
}

let active: Trace | null = null;

/** True while a trace records (a tfFunction called inside another is inlined into it). */
export function isTracing(): boolean {
  return active !== null;
}

/**
 * Runs `fn` outside the trace under way: its kernels are not recorded and its reads are no host
 * reads. For a debugger's reads while the program is paused inside a traced function (a tensor's
 * summary, a page of its values): they are not the function's.
 */
export function untraced<T>(fn: () => T): T {
  const trace = active;
  if (!trace) return fn();
  trace.suspend++;
  try {
    return fn();
  } finally {
    trace.suspend--;
  }
}

// A debugger's agent (which has no import of the runtime) reads tensors through this.
if (shared.tools) shared.tools.untraced = untraced;

/**
 * Runs a tfFunction called inside the trace under way (inlined into its graph) as a name scope of
 * its own: the nodes it records are named `<its name>/n<i>_<Kernel>`, so a large graph keeps the
 * traced code's structure for the graph view to collapse.
 */
export function inlineScope<R>(name: string, fn: () => R): R {
  const trace = active;
  if (!trace) return fn();
  const engine = tf.engine() as unknown as EngineInternals;
  trace.inlined.push({ name, depth: engine.state.scopeStack.length });
  try {
    return fn();
  } finally {
    trace.inlined.pop();
  }
}

/**
 * Runs `fn(...args)` eagerly, recording its kernels; `leaves` are the tensor arguments (placeholders).
 * `tapeOn`: the graph will replay under a gradient tape, so lost custom gradients matter.
 */
export function traceCall<R>(name: string, fn: (...args: unknown[]) => R, args: readonly unknown[], leaves: readonly Tensor[], tapeOn: boolean): Recorded<R> {
  const engine = tf.engine() as unknown as EngineInternals;
  const trace = new Trace(name, leaves, engine.state.kernelDepth, tapeOn);
  const restore = install(engine, trace);
  let result: R;
  try {
    result = tf.tidy(() => {
      trace.baseScope = engine.state.scopeStack.length;
      const ret = fn(...args);
      if (isThenable(ret)) {
        Promise.resolve(ret).catch(() => {}); // reported as the error below, not as an unhandled rejection
        throw traceErrorHere(`tfFunction '${name}' returned a Promise`, asyncFix());
      }
      return ret as tf.TensorContainer;
    }) as R;
    if (trace.violation) throw trace.violation;
  } catch (err) {
    trace.disposeCaptures();
    throw trace.violation ?? err;
  } finally {
    restore();
  }
  try {
    const output = trace.structureOf(result, 'its result');
    return { result, nodes: trace.nodes, replays: trace.replays, captures: trace.captures, captureTensors: trace.captureTensors, output };
  } catch (err) {
    trace.disposeCaptures();
    throw err;
  }
}

export function asyncFix(): string {
  return (
    'a traced function runs synchronously, as its replay does (inside tf.tidy). Await outside and pass the values in, ' +
    'or keep the async work out of tfFunction (graphFunction accepts async functions).'
  );
}

/** Shadows the engine's methods with own properties calling the ones they replace; returns the restore. */
function install(engine: EngineInternals, trace: Trace): () => void {
  const target = engine as unknown as Record<Shadowed, unknown>;
  const own = SHADOWED.map((m) => Object.getOwnPropertyDescriptor(target, m));
  const base = { ...Object.fromEntries(SHADOWED.map((m) => [m, engine[m]])) } as Pick<EngineInternals, Shadowed>;
  target.runKernel = function (this: EngineInternals, name: string, inputs: KernelInputs, attrs?: Record<string, unknown>) {
    if (!trace.recording(this.state.kernelDepth)) {
      const out = base.runKernel.call(this, name, inputs, attrs);
      if (name === 'Identity' && trace.suspend === 0) trace.alias(inputs, out);
      return out;
    }
    const nodeInputs = trace.inputsOf(inputs);
    const op = trace.opScope(this);
    const scope = trace.nameScope(this);
    const out = base.runKernel.call(this, name, inputs, attrs);
    trace.addKernel(name, inputs, nodeInputs, attrs, out, op, scope);
    return out;
  };
  target.runKernelFunc = function (this: EngineInternals, params: KernelFuncParams) {
    if (params.forwardFunc == null || !trace.recording(this.state.kernelDepth)) return base.runKernelFunc.call(this, params);
    trace.customGrad(this);
    trace.recordDepth++;
    try {
      return base.runKernelFunc.call(this, params);
    } finally {
      trace.recordDepth--;
    }
  };
  target.makeTensor = function (this: EngineInternals, values: unknown, shape: number[], dtype: string, backend?: unknown) {
    const t = base.makeTensor.call(this, values, shape, dtype, backend);
    if (trace.suspend === 0) trace.madeTensor(this, t);
    return t;
  };
  target.readSync = function (this: EngineInternals, dataId: object) {
    if (trace.recording(this.state.kernelDepth)) trace.hostRead(dataId, 'dataSync/arraySync/bufferSync');
    return base.readSync.call(this, dataId);
  };
  target.read = function (this: EngineInternals, dataId: object) {
    if (trace.recording(this.state.kernelDepth)) trace.hostRead(dataId, 'data/array/buffer');
    return base.read.call(this, dataId);
  };
  const previousRecorder = setWrapperRecorder(trace);
  active = trace;
  return () => {
    active = null;
    setWrapperRecorder(previousRecorder);
    SHADOWED.forEach((m, i) => {
      const descriptor = own[i];
      if (descriptor) Object.defineProperty(target, m, descriptor);
      else delete target[m];
    });
  };
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return value !== null && typeof value === 'object' && typeof (value as { then?: unknown }).then === 'function';
}

export { TraceError };
