/**
 * The only place that speaks DAP: each request asks the controller (CDP) or the stores, then
 * responds; each controller event becomes one DAP event. Nothing here knows tensors.
 */
import {
  BreakpointEvent,
  ExitedEvent,
  InitializedEvent,
  LoadedSourceEvent,
  LoggingDebugSession,
  OutputEvent,
  Response,
  Source,
  StoppedEvent,
  TerminatedEvent,
  Thread,
  Event,
  Handles,
} from '@vscode/debugadapter';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { BridgeListener } from './cdp/transports.js';
import { completions } from './completions.js';
import { exceptionInfoBody } from './exception-info.js';
import { logpointOutput } from './logpoints.js';
import { breakpointLocations } from './breakpoint-locations.js';
import { LoadedSourceEvents, loadedSources } from './loaded-sources.js';
import { StepInTargets } from './step-in-targets.js';
import { planRestart, restoreInputs } from './restart-frame.js';
import { connectAttached, connectLaunched } from './connect.js';
import { Controller, type PausedState } from './controller.js';
import { startDebuggee, type Debuggee } from './debuggee/launcher.js';
import { TERMINAL_BRIDGE_EVENT, terminalExitCode, terminalTargetOf, type TerminalBridgeEventBody, type TerminalTarget } from './debuggee/terminal-protocol.js';
import { mark } from './debuggee/timeline.js';
import { hasDebuggerStatement } from './debugger-statements.js';
import { Evaluator } from './evaluator.js';
import {
  GRAPH_NODE_EVENT,
  GRAPH_RUN_EVENT,
  GRAPH_WATCH_REQUEST,
  type GraphNodeEventBody,
  type GraphRunEventBody,
  type GraphWatchArguments,
  NODE_INFO_REQUEST,
  type NodeInfoArguments,
  TENSOR_CALLBACK_EVENT,
  TENSOR_DATA_REQUEST,
  type TensorCallbackEventBody,
  type TensorDataArguments,
} from './extension-protocol.js';
import { ConfigurationError, filtersOf, planLaunch, type AttachArguments, type FilterConfig, type LaunchArguments } from './launch-config.js';
import { adapterPaths } from './paths.js';
import { buildStack, type StackFrameEntry } from './stack.js';
import { nodeInfo, tensorData } from './tensor-data.js';
import { VariableStore } from './variables.js';
import { clipboardText } from './clipboard.js';
import { DataBreakpoints, dataValueExpression } from './data-breakpoints.js';
import { DATA_BREAKPOINT_EVENT, type DataBreakpointEventBody } from './extension-protocol.js';
import { argumentProblem, guardHandlers, lineProblem, messageOf } from './request-guard.js';
import { filterTfStartupLines } from '../runtime/tf-startup-logs.js';

const THREAD_ID = 1;
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
  NODE_INFO_REQUEST,
]);
/** How long a terminal's process has to connect its bridge once the extension was told the socket. */
const TERMINAL_CONNECT_MS = 20_000;
/** How long a stop's extras wait for a client that does not ask for the stack (a script, a test). */
const EXTRAS_WAIT_MS = 200;
/** ... and for the answer to a stack request that came (the answer is what they wait for). */
const EXTRAS_ANSWER_WAIT_MS = 2000;

/** The handlers guardHandlers wraps: every request this session answers itself. */
const HANDLERS = [
  'initializeRequest',
  'configurationDoneRequest',
  'launchRequest',
  'attachRequest',
  'setBreakPointsRequest',
  'setFunctionBreakPointsRequest',
  'setExceptionBreakPointsRequest',
  'threadsRequest',
  'stackTraceRequest',
  'scopesRequest',
  'variablesRequest',
  'evaluateRequest',
  'setVariableRequest',
  'exceptionInfoRequest',
  'completionsRequest',
  'breakpointLocationsRequest',
  'loadedSourcesRequest',
  'stepInTargetsRequest',
  'restartFrameRequest',
  'continueRequest',
  'nextRequest',
  'stepInRequest',
  'stepOutRequest',
  'pauseRequest',
  'customRequest',
  'readMemoryRequest',
  'dataBreakpointInfoRequest',
  'setDataBreakpointsRequest',
  'terminateRequest',
  'disconnectRequest',
] as const;

export class TfjsCallbacksDebugSession extends LoggingDebugSession {
  private readonly controller = new Controller();
  private readonly store = new VariableStore(() => this.controller.connection());
  private readonly evaluator = new Evaluator(
    () => this.controller.connection(),
    () => this.controller.paused,
  );
  private readonly frames = new Handles<StackFrameEntry>();
  private readonly dataBreakpoints = new DataBreakpoints();
  private stack: StackFrameEntry[] | undefined;
  private debuggee: Debuggee | undefined;
  private listener: BridgeListener | undefined;
  private attached = false;
  /** A Debug Terminal's process (attachTerminal): it started itself; its bridge connects here. */
  private terminal: TerminalTarget | undefined;
  private configurationDone!: () => void;
  private readonly configured = new Promise<void>((resolve) => (this.configurationDone = resolve));
  private exceptionFilters: string[] | undefined;
  private launchFilters: Partial<FilterConfig> = {};
  private ended = false;
  /** The current stop's wait for its first stack trace (onStopped): told when it is asked for and answered. */
  private stackWait: { requested(): void; answered(): void } | undefined;
  private readonly loadedSourceEvents = new LoadedSourceEvents();
  private readonly stepInTargets = new StepInTargets();
  /** Set from a launch's early answer to the end of its handshake (AFTER_HANDSHAKE requests wait for it). */
  private handshake: Promise<void> | undefined;
  /** Requests (by seq) already answered while their handler still runs: guardHandlers' record. */
  private readonly answered = new Set<number>();

  constructor() {
    super();
    guardHandlers(this, HANDLERS, this.answered, (response, err) => {
      this.sendErrorResponse(response, { id: 1100, format: `${response.command} failed: ${messageOf(err)}`, showUser: false });
    });
    this.setDebuggerLinesStartAt1(true);
    this.setDebuggerColumnsStartAt1(true);
    this.controller.on('stopped', (state) => void this.onStopped(state));
    this.controller.on('output', (category, text) => this.sendEvent(new OutputEvent(text, category)));
    this.controller.scripts.sources.onAdded((script) => {
      for (const source of this.loadedSourceEvents.fresh(this.controller.scripts.sources, script)) this.sendEvent(new LoadedSourceEvent('new', source));
    });
    this.controller.on('logpoint', (text, where) => {
      const event = new OutputEvent(text, 'console') as DebugProtocol.OutputEvent;
      event.body = logpointOutput(text, where, { line: (l) => this.convertDebuggerLineToClient(l), column: (c) => this.convertDebuggerColumnToClient(c) });
      this.sendEvent(event);
    });
    this.controller.on('stopped', (state) => this.onDataStopped(state));
    this.controller.on('breakpoint', (bp) => {
      this.sendEvent(
        new BreakpointEvent('changed', {
          id: bp.id,
          verified: bp.verified,
          line: bp.line,
          ...(bp.message ? { message: bp.message } : {}),
        } as DebugProtocol.Breakpoint),
      );
    });
    this.controller.on('functionBreakpoint', (bp) => {
      this.sendEvent(
        new BreakpointEvent('changed', { id: bp.id, verified: bp.verified, ...(bp.message ? { message: bp.message } : {}) } as DebugProtocol.Breakpoint),
      );
    });
  }

  /** Arguments DAP requires are checked first: a handler never sees a missing or mistyped one. */
  protected override dispatchRequest(request: DebugProtocol.Request): void {
    mark(`adapter: ${request.command} requested`);
    const problem = argumentProblem(request.command, request.arguments);
    if (!problem) {
      if (this.handshake && AFTER_HANDSHAKE.has(request.command)) void this.handshake.then(() => super.dispatchRequest(request));
      else super.dispatchRequest(request);
      return;
    }
    this.sendErrorResponse(new Response(request), {
      id: 1101,
      format: `${problem}. See the Debug Adapter Protocol's ${request.command} request.`,
      showUser: false,
    });
  }

  override sendResponse(response: DebugProtocol.Response): void {
    mark(`adapter: ${response.command} answered`);
    this.answered.add(response.request_seq);
    super.sendResponse(response);
  }

  /** The client is gone (its stream closed) or asked the adapter to stop: nothing is left behind. */
  override shutdown(): void {
    if (!this.attached) this.debuggee?.kill();
    if (this.terminal) this.controller.close();
    this.listener?.dispose();
    super.shutdown();
  }

  protected override initializeRequest(response: DebugProtocol.InitializeResponse): void {
    response.body = {
      supportsConfigurationDoneRequest: true,
      supportsFunctionBreakpoints: true,
      supportsConditionalBreakpoints: true,
      supportsHitConditionalBreakpoints: true,
      supportsLogPoints: true,
      supportsEvaluateForHovers: true,
      supportsSetVariable: true,
      supportsTerminateRequest: true,
      supportsExceptionInfoRequest: true,
      supportsClipboardContext: true,
      supportsReadMemoryRequest: true,
      supportsDataBreakpoints: true,
      supportsCompletionsRequest: true,
      supportsBreakpointLocationsRequest: true,
      supportsLoadedSourcesRequest: true,
      supportsStepInTargetsRequest: true,
      supportsRestartFrame: true,
      completionTriggerCharacters: ['.'],
      exceptionBreakpointFilters: [
        {
          filter: 'toutMismatch',
          label: 'Tout mismatch',
          description: "A callback's outputs do not match Tout: stop before the error is raised.",
          default: true,
        },
        { filter: 'nonFinite', label: 'NaN/Inf in a callback output', default: false },
        {
          filter: 'graphNonFinite',
          label: 'NaN/Inf in the graph',
          description: 'Stop at the first model node whose outputs hold NaN or Inf while its inputs were finite.',
          default: false,
        },
        { filter: 'uncaught', label: 'Uncaught exceptions', default: false },
        { filter: 'caught', label: 'Caught exceptions', default: false },
      ],
    };
    this.sendResponse(response);
    this.sendEvent(new InitializedEvent());
  }

  protected override configurationDoneRequest(response: DebugProtocol.ConfigurationDoneResponse): void {
    this.configurationDone();
    this.sendResponse(response);
  }

  protected override async launchRequest(response: DebugProtocol.LaunchResponse, args: LaunchArguments): Promise<void> {
    let answered = false;
    let handshakeDone = () => {};
    try {
      const plan = planLaunch(args, adapterPaths.cli);
      this.launchFilters = pickDefined({
        breakOnCallbacks: plan.filters.breakOnCallbacks,
        breakOnToutMismatch: args.breakOnToutMismatch,
        breakOnNonFinite: args.breakOnNonFinite,
        breakOnGraphNonFinite: args.breakOnGraphNonFinite,
      });
      // The debuggee boots (held at its bridge) while the client sends its breakpoints.
      this.listener = new BridgeListener();
      const debuggee = startDebuggee(plan, this.listener.socketPath);
      this.debuggee = debuggee;
      mark('adapter: debuggee spawned');
      debuggee.process.stdout?.on('data', (d: Buffer) => this.sendEvent(new OutputEvent(d.toString(), 'stdout')));
      const toConsole = (text: string): void => this.sendEvent(new OutputEvent(text, 'stderr'));
      const stderr = debuggee.process.stderr!; // piped (launcher.ts)
      if (debuggee.dropsTfStartupLines) filterTfStartupLines(stderr, toConsole);
      else stderr.on('data', (d: Buffer) => toConsole(d.toString()));
      void debuggee.exited.then(async (code) => {
        // What the program wrote just before it exited may still be in the pipes: it goes first.
        await Promise.race([Promise.all([closed(debuggee.process.stdout), closed(debuggee.process.stderr)]), delay(250)]);
        this.end(code);
      });
      const transport = await this.listener.accept(debuggee.exited);
      mark('adapter: bridge connected');
      // Answered now, the program running with its bridge: VS Code shows the session (its toolbar)
      // on this answer, which otherwise waited for the program's loading (~0.7 s here).
      this.handshake = new Promise((resolve) => (handshakeDone = resolve));
      this.sendResponse(response);
      answered = true;
      await Promise.race([this.configured, delay(5000)]);
      await connectLaunched(this.controller, transport, {
        filters: this.effectiveFilters(),
        // A `debugger` statement does nothing while the debugger is off: a program with one gets it from the start.
        debuggerNow: hasDebuggerStatement(plan.userCode),
        ...(plan.stopOnEntry ? { stopOnEntryFile: plan.entry } : {}),
        configure: () => this.applyExceptionFilters(),
        beforeRun: debuggee.guarded,
      });
    } catch (err) {
      this.debuggee?.kill();
      const message = `Cannot launch: ${(err as Error).message}`;
      // After the answer the failure goes where VS Code shows it as a notification ('important').
      if (answered) this.sendEvent(new OutputEvent(`${message}\n`, 'important'));
      else this.sendErrorResponse(response, { id: 1001, format: message, showUser: true });
      if (answered || !(err instanceof ConfigurationError)) this.end(1);
    } finally {
      this.handshake = undefined;
      handshakeDone();
    }
  }

  protected override async attachRequest(response: DebugProtocol.AttachResponse, args: AttachArguments): Promise<void> {
    const terminal = terminalTargetOf(args as { terminal?: unknown });
    if (terminal) return this.attachTerminal(response, terminal);
    try {
      const host = args.host ?? '127.0.0.1';
      if (!Number.isInteger(args.port)) throw new ConfigurationError('attach needs "port", the --inspect port of the program.');
      this.launchFilters = pickDefined(filtersOf(args));
      await Promise.race([this.configured, delay(5000)]);
      await connectAttached(this.controller, host, args.port, { filters: this.effectiveFilters(), configure: () => this.applyExceptionFilters() });
      this.attached = true;
      this.controller.onClosed(() => this.end(0));
      this.sendResponse(response);
    } catch (err) {
      this.sendErrorResponse(response, { id: 1002, format: `Cannot attach: ${(err as Error).message}`, showUser: true });
    }
  }

  /**
   * A Debug Terminal's process (terminal-boot.ts): the bridge socket goes to the extension in an
   * event, the process loads the bridge and waits there, and the handshake is a launch's.
   */
  private async attachTerminal(response: DebugProtocol.AttachResponse, terminal: TerminalTarget): Promise<void> {
    try {
      // No filters in the configuration: the exception filter checkboxes decide, as for a launch without them.
      this.terminal = terminal;
      this.listener = new BridgeListener();
      this.sendEvent(new Event(TERMINAL_BRIDGE_EVENT, { id: terminal.id, bridgeSocket: this.listener.socketPath } satisfies TerminalBridgeEventBody));
      const transport = await this.listener.accept(delay(TERMINAL_CONNECT_MS));
      await Promise.race([this.configured, delay(5000)]);
      await connectLaunched(this.controller, transport, {
        filters: this.effectiveFilters(),
        debuggerNow: hasDebuggerStatement([terminal.program]),
        configure: () => this.applyExceptionFilters(),
        beforeRun: Promise.resolve(),
      });
      // The process's stdout and stderr stay in its terminal; its end is its bridge's socket closing.
      this.controller.onClosed(() => {
        const code = this.listener ? terminalExitCode(this.listener.socketPath) : undefined;
        const said = code === undefined ? 'Program ended without an exit code (a signal ended it)' : `Program exited with code ${code}`;
        this.sendEvent(new OutputEvent(`${said}\n`, code === 0 ? 'console' : 'stderr'));
        this.end(code ?? 1);
      });
      this.sendResponse(response);
    } catch (err) {
      this.sendErrorResponse(response, { id: 1010, format: `Cannot debug ${terminal.program} (pid ${terminal.pid}): ${messageOf(err)}`, showUser: true });
      this.end(1);
    }
  }

  protected override async setBreakPointsRequest(response: DebugProtocol.SetBreakpointsResponse, args: DebugProtocol.SetBreakpointsArguments): Promise<void> {
    const file = args.source.path;
    if (!file) {
      response.body = { breakpoints: [] };
      return this.sendResponse(response);
    }
    // A breakpoint with no usable line is answered unverified, with why; the others are set.
    const requested = args.breakpoints ?? [];
    const problems = requested.map((b) => (typeof b === 'object' && b !== null ? lineProblem(b.line) : 'not a breakpoint (expected { line })'));
    const specs = requested
      .filter((_, i) => !problems[i])
      .map((b) => ({
        line: this.convertClientLineToDebugger(b.line),
        ...pickDefined({ condition: b.condition, hitCondition: b.hitCondition, logMessage: b.logMessage }),
      }));
    const bps = await this.controller.setSourceBreakpoints(file, specs);
    const source = new Source(file.split('/').pop()!, file);
    let next = 0;
    response.body = {
      breakpoints: problems.map((problem) => {
        if (problem) return { verified: false, message: `${problem}: not set`, source };
        const bp = bps[next++]!;
        return { id: bp.id, verified: bp.verified, line: this.convertDebuggerLineToClient(bp.line), source, ...(bp.message ? { message: bp.message } : {}) };
      }),
    };
    this.sendResponse(response);
  }

  protected override async setFunctionBreakPointsRequest(
    response: DebugProtocol.SetFunctionBreakpointsResponse,
    args: DebugProtocol.SetFunctionBreakpointsArguments,
  ): Promise<void> {
    const named = (b: unknown): b is DebugProtocol.FunctionBreakpoint =>
      typeof b === 'object' && b !== null && typeof (b as { name?: unknown }).name === 'string';
    const valid = args.breakpoints.filter(named);
    const statuses = await this.controller.setFunctionBreakpoints(
      valid.map((b) => ({ name: b.name, ...pickDefined({ condition: b.condition, hitCondition: b.hitCondition }) })),
    );
    let next = 0;
    response.body = {
      breakpoints: args.breakpoints.map((b) => {
        if (!named(b)) return { verified: false, message: 'not a function breakpoint (expected { name: string }): not set' };
        const status = statuses[next++]!;
        return { id: status.id, verified: status.verified, ...(status.message ? { message: status.message } : {}) };
      }),
    };
    this.sendResponse(response);
  }

  protected override async setExceptionBreakPointsRequest(
    response: DebugProtocol.SetExceptionBreakpointsResponse,
    args: DebugProtocol.SetExceptionBreakpointsArguments,
  ): Promise<void> {
    this.exceptionFilters = args.filters;
    if (!this.controller.closed) await this.applyExceptionFilters();
    this.sendResponse(response);
  }

  protected override threadsRequest(response: DebugProtocol.ThreadsResponse): void {
    response.body = { threads: [new Thread(THREAD_ID, 'main')] };
    this.sendResponse(response);
  }

  protected override async stackTraceRequest(response: DebugProtocol.StackTraceResponse, args: DebugProtocol.StackTraceArguments): Promise<void> {
    this.stackWait?.requested();
    const paused = this.controller.paused;
    if (!paused) {
      response.body = { stackFrames: [], totalFrames: 0 };
      return this.sendResponse(response);
    }
    if (!this.stack) {
      const stack = await buildStack(this.controller.connection(), paused);
      // The program resumed (and may have stopped again) meanwhile: these frames are gone.
      if (this.controller.paused !== paused) {
        response.body = { stackFrames: [], totalFrames: 0 };
        return this.sendResponse(response);
      }
      this.stack = stack;
    }
    const start = args.startFrame ?? 0;
    const frames = this.stack.slice(start, args.levels ? start + args.levels : undefined).map((f) => {
      const id = this.frames.create(f);
      const source: DebugProtocol.Source | undefined = f.source ? new Source(f.source.name, f.source.path) : undefined;
      // On the source, where VS Code looks when it picks the frame to focus (and to put an exception widget on).
      if (source && f.kind === 'js' && f.subtle) source.presentationHint = 'deemphasize';
      const frame: DebugProtocol.StackFrame = { id, name: f.name, line: f.line, column: f.column, ...(source ? { source } : {}) };
      if (f.kind === 'graph') {
        frame.presentationHint = 'label';
        if (f.endLine !== undefined && f.endColumn !== undefined) Object.assign(frame, { endLine: f.endLine, endColumn: f.endColumn });
      } else if (f.subtle) frame.presentationHint = 'subtle';
      return frame;
    });
    response.body = { stackFrames: frames, totalFrames: this.stack.length };
    this.sendResponse(response);
    this.stackWait?.answered();
    this.stackWait = undefined;
  }

  protected override scopesRequest(response: DebugProtocol.ScopesResponse, args: DebugProtocol.ScopesArguments): void {
    const frame = this.frames.get(args.frameId);
    const scopes: DebugProtocol.Scope[] = [];
    const data = this.controller.paused?.data;
    if (frame && data) scopes.push(this.store.dataScope(data));
    if (frame?.kind === 'graph' && frame.node) scopes.push(this.store.nodeScope(frame.node));
    if (frame?.kind === 'graph' && frame.active) scopes.push(this.store.callbackScope(frame.active));
    if (frame?.kind === 'js') {
      if (frame.active) scopes.push(this.store.callbackScope(frame.active));
      scopes.push(...this.store.v8Scopes(frame.callFrame));
    }
    response.body = { scopes };
    this.sendResponse(response);
  }

  protected override async variablesRequest(response: DebugProtocol.VariablesResponse, args: DebugProtocol.VariablesArguments): Promise<void> {
    try {
      const all = args.filter === 'named' ? [] : await this.store.variables(args.variablesReference, args.start, args.count);
      response.body = { variables: all };
      this.sendResponse(response);
    } catch (err) {
      this.sendErrorResponse(response, { id: 1003, format: (err as Error).message });
    }
  }

  protected override async evaluateRequest(response: DebugProtocol.EvaluateResponse, args: DebugProtocol.EvaluateArguments): Promise<void> {
    if (args.context === 'clipboard') return this.evaluateForClipboard(response, args);
    try {
      const value = await this.evaluator.evaluate(args.expression, this.frame(args.frameId), args.context);
      const v = await this.store.evaluated(value, args.expression);
      response.body = {
        result: v.value,
        variablesReference: v.variablesReference,
        ...(v.type ? { type: v.type } : {}),
        ...(v.indexedVariables ? { indexedVariables: v.indexedVariables } : {}),
        ...(v.memoryReference ? { memoryReference: v.memoryReference } : {}),
      };
      this.sendResponse(response);
    } catch (err) {
      this.sendErrorResponse(response, { id: 1004, format: (err as Error).message, showUser: false });
    }
  }

  protected override async setVariableRequest(response: DebugProtocol.SetVariableResponse, args: DebugProtocol.SetVariableArguments): Promise<void> {
    try {
      // The new value is an expression, evaluated where the variable lives: `factor * 3` sees factor.
      const value = await this.evaluator.evaluateOn(args.value, this.store.callFrameOf(args.variablesReference) ?? this.evaluator.userCallFrame(), 'repl');
      const v = await this.store.set(args.variablesReference, args.name, value);
      response.body = { value: v.value, variablesReference: v.variablesReference };
      this.sendResponse(response);
    } catch (err) {
      this.sendErrorResponse(response, { id: 1005, format: (err as Error).message, showUser: true });
    }
  }

  protected override exceptionInfoRequest(response: DebugProtocol.ExceptionInfoResponse): void {
    response.body = exceptionInfoBody(this.controller.paused?.stop.exception);
    this.sendResponse(response);
  }

  /** Debug Console completions (completions.ts); DAP columns in and out as the client counts them. */
  protected override async completionsRequest(response: DebugProtocol.CompletionsResponse, args: DebugProtocol.CompletionsArguments): Promise<void> {
    const lines = args.text.split('\n');
    const line = Math.min(Math.max((args.line ?? 1) - 1, 0), lines.length - 1);
    const lineStart = lines.slice(0, line).reduce((n, l) => n + l.length + 1, 0);
    const offset = lineStart + Math.max(0, this.convertClientColumnToDebugger(args.column) - 1);
    const items = this.controller.closed
      ? []
      : await completions(
          { cdp: this.controller.connection().cdp, evaluator: this.evaluator, paused: !!this.controller.paused, frame: this.frame(args.frameId) },
          args.text,
          offset,
        );
    response.body = {
      targets: items.map((item) => ({ ...item, start: this.convertDebuggerColumnToClient(item.start! - lineStart + 1) })),
    };
    this.sendResponse(response);
  }

  /** Possible breakpoint positions on lines of a file (breakpoint-locations.ts); none for a file not loaded. */
  protected override async breakpointLocationsRequest(
    response: DebugProtocol.BreakpointLocationsResponse,
    args: DebugProtocol.BreakpointLocationsArguments,
  ): Promise<void> {
    const file = args.source.path;
    const line = this.convertClientLineToDebugger(args.line);
    const endLine = args.endLine !== undefined ? this.convertClientLineToDebugger(args.endLine) : line;
    const cdp = this.controller.closed ? undefined : this.controller.connection().cdp;
    const positions = file ? await breakpointLocations(cdp, this.controller.scripts.sources, file, line, endLine) : [];
    response.body = {
      breakpoints: positions.map((p) => ({ line: this.convertDebuggerLineToClient(p.line), column: this.convertDebuggerColumnToClient(p.column + 1) })),
    };
    this.sendResponse(response);
  }

  /** Loaded Scripts (loaded-sources.ts): the program's own modules first. */
  protected override loadedSourcesRequest(response: DebugProtocol.LoadedSourcesResponse): void {
    response.body = { sources: loadedSources(this.controller.scripts.sources) };
    this.sendResponse(response);
  }

  protected override async continueRequest(response: DebugProtocol.ContinueResponse): Promise<void> {
    this.resumed();
    await this.quietly(() => this.controller.resume());
    response.body = { allThreadsContinued: true };
    this.sendResponse(response);
  }

  protected override async nextRequest(response: DebugProtocol.NextResponse): Promise<void> {
    this.resumed();
    await this.quietly(() => this.controller.step('over'));
    this.sendResponse(response);
  }

  protected override async stepInRequest(response: DebugProtocol.StepInResponse, args: DebugProtocol.StepInArguments): Promise<void> {
    // A target of this stop's stepInTargets (step-in-targets.ts); any other id steps in as usual.
    const target = args?.targetId !== undefined ? this.stepInTargets.get(args.targetId) : undefined;
    this.resumed();
    await this.quietly(() => (target ? this.controller.stepIntoTarget(target) : this.controller.step('into')));
    this.sendResponse(response);
  }

  /** Restart Frame (restart-frame.ts): a callback again on its inputs as they came, a JS function by V8. */
  protected override async restartFrameRequest(response: DebugProtocol.RestartFrameResponse, args: DebugProtocol.RestartFrameArguments): Promise<void> {
    const plan = await planRestart(this.frame(args.frameId), this.controller.paused, this.controller.scripts);
    if ('refused' in plan) return this.sendErrorResponse(response, { id: 1110, format: plan.refused, showUser: true });
    const note = plan.active ? await restoreInputs(this.controller.agent, plan.active) : undefined;
    this.resumed();
    try {
      await this.controller.restartFrame(plan.callFrameId);
    } catch (err) {
      return this.sendErrorResponse(response, { id: 1111, format: `Cannot restart ${plan.name}: ${messageOf(err)}`, showUser: true });
    }
    if (note) this.sendEvent(new OutputEvent(note, 'console'));
    this.sendResponse(response);
  }

  /** The calls on the frame's paused line, from its position on (step-in-targets.ts). */
  protected override async stepInTargetsRequest(response: DebugProtocol.StepInTargetsResponse, args: DebugProtocol.StepInTargetsArguments): Promise<void> {
    const frame = this.frame(args.frameId);
    const callFrame = frame?.kind === 'js' ? frame.callFrame : frame?.evalFrame;
    this.stepInTargets.reset();
    const targets =
      callFrame && this.controller.paused ? await this.stepInTargets.list(this.controller.connection().cdp, this.controller.scripts.sources, callFrame) : [];
    response.body = {
      targets: targets.map((t) => ({ ...t, line: this.convertDebuggerLineToClient(t.line!), column: this.convertDebuggerColumnToClient(t.column!) })),
    };
    this.sendResponse(response);
  }

  protected override async stepOutRequest(response: DebugProtocol.StepOutResponse): Promise<void> {
    this.resumed();
    await this.quietly(() => this.controller.step('out'));
    this.sendResponse(response);
  }

  protected override async pauseRequest(response: DebugProtocol.PauseResponse): Promise<void> {
    await this.quietly(() => this.controller.pause());
    this.sendResponse(response);
  }

  protected override async customRequest(command: string, response: DebugProtocol.Response, args: unknown): Promise<void> {
    try {
      switch (command) {
        case TENSOR_DATA_REQUEST: {
          const evaluate = (expression: string, frameId: number | undefined) => this.evaluator.evaluate(expression, this.frame(frameId), 'repl');
          response.body = await tensorData(args as TensorDataArguments, this.controller.agent, evaluate);
          break;
        }
        case GRAPH_WATCH_REQUEST:
          await this.controller.setWatchGraph((args as Partial<GraphWatchArguments> | undefined)?.on === true);
          break;
        case NODE_INFO_REQUEST:
          response.body = await nodeInfo(args as Partial<NodeInfoArguments> | undefined, this.controller.agent);
          break;
        default:
          return super.customRequest(command, response, args);
      }
      this.sendResponse(response);
    } catch (err) {
      this.sendErrorResponse(response, { id: 1006, format: (err as Error).message });
    }
  }

  /** Copy Value: a tensor as JSON nested by shape (clipboard.ts); anything else as evaluate shows it. */
  private async evaluateForClipboard(response: DebugProtocol.EvaluateResponse, args: DebugProtocol.EvaluateArguments): Promise<void> {
    try {
      const value = await this.evaluator.evaluate(args.expression, this.frame(args.frameId), 'clipboard');
      const text = await clipboardText(value, this.controller.agent, args.expression);
      if (text !== undefined) {
        response.body = { result: text, variablesReference: 0 };
      } else {
        const v = await this.store.evaluated(value, args.expression);
        response.body = { result: v.value, variablesReference: v.variablesReference };
      }
      this.sendResponse(response);
    } catch (err) {
      this.sendErrorResponse(response, { id: 1004, format: (err as Error).message, showUser: false });
    }
  }

  protected override async readMemoryRequest(response: DebugProtocol.ReadMemoryResponse, args: DebugProtocol.ReadMemoryArguments): Promise<void> {
    try {
      response.body = await this.store.memory.read(this.controller.agent, args.memoryReference, args.offset ?? 0, args.count);
      this.sendResponse(response);
    } catch (err) {
      this.sendErrorResponse(response, { id: 1007, format: (err as Error).message, showUser: false });
    }
  }

  protected override async dataBreakpointInfoRequest(
    response: DebugProtocol.DataBreakpointInfoResponse,
    args: DebugProtocol.DataBreakpointInfoArguments,
  ): Promise<void> {
    // A variable of a V8 scope or an object shown is read from it; otherwise the name is an expression on the frame.
    const reference = args.variablesReference;
    let value = reference !== undefined ? await this.store.childValue(reference, args.name).catch(() => undefined) : undefined;
    if (!value) {
      const frame = args.frameId !== undefined ? this.frame(args.frameId) : undefined;
      value = await (frame
        ? this.evaluator.evaluate(args.name, frame, 'watch')
        : this.evaluator.evaluateOn(args.name, this.evaluator.userCallFrame(), 'watch')
      ).catch(() => undefined);
    }
    response.body = await this.dataBreakpoints.info(this.controller.agent, value, args.name);
    this.sendResponse(response);
  }

  protected override async setDataBreakpointsRequest(
    response: DebugProtocol.SetDataBreakpointsResponse,
    args: DebugProtocol.SetDataBreakpointsArguments,
  ): Promise<void> {
    const agent = this.controller.closed ? undefined : this.controller.agent;
    response.body = { breakpoints: await this.dataBreakpoints.set(agent, args.breakpoints) };
    this.sendResponse(response);
  }

  /** After a data breakpoint's stopped event: the inspector's event, with the old and new values' summaries. */
  private onDataStopped(state: PausedState): void {
    const hit = state.data;
    if (!hit) return;
    const body: DataBreakpointEventBody = {
      reason: state.stop.reason,
      description: state.stop.description,
      hit,
      expressions: { old: dataValueExpression(0), new: dataValueExpression(1), ...(hit.change ? { change: dataValueExpression(2) } : {}) },
    };
    this.sendEvent(new Event(DATA_BREAKPOINT_EVENT, body));
  }

  protected override async terminateRequest(response: DebugProtocol.TerminateResponse): Promise<void> {
    this.debuggee?.kill();
    // A terminal's process: its bridge ends it (and its detached children) once the socket closes.
    if (this.terminal) this.controller.close();
    this.sendResponse(response);
  }

  protected override async disconnectRequest(response: DebugProtocol.DisconnectResponse, args?: DebugProtocol.DisconnectArguments): Promise<void> {
    if (this.attached) {
      await this.controller.detach();
    } else if (args?.terminateDebuggee !== false) {
      this.debuggee?.kill();
      if (this.debuggee) await Promise.race([this.debuggee.exited, delay(3000)]);
    }
    // A terminal's process cannot be left running: its bridge ends it when the socket closes.
    if (this.terminal) this.controller.close();
    this.listener?.dispose();
    this.sendResponse(response);
  }

  /** The stack frame a request names, if it is one of this stop's. */
  private frame(frameId: number | undefined): StackFrameEntry | undefined {
    return frameId !== undefined ? this.frames.get(frameId) : undefined;
  }

  /** Commands to a debuggee that may just have exited: the exit is reported by its own events. */
  private async quietly(command: () => Promise<unknown>): Promise<void> {
    try {
      await command();
    } catch (err) {
      if (!this.controller.closed) this.sendEvent(new OutputEvent(`${(err as Error).message}\n`, 'stderr'));
    }
  }

  private effectiveFilters(): FilterConfig {
    const fromFilters = this.exceptionFilters
      ? {
          breakOnToutMismatch: this.exceptionFilters.includes('toutMismatch'),
          breakOnNonFinite: this.exceptionFilters.includes('nonFinite'),
          breakOnGraphNonFinite: this.exceptionFilters.includes('graphNonFinite'),
        }
      : {};
    return { breakOnCallbacks: [], breakOnToutMismatch: true, breakOnNonFinite: false, breakOnGraphNonFinite: false, ...fromFilters, ...this.launchFilters };
  }

  private async applyExceptionFilters(): Promise<void> {
    await this.controller.setFilters(this.effectiveFilters());
    const filters = this.exceptionFilters ?? [];
    await this.controller.setPauseOnExceptions({ caught: filters.includes('caught'), uncaught: filters.includes('uncaught') });
  }

  private resumed(): void {
    this.evaluator.reset();
    this.stack = undefined;
    this.frames.reset();
    this.store.reset();
  }

  private async onStopped(state: PausedState): Promise<void> {
    this.resumed();
    const event = new StoppedEvent(state.stop.reason, THREAD_ID, state.stop.text) as DebugProtocol.StoppedEvent;
    event.body.description = state.stop.description;
    if (state.stop.hitBreakpointIds) event.body.hitBreakpointIds = state.stop.hitBreakpointIds;
    const stackShown = new Promise<void>((resolve) => {
      let timer = setTimeout(resolve, EXTRAS_WAIT_MS);
      this.stackWait = {
        requested: () => {
          clearTimeout(timer);
          timer = setTimeout(resolve, EXTRAS_ANSWER_WAIT_MS);
        },
        answered: () => {
          clearTimeout(timer);
          resolve();
        },
      };
    });
    mark('adapter: stopped sent');
    this.sendEvent(event);
    // The stop's extras (the inspector's and the graph view's events, and the debuggee reads they
    // need) go once the client has the paused frame: its paused line is drawn first, not after them.
    await stackShown;
    if (this.controller.paused !== state) return;
    if (state.node) {
      const body: GraphNodeEventBody = { reason: state.stop.reason, description: state.stop.description, node: state.node };
      this.sendEvent(new Event(GRAPH_NODE_EVENT, body));
    }
    if (this.controller.watchingGraph) {
      const run = await this.controller.agent.call((agent) => agent.graphRun()).catch(() => undefined);
      if (run) this.sendEvent(new Event(GRAPH_RUN_EVENT, run satisfies GraphRunEventBody));
    }
    const innermost = state.active[state.active.length - 1];
    if (innermost) {
      const details = await this.controller.agent.call((agent, id) => agent.details(id), innermost.id).catch(() => undefined);
      const body = { reason: state.stop.reason, description: state.stop.description, invocation: innermost, ...details } as TensorCallbackEventBody;
      mark('adapter: tensorCallback sent');
      this.sendEvent(new Event(TENSOR_CALLBACK_EVENT, body));
    }
  }

  private end(code: number): void {
    if (this.ended) return;
    this.ended = true;
    mark('adapter: ended');
    this.controller.warnUnmatchedNames();
    // As js-debug does: the exit code in the Debug Console, in red when it is not 0.
    if (this.debuggee) this.sendEvent(new OutputEvent(`Program exited with code ${code}\n`, code === 0 ? 'console' : 'stderr'));
    // The program may be gone while what it started is not: end its whole process group.
    this.debuggee?.kill();
    this.controller.close();
    this.listener?.dispose();
    this.sendEvent(new ExitedEvent(code));
    this.sendEvent(new TerminatedEvent());
  }
}

function pickDefined<T extends object>(o: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as { [K in keyof T]?: Exclude<T[K], undefined> };
}

function closed(stream: NodeJS.ReadableStream | null): Promise<void> {
  if (!stream || (stream as { readableEnded?: boolean }).readableEnded) return Promise.resolve();
  return new Promise((resolve) => {
    stream.once('end', () => resolve());
    stream.once('close', () => resolve());
  });
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
