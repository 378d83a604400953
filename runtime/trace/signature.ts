/**
 * Input signatures: what decides whether a call replays a graph or traces a new one. As in
 * TensorFlow, tensors count by dtype and shape, other arguments (numbers, strings) by value; the
 * same tensor passed twice is part of the signature too (the graph reads one input for both).
 */
import { formatCallSite, type CallSite } from '../callsite.js';
import { tf, type Tensor } from '../tf.js';
import type { TensorSpec } from './graph.js';

/** One argument of an `inputSignature`: `null` dimensions take any size (TensorFlow's `None`). */
export interface InputSpec {
  readonly shape: readonly (number | null)[];
  /** Default float32, as TensorFlow's TensorSpec. */
  readonly dtype?: tf.DataType;
}

export interface CallSignature {
  /** Equal keys replay the same graph. */
  readonly key: string;
  /** The tensor arguments in order (nested arrays flattened): the graph's inputs. */
  readonly leaves: Tensor[];
  readonly specs: TensorSpec[];
}

export function signatureOf(name: string, args: readonly unknown[]): CallSignature {
  const leaves: Tensor[] = [];
  const specs: TensorSpec[] = [];
  const firstIndex = new Map<number, number>();
  const describe = (value: unknown, where: string): string => {
    if (value instanceof tf.Tensor) {
      // A disposed tensor fails here, not somewhere inside the graph.
      if (value.isDisposed) throw new TypeError(`tfFunction '${name}': ${where} is a disposed tensor.`);
      const seen = firstIndex.get(value.id);
      if (seen === undefined) firstIndex.set(value.id, leaves.length);
      leaves.push(value);
      specs.push({ dtype: value.dtype, shape: [...value.shape] });
      return `${value.dtype}[${value.shape}]${seen === undefined ? '' : `=${seen}`}`;
    }
    if (Array.isArray(value)) return `[${value.map((v, i) => describe(v, `${where}[${i}]`)).join(',')}]`;
    if (value === null || value === undefined || ['number', 'string', 'boolean'].includes(typeof value)) return JSON.stringify(value) ?? 'undefined';
    throw new TypeError(
      `tfFunction '${name}': ${where} is a ${(value as object).constructor?.name ?? typeof value}; a traced function takes tensors, ` +
        `numbers, strings, booleans, or arrays of them (a closure can reach anything else).`,
    );
  };
  const key = args.map((a, i) => describe(a, `argument ${i}`)).join(';');
  return { key, leaves, specs };
}

/** Refuses a call that does not match the declared signature, naming the argument and the call's line. */
export function checkInputSignature(name: string, declared: readonly InputSpec[], args: readonly unknown[], site: CallSite | undefined): void {
  const at = `(called at ${formatCallSite(site)})`;
  if (args.length !== declared.length) {
    throw new TypeError(`tfFunction '${name}' takes ${declared.length} tensor argument(s) by its inputSignature, but got ${args.length} ${at}.`);
  }
  declared.forEach((spec, i) => {
    const arg = args[i];
    const expected = `${spec.dtype ?? 'float32'}[${spec.shape.map((d) => d ?? 'None')}]`;
    if (!(arg instanceof tf.Tensor)) {
      throw new TypeError(`tfFunction '${name}': argument ${i} must be a tensor ${expected} (inputSignature), got ${typeof arg} ${at}.`);
    }
    const fits =
      arg.dtype === (spec.dtype ?? 'float32') && arg.shape.length === spec.shape.length && spec.shape.every((d, j) => d === null || d === arg.shape[j]);
    if (!fits) {
      throw new TypeError(
        `tfFunction '${name}': argument ${i} is ${arg.dtype}[${arg.shape}], incompatible with its inputSignature ${expected} ${at}. ` +
          `Pass a matching tensor, or widen the signature (null for a dimension of any size).`,
      );
    }
  });
}
