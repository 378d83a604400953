/**
 * The invocation's header (where it stopped, op, Tout, reason) and the summary table of every
 * input and output with statistics and the Tout check per output. Its rows and banners are also
 * node-summary.ts's.
 */
import { checkInputs, checkOutputs, STATUS_TEXT, type OutputCheck } from './checks.js';
import { h, type Child } from './dom.js';
import {
  countText,
  formatCount,
  formatShape,
  invocationMark,
  invocationTitle,
  isFailed,
  nonFiniteCounts,
  normalizeDtype,
  statText,
  type TensorStats,
} from './format.js';
import type { Side } from './protocol.js';
import type { HistoryEntry, InvocationEntry, TensorRef } from './state.js';

export function renderHeader(entry: InvocationEntry): HTMLElement {
  const { event } = entry;
  const inv = event.invocation;
  const failed = isFailed(inv);
  const status = invocationMark(inv, entry.event.outputs);
  const cb = inv.callback;
  const fn = cb.functionName && cb.functionName !== cb.name ? ` (${cb.functionName})` : '';
  const site = inv.callSite ? `${inv.callSite.file}:${inv.callSite.line}:${inv.callSite.column}` : undefined;
  const banners = entryBanners(entry);
  if (inv.error)
    banners.push(h('div', { className: 'banner error' }, h('strong', null, `✗ ${inv.error.name}: `), h('span', { className: 'message' }, inv.error.message)));
  return h(
    'header',
    { className: 'invocation-header' },
    h(
      'h1',
      { className: failed ? 'failed' : status.mark === '⚠' ? 'warned' : 'ok' },
      h('span', { className: 'status-mark', attrs: { 'aria-label': status.label } }, status.mark),
      ' ',
      h('span', { className: 'node-name' }, invocationTitle(inv)),
    ),
    h(
      'dl',
      { className: 'facts' },
      fact('callback', `${cb.name}${fn} · ${cb.kind}${cb.stateful ? ', stateful' : ''}`),
      fact('op', inv.op),
      inv.Tin && inv.Tin.length > 0 ? fact('Tin', `[${inv.Tin.join(', ')}]`) : null,
      fact('Tout', `[${inv.Tout.join(', ')}]`),
      fact('phase', inv.phase === 'returned' ? 'returned' : 'running'),
      fact('invocation', `#${inv.id}`),
      site ? fact('call site', site) : null,
    ),
    h('p', { className: 'reason' }, h('span', { className: 'reason-kind' }, event.reason), ' — ', h('span', { className: 'description' }, event.description)),
    ...banners,
  );
}

/** What every stop's header may say: its session ended, the program moved on, values that could not be shown. */
export function entryBanners(entry: HistoryEntry, stale = true): Child[] {
  const banners: Child[] = [];
  if (entry.ended)
    banners.push(h('p', { className: 'banner ended' }, 'This debug session has ended: values can no longer be fetched (summaries and previews only).'));
  else if (!entry.live && stale)
    banners.push(h('p', { className: 'banner stale' }, 'The program has moved on from this stop: values may no longer be available.'));
  if (entry.problems && entry.problems.length > 0) {
    banners.push(
      h(
        'div',
        { className: 'banner error event-problems' },
        h(
          'strong',
          null,
          `${entry.problems.length === 1 ? 'A value' : `${entry.problems.length} values`} of this stop as the debugger sent ${entry.problems.length === 1 ? 'it' : 'them'}:`,
        ),
        h('ul', null, ...entry.problems.slice(0, 50).map((p) => h('li', { className: 'message' }, p))),
        entry.problems.length > 50 ? h('p', { className: 'note' }, `… and ${entry.problems.length - 50} more.`) : null,
      ),
    );
  }
  return banners;
}

export function fact(name: string, value: string): HTMLElement {
  return h('div', { className: 'fact' }, h('dt', null, name), h('dd', null, value));
}

export const COLUMNS = ['', 'name', 'kind', 'dtype', 'shape', 'min', 'max', 'mean', 'NaN/Inf', 'zeros', 'Tin / Tout', 'check'];
/** The columns of a value's own cells, kind to zeros. */
const VALUE_SPAN = COLUMNS.indexOf('Tin / Tout') - COLUMNS.indexOf('kind');
/** A model node's summary columns: no Tin / Tout, no check. */
export const NODE_COLUMNS = COLUMNS.slice(0, -2);

export function renderSummary(entry: InvocationEntry, selected: TensorRef | undefined, onSelect: (ref: TensorRef) => void): HTMLElement {
  const { event } = entry;
  const report = checkOutputs(event);
  const body = h('tbody');
  body.append(sideHeading('Inputs', event.inputs.length === 0 ? '(none)' : undefined));
  const inputChecks = checkInputs(event);
  event.inputs.forEach((info, i) => {
    const name = event.invocation.parameterNames[i] ?? `input ${i}`;
    const input = inputChecks[i] ?? {};
    const check: OutputCheck | undefined = input.narrowing
      ? { status: 'narrowed', declared: input.declared, messages: [], narrowing: input.narrowing }
      : undefined;
    body.append(tensorRow('inputs', i, name, info, check, selected, onSelect, input.declared));
    if (input.narrowing) body.append(noteRow('narrowed', [`${input.narrowing}.`]));
  });
  const pending = event.invocation.phase === 'running' && event.outputs.length === 0;
  body.append(
    sideHeading(
      'Outputs',
      pending ? '(not returned yet)' : event.invocation.error ? '(the callback threw)' : report.outputs.length === 0 ? '(none)' : undefined,
    ),
  );
  report.outputs.forEach((check, i) => {
    body.append(tensorRow('outputs', i, `output ${i}`, event.outputs[i], check, selected, onSelect));
    const notes = [
      ...check.messages,
      ...(check.conversion ? [check.conversion] : []),
      ...(check.narrowing ? [`Narrowed: ${check.narrowing}. Values that need the wider type lose range or precision.`] : []),
    ];
    if (notes.length > 0) body.append(noteRow(check.status, notes));
  });
  const table = h('table', { className: 'summary' }, h('thead', null, h('tr', null, ...COLUMNS.map((c) => h('th', { attrs: { scope: 'col' } }, c)))), body);
  const general = report.general.map((m) =>
    h('div', { className: 'banner error count-mismatch' }, h('strong', null, '✗ Tout count mismatch: '), h('span', { className: 'message' }, m)),
  );
  return h(
    'section',
    { className: 'summary-section', attrs: { 'aria-label': 'inputs and outputs' } },
    ...general,
    h('div', { className: 'table-scroll' }, table),
  );
}

export function noteRow(status: string, notes: readonly string[]): HTMLTableRowElement {
  return h(
    'tr',
    { className: `check-message ${status}` },
    h('td', { attrs: { colspan: String(COLUMNS.length) } }, ...notes.map((n) => h('div', { className: 'message' }, n))),
  );
}

export function sideHeading(label: string, note?: string): HTMLTableRowElement {
  return h(
    'tr',
    { className: 'side-heading' },
    h('th', { attrs: { colspan: String(COLUMNS.length), scope: 'rowgroup' } }, label, note ? h('span', { className: 'note' }, ` ${note}`) : null),
  );
}

export function tensorRow(
  side: Side,
  index: number,
  name: string,
  info: TensorStats | null | undefined,
  check: OutputCheck | undefined,
  selected: TensorRef | undefined,
  onSelect: (ref: TensorRef) => void,
  declaredInput?: string,
  /** Without the Tin / Tout and check cells (a model node has no Tout). */
  plain = false,
): HTMLTableRowElement {
  const isSelected = selected?.side === side && selected.index === index;
  const flag = check ? check.status : 'ok';
  // (Not hasValues(): its narrowing would leave nothing of `info` for the opaque branch below.)
  const selectable = !!info && !info.opaque;
  const row = h('tr', {
    className: ['tensor-row', `flag-${flag}`, isSelected ? 'selected' : '', selectable ? 'selectable' : ''].filter(Boolean).join(' '),
    dataset: { side, index: String(index) },
  });
  const sampled = info?.exact === false ? `sampled: ${formatCount(info.counted ?? 0)} of ${formatCount(info.size)} values` : undefined;
  const cells: Child[] = [h('td', { className: 'marker' }, isSelected ? '▸' : ''), h('td', { className: 'name' }, name)];
  if (selectable) {
    cells.push(
      h('td', { className: 'kind' }, info.kind, info.disposed ? h('span', { className: 'note' }, ' (disposed)') : null),
      h(
        'td',
        { className: 'dtype' },
        info.dtype,
        normalizeDtype(info.dtype) !== info.dtype ? h('span', { className: 'note' }, ` (${normalizeDtype(info.dtype)})`) : null,
      ),
      h('td', { className: 'shape' }, formatShape(info.shape)),
      ...(['min', 'max', 'mean'] as const).map((k) => h('td', { className: `num ${k}`, title: sampled }, statText(info, k))),
      h('td', { className: `num nonfinite${info.nanCount || info.infCount ? ' warn' : ''}` }, nonFiniteCounts(info)),
      h('td', { className: 'num zeros' }, countText(info.zeroCount)),
    );
  } else if (info) {
    // An object, a Promise, null, a ragged array…: what it is, and that it has no values to show.
    cells.push(
      h('td', { className: 'kind opaque' }, info.kind),
      h('td', { className: 'none', attrs: { colspan: String(VALUE_SPAN - 1) } }, 'not a tensor value: no dtype, shape or values'),
    );
  } else {
    const text = check?.status === 'missing' ? 'missing: the callback returned fewer values' : 'not a tensor, NdArray or typed array';
    cells.push(h('td', { className: 'kind none', attrs: { colspan: String(VALUE_SPAN) } }, text));
  }
  if (!plain) {
    cells.push(h('td', { className: 'tout' }, side === 'outputs' ? (check?.declared ?? '—') : (declaredInput ?? '')));
    cells.push(h('td', { className: 'check' }, check ? STATUS_TEXT[check.status] : ''));
  }
  for (const c of cells) {
    if (!(c instanceof HTMLElement)) continue;
    c.dataset.col = c.classList[c.classList[0] === 'num' ? 1 : 0] ?? '';
    row.append(c);
  }
  if (selectable) {
    row.tabIndex = 0;
    row.setAttribute('aria-selected', String(isSelected));
    row.addEventListener('click', () => onSelect({ side, index }));
    row.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' || e.key === ' ') {
        e.preventDefault();
        onSelect({ side, index });
      }
    });
  }
  return row;
}
