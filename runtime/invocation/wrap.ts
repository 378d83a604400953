/**
 * What the three wrappers share: checking the call, converting `inp`, and returning one tensor
 * or a list as Tout asks.
 */
import { identify } from './callbacks.js';
import type { CallbackKind, CallbackOp } from '../events.js';
import { declaredDTypeOf, tensorFromArray } from '../tout/declared-dtypes.js';
import { invokeCallback } from './invoke.js';
import { literalRepr, tensorRepr } from '../python-repr.js';
import { tf, type Tensor } from '../tf.js';
import { parseTout, type ToutSpec } from '../tout/tout.js';
import { type Input, wrapperRecorder, type WrapperCall } from './wrapper-hook.js';

export type { Input } from './wrapper-hook.js';

export function runWrapped(
  kind: CallbackKind,
  op: CallbackOp,
  func: Function,
  inp: readonly Input[],
  Tout: ToutSpec,
  stateful: boolean,
  name: string | undefined,
): Tensor | Tensor[] {
  // Inside a tfFunction trace the call becomes one callback node (runtime/trace).
  if (wrapperRecorder !== null) return wrapperRecorder.record({ kind, op, func, inp, Tout, stateful, name }, runCall);
  return runUnrecorded(kind, op, func, inp, Tout, stateful, name);
}

/** The wrapper's own path for a recorded call: the trace runs it once, each replay again. */
function runCall(call: WrapperCall): Tensor | Tensor[] {
  return runUnrecorded(call.kind, call.op, call.func, call.inp, call.Tout, call.stateful, call.name);
}

function runUnrecorded(
  kind: CallbackKind,
  op: CallbackOp,
  func: Function,
  inp: readonly Input[],
  Tout: ToutSpec,
  stateful: boolean,
  name: string | undefined,
): Tensor | Tensor[] {
  // First lines as TensorFlow's: porters search for them.
  if (typeof func !== 'function') {
    throw new TypeError(
      `Expected func to be callable. Received func=${describeArgument(func)} of type ${typeName(func)}.\n  ${kind}: func must be a function.`,
    );
  }
  if (inp === undefined) throw new TypeError(`Missing argument \`inp\`:\n  ${kind} needs the list of its func's input tensors ([] for none).`);
  if (!Array.isArray(inp)) throw new TypeError(`${kind}: inp must be a list of tensors, got ${typeName(inp)}.`);
  const identity = identify(func, kind, stateful, name);
  const tout = parseTout(Tout, identity.name);
  checkArity(func, inp.length, identity.name);
  const created: Tensor[] = [];
  try {
    const inputs = inp.map((x, i) => {
      if (x instanceof tf.Tensor) return x;
      const t = toTensor(x, `inp[${i}] of '${identity.name}'`);
      created.push(t);
      return t;
    });
    const Tin = inputs.map(declaredDTypeOf);
    const outputs = invokeCallback({ identity, func, tout, op, Tin }, inputs);
    return tout.single ? outputs[0]! : outputs;
  } finally {
    tf.dispose(created);
  }
}

function describeArgument(value: unknown): string {
  return value instanceof tf.Tensor ? tensorRepr(value) : literalRepr(value);
}

function typeName(value: unknown): string {
  return value === null ? 'null' : typeof value === 'object' ? (value.constructor?.name ?? 'object') : typeof value;
}

/** An input given as values: typed arrays keep their dtype (a Float64Array is float64). */
function toTensor(value: unknown, what: string): Tensor {
  if (ArrayBuffer.isView(value) && !(value instanceof DataView)) return tensorFromArray(value, [(value as unknown as ArrayLike<unknown>).length], what);
  try {
    return tf.tensor(value as tf.TensorLike);
  } catch (err) {
    throw new TypeError(`${what} is not a tensor or tensor-like value (${(err as Error).message}).`);
  }
}

/**
 * TensorFlow calls func with one argument per tensor in inp. JS would silently drop or leave
 * undefined the others, so a mismatch is an error. A function declaring no parameters
 * (rest parameters, `arguments`) takes any number.
 */
function checkArity(func: Function, count: number, name: string): void {
  if (func.length === 0 || func.length === count) return;
  throw new TypeError(
    `'${name}' takes ${func.length} argument${func.length === 1 ? '' : 's'} but inp has ${count} tensor${count === 1 ? '' : 's'}: ` +
      `func must take as many arguments as there are tensors in inp.`,
  );
}
