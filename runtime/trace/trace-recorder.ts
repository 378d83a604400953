/**
 * One trace's record (tracer.ts runs it): the kernel calls it is shown become nodes named as
 * TensorFlow names them (name scopes from tf.tidy and inlined tfFunctions), tensors from outside
 * become captures, wrapper calls become callback nodes; what a replay could not repeat (a host
 * read of a traced value, a random op, a user customGrad under a tape) is refused at the user's line.
 */
import { identify } from '../invocation/callbacks.js';
import { tensorIdWatermark, tf, type Tensor } from '../tf.js';
import { type TraceError, traceErrorHere, userCallSite, warnHere } from './errors.js';
import { NODE_NAME } from './graph-def.js';
import type { Capture, NodeInput, OutputStructure, TracedNode, ValueRef, WrapperReplay } from './graph.js';
import type { RunWrapper, WrapperCall, WrapperRecorder } from '../invocation/wrapper-hook.js';

export type KernelInputs = Record<string, Tensor> | Tensor[];

export interface KernelFuncParams {
  readonly forwardFunc?: Function;
  readonly inputs: KernelInputs;
}

/** The engine methods a trace shadows, and the state it reads (private in the .d.ts: runKernelFunc). */
export interface EngineInternals {
  state: { kernelDepth: number; scopeStack: { name: string }[] };
  runKernel(name: string, inputs: KernelInputs, attrs?: Record<string, unknown>): Tensor | Tensor[];
  runKernelFunc(params: KernelFuncParams): Tensor | Tensor[];
  makeTensor(values: unknown, shape: number[], dtype: string, backend?: unknown): Tensor;
  readSync(dataId: object): unknown;
  read(dataId: object): Promise<unknown>;
}

/** Ops whose values come from a JS random generator through makeTensor: a replay would repeat them. */
const RANDOM_OP = /^(random[A-Z]\w*|truncatedNormal|rand)$/;

export class Trace implements WrapperRecorder {
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
