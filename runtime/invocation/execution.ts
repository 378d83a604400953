/**
 * The execution a callback runs in: a graphFunction call or one model execution. It names the
 * graph for the debug hooks and scopes the reuse of stateless callbacks' results ("within one
 * execution", as TensorFlow's common-subexpression elimination is within one graph run).
 * AsyncLocalStorage carries it through executeAsync's awaits.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { tf, type Tensor } from '../tf.js';

interface MemoEntry {
  readonly inputs: readonly MemoInput[];
  readonly outputs: readonly Tensor[];
}

/** An input as compared for reuse: identical data id, or identical dtype, shape and values. */
export interface MemoInput {
  readonly dataId: object;
  readonly dtype: string;
  readonly shape: readonly number[];
  readonly values: ArrayLike<unknown>;
}

export class Execution {
  private readonly memo = new Map<string, MemoEntry[]>();

  constructor(
    readonly graph: string,
    /** The model.json the graph was loaded from (runtime models). */
    readonly modelPath?: string,
  ) {}

  /** Clones of the outputs of an earlier call with identical inputs, if there was one. */
  recall(token: string, inputs: readonly MemoInput[]): Tensor[] | undefined {
    const entry = this.memo.get(token)?.find((e) => sameInputs(e.inputs, inputs));
    return entry?.outputs.map((t) => tf.clone(t));
  }

  remember(token: string, inputs: readonly MemoInput[], outputs: readonly Tensor[]): void {
    const kept = outputs.map((t) => tf.keep(tf.clone(t)));
    const entries = this.memo.get(token) ?? [];
    entries.push({ inputs, outputs: kept });
    this.memo.set(token, entries);
  }

  /** Frees the remembered outputs, and tells who listens that the run is over. */
  end(): void {
    for (const entries of this.memo.values()) for (const e of entries) tf.dispose(e.outputs as Tensor[]);
    this.memo.clear();
    for (const listener of endListeners) listener(this);
  }
}

const endListeners = new Set<(execution: Execution) => void>();

/** Calls `listener` as each execution ends (graph-model/node-hooks.ts: a model run's end, for node observers). */
export function onExecutionEnd(listener: (execution: Execution) => void): void {
  endListeners.add(listener);
}

function sameInputs(a: readonly MemoInput[], b: readonly MemoInput[]): boolean {
  return a.length === b.length && a.every((x, i) => sameInput(x, b[i]!));
}

function sameInput(a: MemoInput, b: MemoInput): boolean {
  if (a.dataId === b.dataId) return true;
  if (a.dtype !== b.dtype || a.shape.length !== b.shape.length || a.shape.some((d, i) => d !== b.shape[i])) return false;
  const va = a.values;
  const vb = b.values;
  if (va.length !== vb.length) return false;
  for (let i = 0; i < va.length; i++) if (!Object.is(va[i], vb[i]) && va[i] !== vb[i]) return false;
  return true;
}

const current = new AsyncLocalStorage<Execution>();

export function currentExecution(): Execution | undefined {
  return current.getStore();
}

/**
 * Runs `body` as one execution of `graph`; the execution's memo is freed when it settles. Inside
 * another execution it joins that one, as TensorFlow inlines a tf.function called from another.
 */
export function runExecution<T>(graph: string, body: () => T, modelPath?: string): T {
  if (current.getStore()) return body();
  const execution = new Execution(graph, modelPath);
  let result: T;
  try {
    result = current.run(execution, body);
  } catch (err) {
    execution.end();
    throw err;
  }
  if (result instanceof Promise) {
    return result.finally(() => execution.end()) as T;
  }
  execution.end();
  return result;
}
