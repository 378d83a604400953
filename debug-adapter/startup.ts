/**
 * How a session gets its program: a launch (the debuggee spawned, its output forwarded, the request
 * answered as soon as its bridge connects), an attach to a --inspect port, or a Debug Terminal's
 * process. Each handshake waits for the client's configuration (breakpoints, filters) first.
 */
import { Event, OutputEvent } from '@vscode/debugadapter';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { filterTfStartupLines } from '../runtime/tf-startup-logs.js';
import { BridgeListener } from './cdp/transports.js';
import type { Client } from './client.js';
import { connectAttached, connectLaunched } from './connect.js';
import type { Controller } from './pauses/controller.js';
import { startDebuggee, type Debuggee } from './debuggee/launcher.js';
import { TERMINAL_BRIDGE_EVENT, terminalExitCode, terminalTargetOf, type TerminalBridgeEventBody, type TerminalTarget } from './debuggee/terminal-protocol.js';
import { StderrTail } from './debuggee/stderr-tail.js';
import { mark } from './debuggee/timeline.js';
import { hasDebuggerStatement } from './sources/debugger-statements.js';
import { NODE_INFO_REQUEST, TENSOR_BYTES_REQUEST, TENSOR_DATA_REQUEST } from './extension-protocol.js';
import { ConfigurationError, filtersOf, planLaunch, skipFilesOf, type AttachArguments, type LaunchArguments } from './launch-config.js';
import { adapterPaths } from './paths.js';
import { launchUnsupported } from './platform-support.js';
import { delay, type Program } from './program.js';
import { messageOf, pickDefined } from './request-guard.js';
import type { StopFilters } from './pauses/stop-filters.js';

/**
 * Requests that need the program connected. A launch is answered once the program's bridge has
 * connected, before the handshake ends; these, sent meanwhile, wait for it. (Never the requests
 * VS Code sends while configuring: the handshake waits for configurationDone.)
 */
const AFTER_HANDSHAKE = new Set([
  'pause',
  'evaluate',
  'setVariable',
  'completions',
  'readMemory',
  'restartFrame',
  'stepInTargets',
  'continue',
  'next',
  'stepIn',
  'stepOut',
  'stackTrace',
  'scopes',
  'variables',
  'exceptionInfo',
  TENSOR_DATA_REQUEST,
  TENSOR_BYTES_REQUEST,
  NODE_INFO_REQUEST,
]);
/** How long a terminal's process has to connect its bridge once the extension was told the socket. */
const TERMINAL_CONNECT_MS = 20_000;

export class Startup {
  private markConfigured!: () => void;
  private readonly configured = new Promise<void>((resolve) => (this.markConfigured = resolve));
  /** Set from a launch's early answer to the end of its handshake (AFTER_HANDSHAKE requests wait for it). */
  private handshake: Promise<void> | undefined;

  constructor(
    private readonly controller: Controller,
    private readonly program: Program,
    private readonly filters: StopFilters,
    private readonly client: Client,
  ) {}

  /** The client's configurationDone: its breakpoints and filters are set, the handshake may go on. */
  configurationDone(): void {
    this.markConfigured();
  }

  /** What a request must wait for before it is handled: the launch's handshake under way, if it needs the program. */
  handshakeFor(command: string): Promise<void> | undefined {
    return this.handshake && AFTER_HANDSHAKE.has(command) ? this.handshake : undefined;
  }

  async launch(response: DebugProtocol.LaunchResponse, args: LaunchArguments): Promise<void> {
    let answered = false;
    let handshakeDone = () => {};
    let exitedEarly: Promise<{ code: number; said: string | undefined }> | undefined;
    try {
      const unsupported = launchUnsupported();
      if (unsupported) throw new ConfigurationError(unsupported);
      const plan = planLaunch(args, adapterPaths.cli);
      this.controller.skipFiles(plan.skipFiles);
      this.filters.launchFilters = pickDefined({
        breakOnCallbacks: plan.filters.breakOnCallbacks,
        breakOnToutMismatch: args.breakOnToutMismatch,
        breakOnNonFinite: args.breakOnNonFinite,
        breakOnGraphNonFinite: args.breakOnGraphNonFinite,
        breakOnOpNonFinite: args.breakOnOpNonFinite,
      });
      // The debuggee boots (held at its bridge) while the client sends its breakpoints.
      this.program.listener = new BridgeListener();
      const debuggee = startDebuggee(plan, this.program.listener.socketPath);
      this.program.debuggee = debuggee;
      mark('adapter: debuggee spawned');
      const stderrTail = new StderrTail();
      this.forwardOutput(debuggee, stderrTail);
      // Its last stderr bytes may come after the exit.
      exitedEarly = debuggee.exited.then(async (code) => {
        await Promise.race([closed(debuggee.process.stderr), delay(250)]);
        return { code, said: stderrTail.reason() };
      });
      void debuggee.exited.then(async (code) => {
        // What the program wrote just before it exited may still be in the pipes, and its last
        // logpoint lines in its bridge's socket (written where they ran, with no pause): they go first.
        await Promise.all([
          Promise.race([Promise.all([closed(debuggee.process.stdout), closed(debuggee.process.stderr)]), delay(250)]),
          Promise.race([this.controller.whenClosed(), delay(2000)]),
        ]);
        this.program.end(code);
      });
      const transport = await this.program.listener.accept(debuggee.exited);
      mark('adapter: bridge connected');
      // Answered now, the program running with its bridge: VS Code shows the session (its toolbar)
      // on this answer, which otherwise waited for the program's loading (~0.7 s here).
      this.handshake = new Promise((resolve) => (handshakeDone = resolve));
      this.client.sendResponse(response);
      answered = true;
      await Promise.race([this.configured, delay(5000)]);
      await connectLaunched(this.controller, transport, {
        filters: this.filters.effective(),
        // A `debugger` statement does nothing while the debugger is off: a program with one gets it from the start.
        debuggerNow: hasDebuggerStatement(plan.userCode),
        ...(plan.stopOnEntry ? { stopOnEntryFile: plan.entry } : {}),
        configure: () => this.filters.apply(),
        beforeRun: debuggee.guarded,
      });
    } catch (err) {
      this.program.debuggee?.kill();
      const message = `Cannot launch: ${(err as Error).message}${answered ? '' : await whatItSaid(exitedEarly)}`;
      // After the answer the failure goes where VS Code shows it as a notification ('important').
      if (answered) this.client.sendEvent(new OutputEvent(`${message}\n`, 'important'));
      else this.client.sendErrorResponse(response, { id: 1001, format: message, showUser: true });
      if (answered || !(err instanceof ConfigurationError)) this.program.end(1);
    } finally {
      this.handshake = undefined;
      handshakeDone();
    }
  }

  /** The program's stdout and stderr, into the Debug Console. */
  private forwardOutput(debuggee: Debuggee, stderrTail: StderrTail): void {
    debuggee.process.stdout?.on('data', (d: Buffer) => this.client.sendEvent(new OutputEvent(d.toString(), 'stdout')));
    const toConsole = (text: string): void => {
      const program = withoutInspectorLines(text);
      if (!program) return;
      stderrTail.add(program);
      this.client.sendEvent(new OutputEvent(program, 'stderr'));
    };
    const stderr = debuggee.process.stderr!; // piped (launcher.ts)
    if (debuggee.dropsTfStartupLines) filterTfStartupLines(stderr, toConsole);
    else stderr.on('data', (d: Buffer) => toConsole(d.toString()));
  }

  async attach(response: DebugProtocol.AttachResponse, args: AttachArguments): Promise<void> {
    const terminal = terminalTargetOf(args as { terminal?: unknown });
    if (terminal) return this.attachTerminal(response, terminal);
    try {
      const host = args.host ?? '127.0.0.1';
      if (!Number.isInteger(args.port)) throw new ConfigurationError('attach needs "port", the --inspect port of the program.');
      // The configuration's own breakOn… fields win over the checkboxes, those it sets (as a launch's).
      const checked = filtersOf(args);
      this.filters.launchFilters = pickDefined({
        breakOnCallbacks: checked.breakOnCallbacks,
        breakOnToutMismatch: args.breakOnToutMismatch,
        breakOnNonFinite: args.breakOnNonFinite,
        breakOnGraphNonFinite: args.breakOnGraphNonFinite,
        breakOnOpNonFinite: args.breakOnOpNonFinite,
      });
      this.controller.skipFiles(skipFilesOf(args));
      await Promise.race([this.configured, delay(5000)]);
      await connectAttached(this.controller, host, args.port, { filters: this.filters.effective(), configure: () => this.filters.apply() });
      this.program.attached = true;
      this.controller.onClosed(() => this.program.end(0));
      this.client.sendResponse(response);
    } catch (err) {
      this.client.sendErrorResponse(response, { id: 1002, format: `Cannot attach: ${(err as Error).message}`, showUser: true });
    }
  }

  /**
   * A Debug Terminal's process (debuggee/boot-program.ts): the bridge socket goes to the extension in an
   * event, the process loads the bridge and waits there, and the handshake is a launch's.
   */
  private async attachTerminal(response: DebugProtocol.AttachResponse, terminal: TerminalTarget): Promise<void> {
    try {
      // No filters in the configuration: the exception filter checkboxes decide, as for a launch without them.
      this.program.terminal = terminal;
      this.program.listener = new BridgeListener();
      this.client.sendEvent(
        new Event(TERMINAL_BRIDGE_EVENT, { id: terminal.id, bridgeSocket: this.program.listener.socketPath } satisfies TerminalBridgeEventBody),
      );
      const transport = await this.program.listener.accept(delay(TERMINAL_CONNECT_MS));
      await Promise.race([this.configured, delay(5000)]);
      await connectLaunched(this.controller, transport, {
        filters: this.filters.effective(),
        debuggerNow: hasDebuggerStatement([terminal.program]),
        configure: () => this.filters.apply(),
        beforeRun: Promise.resolve(),
      });
      // The process's stdout and stderr stay in its terminal; its end is its bridge's socket closing.
      this.controller.onClosed(() => {
        const code = this.program.listener ? terminalExitCode(this.program.listener.socketPath) : undefined;
        const said = code === undefined ? 'Program ended without an exit code (a signal ended it)' : `Program exited with code ${code}`;
        this.client.sendEvent(new OutputEvent(`${said}\n`, code === 0 ? 'console' : 'stderr'));
        this.program.end(code ?? 1);
      });
      this.client.sendResponse(response);
    } catch (err) {
      this.client.sendErrorResponse(response, {
        id: 1010,
        format: `Cannot debug ${terminal.program} (pid ${terminal.pid}): ${messageOf(err)}`,
        showUser: true,
      });
      this.program.end(1);
    }
  }
}

function closed(stream: NodeJS.ReadableStream | null): Promise<void> {
  if (!stream || (stream as { readableEnded?: boolean }).readableEnded) return Promise.resolve();
  return new Promise((resolve) => {
    stream.once('end', () => resolve());
    stream.once('close', () => resolve());
  });
}

/**
 * Node's own lines about the debugger (it writes "Waiting for the debugger to disconnect..." as the
 * process exits with a session attached, in one write): not the program's, so not shown, as
 * VS Code's JavaScript debugger does not show them.
 */
export function withoutInspectorLines(text: string): string {
  return text.replace(/(^|\n)(Waiting for the debugger to disconnect\.\.\.|Debugger attached\.)\r?\n/g, '$1');
}

/** A program that ended before its bridge connected: its exit code and what it said last (StderrTail). */
async function whatItSaid(exited: Promise<{ code: number; said: string | undefined }> | undefined): Promise<string> {
  const early = exited && (await Promise.race([exited, delay(600).then(() => undefined)]));
  if (!early) return '';
  return ` (exit code ${early.code})${early.said ? `. It said: ${early.said}` : ''}`;
}
