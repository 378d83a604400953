/**
 * The value grid: one page of the 2-D matrix as a table, row and column indices as headers.
 */
import { h } from './dom.js';
import { formatValue, type Value } from './format.js';
import type { Matrix, Region } from './slicing.js';
import type { RegionData } from './tensor-data.js';

export function cellOf(data: RegionData, r: number, c: number): { value: Value | undefined; number: number } {
  const { region } = data;
  const k = (r - region.r0) * (region.c1 - region.c0) + (c - region.c0);
  return { value: data.values[k], number: data.numeric[k]! };
}

export function renderGrid(m: Matrix, page: Region, data: RegionData): HTMLTableElement {
  const head = h('tr', null, h('th', { className: 'corner', attrs: { scope: 'col' } }, ''));
  for (let c = page.c0; c < page.c1; c++) head.append(h('th', { attrs: { scope: 'col' } }, m.colLabel(c)));
  const body = document.createElement('tbody');
  for (let r = page.r0; r < page.r1; r++) {
    const tr = document.createElement('tr');
    tr.append(h('th', { attrs: { scope: 'row' } }, m.rowLabel(r)));
    for (let c = page.c0; c < page.c1; c++) {
      const td = document.createElement('td');
      if (m.flatIndex(r, c) < 0) {
        td.className = 'absent';
      } else {
        const { value, number } = cellOf(data, r, c);
        td.textContent = value === undefined ? '·' : formatValue(value);
        if (value === undefined) td.className = 'missing';
        else if (typeof value === 'string') {
          td.className = 'str';
          if (value.length > 40) td.title = value;
        } else if (value === null || Number.isNaN(number)) td.className = 'nan';
        else if (!Number.isFinite(number)) td.className = 'inf';
        else if (number === 0) td.className = 'zero';
      }
      tr.append(td);
    }
    body.append(tr);
  }
  return h('table', { className: 'grid', attrs: { 'aria-label': 'values' } }, h('thead', null, head), body);
}
