/**
 * Comparing two stopped invocations (the inspector's Compare): what the agent keeps of each stop's
 * inputs and outputs, and what `tensorDiff` answers for one input or output of two of them. Types and
 * limits only; agent-protocol.ts gives them with the rest of the contract, agent/stop-copies.ts and
 * agent/value-diff.ts implement them.
 */
import type { FlatValue, Side, ValueInfo } from './agent-values.js';

/** The agent keeps the values of this many stopped invocations at most (the oldest go first). */
export const KEPT_STOPS_LIMIT = 16;
/** And this many bytes of copies at most, all kept stops together (the oldest go first). */
export const KEPT_BYTES_LIMIT = 256 * 1024 * 1024;
/** One value larger than this many bytes is kept as a strided sample (every k-th value), flagged `sampled`. */
export const KEPT_VALUE_BYTES_LIMIT = 64 * 1024 * 1024;
/** The Δ map is exact up to this many rows and columns; a larger 2-D view is tiled down to it. */
export const DELTA_MAP_LIMIT = 256;

/** One side of a comparison: the invocation, its summary at the stop, and how its values were kept. */
export interface DiffSide {
  invocationId: number;
  info: ValueInfo;
  /** Every `stride`-th value was kept (1: all of them); absent where no values were kept (strings, opaque values). */
  stride?: number;
}

/**
 * The Δ (b − a) drawn: the tensor as a 2-D view (its last axis as columns, the others flattened into
 * rows), tiled to at most DELTA_MAP_LIMIT × DELTA_MAP_LIMIT cells. A cell of a tiled map holds its
 * tile's Δ of largest magnitude (NaN first, then ±Inf: neither is hidden by a number).
 */
export interface DeltaMap {
  /** The 2-D view's size. */
  viewRows: number;
  viewCols: number;
  /** Elements of the view per map cell (1 × 1: the map is the exact Δ). */
  tileRows: number;
  tileCols: number;
  rows: number;
  cols: number;
  /**
   * rows × cols Δs, row-major (numbers; NaN and ±Inf as NonFiniteValue on the wire); 0 where a
   * cell holds no compared value (a tile a sampled copy skipped).
   */
  values: FlatValue[];
}

/** Where |Δ| is largest (over finite Δs). */
export interface LargestDelta {
  abs: number;
  flatIndex: number;
  coords: number[];
  a: number;
  b: number;
}

/** The element-wise comparison, where both sides are numeric and have one shape. */
export interface ElementwiseDiff {
  /** Values compared: all, or those of the sample where a side was kept sampled. */
  compared: number;
  /** Compared values that differ (NaN and NaN count as the same). */
  changed: number;
  /** Absent when no finite Δ is non-zero. */
  largest?: LargestDelta;
  nanAppeared: number;
  nanGone: number;
  infAppeared: number;
  infGone: number;
  /** Every `stride`-th value was compared (1: every value). */
  stride: number;
  map: DeltaMap;
}

/** The `tensorDiff` answer: both sides' summaries, what changed in shape and dtype, and the element-wise Δ where it can be made. */
export interface TensorDiff {
  side: Side;
  index: number;
  a: DiffSide;
  b: DiffSide;
  shapeChanged: boolean;
  dtypeChanged: boolean;
  elementwise?: ElementwiseDiff;
  /** Why there is no element-wise comparison, in words ("the shape changed from [2,3] to [3,2]"). */
  notElementwise?: string;
}
