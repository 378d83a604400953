/**
 * The extension's side of the Debug Terminal, free of the vscode API (debug-terminal.ts is the glue,
 * and the tests drive this module directly): a Unix socket in a fresh 0700 directory, where each
 * Node process of a debug terminal that runs a program (debuggee/boot.cts) asks for a session, and
 * the terminal's environment that points its processes here. Nothing listens on the network.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createLineFramer } from '../debug-adapter/debuggee/line-framer.js';
import {
  parseTerminalRequest,
  TERMINAL_REQUEST_TIMEOUT_MS,
  TERMINAL_SOCKET_ENV,
  type TerminalDebugReply,
  type TerminalDebugRequest,
  type TerminalSession,
  type TerminalTarget,
} from '../debug-adapter/debuggee/terminal-protocol.js';
import { DEBUG_TYPE } from './config-resolution.js';

/** Starts a session for a process; resolves with the adapter's bridge socket and the backend to choose, or rejects with why not (said to the terminal). */
export type StartTerminalSession = (request: TerminalDebugRequest) => Promise<TerminalSession>;

/** A request line is a few hundred bytes; this bounds what a broken client can make us hold. */
const MAX_REQUEST_CHARS = 64 * 1024;
/** The reply leaves before the process's own wait (boot-program.ts) runs out. */
const SESSION_WAIT_MS = TERMINAL_REQUEST_TIMEOUT_MS - 1000;

export class DebugTerminalListener {
  readonly socketPath: string;
  private readonly dir: string;
  private readonly server: net.Server;

  private constructor(private readonly startSession: StartTerminalSession) {
    this.dir = mkdtempSync(path.join(os.tmpdir(), 'tfjs-cb-term-'));
    this.socketPath = path.join(this.dir, 'terminal.sock');
    this.server = net.createServer((socket) => this.serve(socket));
  }

  static async start(startSession: StartTerminalSession): Promise<DebugTerminalListener> {
    const listener = new DebugTerminalListener(startSession);
    await new Promise<void>((resolve, reject) => {
      listener.server.once('error', reject);
      listener.server.listen(listener.socketPath, () => resolve());
    });
    return listener;
  }

  /** The variables a debug terminal gets: NODE_OPTIONS loads the bootloader (after what it held), and where to ask. */
  terminalEnv(bootloader: string, nodeOptions: string | undefined): Record<string, string> {
    return { NODE_OPTIONS: terminalNodeOptions(bootloader, nodeOptions), [TERMINAL_SOCKET_ENV]: this.socketPath };
  }

  dispose(): void {
    this.server.close();
    rmSync(this.dir, { recursive: true, force: true });
  }

  private serve(socket: net.Socket): void {
    socket.setEncoding('utf8');
    socket.on('error', () => {}); // a process that exits while it waits: nothing to answer
    const framer = createLineFramer();
    let seen = 0;
    let answered = false;
    const reply = (r: TerminalDebugReply) => {
      if (answered) return;
      answered = true;
      socket.end(`${JSON.stringify(r)}\n`);
    };
    socket.on('data', (chunk: string) => {
      seen += chunk.length;
      if (seen > MAX_REQUEST_CHARS) return reply({ ok: false, reason: 'the request is too long' });
      const line = framer.push(chunk)[0];
      if (line === undefined || answered) return;
      const request = parseTerminalRequest(line);
      if (!request) return reply({ ok: false, reason: 'the request is not one this extension understands (another version?)' });
      void withTimeout(this.startSession(request), SESSION_WAIT_MS).then(
        (session) => reply({ ok: true, bridgeSocket: session.bridgeSocket, backend: session.backend }),
        (err: unknown) => reply({ ok: false, reason: err instanceof Error ? err.message : String(err) }),
      );
    });
  }
}

/**
 * NODE_OPTIONS with `--require <bootloader>` after what it held (quoted when the path needs it). A
 * `--require`, not an `--import`: on Node 20 any `--import` sends every entry point through the ES
 * module loader, past the CommonJS require hooks of babel-node, ts-node and @babel/register.
 */
export function terminalNodeOptions(bootloader: string, existing: string | undefined): string {
  const flag = `--require=${/[\s"'\\]/.test(bootloader) ? `"${bootloader.replace(/["\\]/g, '\\$&')}"` : bootloader}`;
  return existing?.trim() ? `${existing} ${flag}` : flag;
}

/** The debug configuration of a terminal process's session (`request: 'attach'` with `terminal`). */
export function terminalConfiguration(request: TerminalDebugRequest, id: string): { type: string; request: 'attach'; name: string; terminal: TerminalTarget } {
  return {
    type: DEBUG_TYPE,
    request: 'attach',
    name: `${path.basename(request.program)} (terminal)`,
    terminal: { id, pid: request.pid, program: request.program, cwd: request.cwd },
  };
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`VS Code did not start a debug session within ${ms / 1000} s`)), ms);
    promise.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (err: unknown) => {
        clearTimeout(timer);
        reject(err);
      },
    );
  });
}
