/**
 * Kernel-level tracing: while a traced function runs, the engine's runKernel, runKernelFunc,
 * makeTensor, readSync and read are shadowed by own properties of the one engine (restored in
 * `finally`), so every op call is seen. Facts this relies on (tfjs 4.22): shared/notes/tfjs-tracing.md.
 *
 * Recorded: the outermost kernel calls (nested ones are a kernel's own business), customGrad
 * forward kernels inline, wrapper calls as one callback node each. Refused at the user's line:
 * host reads of traced tensors, random ops, async functions, a user customGrad under a tape.
 */
import { identify } from '../callbacks.js';
import { shared } from '../hooks.js';
import { tensorIdWatermark, tf, type Tensor } from '../tf.js';
import { TraceError, traceErrorHere, userCallSite, warnHere } from './errors.js';
import { NODE_NAME } from './graph-def.js';
import type { Capture, NodeInput, OutputStructure, TracedNode, ValueRef, WrapperReplay } from './graph.js';
import { setWrapperRecorder, type RunWrapper, type WrapperCall, type WrapperRecorder } from './wrapper-hook.js';

type KernelInputs = Record<string, Tensor> | Tensor[];

interface KernelFuncParams {
  readonly forwardFunc?: Function;
  readonly inputs: KernelInputs;
}

/** The engine methods a trace shadows, and the state it reads (private in the .d.ts: runKernelFunc). */
interface EngineInternals {
  state: { kernelDepth: number; scopeStack: { name: string }[] };
  runKernel(name: string, inputs: KernelInputs, attrs?: Record<string, unknown>): Tensor | Tensor[];
  runKernelFunc(params: KernelFuncParams): Tensor | Tensor[];
  makeTensor(values: unknown, shape: number[], dtype: string, backend?: unknown): Tensor;
  readSync(dataId: object): unknown;
  read(dataId: object): Promise<unknown>;
}

const SHADOWED = ['runKernel', 'runKernelFunc', 'makeTensor', 'readSync', 'read'] as const;
type Shadowed = (typeof SHADOWED)[number];

/** Ops whose values come from a JS random generator through makeTensor: a replay would repeat them. */
const RANDOM_OP = /^(random[A-Z]\w*|truncatedNormal|rand)$/;

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

class Trace implements WrapperRecorder {
  readonly nodes: TracedNode[] = [];
  readonly replays = new Map<number, WrapperReplay & { readonly run: RunWrapper }>();
  readonly captures: Capture[] = [];
  readonly captureTensors: Tensor[] = [];
  /** Outputs of recorded nodes, and tape clones aliased to their source, by tensor id. */
  private readonly produced = new Map<number, ValueRef>();
  private readonly placeholders = new Map<number, number>();
  private readonly captured = new Map<number, number>();
  private readonly madeFromData = new Set<number>();
  /** Data of tensors whose values depend on the inputs: reading them on the host freezes a value. */
  private readonly tracedData = new Set<object>();
  private readonly firstNewId = tensorIdWatermark();
  /** Nonzero while a callback runs: its own kernels belong to it, not to the graph. */
  suspend = 0;
  recordDepth: number;
  baseScope = 0;
  /** The first refusal, kept so that a user's try/catch cannot hide it. */
  violation: TraceError | undefined;
  private warnedOps = new Set<string>();
  /** tfFunctions inlined now (inlineScope), outermost first, each with the engine's scope depth where it began. */
  readonly inlined: { readonly name: string; readonly depth: number }[] = [];
  /** A name scope's part of node names (by its engine scope or inlined call), unique among its siblings. */
  private readonly scopeParts = new WeakMap<object, string>();
  private readonly partsUsed = new Map<string, number>();

  constructor(
    readonly name: string,
    leaves: readonly Tensor[],
    baseDepth: number,
    private readonly tapeOn: boolean,
  ) {
    this.recordDepth = baseDepth;
    leaves.forEach((t, i) => {
      if (!this.placeholders.has(t.id)) this.placeholders.set(t.id, i);
      this.tracedData.add(t.dataId);
    });
  }

  recording(depth: number): boolean {
    return this.suspend === 0 && depth === this.recordDepth;
  }

  /** The tfjs ops running now, outermost first (`moments/mean`). */
  opScope(engine: EngineInternals): string | undefined {
    const names = engine.state.scopeStack
      .slice(this.baseScope)
      .map((s) => s.name)
      .filter((n) => n.endsWith('__op'))
      .map((n) => n.slice(0, -'__op'.length));
    return names.length > 0 ? names.join('/') : undefined;
  }

  /**
   * The name scope of the node recorded now: the named tf.tidy calls and inlined tfFunctions it runs
   * in, outermost first, outside any op (`encoder/block/block_1` for a second call of a tidy named
   * block); undefined at the traced function's top level.
   */
  nameScope(engine: EngineInternals): string | undefined {
    const stack = engine.state.scopeStack;
    let path = '';
    let next = 0;
    for (let depth = this.baseScope; depth <= stack.length; depth++) {
      for (; next < this.inlined.length && this.inlined[next]!.depth <= depth; next++)
        path = this.scopePart(path, this.inlined[next]!, this.inlined[next]!.name);
      if (depth === stack.length) break;
      const scope = stack[depth]!;
      if (scope.name.endsWith('__op')) break;
      if (scope.name !== UNNAMED_SCOPE) path = this.scopePart(path, scope, scope.name);
    }
    return path === '' ? undefined : path;
  }

  private scopePart(parent: string, scope: object, name: string): string {
    let part = this.scopeParts.get(scope);
    if (part === undefined) {
      const base = scopeName(name);
      const key = `${parent}/${base}`;
      const used = this.partsUsed.get(key) ?? 0;
      this.partsUsed.set(key, used + 1);
      part = used === 0 ? base : `${base}_${used}`;
      this.scopeParts.set(scope, part);
    }
    return parent === '' ? part : `${parent}/${part}`;
  }

  refOf(t: Tensor): ValueRef {
    const known = this.produced.get(t.id);
    if (known) return known;
    const input = this.placeholders.get(t.id);
    if (input !== undefined) return { kind: 'input', index: input };
    const index = this.captured.get(t.id) ?? this.capture(t);
    return { kind: 'capture', index };
  }

  private capture(t: Tensor): number {
    const index = this.captures.length;
    if (t instanceof tf.Variable) {
      this.captures.push({ kind: 'variable', dtype: t.dtype, shape: [...t.shape], name: t.name });
      this.captureTensors.push(t);
    } else {
      const made = this.madeFromData.has(t.id);
      if (!made && t.id >= this.firstNewId) {
        throw this.refuse(
          traceErrorHere(
            `tfFunction '${this.name}' met a ${t.dtype}[${t.shape}] tensor made inside it by a path the trace does not see`,
            'a replay could not make it again, so no graph is recorded. Please report this with the code that made the tensor.',
          ),
        );
      }
      this.captures.push({ kind: made ? 'const' : 'captured', dtype: t.dtype, shape: [...t.shape] });
      // A snapshot, kept past the trace's tidy and the caller's dispose (clone() runs Identity: not recorded).
      this.suspend++;
      try {
        this.captureTensors.push(tf.keep(t.clone()));
      } finally {
        this.suspend--;
      }
    }
    this.captured.set(t.id, index);
    return index;
  }

  inputsOf(inputs: KernelInputs): NodeInput[] {
    if (Array.isArray(inputs)) return inputs.map((t, i) => ({ key: String(i), ref: this.refOf(t) }));
    return Object.entries(inputs)
      .filter(([, t]) => t != null)
      .map(([key, t]) => ({ key, ref: this.refOf(t) }));
  }

  addKernel(
    kernel: string,
    inputs: KernelInputs,
    nodeInputs: NodeInput[],
    attrs: Record<string, unknown> | undefined,
    out: Tensor | Tensor[],
    op: string | undefined,
    scope: string | undefined,
  ) {
    const outs = Array.isArray(out) ? out : [out];
    const index = this.nodes.length;
    const callSite = userCallSite();
    this.nodes.push({
      type: 'kernel',
      index,
      name: scoped(scope, `n${index}_${kernel}`),
      kernel,
      ...(op ? { op } : {}),
      arrayInputs: Array.isArray(inputs),
      inputs: nodeInputs,
      attrs: { ...attrs },
      outputs: outs.map((t) => ({ dtype: t.dtype, shape: [...t.shape] })),
      ...(callSite ? { callSite } : {}),
    });
    this.produce(index, outs);
  }

  private produce(node: number, outs: readonly Tensor[]): void {
    outs.forEach((t, output) => {
      this.produced.set(t.id, { kind: 'node', node, output });
      this.tracedData.add(t.dataId);
    });
  }

  /** A tape clone (Identity run inside a kernel) stands for its source: gradient kernels read it. */
  alias(inputs: KernelInputs, out: Tensor | Tensor[]): void {
    const source = Array.isArray(inputs) ? inputs[0] : inputs.x;
    if (!source || Array.isArray(out)) return;
    const ref = this.produced.get(source.id) ?? (this.placeholders.has(source.id) ? this.refOf(source) : undefined);
    if (ref) this.produced.set(out.id, ref);
  }

  /** A wrapper call: run on its own path with recording suspended, recorded as one callback node. */
  record(call: WrapperCall, run: RunWrapper): Tensor | Tensor[] {
    const engine = tf.engine() as unknown as EngineInternals;
    if (!this.recording(engine.state.kernelDepth)) return run(call);
    this.suspend++;
    let out: Tensor | Tensor[];
    try {
      out = run(call);
    } finally {
      this.suspend--;
    }
    const inp = call.inp.map((x) => (x instanceof tf.Tensor ? { ref: this.refOf(x) } : { literal: ArrayBuffer.isView(x) ? copyView(x) : x }));
    const outs = Array.isArray(out) ? out : [out];
    const index = this.nodes.length;
    // The identity the wrapper just used (one per function, kind and name).
    const token = identify(call.func, call.kind, call.stateful, call.name);
    const callSite = userCallSite();
    // The node is named as the callback is known: its given name, else its function's name (what
    // `callbacks: { soft_clip }` binds on load), else, for an anonymous function, its token.
    const callbackName = call.name ?? (token.functionName && NODE_NAME.test(token.functionName) ? token.functionName : token.name);
    this.nodes.push({
      type: 'callback',
      index,
      name: scoped(this.nameScope(engine), `n${index}_${callbackName}`),
      token: token.token,
      callbackName,
      callbackKind: call.kind,
      op: call.op,
      inputs: inp.flatMap((x, i) => ('ref' in x && x.ref ? [{ key: String(i), ref: x.ref }] : [])),
      outputs: outs.map((t) => ({ dtype: t.dtype, shape: [...t.shape] })),
      ...(callSite ? { callSite } : {}),
    });
    const { kind, op, func, Tout, stateful, name } = call;
    this.replays.set(index, { kind, op, func, Tout, stateful, name, inp, single: !Array.isArray(out), run });
    this.produce(index, outs);
    return out;
  }

  /** A customGrad op: its forward kernels are recorded inline; its own gradient is not replayed. */
  customGrad(engine: EngineInternals): void {
    const op = this.opScope(engine);
    if (!op) {
      if (!this.tapeOn) return; // forward replays exactly; no tape, no gradient to lose
      throw this.refuse(
        traceErrorHere(
          `tf.customGrad inside tfFunction '${this.name}', traced under a gradient tape`,
          'a replay cannot run its gradFunc (it closes over the tensors of this call), so gradients would silently differ. ' +
            'Call it outside the traced function, or inside a pyFunction callback, which runs on every call.',
        ),
      );
    }
    if (!this.tapeOn || this.warnedOps.has(op)) return;
    this.warnedOps.add(op);
    warnHere(
      `tfFunction '${this.name}': ${op} has a custom gradient that a replay does not keep; its gradient is the chain of its kernels' ` +
        `gradients instead (the same function, differing in the last float bits)`,
    );
  }

  /** A tensor made from values: a constant of the graph, unless a random op made it. */
  madeTensor(engine: EngineInternals, t: Tensor): void {
    const op = this.opScope(engine);
    const random = op?.split('/').find((name) => RANDOM_OP.test(name));
    if (random) {
      throw this.refuse(
        traceErrorHere(
          `tf.${random} inside tfFunction '${this.name}'`,
          'a replay would return the same numbers on every call (TensorFlow draws new ones). Draw them outside and pass them in ' +
            'as an argument, or draw them in a numpyFunction or pyFunction callback, which runs on every call.',
        ),
      );
    }
    this.madeFromData.add(t.id);
  }

  /** A download of a tensor whose value depends on the inputs: refused, the graph would freeze it. */
  hostRead(dataId: object, how: string): void {
    if (!this.tracedData.has(dataId)) return; // a constant or captured tensor: its value is fixed anyway
    throw this.refuse(
      traceErrorHere(
        `host read (${how}) of a traced tensor inside tfFunction '${this.name}'`,
        'the graph would keep the value read now and every later call would reuse it. Keep the computation in tensor ops ' +
          '(tf.where instead of an if on a value), or move the host code into a numpyFunction callback, which runs on every call.',
      ),
    );
  }

  refuse(error: TraceError): TraceError {
    this.violation ??= error;
    return error;
  }

  /** The function's return value with its tensors as refs. */
  structureOf(value: unknown, where: string): OutputStructure {
    if (value instanceof tf.Tensor) return { kind: 'tensor', ref: this.refOf(value) };
    if (Array.isArray(value)) return { kind: 'array', items: value.map((v, i) => this.structureOf(v, `${where}[${i}]`)) };
    if (value === null || ['undefined', 'number', 'string', 'boolean'].includes(typeof value)) return { kind: 'literal', value };
    if (Object.getPrototypeOf(value) === Object.prototype) {
      return { kind: 'object', entries: Object.entries(value as object).map(([k, v]) => [k, this.structureOf(v, `${where}.${k}`)] as const) };
    }
    throw new TypeError(
      `tfFunction '${this.name}': ${where} is a ${(value as object).constructor?.name ?? typeof value}; a traced function returns tensors, ` +
        `numbers, strings, booleans, or arrays and plain objects of them.`,
    );
  }

  disposeCaptures(): void {
    tf.dispose(this.captureTensors.filter((t) => !(t instanceof tf.Variable)));
  }
}

/** What tfjs names a tf.tidy scope given no name. */
const UNNAMED_SCOPE = 'unnamed scope';

/** A tidy's or function's name as one part of a TensorFlow node name (letters, digits, '_', '.', '-'). */
function scopeName(name: string): string {
  const part = name.replace(/[^A-Za-z0-9_.-]/g, '_').replace(/^[_-]+/, '');
  return part === '' ? 'scope' : part;
}

function scoped(scope: string | undefined, name: string): string {
  return scope === undefined ? name : `${scope}/${name}`;
}

function copyView(view: ArrayBufferView): ArrayBufferView {
  return (view as unknown as { slice(): ArrayBufferView }).slice();
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
