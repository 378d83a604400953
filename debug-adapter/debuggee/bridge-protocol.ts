/**
 * What crosses between the adapter and the launch bridge in the debuggee (bridge.ts), besides CDP:
 * the bridge's own methods on the socket, and the environment the launcher hands it. The launcher,
 * connect.ts and the bridge import these; the bridge's worker gets them spelled into its source.
 */
import type { AgentConfig } from './agent-protocol.js';

export const BRIDGE_METHODS = {
  /** adapter → bridge: breakpoints are set, let the program run. */
  go: 'Bridge.go',
  /** bridge → adapter: the preloads (tsx, the runtime, TF.js) have run; the program waits for go (BridgeHeldParams). */
  held: 'Bridge.held',
  /** bridge → adapter: a stop is coming and the V8 debugger is still off. */
  debuggerNeeded: 'Bridge.debuggerNeeded',
  /** adapter → bridge: the debugger is on, the stop may go ahead. */
  debuggerReady: 'Bridge.debuggerReady',
  /**
   * adapter → bridge: the session was stopped (Stop, Restart, the client gone): end the program.
   * A Debug Terminal's program whose connection closes without this word runs on undebugged.
   */
  end: 'Bridge.end',
  /**
   * bridge → adapter, as the program exits: what its inspector said before is written (the
   * adapter needs no answer; the bridge waits for the write, bridge.ts `flushAtExit`).
   */
  flushed: 'Bridge.flushed',
  /**
   * adapter → bridge: scripts not to relay, by hash (BridgeQuietScriptsParams): what V8 compiles
   * for a breakpoint condition at each hit (cdp/condition-scripts.ts).
   */
  quietScripts: 'Bridge.quietScripts',
} as const;

/** The params of BRIDGE_METHODS.quietScripts: more `Debugger.scriptParsed` hashes (of scripts with no URL) to drop. */
export interface BridgeQuietScriptsParams {
  readonly hashes: readonly string[];
}

/**
 * What the exiting program calls the logpoint binding with: the bridge's worker, which relays the
 * inspector's messages in order, writes Bridge.flushed for it instead, once all before are written.
 */
export const EXIT_FLUSH_PAYLOAD = 'tfjs-callbacks:exit-flush';

/** `Bridge.held`'s params: the backend the preloads chose (none where the runtime chose none). */
export interface BridgeHeldParams {
  readonly backend?: string;
}

/** The Unix socket the bridge connects to (only the adapter's user can open it). */
export const SOCKET_ENV = 'TFJS_CALLBACKS_DEBUG_SOCKET';
/**
 * Set by a Debug Terminal's bootloader (boot-program.ts) to the program's name: its bridge lets the
 * program run on undebugged when the session is lost, where a launch's ends it.
 */
export const TERMINAL_PROGRAM_ENV = 'TFJS_CALLBACKS_DEBUG_TERMINAL_PROGRAM';
/** The agent's first configuration (JSON `AgentConfig`), so a stop at the start needs no round trip. */
export const CONFIG_ENV = 'TFJS_CALLBACKS_DEBUG_CONFIG';

export type BridgeConfig = AgentConfig;
