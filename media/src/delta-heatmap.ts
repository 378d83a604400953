/**
 * Compare's drawing of a Δ map (`tensorDiff`): a heatmap on a diverging scale centred on 0 (teal
 * below, gold above, symmetric to the largest finite |Δ|), NaN and ±Inf in their own colors as
 * heatmap.ts marks them (the theme's error and text colors), named under the scale; and a page of
 * the map's Δs as a grid, its headers the view's rows and columns (ranges where the map is tiled).
 */
import { parseColor } from './colormap.js';
import { h, themeColor } from './dom.js';
import { formatNumber, fromWire } from './format.js';
import { cellUnder } from './heatmap.js';
import type { TensorDiffAnswer } from './protocol.js';
import type { Region } from './slicing.js';

export type DeltaMap = NonNullable<TensorDiffAnswer['elementwise']>['map'];

/** A page of the map: cell rows [r0, r1) and columns [c0, c1). */
export type MapPage = Region;

const MAX_CSS_PX = 280;
const MAX_CELL_PX = 32;

/** The scale's ends: teal below 0, gold above (BrBG's; neither is the NaN red or the ±Inf grey). */
const BELOW: readonly [number, number, number] = [53, 151, 143];
const ABOVE: readonly [number, number, number] = [223, 194, 125];

/**
 * The diverging scale, 256 entries: BELOW, then the editor's background at 0 (a Δ of 0 is blank:
 * what changed stands out), then ABOVE.
 */
export function divergingScale(middle: readonly number[]): Uint8ClampedArray {
  const lut = new Uint8ClampedArray(256 * 3);
  for (let i = 0; i < 256; i++) {
    const t = i / 255;
    const [from, to, f] = t < 0.5 ? [BELOW, middle, t * 2] : [middle, ABOVE, (t - 0.5) * 2];
    for (let ch = 0; ch < 3; ch++) lut[i * 3 + ch] = from[ch]! + (to[ch]! - from[ch]!) * f;
  }
  return lut;
}

/** The map's Δs as numbers (NaN and ±Infinity back from the wire). */
export function deltaNumbers(map: DeltaMap): Float64Array {
  const out = new Float64Array(map.rows * map.cols);
  for (let i = 0; i < out.length; i++) {
    const v = fromWire(map.values[i]);
    out[i] = typeof v === 'number' ? v : Number.NaN;
  }
  return out;
}

/** The largest finite |Δ| of the map (the scale's ends are ± it). */
function scaleOf(deltas: Float64Array): number {
  let m = 0;
  for (const d of deltas) if (Number.isFinite(d) && Math.abs(d) > m) m = Math.abs(d);
  return m;
}

export function renderDeltaHeatmap(map: DeltaMap, deltas: Float64Array, onPick: (row: number, col: number) => void): HTMLElement {
  const { rows, cols } = map;
  const figure = h('figure', { className: 'heatmap delta-heatmap' });
  if (rows === 0 || cols === 0) {
    figure.append(h('p', { className: 'note' }, 'No values.'));
    return figure;
  }
  const m = scaleOf(deltas);
  const scale = Math.min(MAX_CELL_PX, MAX_CSS_PX / cols, MAX_CSS_PX / rows);
  const canvas = h('canvas', { className: 'heatmap-canvas pickable', attrs: { role: 'img', 'aria-label': `heatmap of ${rows}×${cols} Δ values` } });
  canvas.width = cols;
  canvas.height = rows;
  canvas.style.width = `${Math.max(1, Math.round(cols * scale))}px`;
  canvas.style.height = `${Math.max(1, Math.round(rows * scale))}px`;
  const nan = parseColor(themeColor('--vscode-errorForeground', '#f14c4c')) ?? [241, 76, 76];
  const inf = parseColor(themeColor('--vscode-foreground', '#cccccc')) ?? [204, 204, 204];
  const middle = parseColor(themeColor('--vscode-editor-background', '#1f1f1f')) ?? [31, 31, 31];
  const lut = divergingScale(middle);
  const ctx = canvas.getContext('2d')!;
  const image = ctx.createImageData(cols, rows);
  let nans = 0;
  let infs = 0;
  for (let i = 0; i < rows * cols; i++) {
    const d = deltas[i]!;
    let rgb: readonly number[];
    if (Number.isNaN(d)) {
      nans++;
      rgb = nan;
    } else if (!Number.isFinite(d)) {
      infs++;
      rgb = inf;
    } else if (d === 0) {
      rgb = middle; // unchanged: blank, exactly
    } else {
      const t = m > 0 ? Math.round(((d + m) / (2 * m)) * 255) : 128;
      rgb = [lut[t * 3]!, lut[t * 3 + 1]!, lut[t * 3 + 2]!];
    }
    image.data.set([rgb[0]!, rgb[1]!, rgb[2]!, 255], i * 4);
  }
  ctx.putImageData(image, 0, 0);
  const cellAt = (e: MouseEvent) => cellUnder(canvas, e, rows, cols);
  canvas.addEventListener('mousemove', (e) => {
    const [r, c] = cellAt(e);
    canvas.title = `[${rowLabel(map, r)}, ${colLabel(map, c)}] Δ = ${formatNumber(deltas[r * cols + c]!)}`;
  });
  canvas.addEventListener('click', (e) => onPick(...cellAt(e)));
  const caption = h('figcaption', { className: 'delta-scale' }, legend(lut), m > 0 ? `−${formatNumber(m)} … 0 … +${formatNumber(m)}` : 'no finite Δ but 0');
  if (nans > 0) caption.append(swatch(nan, 'NaN'));
  if (infs > 0) caption.append(swatch(inf, '±Inf'));
  figure.append(canvas, caption);
  return figure;
}

/** A row of the map as the view's row (or rows, where the map is tiled). */
export function rowLabel(map: DeltaMap, r: number): string {
  return span(r, map.tileRows, map.viewRows);
}

export function colLabel(map: DeltaMap, c: number): string {
  return span(c, map.tileCols, map.viewCols);
}

const span = (i: number, tile: number, size: number) => (tile === 1 ? String(i) : `${i * tile}–${Math.min(size, (i + 1) * tile) - 1}`);

/** A page of the map's Δs as a table. */
export function renderDeltaGrid(map: DeltaMap, deltas: Float64Array, page: MapPage): HTMLTableElement {
  const head = h('tr', null, h('th', { className: 'corner', attrs: { scope: 'col' } }, 'Δ'));
  for (let c = page.c0; c < page.c1; c++) head.append(h('th', { attrs: { scope: 'col' } }, colLabel(map, c)));
  const body = h('tbody');
  for (let r = page.r0; r < page.r1; r++) {
    const tr = h('tr', null, h('th', { attrs: { scope: 'row' } }, rowLabel(map, r)));
    for (let c = page.c0; c < page.c1; c++) {
      const d = deltas[r * map.cols + c]!;
      const kind = Number.isNaN(d) ? 'nan' : !Number.isFinite(d) ? 'inf' : d === 0 ? 'zero' : d > 0 ? 'up' : 'down';
      tr.append(h('td', { className: kind, dataset: { cell: `${r},${c}` } }, formatNumber(d)));
    }
    body.append(tr);
  }
  return h('table', { className: 'grid delta-grid', attrs: { 'aria-label': 'Δ values' } }, h('thead', null, head), body);
}

/** A key for a color the scale does not hold. */
function swatch([r, g, b]: readonly number[], name: string): HTMLElement {
  const square = h('span', { className: 'swatch', attrs: { 'aria-hidden': 'true' } });
  square.style.background = `rgb(${r}, ${g}, ${b})`;
  return h('span', { className: 'swatch-key' }, square, name);
}

/** The diverging scale, low to high. */
function legend(lut: Uint8ClampedArray): HTMLCanvasElement {
  const c = h('canvas', { className: 'legend', attrs: { 'aria-hidden': 'true' } });
  c.width = 256;
  c.height = 1;
  const ctx = c.getContext('2d')!;
  const img = ctx.createImageData(256, 1);
  for (let i = 0; i < 256; i++) img.data.set([lut[i * 3]!, lut[i * 3 + 1]!, lut[i * 3 + 2]!, 255], i * 4);
  ctx.putImageData(img, 0, 0);
  return c;
}
