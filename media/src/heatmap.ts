/**
 * The heatmap: the values of a region of the matrix on a canvas, one pixel per value drawn at
 * scale, viridis from min to max over the finite values; NaN in the theme's error color and ±Inf
 * in its text color (a grey, which viridis never reaches: its yellow end is close to the warning
 * color the grid writes Inf in), each named under the scale, so neither reads as a value on it.
 */
import { parseColor, VIRIDIS } from './colormap.js';
import { h, themeColor } from './dom.js';
import { formatNumber, formatValue } from './format.js';
import type { Matrix, Region } from './slicing.js';
import type { RegionData } from './tensor-data.js';
import { cellOf } from './grid.js';

const MAX_CSS_PX = 280;
const MAX_CELL_PX = 32;

export interface HeatmapOptions {
  /** Outlined on the heatmap (the grid's page), when it shows more than the page. */
  readonly page?: Region;
  /** A click on cell (r, c) of the matrix. */
  readonly onPick?: (r: number, c: number) => void;
}

export function finiteRange(values: Float64Array): { min: number; max: number } | undefined {
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (v < min && v !== -Infinity) min = v;
    if (v > max && v !== Infinity) max = v;
  }
  return min <= max ? { min, max } : undefined;
}

/** The cell (row, column) of a rows × cols canvas under the mouse. */
export function cellUnder(canvas: HTMLCanvasElement, e: MouseEvent, rows: number, cols: number): [number, number] {
  const rect = canvas.getBoundingClientRect();
  const c = Math.min(cols - 1, Math.max(0, Math.floor(((e.clientX - rect.left) / rect.width) * cols)));
  const r = Math.min(rows - 1, Math.max(0, Math.floor(((e.clientY - rect.top) / rect.height) * rows)));
  return [r, c];
}

export function renderHeatmap(m: Matrix, data: RegionData, options: HeatmapOptions = {}): HTMLElement {
  const { region } = data;
  const rows = region.r1 - region.r0;
  const cols = region.c1 - region.c0;
  const figure = h('figure', { className: 'heatmap' });
  if (!data.isNumeric || rows === 0 || cols === 0) {
    figure.append(h('p', { className: 'note' }, data.isNumeric ? 'No values.' : 'Not numeric: no heatmap.'));
    return figure;
  }
  const range = finiteRange(data.numeric);
  const scale = Math.min(MAX_CELL_PX, MAX_CSS_PX / cols, MAX_CSS_PX / rows);
  const cssW = Math.max(1, Math.round(cols * scale));
  const cssH = Math.max(1, Math.round(rows * scale));
  const dpr = Math.min(2, window.devicePixelRatio || 1);
  const canvas = h('canvas', { className: 'heatmap-canvas', attrs: { role: 'img', 'aria-label': `heatmap of ${rows}×${cols} values` } });
  canvas.width = Math.max(1, Math.round(cssW * dpr));
  canvas.height = Math.max(1, Math.round(cssH * dpr));
  canvas.style.width = `${cssW}px`;
  canvas.style.height = `${cssH}px`;

  const nan = parseColor(themeColor('--vscode-errorForeground', '#f14c4c')) ?? [241, 76, 76];
  const inf = parseColor(themeColor('--vscode-foreground', '#cccccc')) ?? [204, 204, 204];
  const { pixels, nans, infs } = paint(data, rows, cols, range, { nan, inf });
  const ctx = canvas.getContext('2d')!;
  ctx.imageSmoothingEnabled = false;
  ctx.drawImage(pixels, 0, 0, canvas.width, canvas.height);
  const page = options.page;
  if (page && (page.r0 > region.r0 || page.r1 < region.r1 || page.c0 > region.c0 || page.c1 < region.c1)) {
    const sx = canvas.width / cols;
    const sy = canvas.height / rows;
    ctx.lineWidth = Math.max(1, dpr * 1.5);
    ctx.strokeStyle = themeColor('--vscode-focusBorder', '#007fd4');
    ctx.strokeRect((page.c0 - region.c0) * sx + 0.5, (page.r0 - region.r0) * sy + 0.5, (page.c1 - page.c0) * sx - 1, (page.r1 - page.r0) * sy - 1);
  }

  const cellAt = (e: MouseEvent): [number, number] => {
    const [r, c] = cellUnder(canvas, e, rows, cols);
    return [region.r0 + r, region.c0 + c];
  };
  canvas.addEventListener('mousemove', (e) => {
    const [r, c] = cellAt(e);
    canvas.title = `[${m.rowLabel(r)}, ${m.colLabel(c)}] = ${formatValue(cellOf(data, r, c).value)}`;
  });
  if (options.onPick) {
    const pick = options.onPick;
    canvas.classList.add('pickable');
    canvas.addEventListener('click', (e) => pick(...cellAt(e)));
  }
  const caption = h('figcaption', null, legend(), range ? `${formatNumber(range.min)} … ${formatNumber(range.max)}` : 'no finite values');
  if (nans > 0) caption.append(swatch(nan, 'NaN'));
  if (infs > 0) caption.append(swatch(inf, '±Inf'));
  figure.append(canvas, caption);
  return figure;
}

/** The region's values as one pixel each: viridis over the finite range, NaN and ±Inf in their own colors; how many of each. */
function paint(
  data: RegionData,
  rows: number,
  cols: number,
  range: { min: number; max: number } | undefined,
  marks: { readonly nan: readonly number[]; readonly inf: readonly number[] },
): { pixels: HTMLCanvasElement; nans: number; infs: number } {
  const pixels = document.createElement('canvas');
  pixels.width = cols;
  pixels.height = rows;
  const pctx = pixels.getContext('2d')!;
  const image = pctx.createImageData(cols, rows);
  const out = image.data;
  const lo = range?.min ?? 0;
  const span = range ? range.max - range.min : 0;
  const k = span > 0 ? 255 / span : 0;
  let nans = 0;
  let infs = 0;
  for (let i = 0; i < rows * cols; i++) {
    const v = data.numeric[i]!;
    const p = i * 4;
    if (data.values[i] === undefined) {
      out[p + 3] = 0; // nothing there (outside a wrapped 1-D tensor, or not fetched)
      continue;
    }
    if (!Number.isFinite(v)) {
      const mark = Number.isNaN(v) ? marks.nan : marks.inf;
      if (Number.isNaN(v)) nans++;
      else infs++;
      out[p] = mark[0]!;
      out[p + 1] = mark[1]!;
      out[p + 2] = mark[2]!;
    } else {
      const t = span > 0 ? Math.round((v - lo) * k) : 128;
      out[p] = VIRIDIS[t * 3]!;
      out[p + 1] = VIRIDIS[t * 3 + 1]!;
      out[p + 2] = VIRIDIS[t * 3 + 2]!;
    }
    out[p + 3] = 255;
  }
  pctx.putImageData(image, 0, 0);
  return { pixels, nans, infs };
}

/** A key for a color the scale does not hold: its square and its name. */
function swatch([r, g, b]: readonly number[], name: string): HTMLElement {
  const square = h('span', { className: 'swatch', attrs: { 'aria-hidden': 'true' } });
  square.style.background = `rgb(${r}, ${g}, ${b})`;
  return h('span', { className: 'swatch-key' }, square, name);
}

/** The color scale, low to high. */
function legend(): HTMLCanvasElement {
  const c = h('canvas', { className: 'legend', attrs: { 'aria-hidden': 'true' } });
  c.width = 256;
  c.height = 1;
  const ctx = c.getContext('2d')!;
  const img = ctx.createImageData(256, 1);
  for (let i = 0; i < 256; i++) {
    img.data[i * 4] = VIRIDIS[i * 3]!;
    img.data[i * 4 + 1] = VIRIDIS[i * 3 + 1]!;
    img.data[i * 4 + 2] = VIRIDIS[i * 3 + 2]!;
    img.data[i * 4 + 3] = 255;
  }
  ctx.putImageData(img, 0, 0);
  return c;
}
