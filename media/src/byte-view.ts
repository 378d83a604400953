/**
 * The selected tensor's bytes as stored (little-endian), page by page: offset, the bytes in hex
 * grouped by element, and each element decoded by its dtype. What VS Code's "View Binary Data"
 * shows in its Hex Editor, for the byte-level questions (endianness, int64, float16), with no
 * extension to install. Every text is set as text.
 */
import { button, h } from './dom.js';
import { formatCount } from './format.js';
import type { TensorBytes } from './protocol.js';

export const BYTES_PER_PAGE = 256;
const PER_ROW = 16;

/** Bytes per element and how to read one, by dtype; undefined: shown in hex only. */
const ELEMENTS: Record<string, { readonly size: number; readonly read: (v: DataView, at: number) => string }> = {
  float32: { size: 4, read: (v, at) => String(v.getFloat32(at, true)) },
  float64: { size: 8, read: (v, at) => String(v.getFloat64(at, true)) },
  int32: { size: 4, read: (v, at) => String(v.getInt32(at, true)) },
  int64: { size: 8, read: (v, at) => String(v.getBigInt64(at, true)) },
  uint32: { size: 4, read: (v, at) => String(v.getUint32(at, true)) },
  int16: { size: 2, read: (v, at) => String(v.getInt16(at, true)) },
  uint16: { size: 2, read: (v, at) => String(v.getUint16(at, true)) },
  int8: { size: 1, read: (v, at) => String(v.getInt8(at)) },
  uint8: { size: 1, read: (v, at) => String(v.getUint8(at)) },
  bool: { size: 1, read: (v, at) => String(v.getUint8(at) !== 0) },
  float16: { size: 2, read: (v, at) => String(half(v.getUint16(at, true))) },
  complex64: { size: 8, read: (v, at) => `${v.getFloat32(at, true)}${sign(v.getFloat32(at + 4, true))}i` },
};

function sign(imag: number): string {
  return imag < 0 || Object.is(imag, -0) ? `${imag}` : `+${imag}`;
}

/** An IEEE 754 half-precision value from its bits. */
export function half(bits: number): number {
  const exponent = (bits >> 10) & 0x1f;
  const fraction = bits & 0x3ff;
  const s = bits & 0x8000 ? -1 : 1;
  if (exponent === 0) return s * 2 ** -14 * (fraction / 1024);
  if (exponent === 0x1f) return fraction ? Number.NaN : s * Number.POSITIVE_INFINITY;
  return s * 2 ** (exponent - 15) * (1 + fraction / 1024);
}

export interface ByteRow {
  /** The row's first byte, as 8 hex digits. */
  readonly offset: string;
  /** Its bytes in hex, elements apart by two spaces. */
  readonly hex: string;
  /** The elements that start in the row, decoded. */
  readonly values: string;
}

/** Rows of 16 bytes of `page`, decoded as `page.dtype`. */
export function byteRows(page: TensorBytes): ByteRow[] {
  const bytes = Uint8Array.from(atob(page.data), (c) => c.charCodeAt(0));
  const view = new DataView(bytes.buffer);
  const element = ELEMENTS[page.dtype];
  const size = element?.size ?? 1;
  const rows: ByteRow[] = [];
  for (let start = 0; start < bytes.length; start += PER_ROW) {
    const end = Math.min(start + PER_ROW, bytes.length);
    const hex: string[] = [];
    const values: string[] = [];
    for (let i = start; i < end; i++) {
      const at = page.offset + i;
      hex.push(`${at % size === 0 && i > start ? ' ' : ''}${bytes[i]!.toString(16).padStart(2, '0')}`);
      if (element && at % size === 0 && i + size <= bytes.length) values.push(element.read(view, i));
    }
    rows.push({ offset: (page.offset + start).toString(16).padStart(8, '0'), hex: hex.join(' '), values: values.join('  ') });
  }
  return rows;
}

/** The page of bytes as a table, with its pager; `onPage` asks for the page at another offset. */
export function renderBytes(page: TensorBytes, onPage: (offset: number) => void): HTMLElement {
  const last = Math.max(0, Math.ceil(page.byteLength / BYTES_PER_PAGE) - 1) * BYTES_PER_PAGE;
  const shownEnd = page.offset + atob(page.data).length;
  const pager = h(
    'div',
    { className: 'byte-pager' },
    button('‹ Previous', () => onPage(Math.max(0, page.offset - BYTES_PER_PAGE)), { className: 'byte-prev', disabled: page.offset === 0 }),
    button('Next ›', () => onPage(Math.min(last, page.offset + BYTES_PER_PAGE)), { className: 'byte-next', disabled: shownEnd >= page.byteLength }),
    h(
      'span',
      { className: 'byte-range' },
      `bytes ${formatCount(page.offset)}–${formatCount(Math.max(page.offset, shownEnd - 1))} of ${formatCount(page.byteLength)} · ${page.dtype}, little-endian as stored`,
    ),
  );
  const rows = byteRows(page).map((r) =>
    h('tr', null, h('td', { className: 'byte-offset' }, r.offset), h('td', { className: 'byte-hex' }, r.hex), h('td', { className: 'byte-values' }, r.values)),
  );
  const table = h(
    'table',
    { className: 'bytes', attrs: { 'aria-label': 'bytes' } },
    h('thead', null, h('tr', null, h('th', null, 'offset'), h('th', null, 'bytes (hex)'), h('th', null, 'values'))),
    h('tbody', null, ...rows),
  );
  return h('div', { className: 'byte-view' }, pager, table);
}
