/**
 * A typed Chrome DevTools Protocol client over any message transport (the in-process bridge's Unix
 * socket, or a WebSocket for attach). Knows nothing of DAP.
 */
import { appendFileSync } from 'node:fs';
import { EventEmitter } from 'node:events';
import type { ProtocolMapping } from 'devtools-protocol/types/protocol-mapping.js';

type Commands = ProtocolMapping.Commands;
type Events = ProtocolMapping.Events;

/** Moves whole JSON messages in both directions. */
export interface Transport {
  send(message: string): void;
  onMessage(listener: (message: string) => void): void;
  onClose(listener: () => void): void;
  close(): void;
}

export class CdpError extends Error {
  constructor(
    readonly method: string,
    readonly code: number | string | undefined,
    message: string,
  ) {
    super(`${method}: ${message}`);
    this.name = 'CdpError';
  }
}

interface Pending {
  method: string;
  resolve(result: unknown): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

/**
 * How long a command may go unanswered: a debuggee blocked in native code, or a WebSocket that
 * never answers, must not leave a DAP request waiting forever.
 */
export const COMMAND_TIMEOUT_MS = 60_000;

/** With `TFJS_CALLBACKS_CDP_LOG=<file>`, each message's first 300 characters, timed (for races no test shows). */
const CDP_LOG = process.env.TFJS_CALLBACKS_CDP_LOG;

export class CdpConnection {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly commandObservers: ((method: string, params: unknown) => void)[] = [];
  private readonly events = new EventEmitter();
  private closed = false;

  private closeReason = 'the debuggee connection closed';

  /** `timeoutMs`: how long each command may go unanswered (attach uses a short one to start). */
  constructor(
    private readonly transport: Transport,
    public timeoutMs = COMMAND_TIMEOUT_MS,
  ) {
    this.events.setMaxListeners(50);
    transport.onMessage((text) => this.receive(text));
    transport.onClose(() => this.ended());
  }

  /** Every pending command fails with the reason; 'close' is emitted once. */
  private ended(): void {
    if (this.closed) return;
    this.closed = true;
    for (const p of this.pending.values()) {
      clearTimeout(p.timer);
      p.reject(new CdpError(p.method, 'closed', this.closeReason));
    }
    this.pending.clear();
    this.events.emit('close');
  }

  get isClosed(): boolean {
    return this.closed;
  }

  send<M extends keyof Commands>(method: M, ...params: Commands[M]['paramsType']): Promise<Commands[M]['returnType']> {
    return this.sendRaw(method, params[0]) as Promise<Commands[M]['returnType']>;
  }

  /** For methods outside the protocol's typings (the bridge's own `Bridge.go`). */
  sendRaw(method: string, params?: unknown): Promise<unknown> {
    if (this.closed) return Promise.reject(new CdpError(method, 'closed', this.closeReason));
    for (const observe of this.commandObservers) observe(method, params);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const seconds = this.timeoutMs / 1000;
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(
          new CdpError(method, 'timeout', `no answer from the debuggee within ${seconds} s (it may be blocked in native code, or not a Node.js inspector)`),
        );
      }, this.timeoutMs);
      timer.unref();
      this.pending.set(id, { method, resolve, reject, timer });
      const line = JSON.stringify({ id, method, params: params ?? {} });
      if (CDP_LOG) appendFileSync(CDP_LOG, `${Date.now()} > ${line.slice(0, 300)}\n`);
      this.transport.send(line);
    });
  }

  /** `observe` sees each command before it is written (what it sends first goes first). */
  onCommand(observe: (method: string, params: unknown) => void): void {
    this.commandObservers.push(observe);
  }

  on<E extends keyof Events>(event: E, listener: (...params: Events[E]) => void): this {
    this.events.on(event, listener as (...args: unknown[]) => void);
    return this;
  }

  /** For notifications outside the protocol's typings (the bridge's own `Bridge.debuggerNeeded`). */
  onRaw(method: string, listener: (params: unknown) => void): this {
    this.events.on(method, listener);
    return this;
  }

  onClose(listener: () => void): void {
    this.events.on('close', listener);
  }

  close(): void {
    this.transport.close();
  }

  private receive(text: string): void {
    if (CDP_LOG) appendFileSync(CDP_LOG, `${Date.now()} < ${text.slice(0, 300)}\n`);
    let message: { id?: number; method?: string; params?: unknown; result?: unknown; error?: { code?: number; message: string } };
    try {
      message = JSON.parse(text);
      if (typeof message !== 'object' || message === null) throw new Error('not an object');
    } catch {
      // Not a CDP peer: end the connection with a reason every pending command carries.
      this.closeReason = `the debuggee sent a message that is not CDP JSON (${JSON.stringify(text.slice(0, 60))}${text.length > 60 ? '…' : ''}); is this a Node.js inspector?`;
      this.ended();
      this.transport.close();
      return;
    }
    if (message.id !== undefined) {
      const pending = this.pending.get(message.id);
      if (!pending) return;
      this.pending.delete(message.id);
      clearTimeout(pending.timer);
      if (message.error) pending.reject(new CdpError(pending.method, message.error.code, message.error.message));
      else pending.resolve(message.result);
      return;
    }
    if (!message.method) return;
    try {
      this.events.emit(message.method, message.params);
    } catch (err) {
      // A listener's failure on one odd event must not take the adapter down; stderr is not DAP.
      process.stderr.write(`tfjs-callbacks debug adapter: handling ${message.method}: ${err instanceof Error ? err.stack : String(err)}\n`);
    }
  }
}
