/**
 * The selected tensor's grid controls: which axes are rows and columns (a transpose when swapped),
 * the index on each other axis, paging and the page's size. Each change goes to the handlers as a
 * new view; nothing here holds state.
 */
import { button, h, numberInput, select } from './dom.js';
import { formatCount } from './format.js';
import type { Matrix, Region } from './slicing.js';
import { PAGE_COLS, PAGE_ROWS, type ViewState } from './state.js';
import type { TensorViewHandlers, TensorViewModel } from './tensor-view-model.js';

/** Which axes are rows and columns, and the index on each other axis (rank ≥ 2). */
export function slicingControls(model: TensorViewModel, m: Matrix, handlers: TensorViewHandlers): HTMLElement | null {
  const { info, view } = model;
  const rank = info.shape.length;
  if (rank < 2) return null;
  const axes = info.shape.map((d, i) => ({ value: String(i), label: `axis ${i} (${d})` }));
  const setAxis = (which: 'rowAxis' | 'colAxis', axis: number) => {
    const other = which === 'rowAxis' ? view.colAxis : view.rowAxis;
    // Choosing the other role's axis swaps the two (a transpose).
    const next =
      axis === other
        ? { rowAxis: which === 'rowAxis' ? axis : view.colAxis, colAxis: which === 'colAxis' ? axis : view.rowAxis }
        : { ...pick(view), [which]: axis };
    handlers.onView({ ...view, ...next, rowOffset: 0, colOffset: 0 });
  };
  const fixedInputs = info.shape.flatMap((d, i) =>
    i === view.rowAxis || i === view.colAxis
      ? []
      : [
          h(
            'label',
            { className: 'fixed-index' },
            `axis ${i}: `,
            withFocus(
              numberInput(
                view.fixed[i] ?? 0,
                0,
                d - 1,
                (v) => handlers.onView({ ...view, fixed: view.fixed.map((x, k) => (k === i ? v : x)) }),
                `index on axis ${i}`,
              ),
              `fixed-${i}`,
            ),
            h('span', { className: 'note' }, ` / ${d}`),
          ),
        ],
  );
  return h(
    'div',
    { className: 'slicing' },
    h(
      'label',
      null,
      'rows: ',
      withFocus(
        select(axes, String(view.rowAxis), (v) => setAxis('rowAxis', Number(v)), 'axis shown as rows'),
        'row-axis',
      ),
    ),
    h(
      'label',
      null,
      'columns: ',
      withFocus(
        select(axes, String(view.colAxis), (v) => setAxis('colAxis', Number(v)), 'axis shown as columns'),
        'col-axis',
      ),
    ),
    ...fixedInputs,
    h('span', { className: 'slice-desc' }, `slice ${m.description}`),
  );
}

/** Page through rows and columns, and the page's size. */
export function pagingControls(model: TensorViewModel, m: Matrix, page: Region, handlers: TensorViewHandlers): HTMLElement {
  const { view, pageRows, pageCols } = model;
  const go = (rowOffset: number, colOffset: number) => handlers.onView({ ...view, rowOffset, colOffset });
  const lastRow = Math.max(0, Math.floor((m.rows - 1) / pageRows) * pageRows);
  const lastCol = Math.max(0, Math.floor((m.cols - 1) / pageCols) * pageCols);
  const nav = (axis: 'rows' | 'cols') => {
    const isRows = axis === 'rows';
    const offset = isRows ? view.rowOffset : view.colOffset;
    const step = isRows ? pageRows : pageCols;
    const last = isRows ? lastRow : lastCol;
    const total = isRows ? m.rows : m.cols;
    const lo = isRows ? page.r0 : page.c0;
    const hi = isRows ? page.r1 : page.c1;
    const move = (o: number) => (isRows ? go(o, view.colOffset) : go(view.rowOffset, o));
    const label = isRows ? 'rows' : 'columns';
    return h(
      'span',
      { className: `pager pager-${axis}` },
      button('«', () => move(0), {
        title: `first ${label}`,
        attrs: { 'aria-label': `first ${label}` },
        disabled: offset === 0,
        dataset: { focusId: `${axis}-first` },
      }),
      button('‹', () => move(Math.max(0, offset - step)), {
        title: `previous ${label}`,
        attrs: { 'aria-label': `previous ${label}` },
        disabled: offset === 0,
        dataset: { focusId: `${axis}-prev` },
      }),
      h('span', { className: 'range' }, `${label} ${formatCount(lo)}–${formatCount(Math.max(lo, hi - 1))} of ${formatCount(total)}`),
      button('›', () => move(Math.min(last, offset + step)), {
        title: `next ${label}`,
        attrs: { 'aria-label': `next ${label}` },
        disabled: offset >= last,
        dataset: { focusId: `${axis}-next` },
      }),
      button('»', () => move(last), {
        title: `last ${label}`,
        attrs: { 'aria-label': `last ${label}` },
        disabled: offset >= last,
        dataset: { focusId: `${axis}-last` },
      }),
    );
  };
  const sizes = h(
    'span',
    { className: 'page-size' },
    'page ',
    withFocus(
      select(PAGE_ROWS.map(opt), String(pageRows), (v) => handlers.onPageSize(Number(v), pageCols), 'rows per page'),
      'page-rows',
    ),
    ' × ',
    withFocus(
      select(PAGE_COLS.map(opt), String(pageCols), (v) => handlers.onPageSize(pageRows, Number(v)), 'columns per page'),
      'page-cols',
    ),
  );
  return h('div', { className: 'paging' }, nav('rows'), m.cols > pageCols ? nav('cols') : null, sizes);
}

function opt(n: number): { value: string; label: string } {
  return { value: String(n), label: String(n) };
}

function pick(view: ViewState): { rowAxis: number; colAxis: number } {
  return { rowAxis: view.rowAxis, colAxis: view.colAxis };
}

export function withFocus<T extends HTMLElement>(el: T, id: string): T {
  el.dataset.focusId = id;
  return el;
}
