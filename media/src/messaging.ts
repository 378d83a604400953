/**
 * Messages with the panel: `tensorData`, `tensorBytes` and `tensorDiff` requests matched to their answers by
 * requestId, with a time limit, and the other host messages passed on.
 */
import { asPinsMessage } from './pins-state.js';
import type { BytesRequest, DiffRequest, HostMessage, SliceRequest, TensorBytes, TensorDiffAnswer, TensorSlice, WebviewMessage } from './protocol.js';

export type { BytesRequest, SliceRequest };

type Answer = Extract<HostMessage, { type: 'tensorData' | 'tensorBytes' | 'tensorDiff' }>;

interface Pending {
  readonly resolve: (answer: Answer) => void;
  readonly reject: (error: Error) => void;
  readonly timer: ReturnType<typeof setTimeout>;
}

export class HostChannel {
  private readonly pending = new Map<number, Pending>();
  /** Random start, so an answer to a request made before a reload cannot match a new one. */
  private nextId = Math.floor(Math.random() * 1e6) * 1000 + 1;

  constructor(
    private readonly post: (message: WebviewMessage) => void,
    private readonly timeoutMs = 30_000,
  ) {}

  async requestSlice(request: SliceRequest): Promise<TensorSlice> {
    const answer = await this.request((requestId) => ({ type: 'tensorData', requestId, ...request }));
    if (answer.type === 'tensorData' && answer.slice && Array.isArray(answer.slice.values)) return answer.slice;
    throw new Error(answer.error ?? 'the debugger sent no values');
  }

  async requestBytes(request: BytesRequest): Promise<TensorBytes> {
    const answer = await this.request((requestId) => ({ type: 'tensorBytes', requestId, ...request }));
    if (answer.type === 'tensorBytes' && answer.bytes && typeof answer.bytes.data === 'string') return answer.bytes;
    throw new Error(answer.error ?? 'the debugger sent no bytes');
  }

  /** Compare: one input or output of two invocations, compared in the debuggee. */
  async requestDiff(request: DiffRequest): Promise<TensorDiffAnswer> {
    const answer = await this.request((requestId) => ({ type: 'tensorDiff', requestId, ...request }));
    if (answer.type === 'tensorDiff' && answer.diff && typeof answer.diff === 'object') return answer.diff;
    throw new Error(answer.error ?? 'the debugger sent no comparison');
  }

  private request(message: (requestId: number) => WebviewMessage): Promise<Answer> {
    const requestId = this.nextId++;
    return new Promise<Answer>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(requestId);
        reject(new Error(`no answer from the debugger after ${Math.round(this.timeoutMs / 1000)} s`));
      }, this.timeoutMs);
      this.pending.set(requestId, { resolve, reject, timer });
      this.post(message(requestId));
    });
  }

  /** Settles the request an answer is for; true when the message was one. */
  settle(message: HostMessage): boolean {
    if (message.type !== 'tensorData' && message.type !== 'tensorBytes' && message.type !== 'tensorDiff') return false;
    const p = this.pending.get(message.requestId);
    if (!p) return true;
    this.pending.delete(message.requestId);
    clearTimeout(p.timer);
    p.resolve(message);
    return true;
  }

  /** Rejects everything under way (e.g. the session ended). */
  cancelAll(reason: string): void {
    for (const [id, p] of this.pending) {
      clearTimeout(p.timer);
      p.reject(new Error(reason));
      this.pending.delete(id);
    }
  }
}

/** A host message, or undefined for anything else posted to the window. */
export function asHostMessage(data: unknown): HostMessage | undefined {
  if (!data || typeof data !== 'object') return undefined;
  const m = data as { type?: unknown };
  if (m.type === 'invocation' || m.type === 'node' || m.type === 'training') {
    // Its event is checked field by field when it is shown (event-check.ts, node-check.ts): a malformed one still shows what it can.
    const i = data as { sessionId?: unknown; event?: unknown };
    return typeof i.sessionId === 'string' && i.event && typeof i.event === 'object' ? (data as HostMessage) : undefined;
  }
  if (m.type === 'tensorData' || m.type === 'tensorBytes' || m.type === 'tensorDiff' || m.type === 'modelInfo')
    return typeof (data as { requestId?: unknown }).requestId === 'number' ? (data as HostMessage) : undefined;
  if (m.type === 'sessionEnded' || m.type === 'sessionStarted')
    return typeof (data as { sessionId?: unknown }).sessionId === 'string' ? (data as HostMessage) : undefined;
  if (m.type === 'pins' || m.type === 'pinned') return asPinsMessage(data);
  return undefined;
}
