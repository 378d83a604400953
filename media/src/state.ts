/**
 * The inspector's state: the history of invocations (per debug session), which one is shown,
 * the selected tensor and how it is sliced and paged. Kept with vscode.setState so a hidden and
 * re-shown panel comes back as it was; everything here is plain JSON.
 */
import { checkEvent } from './event-check.js';
import type { HostMessage, Side, TensorCallbackEvent, TensorInfo } from './protocol.js';

export interface TensorRef {
  readonly side: Side;
  readonly index: number;
}

/** How the selected tensor is cut into a 2-D matrix and which page of it is shown. */
export interface ViewState {
  readonly rowAxis: number;
  readonly colAxis: number;
  /** Indices for the axes that are neither rows nor columns (entries of those two are ignored). */
  readonly fixed: readonly number[];
  readonly rowOffset: number;
  readonly colOffset: number;
  /** For an image-shaped tensor ([H, W, 3|4], [N, H, W, 3|4]): the image (its default) or the grid. */
  readonly display?: 'image' | 'grid';
  /** In the image: one channel as grayscale; absent for the RGB(A) composite. */
  readonly channel?: number;
}

export interface HistoryEntry {
  readonly key: string;
  readonly sessionId: string;
  readonly event: TensorCallbackEvent;
  /** The program is (as far as we know) stopped in this invocation. */
  readonly live: boolean;
  /** Its debug session has ended: values can no longer be fetched. */
  readonly ended: boolean;
  readonly receivedAt: number;
  readonly selection?: TensorRef;
  readonly view?: ViewState;
  /** Values of the event as sent that could not be shown, and why (event-check.ts). */
  readonly problems?: readonly string[];
}

export interface InspectorState {
  readonly version: 1;
  readonly history: readonly HistoryEntry[];
  readonly currentKey?: string;
  readonly pageRows: number;
  readonly pageCols: number;
}

export const MAX_HISTORY = 200;
export const PAGE_ROWS = [16, 32, 64, 128, 256] as const;
export const PAGE_COLS = [8, 16, 32, 64, 128, 256] as const;

export function initialState(): InspectorState {
  return { version: 1, history: [], pageRows: 32, pageCols: 16 };
}

/**
 * The saved state, or a fresh one when there is none or it is not ours. Every saved event is
 * checked again (as on arrival): a saved malformed one must not blank the panel on every reload.
 */
export function restoreState(saved: unknown): InspectorState {
  if (!saved || typeof saved !== 'object') return initialState();
  const s = saved as Partial<InspectorState>;
  if (s.version !== 1 || !Array.isArray(s.history)) return initialState();
  const history = s.history
    .filter((e): e is HistoryEntry => !!e && typeof e === 'object' && typeof e.key === 'string' && typeof e.sessionId === 'string')
    .map(restoreEntry);
  return {
    version: 1,
    history,
    currentKey: history.some((e) => e.key === s.currentKey) ? s.currentKey : history.at(-1)?.key,
    pageRows: PAGE_ROWS.includes(s.pageRows as never) ? s.pageRows! : 32,
    pageCols: PAGE_COLS.includes(s.pageCols as never) ? s.pageCols! : 16,
  };
}

function restoreEntry(e: HistoryEntry): HistoryEntry {
  const checked = checkEvent(e.event);
  // What was found on arrival (the event was saved as repaired), and anything the saved copy adds.
  const saved = Array.isArray(e.problems) ? e.problems.filter((p): p is string => typeof p === 'string').slice(0, 500) : [];
  const problems = [...saved, ...checked.problems.filter((p) => !saved.includes(p))];
  const event = checked.event;
  const selection =
    e.selection && (e.selection.side === 'inputs' || e.selection.side === 'outputs') && Number.isSafeInteger(e.selection.index) ? e.selection : undefined;
  return {
    key: e.key,
    sessionId: e.sessionId,
    event,
    live: e.live === true,
    ended: e.ended === true,
    receivedAt: typeof e.receivedAt === 'number' ? e.receivedAt : 0,
    ...(selection ? { selection } : {}),
    ...(e.view && typeof e.view === 'object' && Array.isArray(e.view.fixed) ? { view: e.view } : {}),
    ...(problems.length > 0 ? { problems } : {}),
  };
}

export function entryKey(sessionId: string, invocationId: number): string {
  return `${sessionId}#${invocationId}`;
}

export function currentEntry(state: InspectorState): HistoryEntry | undefined {
  return state.history.find((e) => e.key === state.currentKey);
}

/** Applies a message from the host; tensorData answers do not change the state. */
export function reduce(state: InspectorState, message: HostMessage, now = Date.now()): InspectorState {
  switch (message.type) {
    case 'invocation': {
      const { event, problems } = checkEvent(message.event);
      return addInvocation(state, message.sessionId, event, message.live, now, problems);
    }
    case 'sessionStarted':
      // Back to "waiting for a stop"; earlier stops stay in the history.
      return { ...state, currentKey: undefined };
    case 'sessionEnded':
      return {
        ...state,
        history: state.history.map((e) => (e.sessionId === message.sessionId && !e.ended ? { ...e, ended: true, live: false } : e)),
      };
    default:
      return state;
  }
}

/** A stop: shown, and added to the history (a later stop in the same invocation updates its entry). */
function addInvocation(
  state: InspectorState,
  sessionId: string,
  event: TensorCallbackEvent,
  live: boolean,
  now: number,
  problems: readonly string[],
): InspectorState {
  const key = entryKey(sessionId, event.invocation.id);
  const existing = state.history.find((e) => e.key === key);
  const history = state.history.map((e) => (live && e.sessionId === sessionId && e.key !== key && e.live ? { ...e, live: false } : e));
  let next: HistoryEntry[];
  if (existing) {
    const selection = existing.selection && refExists(event, existing.selection) ? existing.selection : undefined;
    const sameTensor = selection && sameShape(existing.event, event, selection);
    const updated: HistoryEntry = {
      ...existing,
      event,
      live,
      ended: false,
      receivedAt: now,
      selection,
      view: sameTensor ? existing.view : undefined,
      problems: problems.length > 0 ? problems : undefined,
    };
    next = history.map((e) => (e.key === key ? updated : e));
  } else {
    next = [...history, { key, sessionId, event, live, ended: false, receivedAt: now, ...(problems.length > 0 ? { problems } : {}) }];
  }
  if (next.length > MAX_HISTORY) next = next.slice(next.length - MAX_HISTORY);
  return { ...state, history: next, currentKey: key };
}

export function showEntry(state: InspectorState, key: string): InspectorState {
  return state.history.some((e) => e.key === key) ? { ...state, currentKey: key } : state;
}

export function updateEntry(state: InspectorState, key: string, change: (e: HistoryEntry) => HistoryEntry): InspectorState {
  return { ...state, history: state.history.map((e) => (e.key === key ? change(e) : e)) };
}

export function selectTensor(state: InspectorState, key: string, ref: TensorRef): InspectorState {
  return updateEntry(state, key, (e) => ({ ...e, selection: ref, view: undefined }));
}

export function setView(state: InspectorState, key: string, view: ViewState): InspectorState {
  return updateEntry(state, key, (e) => ({ ...e, view }));
}

export function clearHistory(state: InspectorState): InspectorState {
  const current = currentEntry(state);
  return { ...state, history: current ? [current] : [], currentKey: current?.key };
}

/** The selected tensor of an entry: the chosen one, else the first flagged output, else the first tensor. */
export function selectedRef(entry: HistoryEntry): TensorRef | undefined {
  if (entry.selection && refExists(entry.event, entry.selection)) return entry.selection;
  const { event } = entry;
  const flagged = new Set<number>();
  for (const m of event.invocation.toutCheck?.mismatches ?? []) if (m.index !== undefined) flagged.add(m.index);
  const output = event.outputs.findIndex((o, i) => hasValues(o) && flagged.has(i));
  if (output >= 0) return { side: 'outputs', index: output };
  const firstOutput = event.outputs.findIndex(hasValues);
  if (firstOutput >= 0) return { side: 'outputs', index: firstOutput };
  const firstInput = event.inputs.findIndex(hasValues);
  if (firstInput >= 0) return { side: 'inputs', index: firstInput };
  return undefined;
}

function refExists(event: TensorCallbackEvent, ref: TensorRef): boolean {
  return hasValues(event[ref.side][ref.index]);
}

/** A summary of something with values to show (not null, not an opaque object or Promise). */
export function hasValues(info: TensorInfo | null | undefined): info is TensorInfo {
  return !!info && !info.opaque;
}

function sameShape(a: TensorCallbackEvent, b: TensorCallbackEvent, ref: TensorRef): boolean {
  const x = a[ref.side][ref.index];
  const y = b[ref.side][ref.index];
  return !!x && !!y && x.shape.length === y.shape.length && x.shape.every((d, i) => d === y.shape[i]);
}
