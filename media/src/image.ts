/**
 * Tensors that are images: a numeric [H, W, 3|4] or [N, H, W, 3|4] opens as an RGB(A) composite
 * on a canvas, one canvas pixel per tensor pixel (enlarged by CSS), or one channel as grayscale.
 * Values become 0–255 by a rule the caption states: integers already in 0–255 as they are, floats
 * (and booleans) in 0–1 times 255, anything else scaled from the image's min … max. A pixel with a
 * NaN takes the theme's error color; ±Inf clamp to the ends.
 */
import { parseColor } from './colormap.js';
import { button, h, numberInput, themeColor } from './dom.js';
import { formatNumber, formatValue } from './format.js';
import { finiteRange } from './heatmap.js';
import type { ViewState } from './state.js';
import type { RegionData } from './tensor-data.js';

/** An image is fetched and drawn whole: up to this many values (a 1024×1024 RGBA image). */
export const MAX_IMAGE_VALUES = 1 << 22;
/** The drawn image's longer side, in CSS pixels, and how far a small one is enlarged. */
const MAX_CSS_PX = 480;
const MAX_ZOOM = 24;
const CHANNEL_NAMES = ['R', 'G', 'B', 'A'];

export interface ImageLayout {
  /** The batch axis of [N, H, W, C]; absent for [H, W, C]. */
  readonly batchAxis?: number;
  readonly heightAxis: number;
  readonly widthAxis: number;
  readonly channelAxis: number;
  readonly batches: number;
  readonly height: number;
  readonly width: number;
  readonly channels: number;
  /** Values in one image: H·W·C. */
  readonly size: number;
}

/**
 * Fewer pixels a side than this is data, not an image ([2, 3, 4], a batch of 3×3 matrices): it
 * opens as a grid.
 */
const MIN_SIDE = 4;

/** The image layout of a tensor that is an image, or undefined (then it shows as a grid). */
export function imageLayout(shape: readonly number[], dtype: string): ImageLayout | undefined {
  const rank = shape.length;
  if ((rank !== 3 && rank !== 4) || dtype === 'string' || dtype.startsWith('complex')) return undefined;
  const channels = shape[rank - 1]!;
  const o = rank - 3;
  const [height, width] = [shape[o]!, shape[o + 1]!];
  const batches = rank === 4 ? shape[0]! : 1;
  if ((channels !== 3 && channels !== 4) || height < MIN_SIDE || width < MIN_SIDE || batches < 1) return undefined;
  return {
    ...(rank === 4 ? { batchAxis: 0 } : {}),
    heightAxis: o,
    widthAxis: o + 1,
    channelAxis: o + 2,
    batches,
    height,
    width,
    channels,
    size: height * width * channels,
  };
}

export interface PixelScale {
  /** byte = offset + (value - lo) · k, clamped to 0–255. */
  readonly lo: number;
  readonly k: number;
  readonly offset: number;
  /** How values became pixels, for the caption. */
  readonly text: string;
}

export function pixelScale(dtype: string, numeric: Float64Array): PixelScale {
  const range = finiteRange(numeric);
  if (!range) return { lo: 0, k: 0, offset: 0, text: 'no finite values' };
  const { min, max } = range;
  const integer = /^u?int/.test(dtype);
  if (integer && min >= 0 && max <= 255) return { lo: 0, k: 1, offset: 0, text: `${dtype} values 0–255, shown as they are` };
  if (!integer && min >= 0 && max <= 1) return { lo: 0, k: 255, offset: 0, text: `${dtype} values in 0–1, shown as 0–255` };
  if (max === min) return { lo: min, k: 0, offset: 128, text: `every value is ${formatNumber(min)}: mid gray` };
  return { lo: min, k: 255 / (max - min), offset: 0, text: `scaled from ${formatNumber(min)} … ${formatNumber(max)} to 0–255` };
}

export interface ImageOptions {
  readonly dtype: string;
  /** One channel as grayscale; undefined for the composite. */
  readonly channel?: number;
  /** A click on pixel (y, x). */
  readonly onPick?: (y: number, x: number) => void;
}

/** The image (or one channel) of one [H, W, C] block of values, with its caption. */
export function renderImage(layout: ImageLayout, data: RegionData, options: ImageOptions): HTMLElement {
  const { width: W, height: H, channels: C } = layout;
  const { channel } = options;
  const scale = pixelScale(options.dtype, data.numeric);
  const what = channel === undefined ? (C === 4 ? 'RGBA' : 'RGB') : `channel ${CHANNEL_NAMES[channel] ?? channel}`;
  const canvas = h('canvas', { className: 'image-canvas', attrs: { role: 'img', 'aria-label': `${W}×${H} image, ${what}` } });
  canvas.width = W;
  canvas.height = H;
  const zoom = Math.min(MAX_ZOOM, MAX_CSS_PX / Math.max(W, H));
  // Only the width: the height follows the canvas's aspect ratio, also when max-width narrows it.
  canvas.style.width = `${Math.max(1, Math.round(W * zoom))}px`;
  if (zoom >= 1) canvas.classList.add('pixelated');
  if (C === 4 && channel === undefined) canvas.classList.add('transparent');

  const ctx = canvas.getContext('2d')!;
  const image = ctx.createImageData(W, H);
  const out = image.data;
  const nan = parseColor(themeColor('--vscode-errorForeground', '#f14c4c')) ?? [241, 76, 76];
  const { numeric, values } = data;
  const { lo, k, offset } = scale;
  const byte = (v: number) => (v === Infinity ? 255 : v === -Infinity ? 0 : offset + (v - lo) * k);
  for (let p = 0; p < W * H; p++) {
    const base = p * C;
    const o = p * 4;
    if (values[base] === undefined) continue; // not fetched: transparent
    if (channel !== undefined) {
      const v = numeric[base + channel]!;
      if (Number.isNaN(v)) {
        out.set(nan, o);
      } else {
        const g = byte(v);
        out[o] = g;
        out[o + 1] = g;
        out[o + 2] = g;
      }
      out[o + 3] = 255;
      continue;
    }
    const r = numeric[base]!;
    const gr = numeric[base + 1]!;
    const b = numeric[base + 2]!;
    const a = C === 4 ? numeric[base + 3]! : 255;
    if (Number.isNaN(r) || Number.isNaN(gr) || Number.isNaN(b) || Number.isNaN(a)) {
      out.set(nan, o);
      out[o + 3] = 255;
      continue;
    }
    // Uint8ClampedArray: assignments round and clamp to 0–255.
    out[o] = byte(r);
    out[o + 1] = byte(gr);
    out[o + 2] = byte(b);
    out[o + 3] = C === 4 ? byte(a) : 255;
  }
  ctx.putImageData(image, 0, 0);

  const pixelAt = (e: MouseEvent): [number, number] => {
    const rect = canvas.getBoundingClientRect();
    const x = Math.min(W - 1, Math.max(0, Math.floor(((e.clientX - rect.left) / rect.width) * W)));
    const y = Math.min(H - 1, Math.max(0, Math.floor(((e.clientY - rect.top) / rect.height) * H)));
    return [y, x];
  };
  canvas.addEventListener('mousemove', (e) => {
    const [y, x] = pixelAt(e);
    const base = (y * W + x) * C;
    const parts = Array.from({ length: C }, (_, ch) => formatValue(values[base + ch]));
    canvas.title = `[${y}, ${x}] = (${parts.join(', ')})`;
  });
  if (options.onPick) {
    const pick = options.onPick;
    canvas.classList.add('pickable');
    canvas.addEventListener('click', (e) => pick(...pixelAt(e)));
  }
  return h(
    'figure',
    { className: 'image' },
    canvas,
    h('figcaption', null, `${what} · ${scale.text}${options.onPick ? ' · click a pixel for its values' : ''}`),
  );
}

/** One channel of an image block, for its histogram. */
export function channelData(layout: ImageLayout, data: RegionData, channel: number): RegionData {
  const n = layout.width * layout.height;
  const C = layout.channels;
  const values = new Array<RegionData['values'][number]>(n);
  const numeric = new Float64Array(n);
  for (let p = 0; p < n; p++) {
    values[p] = data.values[p * C + channel];
    numeric[p] = data.numeric[p * C + channel]!;
  }
  return { ...data, region: { r0: 0, r1: 1, c0: 0, c1: n }, values, numeric };
}

/** The view that shows pixel (y, x) of the image in the grid: rows × columns of its channel. */
export function gridAt(view: ViewState, layout: ImageLayout, y: number, x: number): ViewState {
  const fixed = [...view.fixed];
  fixed[layout.channelAxis] = view.channel ?? 0;
  return { ...view, display: 'grid', rowAxis: layout.heightAxis, colAxis: layout.widthAxis, fixed, rowOffset: y, colOffset: x };
}

/**
 * Image | Grid, and in the image the channel (RGB(A), R, G, B, A) and, for a batch, which image.
 * `focus` marks each control so that a re-render keeps the keyboard focus on it.
 */
export function imageControls(
  view: ViewState,
  layout: ImageLayout,
  showing: 'image' | 'grid',
  onView: (view: ViewState) => void,
  focus: <T extends HTMLElement>(el: T, id: string) => T,
  tooLarge?: string,
): HTMLElement {
  const toggle = (label: string, pressed: boolean, id: string, onClick: () => void, title?: string, disabled = false) =>
    focus(button(label, onClick, { className: 'toggle', title, disabled, attrs: { 'aria-pressed': String(pressed) } }), id);
  const display = h(
    'span',
    { className: 'segmented display-toggle', attrs: { role: 'group', 'aria-label': 'show as' } },
    toggle('Image', showing === 'image', 'display-image', () => onView({ ...view, display: 'image' }), tooLarge, tooLarge !== undefined),
    toggle('Grid', showing === 'grid', 'display-grid', () => onView(gridAt(view, layout, 0, 0))),
  );
  if (showing === 'grid') return h('div', { className: 'image-controls' }, display, tooLarge ? h('span', { className: 'note' }, tooLarge) : null);
  const channels = h(
    'span',
    { className: 'segmented channel-toggle', attrs: { role: 'group', 'aria-label': 'channel' } },
    toggle(layout.channels === 4 ? 'RGBA' : 'RGB', view.channel === undefined, 'channel-all', () => onView(withoutChannel(view))),
    ...Array.from({ length: layout.channels }, (_, ch) =>
      toggle(CHANNEL_NAMES[ch]!, view.channel === ch, `channel-${ch}`, () => onView({ ...view, channel: ch }), `channel ${CHANNEL_NAMES[ch]} as grayscale`),
    ),
  );
  const batch =
    layout.batchAxis === undefined
      ? null
      : h(
          'label',
          { className: 'fixed-index' },
          'image ',
          focus(
            numberInput(
              view.fixed[layout.batchAxis] ?? 0,
              0,
              layout.batches - 1,
              (v) => onView({ ...view, fixed: view.fixed.map((x, i) => (i === layout.batchAxis ? v : x)) }),
              'image in the batch',
            ),
            'batch-index',
          ),
          h('span', { className: 'note' }, ` / ${layout.batches}`),
        );
  return h('div', { className: 'image-controls' }, display, channels, batch);
}

function withoutChannel(view: ViewState): ViewState {
  const { channel: _, ...rest } = view;
  return rest;
}
