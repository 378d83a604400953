/**
 * Where DAP requests arrive and DAP events leave (other modules build DAP bodies; none sends):
 * each request asks the controller (CDP) or the stores, then responds; each controller event becomes one DAP event. Nothing here knows tensors. The work of
 * each area lives in its own module; this class wires each DAP request to it:
 * - start-up and end (startup.ts, program.ts), stop filters (pauses/stop-filters.ts);
 * - stops and their extras (pauses/stop-events.ts), other controller events (pauses/controller-events.ts);
 * - stack and scopes (pauses/stack-view.ts), variables (values/variables.ts);
 * - evaluate, Set Value, completions (evaluate-requests.ts);
 * - breakpoints (breakpoint-requests.ts, breakpoints/data.ts);
 * - stepping, pause and Restart Frame (pauses/stepping.ts);
 * - the adapter's own requests (custom-requests.ts).
 */
import { BreakpointEvent, InitializedEvent, LoggingDebugSession, Response } from '@vscode/debugadapter';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { BreakpointRequests } from './breakpoint-requests.js';
import { capabilities } from './capabilities.js';
import { answer, type Client, type ClientPositions } from './client.js';
import { forwardControllerEvents } from './pauses/controller-events.js';
import { Controller } from './pauses/controller.js';
import { customRequestHandlers } from './custom-requests.js';
import { DataBreakpoints } from './breakpoints/data.js';
import { quietDapLogger } from './dap-logging.js';
import { mark } from './debuggee/timeline.js';
import { EvaluateRequests } from './evaluate-requests.js';
import { Evaluator } from './values/evaluator.js';
import { Pins } from './values/pins.js';
import { exceptionInfoBody } from './breakpoints/exception-info.js';
import type { AttachArguments, LaunchArguments } from './launch-config.js';
import { loadedSources } from './sources/loaded-sources.js';
import { releaseStopGroup } from './cdp/object-groups.js';
import { Program } from './program.js';
import { argumentProblem, guardHandlers, messageOf } from './request-guard.js';
import { StackView, threads } from './pauses/stack-view.js';
import { Startup } from './startup.js';
import { Stepping } from './pauses/stepping.js';
import { StopEvents } from './pauses/stop-events.js';
import { StopFilters } from './pauses/stop-filters.js';
import { sendTrainingCurve } from './pauses/training-curve.js';
import { VariableStore } from './values/variables.js';

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
  private readonly dataBreakpoints = new DataBreakpoints();
  /** The session's own send methods, for the modules that answer and send events. */
  private readonly client: Client = {
    sendEvent: (event) => this.sendEvent(event),
    sendResponse: (response) => this.sendResponse(response),
    sendErrorResponse: (response, message) => this.sendErrorResponse(response, message),
  };
  private readonly positions: ClientPositions = {
    lineToClient: (line) => this.convertDebuggerLineToClient(line),
    lineToDebugger: (line) => this.convertClientLineToDebugger(line),
    columnToClient: (column) => this.convertDebuggerColumnToClient(column),
    columnToDebugger: (column) => this.convertClientColumnToDebugger(column),
  };
  private readonly program = new Program(this.controller, this.client.sendEvent);
  private readonly filters = new StopFilters(this.controller);
  private readonly startup = new Startup(this.controller, this.program, this.filters, this.client);
  private readonly stack = new StackView(this.controller, this.store);
  private readonly pins = new Pins(this.controller, this.evaluator, this.client.sendEvent);
  private readonly stops = new StopEvents(
    this.controller,
    this.client.sendEvent,
    () => this.resumed(),
    (state) => this.pins.stopped(state),
  );
  private readonly stepping = new Stepping(this.controller, this.stack, this.client.sendEvent, () => this.resumed(), this.positions);
  private readonly breakpoints = new BreakpointRequests(this.controller, this.positions, this.dataBreakpoints);
  private readonly evaluations = new EvaluateRequests(this.controller, this.evaluator, this.store, this.stack, this.positions);
  private readonly customHandlers = customRequestHandlers(this.controller, this.evaluator, this.stack, this.store.memory, this.filters, this.pins);
  /** Requests (by seq) already answered while their handler still runs: guardHandlers' record. */
  private readonly answered = new Set<number>();

  constructor() {
    super();
    guardHandlers(this, HANDLERS, this.answered, (response, err) => {
      this.sendErrorResponse(response, { id: 1100, format: `${response.command} failed: ${messageOf(err)}`, showUser: false });
    });
    this.setDebuggerLinesStartAt1(true);
    this.setDebuggerColumnsStartAt1(true);
    forwardControllerEvents(this.controller, this.client.sendEvent, this.positions);
    sendTrainingCurve(this.controller, this.client.sendEvent);
    this.controller.on('continued', () => this.releaseStopObjects());
    this.controller.onConnected((agent) =>
      this.dataBreakpoints.connected(agent, (bp) => this.client.sendEvent(new BreakpointEvent('changed', bp as DebugProtocol.Breakpoint))),
    );
  }

  /** Arguments DAP requires are checked first: a handler never sees a missing or mistyped one. */
  protected override dispatchRequest(request: DebugProtocol.Request): void {
    mark(`adapter: ${request.command} requested`);
    const problem = argumentProblem(request.command, request.arguments);
    if (!problem) {
      const handshake = this.startup.handshakeFor(request.command);
      if (handshake) void handshake.then(() => super.dispatchRequest(request));
      else super.dispatchRequest(request);
      return;
    }
    this.sendErrorResponse(new Response(request), {
      id: 1101,
      format: `${problem}. See ${this.customHandlers.has(request.command) ? "this adapter's PROTOCOL.md for its" : "the Debug Adapter Protocol's"} ${request.command} request.`,
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
    this.program.shutdown();
    super.shutdown();
  }

  protected override initializeRequest(response: DebugProtocol.InitializeResponse): void {
    quietDapLogger(this.client.sendEvent);
    response.body = capabilities();
    this.sendResponse(response);
    this.sendEvent(new InitializedEvent());
  }

  protected override configurationDoneRequest(response: DebugProtocol.ConfigurationDoneResponse): void {
    this.startup.configurationDone();
    this.sendResponse(response);
  }

  protected override launchRequest(response: DebugProtocol.LaunchResponse, args: LaunchArguments): Promise<void> {
    return this.startup.launch(response, args);
  }

  protected override attachRequest(response: DebugProtocol.AttachResponse, args: AttachArguments): Promise<void> {
    return this.startup.attach(response, args);
  }

  protected override async setBreakPointsRequest(response: DebugProtocol.SetBreakpointsResponse, args: DebugProtocol.SetBreakpointsArguments): Promise<void> {
    response.body = await this.breakpoints.setSourceBreakpoints(args);
    this.sendResponse(response);
  }

  protected override async setFunctionBreakPointsRequest(
    response: DebugProtocol.SetFunctionBreakpointsResponse,
    args: DebugProtocol.SetFunctionBreakpointsArguments,
  ): Promise<void> {
    response.body = await this.breakpoints.setFunctionBreakpoints(args);
    this.sendResponse(response);
  }

  protected override async setExceptionBreakPointsRequest(
    response: DebugProtocol.SetExceptionBreakpointsResponse,
    args: DebugProtocol.SetExceptionBreakpointsArguments,
  ): Promise<void> {
    const breakpoints = await this.filters.setExceptionFilters(args.filters, args.filterOptions);
    response.body = { breakpoints };
    this.sendResponse(response);
  }

  protected override threadsRequest(response: DebugProtocol.ThreadsResponse): void {
    response.body = { threads: threads() };
    this.sendResponse(response);
  }

  protected override async stackTraceRequest(response: DebugProtocol.StackTraceResponse, args: DebugProtocol.StackTraceArguments): Promise<void> {
    this.stops.stackRequested();
    const frames = await this.stack.stackTrace(args);
    response.body = frames ?? { stackFrames: [], totalFrames: 0 };
    this.sendResponse(response);
    if (frames) this.stops.stackAnswered();
  }

  protected override scopesRequest(response: DebugProtocol.ScopesResponse, args: DebugProtocol.ScopesArguments): void {
    response.body = { scopes: this.stack.scopes(args.frameId) };
    this.sendResponse(response);
  }

  protected override async variablesRequest(response: DebugProtocol.VariablesResponse, args: DebugProtocol.VariablesArguments): Promise<void> {
    await answer(this.client, response, { id: 1003 }, async () => ({
      variables: args.filter === 'named' ? [] : await this.store.variables(args.variablesReference, args.start, args.count),
    }));
  }

  protected override async evaluateRequest(response: DebugProtocol.EvaluateResponse, args: DebugProtocol.EvaluateArguments): Promise<void> {
    await answer(this.client, response, { id: 1004, showUser: false }, () => this.evaluations.evaluate(args));
  }

  protected override async setVariableRequest(response: DebugProtocol.SetVariableResponse, args: DebugProtocol.SetVariableArguments): Promise<void> {
    await answer(this.client, response, { id: 1005, showUser: true }, () => this.evaluations.setVariable(args));
  }

  protected override exceptionInfoRequest(response: DebugProtocol.ExceptionInfoResponse): void {
    response.body = exceptionInfoBody(this.controller.paused?.stop.exception);
    this.sendResponse(response);
  }

  protected override async completionsRequest(response: DebugProtocol.CompletionsResponse, args: DebugProtocol.CompletionsArguments): Promise<void> {
    response.body = await this.evaluations.completions(args);
    this.sendResponse(response);
  }

  protected override async breakpointLocationsRequest(
    response: DebugProtocol.BreakpointLocationsResponse,
    args: DebugProtocol.BreakpointLocationsArguments,
  ): Promise<void> {
    response.body = await this.breakpoints.locations(args);
    this.sendResponse(response);
  }

  /** Loaded Scripts (sources/loaded-sources.ts): the program's own modules first. */
  protected override loadedSourcesRequest(response: DebugProtocol.LoadedSourcesResponse): void {
    response.body = { sources: loadedSources(this.controller.scripts.sources) };
    this.sendResponse(response);
  }

  protected override async continueRequest(response: DebugProtocol.ContinueResponse): Promise<void> {
    await this.stepping.continue();
    response.body = { allThreadsContinued: true };
    this.sendResponse(response);
  }

  protected override async nextRequest(response: DebugProtocol.NextResponse): Promise<void> {
    await this.stepping.step('over');
    this.sendResponse(response);
  }

  protected override async stepInRequest(response: DebugProtocol.StepInResponse, args: DebugProtocol.StepInArguments): Promise<void> {
    await this.stepping.stepIn(args?.targetId);
    this.sendResponse(response);
  }

  protected override async restartFrameRequest(response: DebugProtocol.RestartFrameResponse, args: DebugProtocol.RestartFrameArguments): Promise<void> {
    const error = await this.stepping.restartFrame(args.frameId);
    if (error) return this.sendErrorResponse(response, error);
    this.sendResponse(response);
  }

  protected override async stepInTargetsRequest(response: DebugProtocol.StepInTargetsResponse, args: DebugProtocol.StepInTargetsArguments): Promise<void> {
    response.body = { targets: await this.stepping.targets(args.frameId) };
    this.sendResponse(response);
  }

  protected override async stepOutRequest(response: DebugProtocol.StepOutResponse): Promise<void> {
    await this.stepping.step('out');
    this.sendResponse(response);
  }

  protected override async pauseRequest(response: DebugProtocol.PauseResponse): Promise<void> {
    await this.stepping.pause();
    this.sendResponse(response);
  }

  protected override async customRequest(command: string, response: DebugProtocol.Response, args: unknown): Promise<void> {
    const handler = this.customHandlers.get(command);
    if (!handler) return super.customRequest(command, response, args);
    await answer(this.client, response, { id: 1006 }, () => handler(args));
  }

  protected override async readMemoryRequest(response: DebugProtocol.ReadMemoryResponse, args: DebugProtocol.ReadMemoryArguments): Promise<void> {
    await answer(this.client, response, { id: 1007, showUser: false }, () =>
      this.store.memory.read(this.controller.agent, args.memoryReference, args.offset ?? 0, args.count),
    );
  }

  protected override async dataBreakpointInfoRequest(
    response: DebugProtocol.DataBreakpointInfoResponse,
    args: DebugProtocol.DataBreakpointInfoArguments,
  ): Promise<void> {
    const value = await this.evaluations.dataBreakpointValue(args);
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

  protected override async terminateRequest(response: DebugProtocol.TerminateResponse): Promise<void> {
    this.program.terminate();
    this.sendResponse(response);
  }

  protected override async disconnectRequest(response: DebugProtocol.DisconnectResponse, args?: DebugProtocol.DisconnectArguments): Promise<void> {
    await this.program.disconnect(args?.terminateDebuggee);
    this.sendResponse(response);
  }

  /**
   * The program ran on: what the stop showed (frames, variables, evaluations' frames) is gone. The
   * timeline gets what the session still keeps, which must not grow with the stops (long-session.test.ts).
   */
  private resumed(): void {
    this.evaluator.reset();
    this.stack.reset();
    this.store.reset();
    this.releaseStopObjects();
    mark('adapter: stop released', () => ({ scripts: this.controller.scripts.sources.size, memoryReferences: this.store.memory.size }));
  }

  /**
   * The stop's remote objects are let go in the debuggee (cdp/object-groups.ts): before the command
   * that resumes it, and when it runs on without one from us (a detach).
   */
  private releaseStopObjects(): void {
    if (!this.controller.closed) releaseStopGroup(this.controller.connection().cdp);
  }
}
