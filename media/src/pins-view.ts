/**
 * The Pinned section: each pinned expression with its latest summary (or why it has none at that
 * stop), a chart of its min, mean and max over the session's stops (line-chart.ts; the current stop
 * highlighted), one of its NaN and ±Inf counts when it ever had any, and, for a clicked point, that
 * stop's values while they are kept (pin-values.ts: the last PIN_VALUE_STOPS stops).
 */
import { button, h } from './dom.js';
import { formatCount, formatShape, formatValue, fromWire, nonFiniteCounts, statText } from './format.js';
import { type ChartSeries, lineChart } from './line-chart.js';
import { PIN_VALUE_STOPS, type PinValues } from './pin-values.js';
import { PIN_STOP_CAP, type PinLatest, type PinSeries, type PinsState } from './pins-state.js';

export interface PinsHandlers {
  readonly onOpen: (expression: string, stop: number) => void;
  readonly onClose: () => void;
  readonly onUnpin: (expression: string) => void;
}

/** The section, or nothing while no expression is pinned. */
export function renderPins(state: PinsState, values: PinValues, handlers: PinsHandlers): HTMLElement | null {
  if (state.expressions.length === 0) return null;
  return h(
    'section',
    { className: 'pins', attrs: { 'aria-label': 'pinned expressions' } },
    h('h2', null, `Pinned (${state.expressions.length})`),
    h(
      'p',
      { className: 'note' },
      `Evaluated at every stop. Summaries for every stop (up to ${formatCount(PIN_STOP_CAP)} per pin, then every other older stop is dropped); ` +
        `values for the last ${PIN_VALUE_STOPS} stops (the first ${formatCount(state.valueLimit ?? 1024)} of each): click a point.`,
    ),
    ...state.expressions.map((e) => renderPin(e, state, values, handlers)),
  );
}

function renderPin(expression: string, state: PinsState, values: PinValues, handlers: PinsHandlers): HTMLElement {
  const series = state.series[expression];
  const latest = state.latest[expression];
  return h(
    'div',
    { className: 'pin', dataset: { expression } },
    h(
      'div',
      { className: 'pin-head' },
      h('code', { className: 'pin-expression' }, expression),
      button('Unpin', () => handlers.onUnpin(expression), { className: 'link', title: `Stop evaluating ${expression} at each stop` }),
    ),
    latestLine(latest),
    series && series.stop.length > 0 ? charts(expression, series, state, handlers) : null,
    state.opened?.expression === expression ? openedValues(expression, state.opened.stop, values, handlers) : null,
  );
}

function latestLine(latest: PinLatest | undefined): HTMLElement {
  if (!latest) return h('p', { className: 'pin-latest note' }, 'Not evaluated yet: it will be at the next stop.');
  const at = `stop ${latest.stop}: `;
  if (latest.status === 'unresolved') return h('p', { className: 'pin-latest unresolved note' }, at, 'not in scope in this frame');
  if (latest.status === 'error') return h('p', { className: 'pin-latest error' }, at, latest.error);
  const i = latest.info;
  if (i.opaque) return h('p', { className: 'pin-latest note' }, at, `${i.kind}: not a tensor, array or number`);
  return h(
    'p',
    { className: 'pin-latest' },
    at,
    h('span', { className: 'pin-kind' }, `${i.kind} ${i.dtype}${formatShape(i.shape)}`),
    ` min ${statText(i, 'min')} · mean ${statText(i, 'mean')} · max ${statText(i, 'max')} · NaN/Inf `,
    h('span', { className: 'pin-nonfinite' }, nonFiniteCounts(i)),
    i.disposed ? ' (disposed)' : '',
  );
}

const nanOf = (y: number | null) => (y === null ? Number.NaN : y);

function charts(expression: string, s: PinSeries, state: PinsState, handlers: PinsHandlers): HTMLElement {
  const points = (ys: readonly (number | null)[]) => ys.map((y, i) => ({ x: s.stop[i]!, y: nanOf(y) }));
  const stats: ChartSeries[] = [
    { name: 'min', points: points(s.min), tone: 0 },
    { name: 'mean', points: points(s.mean), tone: 2 },
    { name: 'max', points: points(s.max), tone: 1 },
  ];
  const onPoint = (_series: number, index: number) => handlers.onOpen(expression, s.stop[index]!);
  const highlightX = state.lastStop;
  const common = { xLabel: 'stop', width: 420, onPoint, ...(highlightX !== undefined ? { highlightX } : {}) };
  const nanStops = s.nan.filter((n) => n > 0).length;
  const infStops = s.inf.filter((n) => n > 0).length;
  const counts: ChartSeries[] = [
    { name: 'NaN', points: points(s.nan), tone: 3 },
    { name: '±Inf', points: points(s.inf), tone: 1 },
  ];
  return h(
    'div',
    { className: 'pin-charts' },
    legend(stats),
    lineChart(stats, { ...common, label: `${expression}: min, mean and max over ${s.stop.length} stops`, height: 150 }),
    h(
      'p',
      { className: 'pin-counts note' },
      `NaN at ${nanStops} of ${s.stop.length} stops, ±Inf at ${infStops}`,
      s.thinned > 0 ? ` · older stops thinned ${s.thinned}× (every other one dropped)` : '',
    ),
    nanStops + infStops > 0
      ? h('div', null, legend(counts), lineChart(counts, { ...common, label: `${expression}: NaN and ±Inf counts over stops`, height: 90 }))
      : null,
  );
}

function legend(series: readonly ChartSeries[]): HTMLElement {
  return h('div', { className: 'pin-legend' }, ...series.map((s) => h('span', { className: `legend-item series-${(s.tone ?? 0) % 4}` }, `— ${s.name}`)));
}

function openedValues(expression: string, stop: number, values: PinValues, handlers: PinsHandlers): HTMLElement {
  const kept = values.get(expression, stop);
  const close = button('Close', handlers.onClose, { className: 'link' });
  if (!kept) {
    return h(
      'div',
      { className: 'pin-values gone', attrs: { role: 'status' } },
      `The values of stop ${stop} are no longer kept (values are kept for the last ${PIN_VALUE_STOPS} stops; its summary is in the chart). `,
      close,
    );
  }
  const shown = kept.values.length < kept.size ? `the first ${formatCount(kept.values.length)} of ${formatCount(kept.size)}` : `all ${formatCount(kept.size)}`;
  return h(
    'div',
    { className: 'pin-values', dataset: { stop: String(stop) } },
    h('div', { className: 'pin-values-head' }, `${expression} at stop ${stop}: ${shown} values `, close),
    h('ol', { className: 'pin-values-list', attrs: { start: '0' } }, ...kept.values.map((v, i) => h('li', { title: `[${i}]` }, formatValue(fromWire(v))))),
  );
}
