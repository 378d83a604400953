/**
 * The program a session debugs (a process it launched, one it attached to, or a Debug Terminal's
 * process) and how the session ends with it: the exit reported once, nothing left running.
 */
import { constants } from 'node:os';
import { ExitedEvent, OutputEvent, TerminatedEvent } from '@vscode/debugadapter';
import type { DebugProtocol } from '@vscode/debugprotocol';
import type { BridgeListener } from './cdp/transports.js';
import type { Controller } from './pauses/controller.js';
import type { Debuggee } from './debuggee/launcher.js';
import type { TerminalTarget } from './debuggee/terminal-protocol.js';
import { mark } from './debuggee/timeline.js';

export class Program {
  /** A launched program's process. */
  debuggee: Debuggee | undefined;
  /** Where a launched program's (or a terminal's) bridge connects. */
  listener: BridgeListener | undefined;
  attached = false;
  /** A Debug Terminal's process (attachTerminal): it started itself; its bridge connects here. */
  terminal: TerminalTarget | undefined;
  private ended = false;
  /** The client asked the program to end (Stop, Restart): a signal's exit code is that, not a failure. */
  private stopAsked = false;

  constructor(
    private readonly controller: Controller,
    private readonly sendEvent: (event: DebugProtocol.Event) => void,
  ) {}

  end(code: number): void {
    if (this.ended) return;
    this.ended = true;
    mark('adapter: ended');
    this.controller.warnUnmatchedNames();
    // As js-debug does: the exit code in the Debug Console, in red when it is not 0 and not asked for.
    if (this.debuggee) {
      const stopped = this.stopAsked ? stopSignal(code) : undefined;
      const said = stopped ? `Program stopped by ${stopped}, as asked (exit code ${code})` : `Program exited with code ${code}`;
      this.sendEvent(new OutputEvent(`${said}\n`, code === 0 || stopped ? 'console' : 'stderr'));
    }
    // The program may be gone while what it started is not: end its whole process group.
    this.debuggee?.kill();
    this.controller.close();
    this.listener?.dispose();
    this.sendEvent(new ExitedEvent(code));
    this.sendEvent(new TerminatedEvent());
  }

  /** The terminate request. */
  terminate(): void {
    this.stopAsked = true;
    this.debuggee?.kill();
    // A terminal's process: its bridge ends it (and its detached children) when told.
    if (this.terminal) void this.controller.endTerminalProcess();
  }

  /** The disconnect request: an attached program runs on; a launched one ends unless the client says not to. */
  async disconnect(terminateDebuggee: boolean | undefined): Promise<void> {
    if (this.attached) {
      await this.controller.detach();
    } else if (terminateDebuggee !== false) {
      this.stopAsked = true;
      this.debuggee?.kill();
      if (this.debuggee) await Promise.race([this.debuggee.exited, delay(3000)]);
    }
    // A terminal's process ends with its session, as a launch's does: its bridge ends it when told.
    if (this.terminal) await this.controller.endTerminalProcess();
    this.listener?.dispose();
  }

  /** The client is gone (its stream closed) or asked the adapter to stop: nothing is left behind. */
  shutdown(): void {
    if (!this.attached) this.debuggee?.kill();
    if (this.terminal) void this.controller.endTerminalProcess();
    this.listener?.dispose();
  }
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/** The signal an exit code says a process died of (128 + its number, as shells report it). */
function stopSignal(code: number): string | undefined {
  if (code <= 128) return undefined;
  return Object.entries(constants.signals).find(([, n]) => n === code - 128)?.[0];
}
