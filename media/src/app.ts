/**
 * The inspector: applies host messages to the state, saves it with vscode.setState, and renders
 * header, summary, selected tensor and history from it (also on load, from the saved state).
 */
import { h, replaceChildren } from './dom.js';
import { asHostMessage, HostChannel } from './messaging.js';
import type { HostMessage } from './protocol.js';
import { normalizeView } from './slicing.js';
import {
  clearHistory,
  currentEntry,
  hasValues,
  reduce,
  restoreState,
  selectedRef,
  selectTensor,
  setView,
  showEntry,
  tensorsOf,
  type HistoryEntry,
  type InspectorState,
  type TensorRef,
} from './state.js';
import { inputName, nodeIsLive, renderNodeHeader, renderNodeSummary } from './node-summary.js';
import { renderHeader, renderSummary } from './summary.js';
import { renderHistory } from './history.js';
import { type ComparePair, pairEntries } from './compare-state.js';
import { CompareView, historyCompareButton, previousStopButton } from './compare-view.js';
import { ModelView } from './model-view.js';
import { TensorData } from './tensor-data.js';
import { TensorView } from './tensor-view.js';
import { TrainingView } from './training-view.js';
import type { TensorViewModel } from './tensor-view-model.js';
import type { VsCodeApi } from './vscode-api.js';
import { PinValues } from './pin-values.js';
import { closePoint, initialPins, openPoint, reducePins, type PinsState } from './pins-state.js';
import { renderPins } from './pins-view.js';

type Scope = 'all' | 'tensor' | 'pins';

export class InspectorApp {
  private state: InspectorState;
  private readonly channel: HostChannel;
  private readonly data: TensorData;
  private readonly tensorView: TensorView;
  /** The Model section (model-view.ts), kept across renders like the tensor view. */
  private readonly modelView: ModelView;
  private readonly main = h('div', { className: 'invocation' });
  private readonly side = h('div', { className: 'history-slot' });
  private readonly pinsSlot = h('div', { className: 'pins-slot' });
  private readonly pinValues = new PinValues();
  /** Compare (compare-view.ts): the two stops shown instead of one, while set. */
  private comparing: ComparePair | undefined;
  private readonly compareView: CompareView;
  /** The training curve (its own state: not saved with the stops). */
  private readonly training = new TrainingView();

  constructor(
    private readonly root: HTMLElement,
    private readonly api: VsCodeApi,
  ) {
    this.state = restoreState(api.getState());
    this.channel = new HostChannel((m) => api.post(m));
    this.data = new TensorData(this.channel);
    this.tensorView = new TensorView(this.data, {
      onView: (view) => this.update((s) => (s.currentKey ? setView(s, s.currentKey, view) : s), 'tensor'),
      onPageSize: (rows, cols) => this.update((s) => ({ ...s, pageRows: rows, pageCols: cols }), 'tensor'),
      onCopy: (text, format) => api.post({ type: 'copy', text, ...(format ? { format } : {}) }),
    });
    this.compareView = new CompareView(this.channel, {
      onClose: () => this.compare(undefined),
      onRef: (ref) => this.compare(this.comparing && { ...this.comparing, ref }),
    });
    this.modelView = new ModelView((m) => api.post(m));
  }

  private compare(pair: ComparePair | undefined): void {
    this.comparing = pair;
    this.render('all');
  }

  start(): void {
    window.addEventListener('message', (event: MessageEvent) => {
      const message = asHostMessage(event.data);
      if (message) this.receive(message);
    });
    this.root.replaceChildren(
      h('div', { className: 'layout' }, h('div', { className: 'main-column' }, this.pinsSlot, this.main), this.side, this.training.element),
    );
    this.render('all');
    this.api.post({ type: 'ready' });
  }

  receive(message: HostMessage): void {
    if (this.channel.settle(message)) return;
    if (message.type === 'modelInfo') {
      this.modelView.receive(message);
      return;
    }
    if (message.type === 'training') {
      this.training.receive(message);
      return;
    }
    if (message.type === 'sessionStarted') this.training.sessionStarted(message.sessionId);
    if (message.type === 'invocation') {
      performance.mark('tensor-inspector:invocation');
      // A later stop in the same invocation may see other values.
      this.data.forget(message.sessionId, { invocationId: message.event.invocation.id });
    }
    // A new stop is shown, not the comparison.
    if (message.type === 'invocation' || message.type === 'node') this.comparing = undefined;
    // A node's tensors differ from one stop at it to the next (another run).
    if (message.type === 'node') this.data.forget(message.sessionId, { graph: message.event.node.graph, node: message.event.node.node });
    if (message.type === 'pins' || message.type === 'pinned') {
      if (message.type === 'pinned') this.pinValues.keep(message);
      this.updatePins((p) => reducePins(p, message));
      return;
    }
    this.update((s) => reduce(s, message), 'all');
  }

  private updatePins(change: (p: PinsState) => PinsState): void {
    this.update((s) => ({ ...s, pins: change(s.pins ?? initialPins()) }), 'pins');
  }

  private update(change: (s: InspectorState) => InspectorState, scope: Scope): void {
    const next = change(this.state);
    if (next === this.state) return;
    this.state = next;
    this.api.setState(next);
    this.render(scope);
  }

  /**
   * Renders; a failure is shown in the panel (with the history beside it, to pick another stop)
   * instead of leaving it blank, and the state stays as it was so a reload shows the same.
   */
  private render(scope: Scope): void {
    try {
      this.renderState(scope);
    } catch (err) {
      console.warn('tensor inspector: rendering failed', err);
      const entry = currentEntry(this.state);
      replaceChildren(
        this.main,
        h(
          'div',
          { className: 'banner error render-failed', attrs: { role: 'alert' } },
          h('strong', null, 'This stop could not be shown: '),
          h('span', { className: 'message' }, err instanceof Error ? err.message : String(err)),
          entry
            ? ` (${entry.kind === 'node' ? 'node' : `invocation #${String(entry.event.invocation.id)}`}). Other stops in the history can still be opened.`
            : '',
        ),
      );
      try {
        this.renderSide();
      } catch {
        // The main area says what failed; the history is what failed too.
      }
    }
  }

  private renderState(scope: Scope): void {
    if (scope !== 'tensor') this.renderPins();
    if (scope === 'pins') return;
    const focusId = (document.activeElement as HTMLElement | null)?.dataset?.focusId;
    const pair = this.comparing && pairEntries(this.state.history, this.comparing);
    if (pair) {
      replaceChildren(this.main, this.compareView.element);
      this.compareView.show(this.comparing!, ...pair);
      this.renderSide();
      if (focusId) this.root.querySelector<HTMLElement>(`[data-focus-id="${CSS.escape(focusId)}"]`)?.focus();
      return;
    }
    const entry = currentEntry(this.state);
    const ref = entry ? selectedRef(entry) : undefined;
    if (scope === 'all') {
      if (!entry) {
        replaceChildren(this.main, h('p', { className: 'empty' }, 'Waiting for a stop in a graph callback…'));
      } else {
        const onSelect = (r: TensorRef) => this.select(entry, r);
        replaceChildren(
          this.main,
          entry.kind === 'node' ? renderNodeHeader(entry) : renderHeader(entry),
          entry.kind === 'node' ? renderNodeSummary(entry, ref, onSelect) : renderSummary(entry, ref, onSelect),
          previousStopButton(this.state.history, entry, (p) => this.compare(p)),
          this.tensorView.element,
          this.modelView.element,
        );
      }
      this.modelView.stopped(entry && { stop: `${entry.key}@${entry.receivedAt}`, sessionId: entry.sessionId, live: entry.live && !entry.ended });
      this.renderSide();
    }
    this.tensorView.show(entry && ref ? this.model(entry, ref) : undefined);
    if (focusId) this.root.querySelector<HTMLElement>(`[data-focus-id="${CSS.escape(focusId)}"]`)?.focus();
  }

  private renderSide(): void {
    replaceChildren(
      this.side,
      renderHistory(this.state.history, this.state.currentKey, {
        onShow: (key) => {
          const before = this.state;
          const wasComparing = this.comparing !== undefined;
          this.comparing = undefined;
          this.update((s) => showEntry(s, key), 'all');
          // Back from Compare to the entry that was shown: nothing changed in the state, yet the view did.
          if (wasComparing && this.state === before) this.render('all');
        },
        onClear: () => this.update(clearHistory, 'all'),
        extra: (e) => historyCompareButton(e, currentEntry(this.state), (p) => this.compare(p)),
      }),
    );
  }

  private renderPins(): void {
    replaceChildren(
      this.pinsSlot,
      renderPins(this.state.pins ?? initialPins(), this.pinValues, {
        onOpen: (expression, stop) => this.updatePins((p) => openPoint(p, expression, stop)),
        onClose: () => this.updatePins(closePoint),
        onUnpin: (expression) => this.api.post({ type: 'unpin', expression }),
      }),
    );
  }

  private select(entry: HistoryEntry, ref: TensorRef): void {
    this.update((s) => selectTensor(s, entry.key, ref), 'all');
  }

  private model(entry: HistoryEntry, ref: TensorRef): TensorViewModel | undefined {
    const info = tensorsOf(entry, ref.side)[ref.index];
    if (!hasValues(info)) return undefined;
    const { pageRows, pageCols } = this.state;
    const inputs = (i: number) => (entry.kind === 'node' ? inputName(entry.event.node, i) : (entry.event.invocation.parameterNames[i] ?? `input ${i}`));
    const name = ref.side === 'inputs' ? inputs(ref.index) : `output ${ref.index}`;
    const node = entry.kind === 'node' ? entry.event.node : undefined;
    return {
      id: `${entry.key}\u0000${ref.side}\u0000${ref.index}`,
      name,
      info,
      view: normalizeView(info.shape, entry.view, pageRows, pageCols),
      pageRows,
      pageCols,
      source: {
        sessionId: entry.sessionId,
        owner: entry.kind === 'node' ? { graph: entry.event.node.graph, node: entry.event.node.node } : { invocationId: entry.event.invocation.id },
        side: ref.side,
        index: ref.index,
        info,
        fetchable: !entry.ended && !info.disposed && (entry.kind !== 'node' || nodeIsLive(entry)),
        ...(node && !node.live ? { unavailable: 'tfjs freed this tensor after its last use' } : {}),
        ...(node?.live && !entry.live ? { unavailable: 'the program has moved on from this node' } : {}),
      },
    };
  }
}
