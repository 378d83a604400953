/**
 * The history: every invocation and node seen, newest first, with its status; a click shows it again.
 * Entries of ended sessions stay, marked as such.
 */
import { button, type Child, h } from './dom.js';
import { invocationMark, invocationTitle, isFailed } from './format.js';
import { nodeTitle } from './node-summary.js';
import type { HistoryEntry } from './state.js';

export interface HistoryHandlers {
  readonly onShow: (key: string) => void;
  readonly onClear: () => void;
  /** More controls on an entry's line (Compare's button). */
  readonly extra?: (entry: HistoryEntry) => Child;
}

export function renderHistory(history: readonly HistoryEntry[], currentKey: string | undefined, handlers: HistoryHandlers): HTMLElement {
  const list = h('ol', { className: 'history-list', attrs: { reversed: '' } });
  const sessions = new Map<string, number>();
  for (const e of history) if (!sessions.has(e.sessionId)) sessions.set(e.sessionId, sessions.size + 1);
  for (let i = history.length - 1; i >= 0; i--) {
    const e = history[i]!;
    const line = lineOf(e);
    const failed = line.failed;
    const status = line.mark;
    const current = e.key === currentKey;
    const badges = [e.live ? h('span', { className: 'badge live' }, 'stopped') : null, e.ended ? h('span', { className: 'badge ended' }, 'ended') : null];
    const item = h(
      'li',
      {
        className: ['history-item', failed ? 'failed' : 'ok', current ? 'current' : '', e.ended ? 'ended' : ''].filter(Boolean).join(' '),
        dataset: { key: e.key },
        title: `${e.event.reason}: ${e.event.description}`,
      },
      h(
        'div',
        { className: 'history-line' },
        h('span', { className: 'status-mark', attrs: { 'aria-label': failed ? 'failed' : 'ok' } }, status),
        ' ',
        h('span', { className: 'history-name' }, line.title),
        handlers.extra?.(e),
      ),
      h(
        'div',
        { className: 'history-meta' },
        `${line.meta}${sessions.size > 1 ? ` · session ${sessions.get(e.sessionId)}` : ''} · ${time(e.receivedAt)}`,
        ...badges,
      ),
    );
    item.tabIndex = 0;
    if (current) item.setAttribute('aria-current', 'true');
    item.addEventListener('click', () => handlers.onShow(e.key));
    item.addEventListener('keydown', (ev) => {
      if (ev.key === 'Enter' || ev.key === ' ') {
        ev.preventDefault();
        handlers.onShow(e.key);
      }
    });
    list.append(item);
  }
  return h(
    'aside',
    { className: 'history', attrs: { 'aria-label': 'history' } },
    h(
      'h2',
      null,
      `History (${history.length})`,
      history.length > 1 ? button('Clear', handlers.onClear, { className: 'link', title: 'Forget all but the shown invocation' }) : null,
    ),
    history.length === 0 ? h('p', { className: 'note' }, 'No invocations yet.') : list,
  );
}

/** What an entry's line says: invocations by their callback, nodes by their op and place in the run. */
function lineOf(e: HistoryEntry): { title: string; meta: string; mark: string; failed: boolean } {
  if (e.kind === 'node') {
    const n = e.event.node;
    const nan = [...n.outputs].some((o) => (o?.nanCount ?? 0) > 0 || (o?.infCount ?? 0) > 0);
    return { title: nodeTitle(n), meta: `node ${n.index + 1} · ${n.op}`, mark: nan ? '✗' : '◆', failed: nan };
  }
  const inv = e.event.invocation;
  return { title: invocationTitle(inv), meta: `#${inv.id} · ${inv.callback.name}`, mark: invocationMark(inv, e.event.outputs).mark, failed: isFailed(inv) };
}

function time(ms: number): string {
  const d = new Date(ms);
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}:${String(d.getSeconds()).padStart(2, '0')}`;
}
