/**
 * Viridis (perceptually uniform, readable on light and dark themes and for most color-blind
 * readers) as a 256-entry lookup table, interpolated from 9 stops.
 */
const STOPS: readonly (readonly [number, number, number])[] = [
  [68, 1, 84],
  [71, 44, 122],
  [59, 81, 139],
  [44, 113, 142],
  [33, 144, 141],
  [39, 173, 129],
  [92, 200, 99],
  [170, 220, 50],
  [253, 231, 37],
];

export const VIRIDIS: Uint8ClampedArray = (() => {
  const lut = new Uint8ClampedArray(256 * 3);
  for (let i = 0; i < 256; i++) {
    const t = (i / 255) * (STOPS.length - 1);
    const k = Math.min(STOPS.length - 2, Math.floor(t));
    const f = t - k;
    for (let ch = 0; ch < 3; ch++) lut[i * 3 + ch] = STOPS[k]![ch]! + (STOPS[k + 1]![ch]! - STOPS[k]![ch]!) * f;
  }
  return lut;
})();

/** "#rrggbb" or "rgb(…)" → [r, g, b]; undefined for anything else. */
export function parseColor(css: string): [number, number, number] | undefined {
  const hex = /^#([0-9a-f]{3,8})$/i.exec(css.trim());
  if (hex) {
    const s = hex[1]!;
    const full = s.length === 3 || s.length === 4 ? [...s.slice(0, 3)].map((x) => x + x).join('') : s.slice(0, 6);
    return [parseInt(full.slice(0, 2), 16), parseInt(full.slice(2, 4), 16), parseInt(full.slice(4, 6), 16)];
  }
  const rgb = /^rgba?\(\s*(\d+)[,\s]+(\d+)[,\s]+(\d+)/i.exec(css.trim());
  return rgb ? [Number(rgb[1]), Number(rgb[2]), Number(rgb[3])] : undefined;
}
