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
import { createLineFramer } from '../debuggee/line-framer.js';

/** How long each step of attaching (the target list, the WebSocket's opening) may take. */
export const ATTACH_STEP_TIMEOUT_MS = 10_000;

/** Newline-delimited JSON over a stream socket. */
export function lineTransport(socket: net.Socket): Transport {
  socket.setNoDelay(true);
  socket.setEncoding('utf8');
  // A killed debuggee resets the connection: that is its end ('close' follows), not a crash.
  socket.on('error', () => {});
  const framer = createLineFramer();
  const messageListeners: ((m: string) => void)[] = [];
  socket.on('data', (chunk: string) => {
    for (const line of framer.push(chunk)) for (const l of messageListeners) l(line);
  });
  return {
    send: (message) => void socket.write(`${message}\n`),
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
    const socket = await Promise.race([
      this.connection,
      abort.then(() => Promise.reject(new Error('the program exited before its debugger bridge connected'))),
    ]);
    this.server.close();
    return lineTransport(socket);
  }

  dispose(): void {
    this.server.close();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** The WebSocket of a Node process started with --inspect=host:port. */
export async function inspectorWebSocket(host: string, port: number, timeoutMs = ATTACH_STEP_TIMEOUT_MS): Promise<Transport> {
  const listUrl = `http://${host}:${port}/json/list`;
  const seconds = timeoutMs / 1000;
  let text: string;
  try {
    const response = await fetch(listUrl, { signal: AbortSignal.timeout(timeoutMs) });
    text = await response.text();
  } catch (err) {
    const reason = (err as Error).name === 'TimeoutError' ? `no answer within ${seconds} s` : (err as Error).message;
    throw new Error(`cannot read the inspector's target list at ${listUrl}: ${reason}. Is the program running with --inspect=${host}:${port}?`);
  }
  let targets: unknown;
  try {
    targets = JSON.parse(text);
  } catch {
    throw new Error(`${listUrl} did not answer with JSON (it starts ${JSON.stringify(text.slice(0, 40))}): is port ${port} a Node.js --inspect port?`);
  }
  const target = Array.isArray(targets)
    ? (targets as { type?: unknown; webSocketDebuggerUrl?: unknown }[]).find((t) => t?.type === 'node' && typeof t.webSocketDebuggerUrl === 'string')
    : undefined;
  if (!target) throw new Error(`no Node.js inspector target at ${host}:${port} (${listUrl} lists none)`);
  // No heartbeats: Node's inspector treats ping frames as errors and drops the connection.
  const ws = new WebSocket(target.webSocketDebuggerUrl as string, { perMessageDeflate: false, handshakeTimeout: timeoutMs });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', (err) => reject(new Error(`cannot open the inspector's WebSocket ${target.webSocketDebuggerUrl as string}: ${err.message}`)));
  });
  ws.on('error', () => {}); // 'close' follows and ends the session
  return {
    send: (message) => ws.send(message),
    onMessage: (listener) => void ws.on('message', (data) => listener(data.toString())),
    onClose: (listener) => void ws.once('close', listener),
    // No closing handshake to wait for: a peer that never answers must not hold the session.
    close: () => ws.terminate(),
  };
}
