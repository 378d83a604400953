/**
 * Cutting an N-D tensor into the 2-D matrix the grid and heatmap show: two axes as rows and
 * columns, an index for each other axis. A 1-D tensor wraps into rows of `pageCols` values; a
 * scalar is a 1×1 matrix. Also: which contiguous flat ranges cover a rectangle of that matrix.
 */
import type { ViewState } from './state.js';

export interface Matrix {
  readonly rows: number;
  readonly cols: number;
  /** Flat (row-major) index of cell (r, c), or -1 where the matrix has no element. */
  flatIndex(r: number, c: number): number;
  rowLabel(r: number): string;
  colLabel(c: number): string;
  /** e.g. "[3, :, :]" or "[:]". */
  readonly description: string;
}

export interface Region {
  readonly r0: number;
  readonly r1: number;
  readonly c0: number;
  readonly c1: number;
}

export function regionSize(r: Region): number {
  return (r.r1 - r.r0) * (r.c1 - r.c0);
}

export function strides(shape: readonly number[]): number[] {
  const out = new Array<number>(shape.length);
  let s = 1;
  for (let i = shape.length - 1; i >= 0; i--) {
    out[i] = s;
    s *= shape[i]!;
  }
  return out;
}

/** A valid view for this shape: axes in range and distinct, indices and offsets clamped. */
export function normalizeView(shape: readonly number[], view: ViewState | undefined, pageRows: number, pageCols: number): ViewState {
  const rank = shape.length;
  let rowAxis = view?.rowAxis ?? Math.max(0, rank - 2);
  let colAxis = view?.colAxis ?? Math.max(0, rank - 1);
  if (rank >= 2) {
    if (!(rowAxis >= 0 && rowAxis < rank)) rowAxis = rank - 2;
    if (!(colAxis >= 0 && colAxis < rank)) colAxis = rank - 1;
    if (rowAxis === colAxis) colAxis = rowAxis === rank - 1 ? rank - 2 : rank - 1;
  } else {
    rowAxis = 0;
    colAxis = 0;
  }
  const fixed = shape.map((d, i) => clamp(Math.trunc(view?.fixed[i] ?? 0), 0, Math.max(0, d - 1)));
  const m = matrixOf(shape, { rowAxis, colAxis, fixed, rowOffset: 0, colOffset: 0 }, pageCols);
  const rowOffset = alignDown(clamp(view?.rowOffset ?? 0, 0, Math.max(0, m.rows - 1)), pageRows);
  const colOffset = alignDown(clamp(view?.colOffset ?? 0, 0, Math.max(0, m.cols - 1)), pageCols);
  const normalized: ViewState = { rowAxis, colAxis, fixed, rowOffset, colOffset };
  // How an image-shaped tensor is shown (media/src/image.ts decides whether it is one).
  const channels = shape[rank - 1] ?? 0;
  const channel = Number.isInteger(view?.channel) && view!.channel! >= 0 && view!.channel! < channels ? view!.channel : undefined;
  const display = view?.display === 'image' || view?.display === 'grid' ? view.display : undefined;
  return { ...normalized, ...(display ? { display } : {}), ...(channel !== undefined ? { channel } : {}) };
}

export function matrixOf(shape: readonly number[], view: ViewState, pageCols: number): Matrix {
  const size = shape.reduce((a, b) => a * b, 1);
  if (shape.length === 0) {
    return { rows: 1, cols: 1, flatIndex: () => 0, rowLabel: () => '', colLabel: () => '', description: 'scalar' };
  }
  if (shape.length === 1) {
    const width = Math.max(1, Math.min(size, pageCols));
    return {
      rows: Math.ceil(size / width),
      cols: size === 0 ? 0 : width,
      flatIndex: (r, c) => (r * width + c < size ? r * width + c : -1),
      rowLabel: (r) => `[${r * width}]`,
      colLabel: (c) => `+${c}`,
      description: '[:]',
    };
  }
  const st = strides(shape);
  const { rowAxis, colAxis } = view;
  let base = 0;
  for (let i = 0; i < shape.length; i++) if (i !== rowAxis && i !== colAxis) base += (view.fixed[i] ?? 0) * st[i]!;
  const rs = st[rowAxis]!;
  const cs = st[colAxis]!;
  const parts = shape.map((_, i) => (i === rowAxis ? ':r' : i === colAxis ? ':c' : String(view.fixed[i] ?? 0)));
  return {
    rows: size === 0 ? 0 : shape[rowAxis]!,
    cols: size === 0 ? 0 : shape[colAxis]!,
    flatIndex: (r, c) => base + r * rs + c * cs,
    rowLabel: (r) => String(r),
    colLabel: (c) => String(c),
    description: `[${parts.map((p) => (p.startsWith(':') ? ':' : p)).join(', ')}]`,
  };
}

export function pageRegion(m: Matrix, view: ViewState, pageRows: number, pageCols: number): Region {
  return {
    r0: view.rowOffset,
    r1: Math.min(m.rows, view.rowOffset + pageRows),
    c0: view.colOffset,
    c1: Math.min(m.cols, view.colOffset + pageCols),
  };
}

export interface Range {
  readonly start: number;
  readonly count: number;
}

/**
 * Contiguous flat ranges covering every element of a region. Nearby runs are merged when the gap
 * is at most `mergeGap` values (one request with a few extra values beats many tiny ones); no
 * range is longer than `maxCount`.
 */
export function coveringRanges(m: Matrix, region: Region, mergeGap: number, maxCount: number): Range[] {
  const indices: number[] = [];
  let ascending = true;
  for (let r = region.r0; r < region.r1; r++) {
    for (let c = region.c0; c < region.c1; c++) {
      const i = m.flatIndex(r, c);
      if (i < 0) continue;
      if (indices.length > 0 && i < indices[indices.length - 1]!) ascending = false;
      indices.push(i);
    }
  }
  if (indices.length === 0) return [];
  // Row-major slices (and an image's whole block) come in order: no sort needed.
  if (!ascending) indices.sort((a, b) => a - b);
  const ranges: Range[] = [];
  let start = indices[0]!;
  let end = start + 1;
  for (let k = 1; k < indices.length; k++) {
    const i = indices[k]!;
    if (i < end) continue;
    if (i - end <= mergeGap && i + 1 - start <= maxCount) {
      end = i + 1;
    } else {
      ranges.push({ start, count: end - start });
      start = i;
      end = i + 1;
    }
  }
  ranges.push({ start, count: end - start });
  return ranges;
}

function clamp(x: number, lo: number, hi: number): number {
  return Number.isFinite(x) ? Math.min(hi, Math.max(lo, x)) : lo;
}

function alignDown(x: number, step: number): number {
  return Math.floor(x / step) * step;
}
