/**
 * The Model section: the tf.LayersModel at the stop (the adapter's `modelInfo`), asked for when
 * the section is opened and again at each stop while it is open. Its layers with class, output
 * shape and parameter count; under each, its weights with dtype, shape, min/mean/max and NaN/Inf.
 * A weight opens in the inspector (its tf.Variable as a node) or offers its actions (Break on
 * Value Change…), both through the panel (`modelWeight`).
 */
import { nonFiniteText } from '../../runtime/non-finite-text.js';
import { button, h, replaceChildren } from './dom.js';
import { formatCount, formatNumber, formatShape } from './format.js';
import type { HostMessage, ModelSummary, ModelWeight, WebviewMessage } from './protocol.js';

type ModelAnswer = Extract<HostMessage, { type: 'modelInfo' }>;

/** How long an asked model may take before the section says it did not come. */
const ANSWER_MS = 30_000;

export class ModelView {
  readonly element = h('details', { className: 'model-view', attrs: { 'aria-label': 'model' } });
  private readonly body = h('div', { className: 'model-body', attrs: { role: 'status' } });
  /** The stop the section shows (its session, and whether the program is paused there). */
  private at: { stop: string; sessionId: string; live: boolean } | undefined;
  private asked: { requestId: number; timer: ReturnType<typeof setTimeout> } | undefined;
  private nextId = Math.floor(Math.random() * 1e6) * 1000 + 1;
  /** Answers shown, for tests: data-renders. */
  private renders = 0;

  constructor(private readonly post: (message: WebviewMessage) => void) {
    this.element.append(h('summary', null, 'Model'), this.body);
    this.element.addEventListener('toggle', () => {
      if (this.element.open) this.load();
    });
  }

  /** The entry shown (`stop`: which stop it is): a new stop, or another entry, is read again while open. */
  stopped(at: { stop: string; sessionId: string; live: boolean } | undefined): void {
    const changed = this.at?.stop !== at?.stop || this.at?.live !== at?.live;
    this.at = at;
    if (changed && this.element.open) this.load();
  }

  /** The panel's answer to a `modelInfo` request; answers to earlier requests are dropped. */
  receive(answer: ModelAnswer): void {
    if (answer.requestId !== this.asked?.requestId) return;
    clearTimeout(this.asked.timer);
    this.asked = undefined;
    if (answer.model && Array.isArray(answer.model.layers)) this.show(answer.model);
    else this.note(`No model: ${answer.error ?? 'the debugger sent none'}`, 'error');
  }

  private load(): void {
    if (this.asked) clearTimeout(this.asked.timer);
    this.asked = undefined;
    if (!this.at?.live) {
      this.note(this.at ? 'The model is read while the program is paused: this stop is past.' : 'The model is read at a stop: none yet.', 'ready');
      return;
    }
    const requestId = this.nextId++;
    const timer = setTimeout(() => {
      if (this.asked?.requestId !== requestId) return;
      this.asked = undefined;
      this.note(`No model: no answer from the debugger after ${ANSWER_MS / 1000} s`, 'error');
    }, ANSWER_MS);
    this.asked = { requestId, timer };
    this.element.dataset.state = 'loading';
    this.post({ type: 'modelInfo', requestId, sessionId: this.at.sessionId });
  }

  private note(text: string, state: 'ready' | 'error'): void {
    replaceChildren(this.body, h('p', { className: state === 'error' ? 'note problem' : 'note' }, text));
    this.done(state);
  }

  private show(model: ModelSummary): void {
    const sessionId = this.at?.sessionId;
    const weightRow = (w: ModelWeight) => {
      const i = w.info;
      const stat = (x: number | undefined) => h('td', { className: 'num' }, x === undefined ? '' : formatNumber(x));
      const bad = nonFiniteText({ dtype: i.dtype, nanCount: i.nanCount ?? 0, infCount: i.infCount ?? 0, negInfCount: i.negInfCount });
      const act = (action: 'inspect' | 'actions', label: string, aria: string) =>
        button(label, () => sessionId && this.post({ type: 'modelWeight', sessionId, action, weight: w }), { attrs: { 'aria-label': `${aria} ${w.name}` } });
      return h(
        'tr',
        { className: 'weight', dataset: { weight: w.name } },
        h('td', { className: 'weight-name' }, w.name, w.trainable ? '' : ' (not trainable)'),
        h('td', null, i.dtype),
        h('td', { className: 'shape' }, formatShape(i.shape)),
        h('td', { className: 'num size' }, formatCount(i.size)),
        stat(i.min),
        stat(i.mean),
        stat(i.max),
        h('td', { className: bad ? 'non-finite' : '' }, i.disposed ? 'disposed' : bad),
        h('td', { className: 'actions' }, act('inspect', 'Inspect', 'inspect'), act('actions', 'Break…', 'break on a change of')),
      );
    };
    const rows = model.layers.flatMap((l) => [
      h(
        'tr',
        { className: 'layer', dataset: { layer: l.name } },
        h('td', { className: 'layer-name' }, l.name),
        h('td', null, l.className),
        h('td', { className: 'shape' }, l.outputShape),
        h('td', { className: 'num params' }, formatCount(l.params)),
        h('td', { attrs: { colspan: '5' } }),
      ),
      ...l.weights.map(weightRow),
    ]);
    replaceChildren(
      this.body,
      h('p', { className: 'model-title' }, h('strong', null, model.name), ` (${model.className}) · found as ${model.where}`),
      h(
        'table',
        { className: 'model-table' },
        h(
          'thead',
          null,
          h(
            'tr',
            null,
            ...['layer / weight', 'class / dtype', 'output shape / shape', 'params', 'min', 'mean', 'max', 'NaN/Inf', ''].map((t) => h('th', null, t)),
          ),
        ),
        h('tbody', null, ...rows),
      ),
      h(
        'p',
        { className: 'model-totals' },
        `Total params: ${formatCount(model.totalParams)} · trainable: ${formatCount(model.trainableParams)} · non-trainable: ${formatCount(model.totalParams - model.trainableParams)}`,
      ),
    );
    this.done('ready');
  }

  private done(state: 'ready' | 'error'): void {
    this.element.dataset.state = state;
    this.element.dataset.renders = String(++this.renders);
  }
}
