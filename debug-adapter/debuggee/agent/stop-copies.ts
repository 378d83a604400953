/**
 * Copies of stopped invocations' inputs and outputs, for the inspector's Compare (`tensorDiff`):
 * taken at a stop (the innermost invocation under way, as the inspector shows it), never on the way
 * of an invocation that does not stop. Bounded: the last KEPT_STOPS_LIMIT stops and KEPT_BYTES_LIMIT
 * bytes, the oldest let go first (and remembered as such, to say so); one value over
 * KEPT_VALUE_BYTES_LIMIT is kept as a strided sample. Values are read as the agent reads them
 * elsewhere (a tensor's dataSync, outside any trace): no tensor is made, none leaks.
 */
import { KEPT_BYTES_LIMIT, KEPT_STOPS_LIMIT, KEPT_VALUE_BYTES_LIMIT, type TensorDiff } from '../agent-diffs.js';
import type { Side, ValueInfo } from '../agent-protocol.js';
import type { AgentContext, Entry } from './context.js';
import { valuesOf } from './invocations.js';
import { isNdArray, isTensor } from './kinds.js';
import { diffKept, type KeptValue, type NumericCopy } from './value-diff.js';

/** One stop's copies. */
interface KeptStop {
  readonly inputs: KeptValue[];
  readonly outputs: KeptValue[];
  readonly bytes: number;
}

export interface StopCopies {
  /** Copies the invocation's inputs and outputs as they are at this stop (replacing an earlier stop's). */
  keep(entry: Entry): void;
  diff(a: number, b: number, side: Side, index: number): TensorDiff | { error: string };
}

/** How many let-go invocations are remembered, to say why their values are gone. */
const GONE_REMEMBERED = 4096;

export function createStopCopies(context: AgentContext): StopCopies {
  /** Kept stops, oldest first (Map order). */
  const kept = new Map<number, KeptStop>();
  const gone = new Map<number, string>();
  let bytes = 0;
  const forget = (id: number, why: string) => {
    const stop = kept.get(id);
    if (stop) bytes -= stop.bytes;
    kept.delete(id);
    gone.set(id, why);
    if (gone.size > GONE_REMEMBERED) gone.delete(gone.keys().next().value as number);
  };
  const copyOf = (v: unknown, declared: string | undefined, earlier: KeptValue | undefined): KeptValue => {
    const info = context.agent.valueInfo(v, declared);
    const source = isTensor(v) ? v.dataId : undefined;
    // A tensor is immutable: the same data at a later stop of the invocation is the copy already made.
    if (source && earlier?.source === source) return earlier;
    return { info, shape: [...info.shape], source, copy: numericCopy(context, v, info) };
  };
  return {
    keep(entry) {
      const earlier = kept.get(entry.id);
      const s = entry.start();
      const side = (name: Side, declared: readonly string[] | undefined) => valuesOf(entry, name).map((v, i) => copyOf(v, declared?.[i], earlier?.[name][i]));
      let stop: KeptStop;
      try {
        const inputs = side('inputs', s.Tin);
        const outputs = side('outputs', s.Tout);
        const size = [...inputs, ...outputs].reduce((n, k) => n + (k.copy?.values.byteLength ?? 0), 0);
        stop = { inputs, outputs, bytes: size };
      } catch (err) {
        forget(entry.id, `its values could not be copied at its stop (${(err as Error).message})`);
        return;
      }
      if (earlier) bytes -= earlier.bytes;
      kept.delete(entry.id);
      kept.set(entry.id, stop);
      gone.delete(entry.id);
      bytes += stop.bytes;
      for (const id of kept.keys()) {
        if (id === entry.id || (kept.size <= KEPT_STOPS_LIMIT && bytes <= KEPT_BYTES_LIMIT)) break;
        forget(
          id,
          `the agent keeps the values of the last ${KEPT_STOPS_LIMIT} stops (${KEPT_BYTES_LIMIT / 2 ** 20} MiB at most), and later stops took its place`,
        );
      }
    },
    diff(a, b, side, index) {
      const what = `${side === 'inputs' ? 'input' : 'output'} ${index}`;
      const of = (id: number): KeptValue | string => {
        const stop = kept.get(id);
        if (!stop) {
          const why = gone.get(id) ?? 'the program never stopped in it in this session (values are kept only of invocations it stopped in)';
          return `invocation ${id}'s values are not kept: ${why}`;
        }
        return stop[side][index] ?? `invocation ${id} has no ${what} (it has ${stop[side].length} ${side})`;
      };
      const x = of(a);
      const y = of(b);
      if (typeof x === 'string') return { error: x };
      if (typeof y === 'string') return { error: y };
      return diffKept({ id: a, kept: x }, { id: b, kept: y }, side, index);
    },
  };
}

/** The numeric values of a tensor, NdArray, typed array or JS literal, copied (strided past the per-value limit); undefined for anything else. */
function numericCopy(context: AgentContext, v: unknown, info: ValueInfo): NumericCopy | undefined {
  if (info.opaque || info.disposed || info.dtype === 'string' || info.dtype === 'complex64' || info.size === 0) return undefined;
  let data: ArrayLike<unknown>;
  if (isTensor(v)) data = context.untraced(() => v.dataSync());
  else if (isNdArray(v)) data = v.data;
  else if (ArrayBuffer.isView(v)) data = v as unknown as ArrayLike<unknown>;
  else data = context.agent.slice(v, 0, info.size);
  const typed = ArrayBuffer.isView(data) && !(data instanceof BigInt64Array || data instanceof BigUint64Array);
  const perValue = typed ? (data as unknown as Float32Array).BYTES_PER_ELEMENT : 8;
  const stride = Math.max(1, Math.ceil((data.length * perValue) / KEPT_VALUE_BYTES_LIMIT));
  const count = Math.ceil(data.length / stride);
  if (typed && stride === 1) return { values: (data as unknown as Float32Array).slice(), stride };
  const values = typed ? new (data.constructor as Float32ArrayConstructor)(count) : new Float64Array(count);
  for (let k = 0; k < count; k++) {
    const x = data[k * stride];
    values[k] = typeof x === 'boolean' ? (x ? 1 : 0) : Number(x);
  }
  return { values, stride };
}
