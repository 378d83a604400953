/**
 * The live debuggee: its CDP connection, its agent and its scripts, from the handshake to its
 * end (a detach, a Debug Terminal process ended through its bridge, the program's exit). The
 * controller (controller.ts) is this plus what it makes of the debuggee's pauses.
 */
import { EventEmitter } from 'node:events';
import { AgentClient } from '../cdp/agent-client.js';
import type { CdpConnection } from '../cdp/connection.js';
import { BRIDGE_METHODS } from '../debuggee/bridge-protocol.js';
import { Scripts } from '../sources/scripts.js';
import type { FilterConfig } from '../launch-config.js';

/** What the controller connects with: the filters, whether the debugger comes on at once, and how the debuggee is reached. */
export type ConnectOptions = { filters: FilterConfig; debuggerNow: boolean; stopOnEntryFile?: string; injectAgent?: string; viaBridge?: boolean };

/** The live debuggee, for the collaborators that read it (stack, variables, evaluation). */
export interface DebuggeeConnection {
  readonly cdp: CdpConnection;
  readonly agent: AgentClient;
  readonly scripts: Scripts;
}

/** How long Stop waits for a terminal's process to end on `Bridge.end` before closing anyway. */
const END_WAIT_MS = 2000;

export class LiveDebuggee extends EventEmitter {
  readonly scripts = new Scripts(() => this.cdp);
  protected cdp: CdpConnection | undefined;
  protected agentClient: AgentClient | undefined;
  protected readonly connectHooks: ((agent: AgentClient) => Promise<void>)[] = [];

  /** Takes the debuggee's connection (the handshake's). */
  protected open(cdp: CdpConnection): void {
    this.cdp = cdp;
    this.agentClient = new AgentClient(cdp);
  }

  /** The live debuggee, or why there is none. */
  connection(): DebuggeeConnection {
    if (!this.cdp || !this.agentClient) throw new Error('the program is not running');
    return { cdp: this.cdp, agent: this.agentClient, scripts: this.scripts };
  }

  /** The agent of the live debuggee. */
  get agent(): AgentClient {
    return this.connection().agent;
  }

  /**
   * Runs `hook` with each debuggee's agent as it connects, before the program goes on: what was
   * set while no program ran (a data breakpoint kept from the last session) reaches the agent.
   */
  onConnected(hook: (agent: AgentClient) => Promise<void>): void {
    this.connectHooks.push(hook);
  }

  /** Calls `listener` when the debuggee's connection closes. */
  onClosed(listener: () => void): void {
    this.cdp?.onClose(listener);
  }

  /** Settles once the debuggee's connection has closed (at once when there is none, or it has). */
  whenClosed(): Promise<void> {
    const cdp = this.cdp;
    if (!cdp || cdp.isClosed) return Promise.resolve();
    return new Promise((resolve) => cdp.onClose(resolve));
  }

  /** Leaves an attached program running as it was: no breakpoints, not paused. */
  async detach(): Promise<void> {
    await this.cdp?.send('Debugger.disable').catch(() => {});
    this.cdp?.close();
  }

  /** Closes the connection (the program ended): requests after it say so. */
  close(): void {
    this.cdp?.close();
  }

  /**
   * Stop on a Debug Terminal's process: its bridge ends it on `Bridge.end`; then the connection
   * closes. (Closed without that word, the bridge lets the program run on undebugged.)
   */
  async endTerminalProcess(): Promise<void> {
    const cdp = this.cdp;
    if (!cdp || cdp.isClosed) return;
    // The bridge ends the process rather than answer: the connection's close settles this.
    const waited = new Promise((resolve) => setTimeout(resolve, END_WAIT_MS).unref());
    await Promise.race([cdp.sendRaw(BRIDGE_METHODS.end).catch(() => {}), waited]);
    cdp.close();
  }

  /** Closes the connection and forgets it (the debuggee is gone, or the handshake failed). */
  disconnect(): void {
    this.cdp?.close();
    this.cdp = undefined;
    this.agentClient = undefined;
  }

  /** Whether the debuggee's connection has closed (it exited, or was detached). */
  get closed(): boolean {
    return this.cdp?.isClosed ?? true;
  }
}
