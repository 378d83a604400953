/**
 * Compare's words and drawing for one input or output: its verdict line (dtype and shape changes,
 * how many values changed, the largest |Δ| and where, NaN/Inf that appeared or went, sampled or
 * not), and its Δ: what the map is (exact, or tiled and how), the heatmap, and a page of Δs around
 * the largest one (or the cell picked in the heatmap).
 */
import { type DeltaMap, deltaNumbers, type MapPage, renderDeltaGrid, renderDeltaHeatmap } from './delta-heatmap.js';
import { h } from './dom.js';
import { formatCount, formatNumber, formatShape } from './format.js';
import type { TensorDiffAnswer } from './protocol.js';

/** Rows and columns of the Δ grid's page. */
const PAGE_ROWS = 16;
const PAGE_COLS = 12;

const ordinal = (n: number) =>
  `${n}${n % 10 === 1 && n % 100 !== 11 ? 'st' : n % 10 === 2 && n % 100 !== 12 ? 'nd' : n % 10 === 3 && n % 100 !== 13 ? 'rd' : 'th'}`;

/** One line on what changed between the two stops. */
export function verdictText(d: TensorDiffAnswer): string {
  const parts: string[] = [];
  if (d.dtypeChanged) parts.push(`dtype ${d.a.info.dtype} → ${d.b.info.dtype}`);
  const e = d.elementwise;
  if (!e) {
    if (d.shapeChanged) parts.push(`shape ${formatShape(d.a.info.shape)} → ${formatShape(d.b.info.shape)}`);
    parts.push(d.notElementwise ?? 'not compared value by value');
    return parts.join(' · ');
  }
  const sampled = e.stride > 1 ? ` (every ${ordinal(e.stride)} value compared: sampled)` : '';
  parts.push(
    e.changed === 0
      ? `unchanged: all ${formatCount(e.compared)} values the same${sampled}`
      : `${formatCount(e.changed)} of ${formatCount(e.compared)} changed${sampled}`,
  );
  if (e.largest) {
    const { abs, coords, a, b } = e.largest;
    parts.push(`max |Δ| ${formatNumber(abs)} at [${coords.join(', ')}] (${formatNumber(a)} → ${formatNumber(b)})`);
  }
  const counts: [number, string][] = [
    [e.nanAppeared, 'NaN appeared'],
    [e.nanGone, 'NaN gone'],
    [e.infAppeared, '±Inf appeared'],
    [e.infGone, '±Inf gone'],
  ];
  for (const [n, words] of counts) if (n > 0) parts.push(`${formatCount(n)} ${words}`);
  return parts.join(' · ');
}

/** What the Δ map shows, in words. */
function mapNote(map: DeltaMap, stride: number): string {
  const view = `${formatCount(map.viewRows)} × ${formatCount(map.viewCols)}`;
  const exact =
    map.tileRows === 1 && map.tileCols === 1
      ? `Exact: every Δ of the ${view} view (last axis as columns).`
      : `Tiled: the ${view} view in tiles of ${map.tileRows} × ${map.tileCols}; each cell shows its tile's Δ of largest magnitude (NaN and ±Inf first).`;
  return stride > 1 ? `${exact} Sampled: every ${ordinal(stride)} value was kept at the stops (over 64 MiB), so only those are compared.` : exact;
}

/** The page of the map that holds cell (r, c). */
function pageAt(map: DeltaMap, r: number, c: number): MapPage {
  const r0 = Math.floor(r / PAGE_ROWS) * PAGE_ROWS;
  const c0 = Math.floor(c / PAGE_COLS) * PAGE_COLS;
  return { r0, r1: Math.min(map.rows, r0 + PAGE_ROWS), c0, c1: Math.min(map.cols, c0 + PAGE_COLS) };
}

/** The map cell a flat index of the tensor falls in. */
function cellOfFlat(map: DeltaMap, flat: number): [number, number] {
  const row = Math.floor(flat / Math.max(1, map.viewCols));
  const col = flat - row * map.viewCols;
  return [Math.floor(row / map.tileRows), Math.floor(col / map.tileCols)];
}

/** The Δ of one input or output: what the map is, its heatmap, and a page of it as a grid. */
export function renderDelta(d: TensorDiffAnswer, title: string): HTMLElement {
  const section = h('section', { className: 'compare-delta', attrs: { 'aria-label': `Δ of ${title}` } }, h('h3', null, `Δ of ${title}`));
  const e = d.elementwise;
  if (!e) {
    section.append(h('p', { className: 'note' }, `No Δ to draw: ${d.notElementwise ?? 'not compared value by value'}.`));
    return section;
  }
  const { map } = e;
  const deltas = deltaNumbers(map);
  const gridSlot = h('div', { className: 'grid-scroll' });
  const showPage = (r: number, c: number) => gridSlot.replaceChildren(renderDeltaGrid(map, deltas, pageAt(map, r, c)));
  showPage(...(e.largest ? cellOfFlat(map, e.largest.flatIndex) : ([0, 0] as [number, number])));
  section.append(
    h('p', { className: 'note map-note' }, mapNote(map, e.stride)),
    h('div', { className: 'compare-charts' }, renderDeltaHeatmap(map, deltas, showPage), gridSlot),
  );
  return section;
}
