/**
 * Values and their summaries: what a tensor, NdArray, typed array or JS literal is (dtype, shape,
 * statistics, NaN/Inf counts), its one-line description, and pages of its values. Summaries come
 * from the runtime's tools (runtime/summary.ts), cached by data: a stop asks for each several times.
 */
import type { RawValues, TensorSummary } from '../../../runtime/summary.js';
import { literalDType } from '../../../runtime/dtypes.js';
import { nonFiniteText } from '../../../runtime/non-finite-text.js';
import type { FlatValue, ScopeValue, ValueInfo } from '../agent-protocol.js';
import type { AgentContext } from './context.js';
import { arrayName, className, isNdArray, isTensor, type TensorLike, type TfLike, typeName } from './kinds.js';
import { createLiterals } from './literals.js';

/** The agent's reads of values (its `info`, `valueInfo`, `describe`, `slice`), and the Callback scope's view of one. */
export interface ValueReads {
  info(v: unknown): ValueInfo | undefined;
  valueInfo(v: unknown, declared?: string): ValueInfo;
  describe(v: unknown): string | undefined;
  slice(v: unknown, start: number, count: number): FlatValue[];
  scopeValue(v: unknown): ScopeValue;
  /** A typed array's TensorFlow dtype: the runtime's one table (runtime/dtypes.ts `dtypeOfArray`). */
  arrayDType(v: unknown): string | undefined;
}

const num = (x: number | undefined) => (typeof x === 'number' ? Number(x.toPrecision(5)) : x);
const flatValues = (values: ArrayLike<unknown>) => Array.from(values, (x) => (typeof x === 'bigint' ? Number(x) : x) as FlatValue);

/** A value's one line: its kind, dtype and shape, statistics over the finite values, then what is not finite. */
function describeInfo(i: ValueInfo): string {
  const sig = `${i.kind === i.dtype ? i.kind : `${i.kind} ${i.dtype}`}[${i.shape.join(',')}]`;
  if (i.disposed) return `${sig} (disposed)`;
  // A string tensor has no NaN to count, nor statistics.
  if ((i.min === undefined && i.nanCount === undefined) || i.dtype === 'string') return sig;
  const stats = i.min !== undefined ? ` min=${num(i.min)} max=${num(i.max)} mean=${num(i.mean)}` : '';
  // In every view's words (runtime/non-finite-text.ts).
  const bad = nonFiniteText({
    dtype: i.dtype,
    nanCount: i.nanCount ?? 0,
    infCount: i.infCount ?? 0,
    ...(i.negInfCount !== undefined ? { negInfCount: i.negInfCount } : {}),
  });
  return `${sig}${stats}${bad ? ` (${bad})` : ''}${i.exact === false ? ' (sampled)' : ''}`;
}

/** Values [start, start + count) of a tensor, flattened row-major (only that part is read out of the backend). */
function tensorSlice(untraced: AgentContext['untraced'], tf: TfLike | undefined, v: TensorLike, start: number, count: number): FlatValue[] {
  if (v.isDisposed) return [];
  const end = Math.min(v.size, start + count);
  if (end <= start) return [];
  return untaped(tf, () =>
    untraced(() => {
      const flat = v.reshape([-1]);
      const part = flat.slice([start], [end - start]);
      try {
        return flatValues(part.dataSync());
      } finally {
        part.dispose();
        flat.dispose();
      }
    }),
  );
}

/**
 * Runs the agent's own ops off the gradient tape: paused inside a fit's forward pass (a custom
 * layer's call), tfjs would keep a clone of each op's tensors for a backward pass that never uses
 * them, and `tf.memory().numTensors` would grow with every page read.
 */
function untaped<T>(tf: TfLike | undefined, fn: () => T): T {
  const state = tf?.engine().state;
  const depth = state?.gradientDepth;
  if (!state || !depth) return fn();
  state.gradientDepth = 0;
  try {
    return fn();
  } finally {
    state.gradientDepth = depth;
  }
}

export function createValueReads(context: AgentContext): ValueReads {
  const { state, untraced } = context;
  const summaries = new WeakMap<object, TensorSummary>();
  const literal = createLiterals();
  /** A summary of `key`'s data, made once. */
  const summary = (key: object, make: () => TensorSummary): TensorSummary | undefined => {
    let s = summaries.get(key);
    if (!s && state.tools) {
      s = make();
      summaries.set(key, s);
    }
    return s;
  };
  const arrayDType = (v: unknown): string | undefined => (ArrayBuffer.isView(v) ? state.tools?.dtypeOfArray?.(v) : undefined);

  const info = (v: unknown): ValueInfo | undefined => {
    const tools = state.tools;
    if (isTensor(v)) {
      if (v.isDisposed) return { kind: 'Tensor', dtype: v.dtype, shape: [...v.shape], size: v.size, disposed: true };
      // Tensors are immutable, so a summary holds for their data; variables change data ids.
      const s = summary(v.dataId, () => untraced(() => tools!.summarizeTensor(v as never)));
      const kind = className(v) === 'Variable' ? 'Variable' : 'Tensor';
      return { kind, ...s, dtype: v.dtype, shape: [...v.shape], size: v.size, disposed: false } as ValueInfo;
    }
    if (isNdArray(v)) {
      const s = summary(v.data, () => tools!.summarizeValues({ dtype: v.dtype, shape: v.shape, flat: v.data } as RawValues));
      return { kind: 'NdArray', ...s, dtype: v.dtype, shape: [...v.shape], size: v.shape.reduce((a, b) => a * b, 1), disposed: false } as ValueInfo;
    }
    const dtype = arrayDType(v);
    if (dtype === undefined) return undefined;
    const view = v as ArrayBufferView & ArrayLike<unknown>;
    const s = summary(view, () => tools!.summarizeValues({ dtype, shape: [view.length], flat: view } as RawValues));
    return { kind: arrayName(v), ...s, dtype, shape: [view.length], size: view.length, disposed: false } as ValueInfo;
  };

  const valueInfo = (v: unknown, declared?: string): ValueInfo => {
    const i = info(v);
    if (i) return i;
    const lit = literal(v);
    if (!lit) return { kind: typeName(v), dtype: '', shape: [], size: 0, disposed: false, opaque: true };
    const dtype = literalDType(lit.leaf, declared ?? '');
    if (!lit.summary && state.tools) {
      lit.summary = state.tools.summarizeValues({ dtype: lit.leaf === 'string' ? 'string' : 'float64', shape: lit.shape, flat: lit.flat } as RawValues);
    }
    return { kind: Array.isArray(v) ? 'Array' : typeof v, ...lit.summary, dtype, shape: [...lit.shape], size: lit.flat.length, disposed: false } as ValueInfo;
  };

  const describe = (v: unknown): string | undefined => {
    const i = info(v);
    return i && describeInfo(i);
  };

  const slice = (v: unknown, start: number, count: number): FlatValue[] => {
    if (isTensor(v)) return tensorSlice(untraced, context.tfjs(), v, start, count);
    if (isNdArray(v)) return flatValues(Array.prototype.slice.call(v.data, start, start + count));
    if (ArrayBuffer.isView(v)) return flatValues(Array.prototype.slice.call(v, start, start + count));
    const lit = literal(v);
    return lit ? flatValues(lit.flat.slice(start, start + count)) : [];
  };

  /** How the Callback scope shows a value: from its summary where it has one, else by reference. */
  const scopeValue = (v: unknown): ScopeValue => {
    if (v === null || (typeof v !== 'object' && typeof v !== 'function')) {
      const text = typeof v === 'string' ? JSON.stringify(v) : typeof v === 'bigint' ? `${v}n` : Object.is(v, -0) ? '-0' : String(v);
      return { shown: 'primitive', text, type: typeof v };
    }
    const i = context.agent.info(v);
    const name = className(v);
    if (i && ArrayBuffer.isView(v))
      return { shown: 'typedarray', description: context.agent.describe(v) ?? `${name}(${i.size})`, length: i.size, className: name };
    if (i && (isTensor(v) || isNdArray(v)) && (name === 'Tensor' || name === 'Variable' || name === 'NdArray'))
      return { shown: 'tensor', description: context.agent.describe(v) ?? i.kind, info: i, className: name };
    return { shown: 'remote' };
  };

  return { info, valueInfo, describe, slice, scopeValue, arrayDType };
}
