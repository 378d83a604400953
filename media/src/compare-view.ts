/**
 * Compare: two stops of one callback side by side. Per input and output a row: its shape and
 * dtype (and their changes), the verdict the debuggee's `tensorDiff` answers (what changed and by
 * how much), and both stops' statistics next to each other; below, the Δ of the chosen one as a
 * heatmap and a grid (compare-detail.ts). The statistics are the history's own summaries: they show
 * even where the debugger no longer keeps a stop's values, and the row says why.
 */
import { type ComparePair, comparable, pairOf, previousStop } from './compare-state.js';
import { renderDelta, verdictText } from './compare-detail.js';
import { button, h, replaceChildren } from './dom.js';
import { formatShape, nonFiniteCounts, statText } from './format.js';
import type { HostChannel } from './messaging.js';
import type { Side, TensorDiffAnswer, TensorInfo } from './protocol.js';
import type { HistoryEntry, InvocationEntry, TensorRef } from './state.js';

export interface CompareHandlers {
  readonly onClose: () => void;
  readonly onRef: (ref: TensorRef) => void;
}

/** One row's comparison: the answer, or why there is none. */
type Outcome = { readonly diff: TensorDiffAnswer } | { readonly error: string };

const STATS = [
  ['min', (i: TensorInfo) => statText(i, 'min')],
  ['max', (i: TensorInfo) => statText(i, 'max')],
  ['mean', (i: TensorInfo) => statText(i, 'mean')],
  ['NaN/Inf', (i: TensorInfo) => nonFiniteCounts(i)],
] as const;

export class CompareView {
  readonly element = h('section', { className: 'compare-view', attrs: { 'aria-label': 'compare two stops' } });
  /** Answers by pair and value: a stop's kept values do not change, so each is asked once. */
  private readonly answers = new Map<string, Promise<Outcome>>();
  private token = 0;

  constructor(
    private readonly channel: HostChannel,
    private readonly handlers: CompareHandlers,
  ) {}

  show(pair: ComparePair, a: InvocationEntry, b: InvocationEntry): void {
    const token = ++this.token;
    const refs = refsOf(a, b);
    const idA = a.event.invocation.id;
    const idB = b.event.invocation.id;
    this.element.dataset.state = 'loading';
    const rows = refs.map((ref) => this.row(a, b, ref, pair.ref));
    const detail = h('div', { className: 'compare-detail' }, h('p', { className: 'note loading' }, 'Comparing…'));
    replaceChildren(
      this.element,
      h(
        'header',
        { className: 'compare-header' },
        h('h1', null, `Compare #${idA} → #${idB} · ${b.event.invocation.callback.name}`),
        button(`Back to #${idB}`, this.handlers.onClose, { className: 'compare-close', dataset: { focusId: 'compare-close' } }),
      ),
      h('p', { className: 'note' }, `Δ = #${idB} − #${idA}, from the values the debugger kept at both stops.`),
      h('table', { className: 'compare-table' }, statHead(idA, idB), h('tbody', null, ...rows.map((r) => r.tr))),
      detail,
    );
    void Promise.all(rows.map((r) => r.outcome)).then((outcomes) => {
      if (token !== this.token) return;
      const chosen = pair.ref ?? refs[firstChanged(outcomes)] ?? refs[0];
      const at = chosen ? refs.findIndex((r) => r.side === chosen.side && r.index === chosen.index) : -1;
      const outcome = outcomes[at];
      replaceChildren(
        detail,
        !outcome || !chosen
          ? h('p', { className: 'note' }, 'Neither stop has inputs or outputs to compare.')
          : 'error' in outcome
            ? h('p', { className: 'note error' }, `Not compared: ${outcome.error}`)
            : renderDelta(outcome.diff, `${nameOf(b, chosen)} (#${idB} − #${idA})`),
      );
      this.element.dataset.state = 'ready';
    });
  }

  /** A row of the table, its verdict filled in when the debuggee answers. */
  private row(a: InvocationEntry, b: InvocationEntry, ref: TensorRef, selected: TensorRef | undefined) {
    const infoA = a.event[ref.side][ref.index] ?? undefined;
    const infoB = b.event[ref.side][ref.index] ?? undefined;
    const verdict = h('td', { className: 'verdict', attrs: { role: 'status' } }, 'comparing…');
    const isSelected = selected?.side === ref.side && selected.index === ref.index;
    const name = button(nameOf(b, ref), () => this.handlers.onRef(ref), {
      className: 'link compare-pick',
      title: 'Draw its Δ',
      dataset: { focusId: `compare-${ref.side}-${ref.index}` },
      attrs: isSelected ? { 'aria-current': 'true' } : {},
    });
    const tr = h(
      'tr',
      { className: 'compare-row', dataset: { side: ref.side, index: String(ref.index) } },
      h('th', { attrs: { scope: 'row' } }, name),
      h('td', { className: 'shape' }, shapeChange(infoA, infoB)),
      verdict,
      ...statCells(infoA, infoB),
    );
    const outcome = this.answer(a, b, ref).then((o) => {
      verdict.textContent = 'error' in o ? `Not compared: ${o.error}` : verdictText(o.diff);
      verdict.classList.toggle('error', 'error' in o);
      verdict.classList.toggle('changed', 'diff' in o && (o.diff.shapeChanged || o.diff.dtypeChanged || (o.diff.elementwise?.changed ?? 0) > 0));
      return o;
    });
    return { tr, outcome };
  }

  private answer(a: InvocationEntry, b: InvocationEntry, ref: TensorRef): Promise<Outcome> {
    const key = `${a.key}\u0000${b.key}\u0000${ref.side}\u0000${ref.index}`;
    let outcome = this.answers.get(key);
    if (!outcome) {
      const request = { sessionId: b.sessionId, a: { invocationId: a.event.invocation.id }, b: { invocationId: b.event.invocation.id }, ...ref };
      outcome = this.channel.requestDiff(request).then(
        (diff): Outcome => ({ diff }),
        (err: unknown): Outcome => ({ error: err instanceof Error ? err.message : String(err) }),
      );
      // An error (the session ended, a copy let go) is final too: asking again would say the same.
      if (this.answers.size > 500) this.answers.clear();
      this.answers.set(key, outcome);
    }
    return outcome;
  }
}

/** Every input and output either stop has. */
function refsOf(a: InvocationEntry, b: InvocationEntry): TensorRef[] {
  const refs: TensorRef[] = [];
  for (const side of ['inputs', 'outputs'] as const satisfies readonly Side[]) {
    const n = Math.max(a.event[side].length, b.event[side].length);
    for (let index = 0; index < n; index++) refs.push({ side, index });
  }
  return refs;
}

function nameOf(entry: InvocationEntry, ref: TensorRef): string {
  return ref.side === 'inputs' ? (entry.event.invocation.parameterNames[ref.index] ?? `input ${ref.index}`) : `output ${ref.index}`;
}

/** The first row whose values, shape or dtype changed; -1 when none did. */
function firstChanged(outcomes: readonly Outcome[]): number {
  return outcomes.findIndex((o) => 'diff' in o && (o.diff.shapeChanged || o.diff.dtypeChanged || (o.diff.elementwise?.changed ?? 0) > 0));
}

function shapeChange(a: TensorInfo | undefined, b: TensorInfo | undefined): string {
  const text = (i: TensorInfo | undefined) => (i ? `${i.dtype} ${formatShape(i.shape)}` : 'none');
  return text(a) === text(b) ? text(b) : `${text(a)} → ${text(b)}`;
}

function statHead(idA: number, idB: number): HTMLTableSectionElement {
  const cells = STATS.flatMap(([name]) => [h('th', { attrs: { scope: 'col' } }, `${name} #${idA}`), h('th', { attrs: { scope: 'col' } }, `${name} #${idB}`)]);
  return h(
    'thead',
    null,
    h(
      'tr',
      null,
      h('th', { attrs: { scope: 'col' } }, 'value'),
      h('th', { attrs: { scope: 'col' } }, 'dtype, shape'),
      h('th', { attrs: { scope: 'col' } }, 'what changed'),
      ...cells,
    ),
  );
}

/** Each statistic of both stops, side by side; a statistic that differs is marked. */
function statCells(a: TensorInfo | undefined, b: TensorInfo | undefined): HTMLElement[] {
  return STATS.flatMap(([name, text]) => {
    const x = a && !a.opaque ? text(a) : '—';
    const y = b && !b.opaque ? text(b) : '—';
    const changed = x !== y ? ' changed' : '';
    return [
      h('td', { className: `stat stat-a${changed}`, dataset: { stat: name } }, x),
      h('td', { className: `stat stat-b${changed}`, dataset: { stat: name } }, y),
    ];
  });
}

/** A button that must not also activate the history item it sits in (its click, its Enter and Space). */
function ownButton(label: string, onClick: () => void, title: string, focusId: string): HTMLButtonElement {
  const b = button(label, onClick, { className: 'link compare-with', title, dataset: { focusId } });
  b.addEventListener('click', (e) => e.stopPropagation());
  b.addEventListener('keydown', (e) => e.stopPropagation());
  return b;
}

/** In a history item: "Compare" with the shown stop, where the two are stops of one callback. */
export function historyCompareButton(entry: HistoryEntry, shown: HistoryEntry | undefined, onCompare: (pair: ComparePair) => void): HTMLElement | null {
  if (!shown || !comparable(entry, shown) || entry.kind === 'node' || shown.kind === 'node') return null;
  const pair = pairOf(entry, shown);
  const title = `Compare #${entry.event.invocation.id} with the shown #${shown.event.invocation.id}`;
  return ownButton('Compare', () => onCompare(pair), title, `compare-${entry.key}`);
}

/** Beside the shown stop: "Compare with #n", the previous stop of the same callback, when the history holds one. */
export function previousStopButton(history: readonly HistoryEntry[], shown: HistoryEntry, onCompare: (pair: ComparePair) => void): HTMLElement | null {
  const previous = previousStop(history, shown);
  if (!previous || shown.kind === 'node') return null;
  const label = `Compare with the previous stop (#${previous.event.invocation.id})`;
  return h(
    'div',
    { className: 'compare-bar' },
    ownButton(
      label,
      () => onCompare(pairOf(previous, shown)),
      `Δ of every input and output from #${previous.event.invocation.id} to #${shown.event.invocation.id}`,
      'compare-previous',
    ),
  );
}
