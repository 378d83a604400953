/**
 * A typed Chrome DevTools Protocol client over any message transport (the in-process bridge's Unix
 * socket, or a WebSocket for attach). Knows nothing of DAP.
 */
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
  constructor(readonly method: string, readonly code: number | string | undefined, message: string) {
    super(`${method}: ${message}`);
    this.name = 'CdpError';
  }
}

interface Pending {
  method: string;
  resolve(result: unknown): void;
  reject(error: Error): void;
}

export class CdpConnection {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly events = new EventEmitter();
  private closed = false;

  constructor(private readonly transport: Transport) {
    this.events.setMaxListeners(50);
    transport.onMessage((text) => this.receive(text));
    transport.onClose(() => {
      this.closed = true;
      for (const p of this.pending.values()) p.reject(new CdpError(p.method, 'closed', 'the debuggee connection closed'));
      this.pending.clear();
      this.events.emit('close');
    });
  }

  get isClosed(): boolean {
    return this.closed;
  }

  send<M extends keyof Commands>(method: M, ...params: Commands[M]['paramsType']): Promise<Commands[M]['returnType']> {
    return this.sendRaw(method, params[0]) as Promise<Commands[M]['returnType']>;
  }

  /** For methods outside the protocol's typings (the bridge's own `Bridge.go`). */
  sendRaw(method: string, params?: unknown): Promise<unknown> {
    if (this.closed) return Promise.reject(new CdpError(method, 'closed', 'the debuggee connection is closed'));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { method, resolve, reject });
      this.transport.send(JSON.stringify({ id, method, params: params ?? {} }));
    });
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
    const message = JSON.parse(text) as { id?: number; method?: string; params?: unknown; result?: unknown; error?: { code?: number; message: string } };
    if (message.id !== undefined) {
      const pending = this.pending.get(message.id);
      if (!pending) return;
      this.pending.delete(message.id);
      if (message.error) pending.reject(new CdpError(pending.method, message.error.code, message.error.message));
      else pending.resolve(message.result);
      return;
    }
    if (message.method) this.events.emit(message.method, message.params);
  }
}
