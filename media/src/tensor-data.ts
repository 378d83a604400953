/**
 * Values of one tensor, fetched by slices: only the ranges that cover what is shown, answered
 * from the summary's preview when it covers them, and kept in a small cache.
 */
import type { BytesRequest, HostChannel } from './messaging.js';
import type { Side, SliceOwner, TensorBytes, TensorInfo } from './protocol.js';
import { fromWire, type Value } from './format.js';
import { coveringRanges, type Matrix, type Region } from './slicing.js';

/** The debugger answers at most this many values per request. */
export const MAX_REQUEST = 1_000_000;
/** Runs closer than this are fetched in one request. */
const MERGE_GAP = 2048;
const CACHE_SLICES = 48;

export interface TensorSource {
  readonly sessionId: string;
  /** The invocation or the node whose input or output it is. */
  readonly owner: SliceOwner;
  readonly side: Side;
  readonly index: number;
  readonly info: TensorInfo;
  /** False when the session ended, the tensor is disposed or its node is past: only the preview is there. */
  readonly fetchable: boolean;
  /** Why it cannot be fetched, when it is not and neither the session nor a disposal says why. */
  readonly unavailable?: string;
}

/** A rectangle of the matrix, row-major. */
export interface RegionData {
  readonly region: Region;
  readonly values: (Value | undefined)[];
  /** The same as numbers (NaN where a value is not a number), for the heatmap and histogram. */
  readonly numeric: Float64Array;
  /** Whether the values are numbers (or booleans) rather than strings. */
  readonly isNumeric: boolean;
  /** Set when some values could not be fetched (then they are undefined). */
  readonly problem?: string;
}

export class TensorData {
  private readonly cache = new Map<string, Promise<readonly Value[]>>();

  constructor(private readonly channel: HostChannel) {}

  async region(source: TensorSource, m: Matrix, region: Region): Promise<RegionData> {
    const ranges = coveringRanges(m, region, MERGE_GAP, MAX_REQUEST);
    const fetched = await Promise.allSettled(ranges.map((r) => this.range(source, r.start, r.count)));
    const chunks: { start: number; values: readonly Value[] }[] = [];
    let problem: string | undefined;
    const preview = previewOf(source.info);
    fetched.forEach((f, k) => {
      const { start, count } = ranges[k]!;
      if (f.status === 'fulfilled') {
        chunks.push({ start, values: f.value });
      } else {
        problem ??= (f.reason as Error).message;
        // What the summary's preview knows of it is still worth showing.
        if (start < preview.length) chunks.push({ start, values: preview.slice(start, start + count) });
      }
    });
    const width = region.c1 - region.c0;
    const n = (region.r1 - region.r0) * width;
    const values = new Array<Value | undefined>(n);
    const numeric = new Float64Array(n).fill(NaN);
    let strings = 0;
    let present = 0;
    let wanted = 0;
    for (let r = region.r0; r < region.r1; r++) {
      for (let c = region.c0; c < region.c1; c++) {
        const flat = m.flatIndex(r, c);
        if (flat < 0) continue;
        wanted++;
        const v = lookup(chunks, flat);
        const k = (r - region.r0) * width + (c - region.c0);
        values[k] = v;
        if (v === undefined) continue;
        present++;
        if (typeof v === 'string') strings++;
        numeric[k] = toNumber(v);
      }
    }
    const isNumeric = source.info.dtype !== 'string' && (present === 0 || strings < present);
    if (!problem && present < wanted) problem = source.fetchable ? 'some values did not arrive' : unavailable(source);
    return { region, values, numeric, isNumeric, problem };
  }

  /** Flat values [start, start+count) as one row (an image's whole [H, W, C] block). */
  block(source: TensorSource, start: number, count: number): Promise<RegionData> {
    const row: Matrix = {
      rows: 1,
      cols: count,
      flatIndex: (_r, c) => start + c,
      rowLabel: () => '',
      colLabel: String,
      description: `[${start}:${start + count}]`,
    };
    return this.region(source, row, { r0: 0, r1: 1, c0: 0, c1: count });
  }

  /** Flat values [start, start+count), from the preview, the cache or the debugger. */
  /** Bytes of the value as stored, from `offset` (the byte view). */
  bytes(source: TensorSource, offset: number, count: number): Promise<TensorBytes> {
    if (!source.fetchable) return Promise.reject(new Error(source.unavailable ?? 'its bytes can only be read while the program is stopped here'));
    return this.channel.requestBytes({ sessionId: source.sessionId, ...source.owner, side: source.side, index: source.index, offset, count } as BytesRequest);
  }

  range(source: TensorSource, start: number, count: number): Promise<readonly Value[]> {
    const preview = source.info.preview ? previewOf(source.info) : undefined;
    const end = Math.min(start + count, source.info.size);
    if (preview && end <= preview.length) return Promise.resolve(preview.slice(start, end));
    const key = `${source.sessionId}\u0000${ownerKey(source.owner)}\u0000${source.side}\u0000${source.index}\u0000${start}\u0000${count}`;
    let p = this.cache.get(key);
    if (p) {
      this.cache.delete(key);
      this.cache.set(key, p);
      return p;
    }
    if (!source.fetchable) {
      // What the preview has of it, and no more.
      if (preview && start < preview.length) return Promise.resolve(preview.slice(start, end));
      return Promise.reject(new Error(unavailable(source)));
    }
    p = this.channel
      .requestSlice({ sessionId: source.sessionId, ...source.owner, side: source.side, index: source.index, start, count })
      .then((slice) => slice.values.map(fromWire));
    p.catch(() => this.cache.delete(key));
    this.cache.set(key, p);
    while (this.cache.size > CACHE_SLICES) this.cache.delete(this.cache.keys().next().value!);
    return p;
  }

  /** Drops what was fetched for an invocation or node (its values may have changed at a later stop). */
  forget(sessionId: string, owner: SliceOwner): void {
    const prefix = `${sessionId}\u0000${ownerKey(owner)}\u0000`;
    for (const key of [...this.cache.keys()]) if (key.startsWith(prefix)) this.cache.delete(key);
  }
}

/** The summary's first values, NaN and ±Infinity as numbers again. */
function previewOf(info: TensorInfo): readonly Value[] {
  return (info.preview ?? []).map(fromWire);
}

function ownerKey(owner: SliceOwner): string {
  return 'invocationId' in owner ? `#${owner.invocationId}` : `${owner.graph}\u0000${owner.node}`;
}

function unavailable(source: TensorSource): string {
  const shown = source.info.preview?.length ?? 0;
  const why = source.info.disposed ? 'the tensor was disposed' : (source.unavailable ?? 'the debug session ended');
  return `${why}: values can no longer be fetched${shown ? ` (the first ${shown} are known from the summary)` : ''}`;
}

/** The value at a flat index; chunks are sorted by start and do not overlap. */
function lookup(chunks: readonly { start: number; values: readonly Value[] }[], flat: number): Value | undefined {
  let lo = 0;
  let hi = chunks.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const ch = chunks[mid]!;
    if (flat < ch.start) hi = mid - 1;
    else if (flat >= ch.start + ch.values.length) lo = mid + 1;
    else return ch.values[flat - ch.start];
  }
  return undefined;
}

export function toNumber(v: Value): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (v === null) return NaN;
  if (v === 'Infinity' || v === '∞') return Infinity;
  if (v === '-Infinity' || v === '-∞') return -Infinity;
  return NaN;
}
