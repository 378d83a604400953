/**
 * The inspector's Training section: the training curve of a program's `model.fit` / `fitDataset`
 * (the adapter's `trainingCurve` events; training-state.ts keeps it), drawn with line-chart.ts as
 * it comes, while the program runs and at each stop: each logged metric per batch (x: the batch's
 * step across the fit's epochs) and per epoch (with its val_ twin), NaN and ±Inf marked, the batch
 * (and epoch) the program is at highlighted. Hidden until a fit has begun.
 */
import { button, h, replaceChildren } from './dom.js';
import { formatNumber } from './format.js';
import { type ChartPoint, type ChartSeries, lineChart } from './line-chart.js';
import type { HostMessage } from './protocol.js';
import { applyTraining, type CurvePoint, emptyTraining, type FitCurve, metricsOf, type TrainingState } from './training-state.js';

type TrainingMessage = Extract<HostMessage, { type: 'training' }>;

export class TrainingView {
  readonly element = h('section', { className: 'training', attrs: { 'aria-label': 'Training' } });
  private state: TrainingState | undefined;
  /** The fit picked to be shown (undefined: the one running, else the last). */
  private picked: number | undefined;
  /** The point clicked in a chart: its values in words. */
  private clicked = '';

  constructor() {
    this.element.hidden = true;
  }

  receive(message: TrainingMessage): void {
    if (!this.state || this.state.sessionId !== message.sessionId) {
      this.state = emptyTraining(message.sessionId);
      this.picked = undefined;
      this.clicked = '';
    }
    applyTraining(this.state, message.event);
    this.render();
  }

  /** A new session: the last one's curve is no longer what the program is doing (kept until its first fit). */
  sessionStarted(sessionId: string): void {
    if (this.state && this.state.sessionId !== sessionId) this.element.classList.add('stale');
  }

  private render(): void {
    const state = this.state;
    const fit = state && shownFit(state, this.picked);
    this.element.hidden = !fit;
    this.element.classList.remove('stale');
    if (!state || !fit) return;
    const here = state.current?.fit === fit.id ? state.current : undefined;
    const { batch, epoch } = metricsOf(fit);
    replaceChildren(
      this.element,
      h('h2', null, 'Training'),
      state.fits.length > 1 ? this.picker(state, fit) : null,
      h('p', { className: 'training-status' }, statusLine(fit, state)),
      h('p', { className: 'training-last' }, lastValues(fit)),
      ...nonFiniteNotes(fit),
      h(
        'div',
        { className: 'training-charts' },
        ...batch.map((m) => this.chart(fit, m, 'batch', [{ name: m, points: pointsOf(fit.batches, m) }], here?.step)),
        ...epoch.map((m) =>
          this.chart(
            fit,
            m,
            'epoch',
            [
              { name: m, points: pointsOf(fit.epochPoints, m), tone: 0 },
              { name: `val_${m}`, points: pointsOf(fit.epochPoints, `val_${m}`), tone: 1 },
            ].filter((s) => s.points.length > 0),
            here?.epoch,
          ),
        ),
      ),
      this.clicked ? h('p', { className: 'training-clicked' }, this.clicked) : null,
      state.missing > 0
        ? h(
            'p',
            { className: 'training-note' },
            `${state.missing} point${state.missing === 1 ? ' was' : 's were'} not received (sent before the inspector opened, or more than the debugger keeps between two sends).`,
          )
        : null,
      state.malformed > 0
        ? h(
            'p',
            { className: 'training-note error' },
            `${state.malformed} value${state.malformed === 1 ? '' : 's'} from the debugger could not be read and are not drawn.`,
          )
        : null,
      fit.thinned > 1
        ? h(
            'p',
            { className: 'training-note' },
            `Over ${formatNumber(fit.received)} batches: every ${fit.thinned}th finite batch point is kept (NaN/Inf ones all are).`,
          )
        : null,
    );
  }

  private picker(state: TrainingState, shown: FitCurve): HTMLElement {
    return h(
      'div',
      { className: 'training-fits', attrs: { role: 'group', 'aria-label': 'Fits' } },
      ...state.fits.map((f) =>
        button(
          `fit ${f.id}`,
          () => {
            this.picked = f.id;
            this.clicked = '';
            this.render();
          },
          { className: f.id === shown.id ? 'selected' : '', attrs: { 'aria-pressed': String(f.id === shown.id) } },
        ),
      ),
    );
  }

  private chart(fit: FitCurve, metric: string, kind: 'batch' | 'epoch', series: ChartSeries[], highlightX: number | undefined): HTMLElement {
    const source = kind === 'batch' ? fit.batches : fit.epochPoints;
    const chart = lineChart(series, {
      label: `${metric} per ${kind}, fit ${fit.id}`,
      xLabel: kind === 'batch' ? 'step: batch across epochs, from 0' : 'epoch, from 0',
      yLabel: metric,
      width: 360,
      height: 160,
      ...(highlightX !== undefined ? { highlightX } : {}),
      onPoint: (seriesIndex, pointIndex) => {
        const s = series[seriesIndex];
        const x = s?.points[pointIndex]?.x;
        const p = source.find((q) => q.x === x);
        if (!s || !p) return;
        this.clicked = `${s.name} at ${where(p)}: ${formatValue(p.values[s.name])}`;
        this.render();
      },
    });
    return h('figure', { className: 'training-chart', dataset: { metric, kind } }, chart);
  }
}

/** The fit picked, else the one the program is in, else the last. */
function shownFit(state: TrainingState, picked: number | undefined): FitCurve | undefined {
  return state.fits.find((f) => f.id === picked) ?? state.fits.find((f) => f.id === state.current?.fit) ?? state.fits.at(-1);
}

function pointsOf(points: readonly CurvePoint[], metric: string): ChartPoint[] {
  const out: ChartPoint[] = [];
  for (const p of points) {
    const y = p.values[metric];
    if (y !== undefined) out.push({ x: p.x, y });
  }
  return out;
}

function where(p: CurvePoint): string {
  return p.batch === null ? `epoch ${p.epoch + 1}` : `epoch ${p.epoch + 1} batch ${p.batch + 1} (step ${p.x})`;
}

function formatValue(v: number | undefined): string {
  if (v === undefined) return '—';
  return Number.isNaN(v) ? 'NaN' : formatNumber(v);
}

/** "fit 1 · epoch 2/3 · batch 2/4 · stopped in this batch" (counted from 1, as people count). */
function statusLine(fit: FitCurve, state: TrainingState): string {
  const parts = [`fit ${fit.id}`];
  const here = state.current?.fit === fit.id ? state.current : undefined;
  const last = fit.batches.at(-1);
  const epoch = here?.epoch ?? last?.epoch;
  const batch = here?.batch ?? last?.batch;
  if (epoch !== undefined) parts.push(`epoch ${epoch + 1}${fit.epochs !== null ? `/${fit.epochs}` : ''}`);
  if (batch !== undefined && batch !== null) parts.push(`batch ${batch + 1}${fit.batchesPerEpoch !== null ? `/${fit.batchesPerEpoch}` : ''}`);
  if (here) parts.push(state.paused ? `stopped in this batch (step ${here.step})` : 'running');
  else parts.push('ended');
  return parts.join(' · ');
}

/** The last batch's values, in words. */
function lastValues(fit: FitCurve): string {
  const last = fit.batches.at(-1);
  if (!last) return 'No batch has ended yet.';
  return `last batch (${where(last)}): ${Object.entries(last.values)
    .map(([k, v]) => `${k} ${formatValue(v)}`)
    .join(' · ')}`;
}

/** Per metric with NaN/±Inf batches: how many, and the first. */
function nonFiniteNotes(fit: FitCurve): HTMLElement[] {
  const notes = new Map<string, { count: number; first: CurvePoint }>();
  for (const p of fit.batches)
    for (const [k, v] of Object.entries(p.values)) {
      if (Number.isFinite(v)) continue;
      const n = notes.get(k);
      if (n) n.count++;
      else notes.set(k, { count: 1, first: p });
    }
  return [...notes].map(([k, n]) =>
    h(
      'p',
      { className: 'training-note non-finite', attrs: { role: 'status' } },
      `${k} is NaN or ±Inf in ${n.count} batch${n.count === 1 ? '' : 'es'}; first at ${where(n.first)}: ${formatValue(n.first.values[k])}`,
    ),
  );
}
