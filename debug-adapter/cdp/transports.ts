/**
 * Transports for the CDP connection: the bridge's Unix socket (launch) and the inspector's
 * WebSocket (attach to a process started with --inspect).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import type { Transport } from './connection.js';

/** Newline-delimited JSON over a stream socket. */
export function lineTransport(socket: net.Socket): Transport {
  socket.setNoDelay(true);
  socket.setEncoding('utf8');
  // A killed debuggee resets the connection: that is its end ('close' follows), not a crash.
  socket.on('error', () => {});
  let buffer = '';
  const messageListeners: ((m: string) => void)[] = [];
  socket.on('data', (chunk: string) => {
    buffer += chunk;
    for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      if (line) for (const l of messageListeners) l(line);
    }
  });
  return {
    send: (message) => void socket.write(message + '\n'),
    onMessage: (listener) => void messageListeners.push(listener),
    onClose: (listener) => void socket.once('close', listener),
    close: () => socket.destroy(),
  };
}

/**
 * A Unix socket in a fresh directory only this user can enter (mkdtemp makes it 0700): the
 * debuggee's bridge connects to it; nothing listens on the network.
 */
export class BridgeListener {
  readonly socketPath: string;
  private readonly dir: string;
  private readonly server: net.Server;
  private readonly connection: Promise<net.Socket>;

  constructor() {
    this.dir = mkdtempSync(path.join(os.tmpdir(), 'tfjs-cb-dbg-'));
    this.socketPath = path.join(this.dir, 'bridge.sock');
    this.server = net.createServer();
    this.connection = new Promise((resolve) => this.server.once('connection', resolve));
    this.server.listen(this.socketPath);
  }

  /** Resolves with the bridge's transport, or rejects when `abort` settles first. */
  async accept(abort: Promise<unknown>): Promise<Transport> {
    const socket = await Promise.race([this.connection, abort.then(() => Promise.reject(new Error('the program exited before its debugger bridge connected')))]);
    this.server.close();
    return lineTransport(socket);
  }

  dispose(): void {
    this.server.close();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** The WebSocket of a Node process started with --inspect=host:port. */
export async function inspectorWebSocket(host: string, port: number): Promise<Transport> {
  const response = await fetch(`http://${host}:${port}/json/list`);
  const targets = (await response.json()) as { type: string; webSocketDebuggerUrl?: string }[];
  const target = targets.find((t) => t.type === 'node' && t.webSocketDebuggerUrl);
  if (!target?.webSocketDebuggerUrl) throw new Error(`no Node.js inspector target at ${host}:${port}`);
  // No heartbeats: Node's inspector treats ping frames as errors and drops the connection.
  const ws = new WebSocket(target.webSocketDebuggerUrl, { perMessageDeflate: false });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  ws.on('error', () => {}); // 'close' follows and ends the session
  return {
    send: (message) => ws.send(message),
    onMessage: (listener) => void ws.on('message', (data) => listener(data.toString())),
    onClose: (listener) => void ws.once('close', listener),
    close: () => ws.close(),
  };
}
