/*
 * Memory (DAP readMemory): a value's backing bytes as stored (little-endian), read page by page:
 * a tensor's pages are slices of it (only the page is copied out of the backend), a typed
 * array's or an NdArray's a view of its buffer. Pins are weak: a value the program dropped reads
 * as gone.
 */
import type { DebugAgent } from '../agent-protocol.js';
import type { AgentContext } from './context.js';
import { arrayName, isNdArray, isTensor, type TensorLike } from './kinds.js';
import type { ValueReads } from './values.js';

/** Bytes per element of tfjs's storage by dtype (bool is a Uint8Array, complex64 re/im float32 pairs). */
const TENSOR_BYTES: Record<string, number> = { float32: 4, int32: 4, bool: 1, complex64: 8 };
/** How many values stay pinned (the oldest go first). */
const PINS_KEPT = 1000;

/** Why a value has no bytes to read; undefined where it has. */
function noBytes(v: unknown): string | undefined {
  if (isTensor(v)) {
    if (v.isDisposed) return 'the tensor is disposed';
    if (v.dtype === 'string') return 'a string tensor has no byte buffer (its values are JS strings)';
    return undefined;
  }
  if (isNdArray(v)) return ArrayBuffer.isView(v.data) ? undefined : 'this NdArray holds strings: it has no byte buffer';
  if (ArrayBuffer.isView(v)) return undefined;
  return 'not a tensor, NdArray or typed array';
}

const base64 = (bytes: Uint8Array, from: number, length: number): string => Buffer.from(bytes.buffer, bytes.byteOffset + from, length).toString('base64');

/** Bytes [offset, offset + count) of a tensor, copying out of the backend only the elements they lie in. */
function tensorBytes(context: AgentContext, v: TensorLike, offset: number, count: number) {
  const bpe = TENSOR_BYTES[v.dtype] ?? 4;
  const byteLength = v.size * bpe;
  const start = Math.min(Math.max(0, offset), byteLength);
  const end = Math.min(byteLength, Math.max(start, offset + count));
  if (end <= start) return { offset: start, data: '', byteLength, dtype: v.dtype };
  const first = Math.floor(start / bpe);
  const last = Math.ceil(end / bpe);
  return context.untraced(() => {
    const whole = first === 0 && last === v.size;
    const flat = whole ? undefined : v.reshape([-1]);
    const part = flat?.slice([first], [last - first]);
    try {
      const view = (part ?? v).dataSync() as unknown as ArrayBufferView;
      const bytes = new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
      return { offset: start, data: base64(bytes, start - first * bpe, end - start), byteLength, dtype: v.dtype };
    } finally {
      part?.dispose();
      flat?.dispose();
    }
  });
}

export function createMemory(context: AgentContext, reads: ValueReads): Pick<DebugAgent, 'memoryPin' | 'memoryRead'> {
  const pins = new Map<number, WeakRef<object>>();
  let nextPin = 1;
  return {
    memoryPin(v) {
      const why = noBytes(v);
      if (why) return { error: why };
      const pin = nextPin++;
      pins.set(pin, new WeakRef(v as object));
      if (pins.size > PINS_KEPT) pins.delete(pins.keys().next().value!);
      return pin;
    },
    memoryRead(pin, offset, count) {
      const v = pins.get(pin)?.deref();
      if (v === undefined) return { error: 'the value is no longer there (the program dropped it)' };
      const why = noBytes(v);
      if (why) return { error: why };
      if (isTensor(v)) return tensorBytes(context, v, offset, count);
      const view = (isNdArray(v) ? v.data : v) as ArrayBufferView;
      const bytes = new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
      const start = Math.min(Math.max(0, offset), bytes.length);
      const end = Math.min(bytes.length, Math.max(start, offset + count));
      const dtype = isNdArray(v) ? v.dtype : (reads.arrayDType(v) ?? arrayName(v) ?? '');
      return { offset: start, data: base64(bytes, start, end - start), byteLength: bytes.length, dtype };
    },
  };
}
