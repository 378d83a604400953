/**
 * What crosses the three boundaries of the Debug Terminal ("TF.js Callbacks: Create Debug
 * Terminal"): one definition, imported by the bootloader in each Node process of the terminal
 * (boot-program.ts; boot.cts keeps a checked copy of the variable's name), the extension's
 * listener (extension/terminal-listener.ts, its vscode glue extension/debug-terminal.ts) and the
 * adapter (session.ts).
 *
 *   bootloader ──TerminalDebugRequest──▶ extension (a Unix socket in a 0700 directory)
 *   extension ── startDebugging({ request: 'attach', terminal }) ──▶ adapter
 *   adapter ── event TERMINAL_BRIDGE_EVENT { id, bridgeSocket } ──▶ extension (the adapter listens there now)
 *   extension ──TerminalDebugReply { bridgeSocket, backend }──▶ bootloader, which loads the bridge as a launch does
 *                                                               and chooses the backend as the launch would
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { BACKEND_CHOICES, type BackendChoice } from '../../runtime/backend-choice.js';

/** The terminal's variable naming the extension's socket; a process that sees it may ask for a session. */
export const TERMINAL_SOCKET_ENV = 'TFJS_CALLBACKS_TERMINAL_SOCKET';

/** bootloader → extension: one newline-terminated JSON line per connection. */
export interface TerminalDebugRequest {
  readonly version: 1;
  readonly pid: number;
  /** The main script, absolute (process.argv[1]). */
  readonly program: string;
  readonly args: readonly string[];
  readonly cwd: string;
}

/** What the extension answers a process with when its session is ready. */
export interface TerminalSession {
  readonly bridgeSocket: string;
  /**
   * The backend F5 would give the program: the `tfjsCallbacks.backend` setting of its workspace
   * folder (config-resolution.ts fills a launch's `backend` from it), chosen in the process as a
   * launch chooses it (TFJS_BACKEND for the runtime's loader).
   */
  readonly backend: BackendChoice;
}

/** extension → bootloader: one line, then the extension closes the connection. */
export type TerminalDebugReply = ({ readonly ok: true } & TerminalSession) | { readonly ok: false; readonly reason: string };

/** What a `tfjs-callbacks` attach configuration carries when it is a terminal process's session. */
export interface TerminalTarget {
  /** Matches the adapter's TERMINAL_BRIDGE_EVENT to the waiting request. */
  readonly id: string;
  readonly pid: number;
  readonly program: string;
  readonly cwd: string;
}

/** adapter → extension, custom DAP event: the bridge socket is listening; hand it to the process. */
export const TERMINAL_BRIDGE_EVENT = 'tfjsCallbacks.terminalBridge';
export interface TerminalBridgeEventBody {
  readonly id: string;
  readonly bridgeSocket: string;
}

/** Written by the bootloader, beside the bridge socket, as the process exits: its exit code. */
export const EXIT_CODE_FILE = 'exit-code';

/** The exit code the process wrote beside its bridge socket; undefined when a signal ended it. */
export function terminalExitCode(bridgeSocket: string): number | undefined {
  try {
    const text = readFileSync(path.join(path.dirname(bridgeSocket), EXIT_CODE_FILE), 'utf8');
    return /^-?\d+$/.test(text) ? Number(text) : undefined;
  } catch {
    return undefined;
  }
}

/** How long a process waits for its session before it runs undebugged. */
export const TERMINAL_REQUEST_TIMEOUT_MS = 15_000;

/** A parsed line, if it is a well-formed request (the socket is the user's own, but a line is checked all the same). */
export function parseTerminalRequest(line: string): TerminalDebugRequest | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  const r = value as Partial<Record<keyof TerminalDebugRequest, unknown>> | null;
  if (typeof r !== 'object' || r === null || r.version !== 1) return undefined;
  if (!Number.isInteger(r.pid) || typeof r.program !== 'string' || typeof r.cwd !== 'string') return undefined;
  if (!Array.isArray(r.args) || r.args.some((a) => typeof a !== 'string')) return undefined;
  return { version: 1, pid: r.pid as number, program: r.program, args: r.args as string[], cwd: r.cwd };
}

/** A parsed reply line; one that is not a well-formed reply is a refusal that says so. */
export function parseTerminalReply(line: string): TerminalDebugReply {
  const unreadable = { ok: false, reason: 'the extension sent an unreadable answer' } as const;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return unreadable;
  }
  const r = value as Partial<Record<'ok' | 'reason' | keyof TerminalSession, unknown>> | null;
  if (typeof r !== 'object' || r === null) return unreadable;
  if (r.ok === false) return { ok: false, reason: typeof r.reason === 'string' ? r.reason : 'the extension refused' };
  if (r.ok !== true || typeof r.bridgeSocket !== 'string' || !(BACKEND_CHOICES as readonly unknown[]).includes(r.backend)) return unreadable;
  return { ok: true, bridgeSocket: r.bridgeSocket, backend: r.backend as BackendChoice };
}

/** Whether attach arguments name a terminal process (else they are a --inspect attach). */
export function terminalTargetOf(args: { terminal?: unknown }): TerminalTarget | undefined {
  const t = args.terminal as Partial<Record<keyof TerminalTarget, unknown>> | undefined;
  if (typeof t !== 'object' || t === null) return undefined;
  if (typeof t.id !== 'string' || !Number.isInteger(t.pid) || typeof t.program !== 'string' || typeof t.cwd !== 'string') return undefined;
  return { id: t.id, pid: t.pid as number, program: t.program, cwd: t.cwd };
}
