/**
 * DAP `readMemory` on tensors: a tensor, NdArray or typed array shown in Variables (the Callback
 * scope's inputs, a Node scope's tensors, anything V8's scopes or an evaluate show) carries a
 * `memoryReference`, and its bytes are read through the agent page by page, as stored
 * (little-endian), so VS Code's hex editor opens on a tensor's buffer.
 *
 * A reference is made without asking the debuggee (variables stay one round trip); the first read
 * pins the value in the agent (weakly), and later reads, after the stop too, go to that pin. A
 * reference never pinned is readable only at the stop that showed it, and is forgotten when the
 * stop ends (a stop makes one per tensor shown: kept, they grew with a long session's stops). Ids
 * are never reused: a hex editor left open from an earlier stop cannot read another tensor by mistake.
 */
import type { DebugProtocol } from '@vscode/debugprotocol';
import type { AgentClient } from '../cdp/agent-client.js';
import type { MemoryPage, Side } from '../debuggee/agent-protocol.js';

/** The most bytes one readMemory answers: a client asks again from where the answer ended. */
export const MAX_READ_BYTES = 1 << 20;
/** Pinned references kept; the oldest go first. */
const MAX_REFERENCES = 10_000;

/** How to find the value at the stop that showed it. */
export type MemoryLocator =
  | { readonly kind: 'object'; readonly objectId: string }
  | { readonly kind: 'input'; readonly id: number; readonly index: number; readonly side?: Side }
  | { readonly kind: 'node'; readonly side: Side; readonly index: number }
  /** A data breakpoint stop's values: 0 the old value, 1 the new, 2 the change. */
  | { readonly kind: 'data'; readonly index: number };

const EARLIER_STOP = 'this tensor was shown at an earlier stop and never read then: expand it again to read its memory';

interface Entry {
  readonly locator: MemoryLocator;
  readonly stop: number;
  pin?: number;
}

export class MemoryReferences {
  private readonly entries = new Map<string, Entry>();
  private readonly byObject = new Map<string, string>();
  /** The references the inspector's byte views made at this stop, by locator. */
  private readonly byLocator = new Map<string, string>();
  /** The references made at this stop. */
  private readonly madeThisStop: string[] = [];
  private next = 1;
  private stop = 0;

  /** The stop is over: its unpinned references can no longer be found, and are forgotten. */
  stopEnded(): void {
    for (const ref of this.madeThisStop.splice(0)) if (this.entries.get(ref)?.pin === undefined) this.entries.delete(ref);
    this.stop++;
    this.byObject.clear();
    this.byLocator.clear();
  }

  /** How many references are kept: those pinned, and the current stop's. */
  get size(): number {
    return this.entries.size;
  }

  /** A reference for a value (the same one for the same remote object at one stop). */
  create(locator: MemoryLocator): string {
    if (locator.kind === 'object') {
      const known = this.byObject.get(locator.objectId);
      if (known) return known;
    }
    const ref = `tensor-${this.next++}`;
    this.entries.set(ref, { locator, stop: this.stop });
    this.madeThisStop.push(ref);
    if (locator.kind === 'object') this.byObject.set(locator.objectId, ref);
    if (this.entries.size > MAX_REFERENCES) this.entries.delete(this.entries.keys().next().value!);
    return ref;
  }

  /** The readMemory response body for `memoryReference` + `offset`, at most `count` (≤ MAX_READ_BYTES) bytes. */
  async read(agent: AgentClient, reference: string, offset: number, count: number): Promise<DebugProtocol.ReadMemoryResponse['body']> {
    const asked = Math.max(0, Math.min(count, MAX_READ_BYTES));
    const page = await this.page(agent, reference, offset, asked);
    const returned = Buffer.from(page.data, 'base64').length;
    // Bytes asked for past the end of the buffer are unreadable; a request cut at the cap is not.
    const past = Math.max(0, offset + asked - page.byteLength);
    return {
      address: `0x${page.offset.toString(16)}`,
      data: page.data,
      ...(past > 0 ? { unreadableBytes: Math.min(past, asked - returned) } : {}),
    };
  }

  /** Bytes of a value of this stop found by `locator` (the inspector's byte view), with the buffer's length and dtype. */
  bytes(agent: AgentClient, locator: MemoryLocator, offset: number, count: number): Promise<MemoryPage> {
    const key = JSON.stringify(locator);
    let reference = this.byLocator.get(key);
    if (!reference) {
      reference = this.create(locator);
      this.byLocator.set(key, reference);
    }
    return this.page(agent, reference, offset, Math.max(0, Math.min(count, MAX_READ_BYTES)));
  }

  private async page(agent: AgentClient, reference: string, offset: number, count: number): Promise<MemoryPage> {
    const entry = this.entries.get(reference);
    if (!entry) throw new Error(this.issued(reference) ? EARLIER_STOP : `${reference} is not a memory reference of this session`);
    entry.pin ??= await this.pin(agent, entry);
    const page = await agent.call((a, pin, from, n) => a.memoryRead(pin, from, n), entry.pin, offset, count);
    if ('error' in page) throw new Error(page.error);
    return page;
  }

  /** Whether `reference` is one this session made (`tensor-<n>`, n below the next). */
  private issued(reference: string): boolean {
    const n = /^tensor-(\d+)$/.exec(reference)?.[1];
    return n !== undefined && Number(n) < this.next;
  }

  private async pin(agent: AgentClient, entry: Entry): Promise<number> {
    if (entry.stop !== this.stop) throw new Error(EARLIER_STOP);
    const { locator } = entry;
    let pinned: number | { error: string } | undefined;
    if (locator.kind === 'object') {
      pinned = await agent.callOn(locator.objectId, function (a) {
        return a.memoryPin(this);
      });
    } else if (locator.kind === 'input') {
      pinned = await agent.call(
        (a, id, side, index) => {
          const values = a.values(id, side);
          return values && index < values.length ? a.memoryPin(values[index]) : { error: `${side.slice(0, -1)} ${index} of invocation ${id} is not there` };
        },
        locator.id,
        locator.side ?? 'inputs',
        locator.index,
      );
    } else if (locator.kind === 'data') {
      pinned = await agent.call((a, index) => {
        const values = a.dataValues();
        return values && index < values.length ? a.memoryPin(values[index]) : { error: 'the program is not stopped at a data breakpoint' };
      }, locator.index);
    } else {
      pinned = await agent.call(
        (a, side, index) => {
          const values = a.nodeValues(side);
          return values && index < values.length ? a.memoryPin(values[index]) : { error: 'the program is no longer stopped at that node' };
        },
        locator.side,
        locator.index,
      );
    }
    if (typeof pinned !== 'number') throw new Error(pinned?.error ?? 'the value is gone');
    return pinned;
  }
}
