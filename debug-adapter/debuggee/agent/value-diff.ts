/**
 * The comparison of one input or output at two stops (`tensorDiff`), from the copies stop-copies.ts
 * kept: shape and dtype changes, and where both are numeric with one shape, the element-wise Δ
 * (b − a): how many changed, the largest |Δ| and where, NaN/Inf that appeared or went, and the Δ
 * map to draw (exact up to DELTA_MAP_LIMIT², else tiled). Plain arithmetic over typed arrays: no
 * tensor is made.
 */
import { DELTA_MAP_LIMIT, type DeltaMap, type DiffSide, type ElementwiseDiff, type LargestDelta, type TensorDiff } from '../agent-diffs.js';
import type { Side, ValueInfo } from '../agent-protocol.js';

/** A value's numbers as kept: every `stride`-th of its flat values. */
export interface NumericCopy {
  readonly values: Float32Array | Float64Array | Int32Array | Uint8Array | Int8Array | Int16Array | Uint16Array | Uint32Array;
  readonly stride: number;
}

/** A value as kept at a stop: its summary then, and its numbers where it has them. */
export interface KeptValue {
  readonly info: ValueInfo;
  readonly shape: readonly number[];
  /** The tensor's data the copy was made of (a later stop with the same data reuses it). */
  readonly source: object | undefined;
  readonly copy: NumericCopy | undefined;
}

const shapeText = (shape: readonly number[]) => `[${shape.join(',')}]`;

/** Why two kept values cannot be compared element-wise; undefined where they can. */
function notComparable(a: KeptValue, b: KeptValue): string | undefined {
  if (shapeText(a.shape) !== shapeText(b.shape)) return `the shape changed from ${shapeText(a.shape)} to ${shapeText(b.shape)}: statistics only`;
  for (const [k, name] of [
    [a, 'first'],
    [b, 'second'],
  ] as const) {
    if (k.copy) continue;
    if (k.info.opaque) return `the ${name} is a ${k.info.kind}, not a tensor value`;
    if (k.info.disposed) return `the ${name} was disposed before its stop: its values were gone`;
    if (k.info.size === 0) return 'no values to compare (empty)';
    return `the ${name} is not numeric (${k.info.dtype}): statistics only`;
  }
  if (a.copy!.stride !== b.copy!.stride) return `the two were kept as samples of different strides (${a.copy!.stride}, ${b.copy!.stride}): statistics only`;
  return undefined;
}

export function diffKept(a: { id: number; kept: KeptValue }, b: { id: number; kept: KeptValue }, side: Side, index: number): TensorDiff {
  const sideOf = (s: { id: number; kept: KeptValue }): DiffSide => ({
    invocationId: s.id,
    info: s.kept.info,
    ...(s.kept.copy ? { stride: s.kept.copy.stride } : {}),
  });
  const diff: TensorDiff = {
    side,
    index,
    a: sideOf(a),
    b: sideOf(b),
    shapeChanged: shapeText(a.kept.shape) !== shapeText(b.kept.shape),
    dtypeChanged: a.kept.info.dtype !== b.kept.info.dtype,
  };
  const why = notComparable(a.kept, b.kept);
  if (why) return { ...diff, notElementwise: why };
  return { ...diff, elementwise: elementwise(a.kept.shape, a.kept.copy!, b.kept.copy!) };
}

/** A map as it is made: its cells as numbers. */
type MapCells = DeltaMap & { values: number[] };

/** Rank of a Δ in a tile: NaN first, then ±Inf, then by magnitude. */
const rank = (d: number) => (Number.isNaN(d) ? 3 : d === Infinity || d === -Infinity ? 2 : 1);

/** The element-wise Δ of two copies of one shape and stride. */
function elementwise(shape: readonly number[], a: NumericCopy, b: NumericCopy): ElementwiseDiff {
  const map = emptyMap(shape);
  const n = Math.min(a.values.length, b.values.length);
  const { stride } = a;
  const out: ElementwiseDiff = { compared: n, changed: 0, nanAppeared: 0, nanGone: 0, infAppeared: 0, infGone: 0, stride, map };
  let largest: { abs: number; flat: number; a: number; b: number } | undefined;
  for (let k = 0; k < n; k++) {
    const x = a.values[k]!;
    const y = b.values[k]!;
    const xNaN = Number.isNaN(x);
    const yNaN = Number.isNaN(y);
    if (x === y || (xNaN && yNaN)) continue;
    out.changed++;
    const xInf = x === Infinity || x === -Infinity;
    const yInf = y === Infinity || y === -Infinity;
    if (!xNaN && yNaN) out.nanAppeared++;
    if (xNaN && !yNaN) out.nanGone++;
    if (!xInf && yInf) out.infAppeared++;
    if (xInf && !yInf) out.infGone++;
    const d = y - x;
    const flat = k * stride;
    const abs = Math.abs(d);
    if (abs < Infinity && (!largest || abs > largest.abs)) largest = { abs, flat, a: x, b: y };
    mark(map, flat, d);
  }
  if (largest)
    out.largest = { abs: largest.abs, flatIndex: largest.flat, coords: coordsOf(shape, largest.flat), a: largest.a, b: largest.b } satisfies LargestDelta;
  return out;
}

/** The map of a shape's 2-D view (last axis as columns), all Δ 0. */
function emptyMap(shape: readonly number[]): MapCells {
  const size = shape.reduce((p, d) => p * d, 1);
  const viewCols = shape.length > 0 ? shape[shape.length - 1]! : 1;
  const viewRows = viewCols > 0 ? size / viewCols : 0;
  const tileRows = Math.max(1, Math.ceil(viewRows / DELTA_MAP_LIMIT));
  const tileCols = Math.max(1, Math.ceil(viewCols / DELTA_MAP_LIMIT));
  const rows = Math.ceil(viewRows / tileRows);
  const cols = Math.ceil(viewCols / tileCols);
  return { viewRows, viewCols, tileRows, tileCols, rows, cols, values: new Array<number>(rows * cols).fill(0) };
}

/** A Δ into its cell of the map: the cell keeps the Δ of highest rank (NaN, ±Inf, then magnitude). */
function mark(map: MapCells, flat: number, d: number): void {
  const row = Math.floor(flat / map.viewCols);
  const col = flat - row * map.viewCols;
  const cell = Math.floor(row / map.tileRows) * map.cols + Math.floor(col / map.tileCols);
  const held = map.values[cell]!;
  const r = rank(d);
  const h = rank(held);
  if (r > h || (r === h && r === 1 && Math.abs(d) > Math.abs(held))) map.values[cell] = d;
}

function coordsOf(shape: readonly number[], flat: number): number[] {
  const coords = new Array<number>(shape.length).fill(0);
  let rest = flat;
  for (let i = shape.length - 1; i >= 0; i--) {
    const d = shape[i]!;
    coords[i] = d > 0 ? rest % d : 0;
    rest = d > 0 ? Math.floor(rest / d) : 0;
  }
  return coords;
}
