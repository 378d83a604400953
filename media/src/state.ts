/**
 * The inspector's state: the history of invocations (per debug session), which one is shown,
 * the selected tensor and how it is sliced and paged. Kept with vscode.setState so a hidden and
 * re-shown panel comes back as it was; everything here is plain JSON.
 */
import { checkEvent } from './event-check.js';
import { checkNodeEvent } from './node-check.js';
import { type PinsState, restorePins } from './pins-state.js';
import type { HostMessage, NodeStopEvent, Side, TensorCallbackEvent, TensorInfo } from './protocol.js';

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

interface EntryBase {
  readonly key: string;
  readonly sessionId: string;
  /** The program is (as far as we know) stopped in this invocation, or at this node. */
  readonly live: boolean;
  /** Its debug session has ended: values can no longer be fetched. */
  readonly ended: boolean;
  readonly receivedAt: number;
  readonly selection?: TensorRef;
  readonly view?: ViewState;
  /** Values of the event as sent that could not be shown, and why (event-check.ts). */
  readonly problems?: readonly string[];
}

/** A stop in a callback invocation (`kind` is absent in states saved before nodes were shown). */
export interface InvocationEntry extends EntryBase {
  readonly kind?: 'invocation';
  readonly event: TensorCallbackEvent;
}

/** A model node: a stop at it, or one clicked in the graph view. */
export interface NodeEntry extends EntryBase {
  readonly kind: 'node';
  readonly event: NodeStopEvent;
}

export type HistoryEntry = InvocationEntry | NodeEntry;

/** An entry's inputs or outputs, whichever kind it is. */
export function tensorsOf(entry: HistoryEntry, side: Side): readonly (TensorInfo | null)[] {
  return entry.kind === 'node' ? entry.event.node[side] : entry.event[side];
}

export interface InspectorState {
  readonly version: 1;
  readonly history: readonly HistoryEntry[];
  readonly currentKey?: string;
  readonly pageRows: number;
  readonly pageCols: number;
  /** The Pinned section (pins-state.ts). */
  readonly pins?: PinsState;
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
    pins: restorePins(s.pins),
  };
}

function restoreEntry(e: HistoryEntry): HistoryEntry {
  const checked = e.kind === 'node' ? checkNodeEvent(e.event) : checkEvent(e.event);
  // What was found on arrival (the event was saved as repaired), and anything the saved copy adds.
  const saved = Array.isArray(e.problems) ? e.problems.filter((p): p is string => typeof p === 'string').slice(0, 500) : [];
  const problems = [...saved, ...checked.problems.filter((p) => !saved.includes(p))];
  const selection =
    e.selection && (e.selection.side === 'inputs' || e.selection.side === 'outputs') && Number.isSafeInteger(e.selection.index) ? e.selection : undefined;
  const base: EntryBase = {
    key: e.key,
    sessionId: e.sessionId,
    live: e.live === true,
    ended: e.ended === true,
    receivedAt: typeof e.receivedAt === 'number' ? e.receivedAt : 0,
    ...(selection ? { selection } : {}),
    ...(e.view && typeof e.view === 'object' && Array.isArray(e.view.fixed) ? { view: e.view } : {}),
    ...(problems.length > 0 ? { problems } : {}),
  };
  return 'node' in checked.event ? { ...base, kind: 'node', event: checked.event } : { ...base, event: checked.event };
}

export function entryKey(sessionId: string, invocationId: number): string {
  return `${sessionId}#${invocationId}`;
}

/** A node's entry: one per node run (its frame key in control flow, else its place in the run). */
export function nodeEntryKey(sessionId: string, event: NodeStopEvent): string {
  const { graph, node, frameKey, index } = event.node;
  return `${sessionId}#node\u0000${graph}\u0000${node}\u0000${frameKey ?? index}`;
}

export function currentEntry(state: InspectorState): HistoryEntry | undefined {
  return state.history.find((e) => e.key === state.currentKey);
}

/** Applies a message from the host; tensorData answers do not change the state. */
export function reduce(state: InspectorState, message: HostMessage, now = Date.now()): InspectorState {
  switch (message.type) {
    case 'invocation': {
      const { event, problems } = checkEvent(message.event);
      return addEntry(state, { kind: 'invocation', key: entryKey(message.sessionId, event.invocation.id), event }, message, now, problems);
    }
    case 'node': {
      const { event, problems } = checkNodeEvent(message.event);
      return addEntry(state, { kind: 'node', key: nodeEntryKey(message.sessionId, event), event }, message, now, problems);
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

type Arrival = (Pick<InvocationEntry, 'key' | 'event'> & { kind: 'invocation' }) | Pick<NodeEntry, 'key' | 'event' | 'kind'>;

/**
 * A stop or a node: shown, and added to the history. A later stop in the same invocation (or at the
 * same node run) updates its entry, keeping the selected tensor and, when its shape is the same, the view.
 */
function addEntry(
  state: InspectorState,
  arrival: Arrival,
  message: { readonly sessionId: string; readonly live: boolean },
  now: number,
  problems: readonly string[],
): InspectorState {
  const { key } = arrival;
  const { sessionId, live } = message;
  const existing = state.history.find((e) => e.key === key);
  const history = state.history.map((e) => (live && e.sessionId === sessionId && e.key !== key && e.live ? { ...e, live: false } : e));
  const fresh: HistoryEntry = {
    ...(arrival.kind === 'node' ? { kind: 'node', event: arrival.event } : { event: arrival.event }),
    key,
    sessionId,
    live,
    ended: false,
    receivedAt: now,
    ...(problems.length > 0 ? { problems } : {}),
  };
  let next: HistoryEntry[];
  if (existing) {
    const selection = existing.selection && refExists(fresh, existing.selection) ? existing.selection : undefined;
    const sameTensor = selection && sameShape(existing, fresh, selection);
    const updated: HistoryEntry = { ...fresh, ...(selection ? { selection } : {}), ...(sameTensor && existing.view ? { view: existing.view } : {}) };
    next = history.map((e) => (e.key === key ? updated : e));
  } else {
    next = [...history, fresh];
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
  if (entry.selection && refExists(entry, entry.selection)) return entry.selection;
  const flagged = new Set<number>();
  if (entry.kind !== 'node') for (const m of entry.event.invocation.toutCheck?.mismatches ?? []) if (m.index !== undefined) flagged.add(m.index);
  const outputs = tensorsOf(entry, 'outputs');
  const output = outputs.findIndex((o, i) => hasValues(o) && flagged.has(i));
  if (output >= 0) return { side: 'outputs', index: output };
  const firstOutput = outputs.findIndex(hasValues);
  if (firstOutput >= 0) return { side: 'outputs', index: firstOutput };
  const firstInput = tensorsOf(entry, 'inputs').findIndex(hasValues);
  if (firstInput >= 0) return { side: 'inputs', index: firstInput };
  return undefined;
}

function refExists(entry: HistoryEntry, ref: TensorRef): boolean {
  return hasValues(tensorsOf(entry, ref.side)[ref.index]);
}

/** A summary of something with values to show (not null, not an opaque object or Promise). */
export function hasValues(info: TensorInfo | null | undefined): info is TensorInfo {
  return !!info && !info.opaque;
}

function sameShape(a: HistoryEntry, b: HistoryEntry, ref: TensorRef): boolean {
  const x = tensorsOf(a, ref.side)[ref.index];
  const y = tensorsOf(b, ref.side)[ref.index];
  return !!x && !!y && x.shape.length === y.shape.length && x.shape.every((d, i) => d === y.shape[i]);
}
