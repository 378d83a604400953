/**
 * What a trace records: the graph of one concrete function (one input signature), in a form that
 * replays (replay.ts) and that tools read (`traced.graph`: nodes, edges).
 */
import type { CallSite } from '../callsite.js';
import type { CallbackKind, CallbackOp } from '../events.js';
import type { Tensor } from '../tf.js';
import type { ToutSpec } from '../tout/tout.js';

/** Where a kernel or callback input comes from. */
export type ValueRef =
  | { readonly kind: 'input'; readonly index: number }
  | { readonly kind: 'node'; readonly node: number; readonly output: number }
  | { readonly kind: 'capture'; readonly index: number };

/** One tensor argument of the traced function, as traced. */
export interface TensorSpec {
  readonly dtype: Tensor['dtype'];
  readonly shape: readonly number[];
}

/**
 * A tensor the graph holds: `const` was made from data inside the function (`tf.scalar(2)`, a number
 * operand), `captured` a tensor from outside (a snapshot, as TensorFlow captures an eager tensor),
 * `variable` a tf.Variable, read by reference so `assign()` is seen.
 */
export interface Capture {
  readonly kind: 'const' | 'captured' | 'variable';
  readonly dtype: Tensor['dtype'];
  readonly shape: readonly number[];
  /** The variable's name, for variables. */
  readonly name?: string;
}

export interface NodeOutput {
  readonly dtype: Tensor['dtype'];
  readonly shape: readonly number[];
}

/** A kernel input: its name in the kernel's input map (`x`, `a`), or its position for array inputs (Concat, AddN, Pack). */
export interface NodeInput {
  readonly key: string;
  readonly ref: ValueRef;
}

interface NodeBase {
  readonly index: number;
  /**
   * Unique in the graph: `n3_Multiply`, `n4_pyfunc_0`; inside a named tf.tidy or a tfFunction it
   * calls, under their name scopes (`encoder/block_1/n9_Relu`).
   */
  readonly name: string;
  readonly inputs: readonly NodeInput[];
  readonly outputs: readonly NodeOutput[];
  /** The line of the traced function that made it. */
  readonly callSite?: CallSite;
}

export interface KernelNode extends NodeBase {
  readonly type: 'kernel';
  readonly kernel: string;
  /** The tfjs op(s) that ran the kernel, outermost first (`moments/mean`): composite ops have no kernel of their own. */
  readonly op?: string;
  /** Inputs are passed as an array (Concat, AddN, Pack), not a named map. */
  readonly arrayInputs: boolean;
  readonly attrs: Readonly<Record<string, unknown>>;
}

/** A pyFunction / numpyFunction / compat.v1.pyFunc call: one node, run again on every replay. */
export interface CallbackNode extends NodeBase {
  readonly type: 'callback';
  readonly token: string;
  readonly callbackName: string;
  readonly callbackKind: CallbackKind;
  /** The TensorFlow op it stands for: EagerPyFunc, PyFunc, PyFuncStateless. */
  readonly op: CallbackOp;
}

export type TracedNode = KernelNode | CallbackNode;

export interface Edge {
  readonly from: ValueRef;
  readonly to: { readonly node: number; readonly input: string };
}

/** The traced function's return value with tensors replaced by refs. */
export type OutputStructure =
  | { readonly kind: 'tensor'; readonly ref: ValueRef }
  | { readonly kind: 'literal'; readonly value: unknown }
  | { readonly kind: 'array'; readonly items: readonly OutputStructure[] }
  | { readonly kind: 'object'; readonly entries: readonly (readonly [string, OutputStructure])[] };

/** The graph of one concrete function, for introspection. */
export interface TracedGraph {
  readonly name: string;
  readonly inputs: readonly TensorSpec[];
  readonly captures: readonly Capture[];
  readonly nodes: readonly TracedNode[];
  readonly edges: readonly Edge[];
  readonly output: OutputStructure;
}

/** The edges of `nodes`: one per node input. */
export function edgesOf(nodes: readonly TracedNode[]): Edge[] {
  return nodes.flatMap((node) => node.inputs.map((input) => ({ from: input.ref, to: { node: node.index, input: input.key } })));
}

/** What a callback node needs to run its wrapper again: the call as made, with tensors as refs. */
export interface WrapperReplay {
  readonly kind: CallbackKind;
  readonly op: CallbackOp;
  readonly func: Function;
  readonly Tout: ToutSpec;
  readonly stateful: boolean;
  readonly name: string | undefined;
  /** Per `inp` entry: a ref for a tensor, the value itself for anything else (numbers, arrays). */
  readonly inp: readonly ({ readonly ref: ValueRef } | { readonly literal: unknown })[];
  /** The wrapper returned one tensor (Tout a dtype), not a list. */
  readonly single: boolean;
}
