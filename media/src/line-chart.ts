/**
 * A line chart in plain SVG, for every chart of the inspector (a 1-D tensor, a pinned expression
 * over stops, the training loss per batch). No charting library: the ones that fit a webview's
 * strict CSP (no inline styles) are larger than the page itself, and what is drawn here is lines,
 * axes and marks. Series of any length draw as at most ~4 points per pixel column (each column's
 * first, lowest, highest and last point), so 10,000 points cost what 1,200 do. NaN and ±Infinity
 * break the line and are marked on the plot's edge (NaN at the bottom, +Inf at the top, −Inf at the
 * bottom, each its own mark), never silently skipped.
 *
 * What is drawn is readable back from the SVG: the path's `data-points` (points given) and the
 * plot's `data-domain` ("x0 x1 y0 y1") and `data-plot` ("left top width height") map any coordinate
 * to its value (`chartValueAt`), which the webview tests use to assert drawn values.
 */
import { svg } from './svg.js';
import { formatNumber } from './format.js';

export interface ChartPoint {
  readonly x: number;
  /** NaN and ±Infinity are drawn as marks, not on the line. */
  readonly y: number;
}

export interface ChartSeries {
  readonly name: string;
  /** Sorted by x. */
  readonly points: readonly ChartPoint[];
  /** Which of the chart's colours (CSS `.series-0` … `.series-3`); the series' index by default. */
  readonly tone?: number;
}

export interface LineChartOptions {
  /** What the chart shows, for screen readers and the chart's title. */
  readonly label: string;
  readonly xLabel: string;
  readonly yLabel?: string;
  readonly width?: number;
  readonly height?: number;
  /** An x to mark with a vertical line (the current stop, the batch paused in). */
  readonly highlightX?: number;
  /** A click on the plot: the series' point nearest in x to where it was clicked. */
  readonly onPoint?: (seriesIndex: number, pointIndex: number) => void;
}

const MARGIN = { left: 52, right: 10, top: 8, bottom: 30 } as const;
const TICKS = 5;
/** Drawn from a lone point's position: a circle of radius 3 around it (two arcs), the pen back where it started. */
const LONE_POINT = 'm-3 0a3 3 0 1 0 6 0a3 3 0 1 0 -6 0m3 0';

interface Scale {
  readonly x0: number;
  readonly x1: number;
  readonly y0: number;
  readonly y1: number;
  readonly left: number;
  readonly top: number;
  readonly width: number;
  readonly height: number;
}

export function lineChart(series: readonly ChartSeries[], options: LineChartOptions): SVGSVGElement {
  const width = options.width ?? 360;
  const height = options.height ?? 160;
  const scale = scaleOf(series, width, height, options.highlightX);
  const root = svg('svg', {
    class: 'line-chart',
    width,
    height,
    viewBox: `0 0 ${width} ${height}`,
    role: 'img',
    'aria-label': options.label,
    'data-domain': `${scale.x0} ${scale.x1} ${scale.y0} ${scale.y1}`,
    'data-plot': `${scale.left} ${scale.top} ${scale.width} ${scale.height}`,
  });
  root.append(svg('title', {}, options.label), axes(scale, options));
  if (options.highlightX !== undefined && options.highlightX >= scale.x0 && options.highlightX <= scale.x1) {
    const x = px(scale, options.highlightX);
    root.append(svg('line', { class: 'highlight', x1: x, x2: x, y1: scale.top, y2: scale.top + scale.height, 'data-x': options.highlightX }));
  }
  series.forEach((s, i) => {
    const tone = s.tone ?? i;
    root.append(
      svg('path', { class: `series series-${tone % 4}`, d: pathOf(s.points, scale), 'data-series': s.name, 'data-points': s.points.length }),
      nonFiniteMarks(s, scale, tone),
    );
  });
  if (options.onPoint) root.append(clickLayer(series, scale, options.onPoint));
  return root;
}

/** The value a point of the SVG (in its own coordinates) stands for. */
export function chartValueAt(domain: readonly number[], plot: readonly number[], sx: number, sy: number): { x: number; y: number } {
  const [x0 = 0, x1 = 1, y0 = 0, y1 = 1] = domain;
  const [left = 0, top = 0, width = 1, height = 1] = plot;
  return { x: x0 + ((sx - left) / width) * (x1 - x0), y: y1 - ((sy - top) / height) * (y1 - y0) };
}

/** The domain of every point, and of `highlightX` too: the batch stopped in has no logged point yet, and is still marked. */
function scaleOf(series: readonly ChartSeries[], width: number, height: number, highlightX?: number): Scale {
  let x0 = highlightX !== undefined && Number.isFinite(highlightX) ? highlightX : Infinity;
  let x1 = highlightX !== undefined && Number.isFinite(highlightX) ? highlightX : -Infinity;
  let y0 = Infinity;
  let y1 = -Infinity;
  for (const s of series) {
    for (const p of s.points) {
      if (p.x < x0) x0 = p.x;
      if (p.x > x1) x1 = p.x;
      if (!Number.isFinite(p.y)) continue;
      if (p.y < y0) y0 = p.y;
      if (p.y > y1) y1 = p.y;
    }
  }
  if (!(x0 <= x1)) [x0, x1] = [0, 1];
  if (x0 === x1) [x0, x1] = [x0 - 0.5, x1 + 0.5];
  if (!(y0 <= y1)) [y0, y1] = [0, 1];
  if (y0 === y1) [y0, y1] = y0 === 0 ? [-1, 1] : [y0 - Math.abs(y0) / 2, y1 + Math.abs(y1) / 2];
  return { x0, x1, y0, y1, left: MARGIN.left, top: MARGIN.top, width: width - MARGIN.left - MARGIN.right, height: height - MARGIN.top - MARGIN.bottom };
}

function px(s: Scale, x: number): number {
  return round(s.left + ((x - s.x0) / (s.x1 - s.x0)) * s.width);
}

function py(s: Scale, y: number): number {
  return round(s.top + ((s.y1 - y) / (s.y1 - s.y0)) * s.height);
}

function round(v: number): number {
  return Math.round(v * 100) / 100;
}

/**
 * The line, broken at non-finite points; where several points share a pixel column only the
 * column's first, lowest, highest and last are drawn (what the eye sees is the same line).
 */
function pathOf(points: readonly ChartPoint[], s: Scale): string {
  const out: string[] = [];
  let pen = false;
  let column: { x: number; first: number; low: number; high: number; last: number } | undefined;
  const flush = () => {
    if (!column) return;
    const ys = [column.first, column.low, column.high, column.last];
    for (const y of ys.filter((y, i) => i === 0 || y !== ys[i - 1])) {
      out.push(`${pen ? 'L' : 'M'}${column.x} ${y}`);
      pen = true;
    }
    column = undefined;
  };
  for (const p of points) {
    if (!Number.isFinite(p.y)) {
      flush();
      pen = false;
      continue;
    }
    const x = Math.round(px(s, p.x));
    const y = py(s, p.y);
    if (column && column.x === x) {
      column.low = Math.max(column.low, y);
      column.high = Math.min(column.high, y);
      column.last = y;
      continue;
    }
    flush();
    column = { x, first: y, low: y, high: y, last: y };
  }
  flush();
  // A point alone between breaks (the one after a NaN, a single epoch) has no segment to draw: a ring of radius 3 around it.
  return out.map((move, i) => (move.startsWith('M') && !out[i + 1]?.startsWith('L') ? `${move}${LONE_POINT}` : move)).join('') || 'M0 0';
}

/** One mark per pixel column and kind: NaN (×, bottom), +Inf (▲, top), −Inf (▼, bottom). */
function nonFiniteMarks(series: ChartSeries, s: Scale, tone: number): SVGGElement {
  const group = svg('g', { class: `non-finite series-${tone % 4}` });
  const seen = new Set<string>();
  let count = 0;
  for (const p of series.points) {
    if (Number.isFinite(p.y)) continue;
    count++;
    const kind = Number.isNaN(p.y) ? 'NaN' : p.y > 0 ? '+Inf' : '-Inf';
    const x = Math.round(px(s, p.x));
    if (seen.has(`${kind}${x}`)) continue;
    seen.add(`${kind}${x}`);
    const y = kind === '+Inf' ? s.top + 4 : s.top + s.height - 4;
    const mark =
      kind === 'NaN'
        ? svg('path', { class: 'mark nan', d: `M${x - 3} ${y - 3}L${x + 3} ${y + 3}M${x - 3} ${y + 3}L${x + 3} ${y - 3}`, 'data-x': p.x, 'data-kind': kind })
        : svg('path', {
            class: `mark inf`,
            d: kind === '+Inf' ? `M${x - 3} ${y + 2}L${x + 3} ${y + 2}L${x} ${y - 3}Z` : `M${x - 3} ${y - 2}L${x + 3} ${y - 2}L${x} ${y + 3}Z`,
            'data-x': p.x,
            'data-kind': kind,
          });
    mark.append(svg('title', {}, `${series.name}: ${kind} at ${formatNumber(p.x)}`));
    group.append(mark);
  }
  group.setAttribute('data-count', String(count));
  return group;
}

function axes(s: Scale, options: LineChartOptions): SVGGElement {
  const g = svg('g', { class: 'axes' });
  const bottom = s.top + s.height;
  g.append(
    svg('line', { class: 'axis', x1: s.left, x2: s.left + s.width, y1: bottom, y2: bottom }),
    svg('line', { class: 'axis', x1: s.left, x2: s.left, y1: s.top, y2: bottom }),
  );
  for (const v of niceTicks(s.y0, s.y1, TICKS)) {
    const y = py(s, v);
    g.append(
      svg('line', { class: 'grid', x1: s.left, x2: s.left + s.width, y1: y, y2: y }),
      svg('text', { class: 'tick y', x: s.left - 4, y: y + 3, 'text-anchor': 'end', 'data-value': v }, formatNumber(v)),
    );
  }
  for (const v of niceTicks(s.x0, s.x1, TICKS)) {
    g.append(svg('text', { class: 'tick x', x: px(s, v), y: bottom + 12, 'text-anchor': 'middle', 'data-value': v }, formatNumber(v)));
  }
  g.append(svg('text', { class: 'axis-label x', x: s.left + s.width / 2, y: bottom + 26, 'text-anchor': 'middle' }, options.xLabel));
  if (options.yLabel) g.append(svg('text', { class: 'axis-label y', x: 2, y: s.top + 8 }, options.yLabel));
  return g;
}

/** Round numbers (1, 2 or 5 times a power of ten) between lo and hi, about `count` of them. */
export function niceTicks(lo: number, hi: number, count: number): number[] {
  const span = hi - lo;
  if (!(span > 0) || !Number.isFinite(span)) return [lo];
  const raw = span / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((st) => st >= raw) ?? 10 * power;
  const ticks: number[] = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) ticks.push(Number(v.toPrecision(12)));
  return ticks;
}

/** A transparent layer over the plot: a click picks the nearest point in x of the nearest series in y. */
function clickLayer(series: readonly ChartSeries[], s: Scale, onPoint: (seriesIndex: number, pointIndex: number) => void): SVGRectElement {
  const rect = svg('rect', { class: 'click-layer', x: s.left, y: s.top, width: s.width, height: s.height });
  rect.addEventListener('click', (event) => {
    const box = (rect.ownerSVGElement ?? rect).getBoundingClientRect();
    const at = chartValueAt([s.x0, s.x1, s.y0, s.y1], [s.left, s.top, s.width, s.height], event.clientX - box.left, event.clientY - box.top);
    let best: { series: number; point: number; dy: number } | undefined;
    for (const [i, one] of series.entries()) {
      const point = nearestByX(one.points, at.x);
      if (point < 0) continue;
      const y = one.points[point]!.y;
      const dy = Number.isFinite(y) ? Math.abs(y - at.y) : Infinity;
      if (!best || dy < best.dy) best = { series: i, point, dy };
    }
    if (best) onPoint(best.series, best.point);
  });
  return rect;
}

export function nearestByX(points: readonly ChartPoint[], x: number): number {
  if (points.length === 0) return -1;
  let lo = 0;
  let hi = points.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (points[mid]!.x < x) lo = mid + 1;
    else hi = mid;
  }
  return lo > 0 && Math.abs(points[lo - 1]!.x - x) <= Math.abs(points[lo]!.x - x) ? lo - 1 : lo;
}
