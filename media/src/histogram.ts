/**
 * The histogram of a region's finite values on a canvas, in the theme's colors; NaN and ±Inf
 * are counted beside it.
 */
import { nonFiniteText } from '../../runtime/non-finite-text.js';
import { h, themeColor } from './dom.js';
import { formatCount, formatNumber } from './format.js';
import { finiteRange } from './heatmap.js';
import type { RegionData } from './tensor-data.js';

const WIDTH = 280;
const HEIGHT = 120;
const MAX_BINS = 40;

export interface Bins {
  readonly min: number;
  readonly max: number;
  readonly counts: Uint32Array;
  /** One bin per integer value. */
  readonly integers: boolean;
  readonly nan: number;
  readonly posInf: number;
  readonly negInf: number;
}

export function binValues(values: Float64Array, present: (i: number) => boolean): Bins | undefined {
  const range = finiteRange(values);
  let nan = 0;
  let posInf = 0;
  let negInf = 0;
  for (let i = 0; i < values.length; i++) {
    if (!present(i)) continue;
    const v = values[i]!;
    if (Number.isNaN(v)) nan++;
    else if (v === Infinity) posInf++;
    else if (v === -Infinity) negInf++;
  }
  if (!range) return nan + posInf + negInf > 0 ? { min: 0, max: 0, counts: new Uint32Array(0), integers: false, nan, posInf, negInf } : undefined;
  const { min, max } = range;
  let integers = max - min + 1 <= MAX_BINS;
  for (let i = 0; integers && i < values.length; i++) {
    const v = values[i]!;
    if (Number.isFinite(v) && !Number.isInteger(v)) integers = false;
  }
  const n = max === min ? 1 : integers ? max - min + 1 : MAX_BINS;
  const counts = new Uint32Array(n);
  const k = max === min ? 0 : integers ? 1 : n / (max - min);
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (!Number.isFinite(v) || !present(i)) continue;
    counts[Math.min(n - 1, Math.floor((v - min) * k))]!++;
  }
  return { min, max, counts, integers: integers || max === min, nan, posInf, negInf };
}

export function renderHistogram(data: RegionData): HTMLElement {
  const figure = h('figure', { className: 'histogram' });
  if (!data.isNumeric) {
    figure.append(h('p', { className: 'note' }, 'Not numeric: no histogram.'));
    return figure;
  }
  const bins = binValues(data.numeric, (i) => data.values[i] !== undefined);
  if (!bins) {
    figure.append(h('p', { className: 'note' }, 'No values.'));
    return figure;
  }
  const dpr = Math.min(2, window.devicePixelRatio || 1);
  const canvas = h('canvas', { className: 'histogram-canvas', attrs: { role: 'img', 'aria-label': `histogram, ${bins.counts.length} bins` } });
  canvas.width = WIDTH * dpr;
  canvas.height = HEIGHT * dpr;
  canvas.style.width = `${WIDTH}px`;
  canvas.style.height = `${HEIGHT}px`;
  const ctx = canvas.getContext('2d')!;
  ctx.scale(dpr, dpr);
  let peak = 0;
  for (const c of bins.counts) peak = Math.max(peak, c);
  const n = bins.counts.length;
  const barW = n > 0 ? WIDTH / n : WIDTH;
  ctx.fillStyle = themeColor('--vscode-charts-blue', themeColor('--vscode-editor-foreground', '#3794ff'));
  for (let i = 0; i < n; i++) {
    const c = bins.counts[i]!;
    if (c === 0) continue;
    const bh = Math.max(1, (c / peak) * (HEIGHT - 2));
    ctx.fillRect(i * barW + (barW > 3 ? 0.5 : 0), HEIGHT - bh, Math.max(1, barW - (barW > 3 ? 1 : 0)), bh);
  }
  ctx.fillStyle = themeColor('--vscode-editorWidget-border', themeColor('--vscode-editor-foreground', '#888'));
  ctx.fillRect(0, HEIGHT - 1, WIDTH, 1);
  canvas.addEventListener('mousemove', (e) => {
    const rect = canvas.getBoundingClientRect();
    const i = Math.min(n - 1, Math.max(0, Math.floor(((e.clientX - rect.left) / rect.width) * n)));
    const width = n > 0 ? (bins.max - bins.min) / n : 0;
    const label = bins.integers ? formatNumber(bins.min + i) : `[${formatNumber(bins.min + i * width)}, ${formatNumber(bins.min + (i + 1) * width)})`;
    canvas.title = n > 0 ? `${label}: ${formatCount(bins.counts[i]!)}` : '';
  });
  const extra = nonFiniteText({ dtype: 'float64', nanCount: bins.nan, infCount: bins.posInf + bins.negInf, negInfCount: bins.negInf }, formatCount);
  figure.append(
    canvas,
    h(
      'figcaption',
      null,
      h('span', { className: 'axis-min' }, formatNumber(bins.min)),
      h('span', { className: 'axis-peak' }, `peak ${formatCount(peak)}`),
      h('span', { className: 'axis-max' }, formatNumber(bins.max)),
    ),
  );
  if (extra) figure.append(h('p', { className: 'note warn' }, `not shown: ${extra}`));
  return figure;
}
