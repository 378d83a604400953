/**
 * The op watch: while an observer wants births (op-birth.ts), every kernel the program runs at
 * the top level has its float outputs checked for NaN and ±Inf where they live (finite-check.ts),
 * and tensors made from the program's data have their values checked as they are made. Nothing
 * else is done for a kernel whose outputs are finite: no stack, no summary, no copy. With no
 * observer nothing is shadowed: the engine runs as TF.js runs it.
 *
 * Shadowed engine methods (instance properties over Engine.prototype; `delete` restores them):
 * - `runKernelFunc`: every kernel and customGrad op. Kernels run inside another (a customGrad's
 *   forward function, `engine.clone`) are that op's, and only the outer op is checked.
 * - `makeTensor`: tensors made from JS values (`tf.tensor*`, `tf.scalar`, weights read from files).
 * - `addTapeNode`: each op a gradient tape records learns what runs its backward kernels, so a
 *   backward birth names the forward op, its layer and the program's line where it ran.
 */
import { attrsAsJson } from '../graph-model/node-attrs.js';
import { captureCallSite, captureStack, firstUserFrame } from '../callsite.js';
import type { OpBirthObserver } from '../hook-types.js';
import { shared } from '../hooks.js';
import { currentExecution } from '../invocation/execution.js';
import { tf, type Tensor } from '../tf.js';
import type { EngineInternals, KernelInputs, KernelParams, ShadowedMethods } from './engine-internals.js';
import { firstNonFinite, nonFiniteTest, type NonFiniteTest } from './finite-check.js';
import { FINITE_PRESERVING, finiteAttrs } from './finite-preserving.js';
import { type BirthFacts, describeBirth, type OpBirth } from './op-birth.js';
import { type ForwardOp, type LayerRef, TrainingContext } from './training-context.js';

export type { OpBirth } from './op-birth.js';
export type { OpBirthObserver } from '../hook-types.js';

const OP_SCOPE = '__op';
/** Forward stacks kept at most (a training step records a few hundred ops). */
const TRACE_CACHE_LIMIT = 10_000;

class Watch {
  private readonly engine = tf.engine() as unknown as EngineInternals;
  private readonly test: NonFiniteTest = nonFiniteTest(this.engine);
  private readonly training = new TrainingContext();
  /** Non-finite tensors already accounted for (told, or made from non-finite inputs), by their data. */
  private seen = new WeakSet<object>();
  private sequence = 0;
  /** Forward ops' stacks by their place on the tape (forwardTrace). */
  private readonly traces = new Map<string, { stack?: string }>();
  /** Inside a birth's observers (a debugger's stop): what they run is not watched. */
  private busy = false;

  install(): void {
    const watch = this;
    const engine = this.engine;
    const proto = Object.getPrototypeOf(engine) as ShadowedMethods;
    this.training.install();
    engine.runKernelFunc = function (this: EngineInternals, params: KernelParams) {
      const depth = this.state.kernelDepth;
      const out = proto.runKernelFunc.call(this, params);
      if (watch.busy) return out;
      if (depth === 0) watch.afterKernel(params, Array.isArray(out) ? out : [out]);
      else watch.carry(params, Array.isArray(out) ? out : [out]);
      return out;
    };
    engine.makeTensor = function (this: EngineInternals, values, shape, dtype, backend) {
      const t = proto.makeTensor.call(this, values, shape, dtype, backend);
      if ((dtype ?? 'float32') === 'float32' && this.state.kernelDepth === 0 && !watch.busy) watch.afterData(t, values);
      return t;
    };
    engine.addTapeNode = function (this: EngineInternals, ...args: Parameters<ShadowedMethods['addTapeNode']>) {
      proto.addTapeNode.apply(this, args);
      if (!watch.busy) watch.taped(args[0]);
    };
  }

  remove(): void {
    const engine = this.engine as unknown as Record<string, unknown>;
    for (const name of ['runKernelFunc', 'makeTensor', 'addTapeNode']) delete engine[name];
    this.training.remove();
    this.seen = new WeakSet();
  }

  private afterKernel(params: KernelParams, outputs: Tensor[]): void {
    this.sequence++;
    const name = params.kernelName;
    if (name !== undefined && FINITE_PRESERVING.has(name) && finiteAttrs(params.attrs)) {
      this.carry(params, outputs);
      return;
    }
    if (!outputs.some((t) => this.test(t))) return;
    const { names, tensors } = inputsOf(params.inputs);
    // A bad input the watch accounted for: this op only carried it on.
    const badInput = tensors.findIndex((t) => t !== undefined && this.test(t) && !this.seen.has(t.dataId));
    const carried = badInput < 0 && tensors.some((t) => t !== undefined && this.seen.has(t.dataId));
    for (const t of outputs) this.seen.add(t.dataId);
    if (carried) return;
    if (badInput >= 0) this.seen.add(tensors[badInput]!.dataId);
    const backward = this.training.backwardOf;
    const op = params.kernelName ?? innermostOp(this.engine) ?? 'customGrad';
    const facts: BirthFacts = {
      cause: badInput >= 0 ? 'input' : 'op',
      op,
      ...withinOp(this.engine, op),
      ...passOf(this.engine, this.training, backward),
      ...layerAndStep(this.training, backward),
      ...site(this.training),
      ...modelOf(),
      inputNames: names,
      inputs: tensors,
      outputs,
      attrs: params.attrs ?? {},
      sequence: this.sequence,
      ...(badInput >= 0 ? { badInput } : {}),
    };
    this.tell(describeBirth(facts));
  }

  /**
   * A kernel inside another (a clone the tape saves, a customGrad's inner ops), or one that cannot
   * make NaN/Inf (finite-preserving.ts), is not checked; a non-finite input it carries is
   * accounted for in its outputs (the wasm backend's Identity copies).
   */
  private carry(params: KernelParams, outputs: Tensor[]): void {
    const inputs = Array.isArray(params.inputs) ? params.inputs : Object.values(params.inputs);
    if (inputs.some((t) => t !== undefined && this.seen.has(t.dataId))) for (const t of outputs) this.seen.add(t.dataId);
  }

  private afterData(t: Tensor, values: ArrayLike<unknown>): void {
    if (firstNonFinite(values) < 0) return;
    this.seen.add(t.dataId);
    const trace = captureStack(Watch.prototype.afterData, 120).stack ?? '';
    const site = firstUserFrame(trace) ?? this.training.entrySite();
    this.tell(
      describeBirth({
        cause: 'data',
        op: `tf.${maker(trace) ?? 'tensor'}`,
        pass: this.training.backwardOf ? 'backward' : 'forward',
        ...layerAndStep(this.training, undefined),
        ...(site ? { site } : {}),
        inputNames: [],
        inputs: [],
        outputs: [t],
        attrs: {},
        sequence: this.sequence,
      }),
    );
  }

  /** The op just put on the gradient tape: its backward kernels will say whose gradient they are. */
  private taped(kernelName: string): void {
    const tape = this.engine.state.activeTape;
    const node = tape?.[tape.length - 1];
    const gradient = node?.gradient;
    if (!tape || !node || !gradient || node.kernelName !== kernelName) return;
    const training = this.training;
    const layer = training.layer();
    const forward: ForwardOp = { op: kernelName, ...(layer ? { layer } : {}), trace: this.forwardTrace(tape.length, kernelName, layer) };
    node.gradient = (dys) => {
      // A customGrad op computes its gradients here, at once; a kernel's, in the functions it returns.
      const grads = training.during(forward, () => gradient(dys));
      const marked: Record<string, () => Tensor> = {};
      for (const [input, grad] of Object.entries(grads)) {
        marked[input] = () => training.during(forward, grad);
      }
      return marked;
    };
  }

  /**
   * The stack of the forward op at `position` on the tape. A training step records the same ops
   * in the same order each time, so a stack is captured once per place on the tape, kernel and
   * layer (capturing one for every op cost 0.3x a wasm MLP's fit).
   */
  private forwardTrace(position: number, kernelName: string, layer: LayerRef | undefined): ForwardOp['trace'] {
    const key = `${position}:${kernelName}:${layer?.name ?? ''}`;
    let trace = this.traces.get(key);
    if (!trace) {
      if (this.traces.size >= TRACE_CACHE_LIMIT) this.traces.clear();
      trace = Object.assign(captureStack(Watch.prototype.forwardTrace, 40), { entry: this.training.entrySite() });
      this.traces.set(key, trace);
    }
    return trace;
  }

  private tell(birth: OpBirth): void {
    this.busy = true;
    try {
      for (const observer of shared.opBirthObservers ?? []) {
        try {
          observer.onBirth(birth);
        } catch (err) {
          process.emitWarning(`an op watch observer failed: ${(err as Error).message}`, 'TfjsCallbacksWarning');
        }
      }
    } finally {
      this.busy = false;
    }
  }
}

function inputsOf(inputs: KernelInputs): { names: string[]; tensors: (Tensor | undefined)[] } {
  if (Array.isArray(inputs)) return { names: inputs.map((_, i) => String(i)), tensors: [...inputs] };
  const names = Object.keys(inputs);
  return { names, tensors: names.map((n) => inputs[n]) };
}

/** The innermost `op()` scope: the TF.js op that ran the kernel (`log`), or a customGrad op's. */
function innermostOp(engine: EngineInternals): string | undefined {
  const scopes = engine.state.scopeStack;
  for (let i = scopes.length - 1; i >= 0; i--) if (scopes[i]!.name.endsWith(OP_SCOPE)) return scopes[i]!.name.slice(0, -OP_SCOPE.length);
  return undefined;
}

/** The op the program called, when it is a composite one (`logLoss` ran `log`): the outermost `op()` scope. */
function withinOp(engine: EngineInternals, kernel: string): { within?: string } {
  const ops = engine.state.scopeStack.filter((s) => s.name.endsWith(OP_SCOPE)).map((s) => s.name.slice(0, -OP_SCOPE.length));
  const outer = ops[0];
  return outer !== undefined && ops.length > 1 && outer.toLowerCase() !== kernel.toLowerCase() ? { within: outer } : {};
}

/** Forward, backward (and of which op), or an optimizer's update. */
function passOf(engine: EngineInternals, training: TrainingContext, backward: ForwardOp | undefined): Pick<OpBirth, 'pass' | 'gradientOf' | 'optimizer'> {
  if (backward) return { pass: 'backward', gradientOf: gradientOf(backward) };
  if (engine.state.scopeStack.some((s) => s.name === 'backward')) return { pass: 'backward' };
  const optimizer = training.optimizerUpdate();
  return optimizer ? { pass: 'update', optimizer } : { pass: 'forward' };
}

function gradientOf(forward: ForwardOp): NonNullable<OpBirth['gradientOf']> {
  const at = firstUserFrame(forward.trace.stack ?? '') ?? forward.trace.entry;
  return { op: forward.op, ...(forward.layer ? { layer: forward.layer } : {}), ...(at ? { site: at } : {}) };
}

function layerAndStep(training: TrainingContext, backward: ForwardOp | undefined): Pick<OpBirth, 'layer' | 'fit'> {
  const layer = backward ? backward.layer : training.layer();
  const fit = training.step();
  return { ...(layer ? { layer } : {}), ...(fit ? { fit } : {}) };
}

/** The model whose run this is (a loaded graph model, a tfFunction replay), if any. */
function modelOf(): Pick<OpBirth, 'model'> {
  const graph = currentExecution()?.graph;
  return graph !== undefined ? { model: graph } : {};
}

/** The program's line on the stack, else the one that called the model method under way (model.fit's loop has lost its callers). */
function site(training: TrainingContext): Pick<OpBirth, 'site'> {
  const at = captureCallSite(120) ?? training.entrySite();
  return at ? { site: at } : {};
}

/** A frame of TF.js's: installed, or source-mapped to its build tree (`<cwd>/tfjs-core/src/`, callsite.ts). */
const TFJS_FRAME = /^\s*at (?:async )?([\w$.<>]+) \(.*(?:node_modules[\\/]@tensorflow[\\/]|[\\/]tfjs(?:-[a-z-]+)?[\\/]src[\\/])/;

/** The TF.js function the program called to make a tensor (`tensor2d`): the last TF.js frame before the program's. */
function maker(trace: string): string | undefined {
  let name: string | undefined;
  for (const line of trace.split('\n').slice(1)) {
    const match = TFJS_FRAME.exec(line);
    if (match) name = match[1]!.split('.').pop();
    else if (name !== undefined) break;
  }
  return name && name !== 'makeTensor' ? name : undefined;
}

let installed: Watch | undefined;

/** Installs the watch while some observer wants births; removes it when none does. */
export function syncOpWatch(): void {
  const wanted = (shared.opBirthObservers?.length ?? 0) > 0;
  if (wanted && !installed) {
    installed = new Watch();
    installed.install();
  } else if (!wanted && installed) {
    installed.remove();
    installed = undefined;
  }
}

/** Watches every op for the birth of NaN/Inf; returns the function that stops watching. */
export function addOpBirthObserver(observer: OpBirthObserver): () => void {
  shared.opBirthObservers = [...(shared.opBirthObservers ?? []), observer];
  syncOpWatch();
  return () => {
    shared.opBirthObservers = (shared.opBirthObservers ?? []).filter((o) => o !== observer);
    syncOpWatch();
  };
}

/** Lends the watch to a debugger's agent (runtime/index.ts, as the runtime loads); one that came before the runtime left its observers in the list. */
export function lendOpWatch(): void {
  if (shared.tools) Object.assign(shared.tools, { addOpBirthObserver, syncOpWatch, attrsAsJson });
  syncOpWatch();
}
