/**
 * The debuggee seen through CDP: decides what each V8 pause means (a user breakpoint, a callback
 * the agent stopped in, a breakpoint binding, a step) and reports stops as plain events. It knows
 * nothing of DAP; session.ts translates.
 */
import { EventEmitter } from 'node:events';
import type { Protocol } from 'devtools-protocol';
import { BreakpointManager, parseHitCondition, type SourceBreakpoint, type SourceBreakpointSpec } from '../breakpoints/source.js';
import { AgentClient, AgentMissingError } from '../agent-client.js';
import { logMessage } from '../breakpoints/expressions.js';
import { type LogpointLocation, logpointLocation } from '../breakpoints/logpoints.js';
import { calleeFunction, reached, type StepTarget } from './step-in-targets.js';
import type { CdpConnection } from '../cdp/connection.js';
import { BRIDGE_METHODS } from '../debuggee/bridge-protocol.js';
import { KNOWN_BINDING, type ActiveSnapshot, type AgentConfig, type GraphRunRecord, type KnownNotice, type LastBreak } from '../debuggee/agent-protocol.js';
import type { FilterConfig } from '../launch-config.js';
import { displayName } from '../callback-display.js';
import { dataStop } from '../breakpoints/data.js';
import { CallbackNames, type FunctionBreakpointStatus } from '../breakpoints/callback-names.js';
import { exceptionStop, type ExceptionFilters } from '../breakpoints/exceptions.js';
import { sourceParameterNames } from '../parameter-names.js';
import type { PausedState, Stop, StopReason } from './pause-state.js';
import { Scripts, SKIPPED_ALWAYS } from '../scripts.js';
import type { ScriptInfo } from '../sources.js';
import { sameLocation, StepBreakpoints } from './step-breakpoints.js';
import { SkipFiles } from './skip-files.js';
import { mark } from '../debuggee/timeline.js';
import { AGENT_SOURCE_URL, isAgentFile, isUserFrame, isUserScript } from '../stack.js';

export type { PausedState, Stop, StopReason } from './pause-state.js';

/** The live debuggee, for the collaborators that read it (stack, variables, evaluation). */
export interface DebuggeeConnection {
  readonly cdp: CdpConnection;
  readonly agent: AgentClient;
  readonly scripts: Scripts;
}

/** How long Stop waits for a terminal's process to end on `Bridge.end` before closing anyway. */
const END_WAIT_MS = 2000;

/** How many extra steps to take to get out of library code before stopping anyway. */
const MAX_STEP_RETRIES = 60;

/** Where a step began: its source line, and how deep the stack was (the same frame when equal). */
interface StepOrigin {
  /** "file:line" in the user's source (tsx's output puts a whole module on one generated line). */
  readonly line: string | undefined;
  readonly depth: number;
  /** The start of the frame's function (the same frame: this function at this depth). */
  readonly functionLocation?: Protocol.Debugger.Location;
}

/**
 * How a step under way gets to its stop (step-breakpoints.ts), with no V8 stepping through library
 * code: V8's own step where it stays in the frame (or the user took files back from skipFiles);
 * 'caller': breakpoints on the nearest caller of the program's own; 'out': on the program's code
 * but the rest of the frame being left; 'armed': on all of the program's code.
 */
type StepMode = 'v8' | 'caller' | 'out' | 'armed';

export interface FunctionBreakpointSpec {
  readonly name: string;
  readonly condition?: string;
  readonly hitCondition?: string;
}

export declare interface Controller {
  on(event: 'stopped', listener: (state: PausedState) => void): this;
  on(event: 'continued', listener: () => void): this;
  on(event: 'output', listener: (category: 'console' | 'stdout' | 'stderr', text: string) => void): this;
  on(event: 'logpoint', listener: (text: string, where: LogpointLocation) => void): this;
  on(event: 'breakpoint', listener: (bp: SourceBreakpoint) => void): this;
  on(event: 'debuggerEnabled', listener: () => void): this;
  on(event: 'functionBreakpoint', listener: (status: FunctionBreakpointStatus) => void): this;
  /** A watched graph's run ended (the agent tells it through its binding): the statuses of all of it. */
  on(event: 'graphRunEnded', listener: (run: GraphRunRecord) => void): this;
  /** The backend a launched program's preloads chose (its bridge says it when held). */
  on(event: 'backendChosen', listener: (backend: string) => void): this;
}

// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the interface above only types the events' on() overloads
export class Controller extends EventEmitter {
  readonly scripts = new Scripts(() => this.cdp);
  readonly breakpoints: BreakpointManager;
  private cdp: CdpConnection | undefined;
  private agentClient: AgentClient | undefined;
  paused: PausedState | undefined;
  private agentBreakpointId: string | undefined;
  private functionStop: { cdpId: string; description: string; reason: StopReason } | undefined;
  /** Whether the graph view watches runs (the agent keeps each run's node statuses). */
  private watchGraph = false;
  private nextStepReason: StopReason | undefined;
  /** A Step Into Target under way: the call position it runs to first. */
  private stepTarget: StepTarget | undefined;
  private stepTargetBreakpoint: string | undefined;
  /** The step under way, repeated while it stops outside the user's code. */
  private stepping: { kind: 'over' | 'into' | 'out'; tries: number; origin?: StepOrigin; mode: StepMode; callerDepth?: number } | undefined;
  /** The breakpoints steps set for themselves (step-breakpoints.ts). */
  readonly stepBreakpoints = new StepBreakpoints(
    () => this.cdp,
    (scriptId) => this.scripts.text(scriptId),
    (location) => this.sourceLine(location) ?? location.lineNumber,
  );
  private functionBreakpoints: (FunctionBreakpointSpec & { id: number })[] = [];
  private readonly connectHooks: ((agent: AgentClient) => Promise<void>)[] = [];
  private nextFunctionBreakpointId = 1;
  /** The callbacks the program has made known, for function breakpoints' verification and typos. */
  private readonly callbackNames = new CallbackNames();
  private exceptionFilters: ExceptionFilters = { caught: false, uncaught: false };
  private filters: FilterConfig = { breakOnCallbacks: [], breakOnToutMismatch: true, breakOnNonFinite: false, breakOnGraphNonFinite: false };
  private stopOnEntryFile: string | undefined;
  private pauseQueue: Promise<void> = Promise.resolve();

  /**
   * The V8 debugger, turned on once. With it on, V8 hashes every script it parses (~80 ms for
   * TF.js), so a launch with no source breakpoint and no exception pauses leaves it off: the
   * agent decides its stops in-process and asks for the debugger just before the first one.
   */
  private debuggerOn: Promise<void> | undefined;
  private debuggerActive = false;
  /** Scripts blackboxed by their range (skipFiles globs no pattern says). */
  private readonly blackboxed = new Set<string>();
  /** Settles when the debugger may come on (a launched program's preloads have run). */
  private debuggerGate: Promise<void> = Promise.resolve();

  constructor() {
    super();
    this.breakpoints = new BreakpointManager(
      () => (this.debuggerActive ? this.cdp : undefined),
      this.scripts.sources,
      (bp) => this.emit('breakpoint', bp),
    );
  }

  /**
   * Wires CDP and prepares the debuggee before it runs: the agent's configuration, and the
   * debugger with its breakpoints when something needs it from the start (`debuggerNow`, source
   * breakpoints, stop on entry).
   */
  async connect(cdp: CdpConnection, options: { filters: FilterConfig; debuggerNow: boolean; stopOnEntryFile?: string; injectAgent?: string }): Promise<void> {
    this.cdp = cdp;
    this.agentClient = new AgentClient(cdp);
    // A dead debuggee has no stop to show: stack and scopes answer empty, not from stale frames.
    cdp.onClose(() => {
      this.paused = undefined;
    });
    this.filters = options.filters;
    this.stopOnEntryFile = options.stopOnEntryFile;
    cdp.on('Debugger.scriptParsed', (e) => {
      const script = this.scripts.sources.add(e);
      if (this.debuggerActive) void this.blackboxScript(script);
    });
    cdp.on('Debugger.paused', (e) => {
      this.pauseQueue = this.pauseQueue
        .then(() => this.onPaused(e))
        .catch((err) => {
          this.emit('output', 'stderr', `debugger: ${(err as Error).message}\n`);
        });
    });
    cdp.on('Debugger.resumed', () => {
      if (this.paused) {
        this.paused = undefined;
        this.emit('continued');
      }
    });
    // The agent tells each callback that becomes known while a wanted name has none (agent.ts).
    cdp.on('Runtime.bindingCalled', (e) => {
      if (e.name !== KNOWN_BINDING) return;
      const notice = JSON.parse(e.payload) as KnownNotice;
      if (notice.graphRun) {
        if (this.watchGraph) this.emit('graphRunEnded', notice.graphRun);
        return;
      }
      this.callbackNames.add(notice);
      // A model's callback node: the model is loading, and the agent tells its graph only where it
      // matched a name. Asked after the load (the agent answers once the program's turn ends), it
      // says whether a node path waiting for a model has it.
      const names = [...this.functionBreakpoints.map((f) => f.name), ...this.filters.breakOnCallbacks];
      const graph = notice.callback?.graph;
      if (graph !== undefined && this.callbackNames.awaitsModel(names)) void this.refreshUntilGraph(graph).then(() => this.reportFunctionBreakpoints());
      else this.reportFunctionBreakpoints();
    });
    await cdp.send('Runtime.addBinding', { name: KNOWN_BINDING });
    if (options.injectAgent) await this.inject(options.injectAgent);
    await this.configureAgent();
    for (const hook of this.connectHooks) await hook(this.agentClient);
    await this.refreshKnownCallbacks();
    this.reportFunctionBreakpoints();
    if (options.debuggerNow || this.stopOnEntryFile || this.breakpoints.hasAny()) await this.enableDebugger();
  }

  /** launch.json's skipFiles (undefined: the defaults); the runtime and the agent are always skipped. */
  skipFiles(globs: readonly string[] | undefined): void {
    this.scripts.skip = new SkipFiles(globs, SKIPPED_ALWAYS);
  }

  /**
   * "Toggle Skipping this File": steps pass over it, or go through it line by line. V8's blackbox
   * follows (the patterns are remade, or the script's range set). Returns whether it is skipped now.
   */
  async toggleSkipping(file: string): Promise<boolean> {
    const skipped = this.scripts.skip.toggle(file);
    if (this.debuggerActive) await this.applyBlackbox();
    return skipped;
  }

  /**
   * V8's blackbox, as skipFiles says: patterns for the runtime, the agent, Node's internals and
   * every package when all are skipped; each other skipped script by its range (set as it is parsed).
   */
  private async applyBlackbox(): Promise<void> {
    const cdp = this.cdp!;
    const skip = this.scripts.skip;
    const patterns = [...SKIPPED_ALWAYS.map(escapeRegExp), AGENT_SOURCE_URL.replace('.', '\\.'), '^wasm:'];
    if (skip.skipsInternals()) patterns.push('^node:');
    if (skip.skipsAllPackages()) patterns.push('/node_modules/');
    await cdp.send('Debugger.setBlackboxPatterns', { patterns });
    await Promise.all(this.scripts.sources.all().map((script) => this.blackboxScript(script)));
  }

  /** A script skipFiles skips that no pattern covers is blackboxed whole; one taken back is cleared. */
  private async blackboxScript(script: ScriptInfo): Promise<void> {
    if (!script.file || !this.cdp) return;
    const skip = this.scripts.skip;
    const byPattern = SKIPPED_ALWAYS.some((dir) => script.file!.startsWith(dir)) || (skip.skipsAllPackages() && script.file.includes('/node_modules/'));
    if (byPattern) return;
    const skipped = skip.skips({ file: script.file });
    if (!skipped && !this.blackboxed.has(script.scriptId)) return;
    if (skipped) this.blackboxed.add(script.scriptId);
    else this.blackboxed.delete(script.scriptId);
    await this.cdp
      .send('Debugger.setBlackboxedRanges', { scriptId: script.scriptId, positions: skipped ? [{ lineNumber: 0, columnNumber: 0 }] : [] })
      .catch(() => {});
  }

  /** The debugger comes on no sooner than `gate` settles (connect.ts: a launched program's preloads). */
  holdDebuggerUntil(gate: Promise<void>): void {
    this.debuggerGate = gate;
  }

  /** Turns the debugger on (once) with the agent's breakpoint and the user's breakpoints. */
  enableDebugger(): Promise<void> {
    this.debuggerOn ??= (async () => {
      await this.debuggerGate;
      const cdp = this.cdp!;
      mark('adapter: Debugger.enable');
      await cdp.send('Debugger.enable', {});
      mark('adapter: Debugger enabled');
      this.debuggerActive = true;
      // Stepping skips the runtime's and libraries' frames; pauses on exceptions there are ignored.
      await this.applyBlackbox();
      await this.setAgentBreakpoint();
      await this.configureAgent();
      await this.breakpoints.bindAll();
      if (this.stopOnEntryFile) await this.breakpoints.watchEntry(this.stopOnEntryFile);
      this.emit('debuggerEnabled');
    })().catch((err: unknown) => {
      this.debuggerOn = undefined; // the next request tries again
      throw err;
    });
    return this.debuggerOn;
  }

  /** Replaces a file's source breakpoints; the first ones turn the debugger on. */
  async setSourceBreakpoints(file: string, specs: readonly SourceBreakpointSpec[]): Promise<SourceBreakpoint[]> {
    if (specs.length > 0 && this.cdp) await this.enableDebugger();
    return this.breakpoints.set(file, specs);
  }

  async setFilters(filters: Partial<FilterConfig>): Promise<void> {
    this.filters = { ...this.filters, ...filters };
    await this.configureAgent();
  }

  /** Replaces the function breakpoints; a name no callback has answered to yet is unverified. */
  async setFunctionBreakpoints(specs: FunctionBreakpointSpec[]): Promise<FunctionBreakpointStatus[]> {
    const all = specs.map((spec) => ({ ...spec, id: this.nextFunctionBreakpointId++, hits: parseHitCondition(spec.hitCondition) }));
    // One whose hit condition cannot be read never stops: the agent is not told its name.
    this.functionBreakpoints = all.filter((bp) => bp.hits.ok);
    await this.configureAgent();
    await this.refreshKnownCallbacks();
    const valid = this.callbackNames.statuses(this.functionBreakpoints);
    return all.map((bp) => (bp.hits.ok ? valid.find((v) => v.id === bp.id)! : { id: bp.id, verified: false, message: bp.hits.message }));
  }

  /** What the agent knows so far (after it was configured, or for a program attached to late). */
  private async refreshKnownCallbacks(): Promise<void> {
    if (!this.cdp) return;
    const names = [...new Set([...this.filters.breakOnCallbacks, ...this.functionBreakpoints.map((f) => f.name)])];
    const status = await this.agent.call((agent, wanted) => agent.knownStatus(wanted), names).catch(() => undefined);
    if (status) this.callbackNames.reset(status);
  }

  /** What the agent knows, once it knows the model `graph` (whose callback nodes it tells just before the graph). */
  private async refreshUntilGraph(graph: string): Promise<void> {
    for (let attempt = 0; attempt < 5 && !this.callbackNames.knowsGraph(graph); attempt++) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 20));
      await this.refreshKnownCallbacks();
    }
  }

  /** `changed` events for function breakpoints whose state moved; a warning for a likely typo. */
  private reportFunctionBreakpoints(final = false): void {
    const { changed, warnings } = this.callbackNames.report(this.functionBreakpoints, this.filters.breakOnCallbacks, final);
    for (const status of changed) this.emit('functionBreakpoint', status);
    for (const warning of warnings) this.emit('output', 'console', `${warning}\n`);
  }

  /** At the program's end: a warning for each name that no callback ever answered to. */
  warnUnmatchedNames(): void {
    this.reportFunctionBreakpoints(true);
  }

  get watchingGraph(): boolean {
    return this.watchGraph;
  }

  /** The graph view opened or closed: whether the agent keeps each run's node statuses. */
  async setWatchGraph(on: boolean): Promise<void> {
    this.watchGraph = on;
    await this.configureAgent();
  }

  /** Exception filters: with either on, V8 pauses on every exception and breakpoints/exceptions.ts decides. */
  async setPauseOnExceptions(filters: ExceptionFilters): Promise<void> {
    this.exceptionFilters = filters;
    const state = filters.caught || filters.uncaught ? 'all' : 'none';
    if (!this.cdp || (state === 'none' && !this.debuggerActive)) return;
    await this.enableDebugger();
    await this.cdp.send('Debugger.setPauseOnExceptions', { state });
  }

  async resume(): Promise<void> {
    this.pauseEnded();
    await this.cdp?.send('Debugger.resume', {});
  }

  async step(kind: 'over' | 'into' | 'out'): Promise<void> {
    const paused = this.paused;
    this.stepBreakpoints.disarm();
    // Inside a graph run, over and into go node by node: from a node stop to the next node (into:
    // or into the callback that starts first), and out of a graph's callback to its node. The
    // agent stops there; V8 steps out meanwhile, to the program's own code if the run ends first.
    const inGraphCallback = paused?.active.some((a) => a.node !== undefined) ?? false;
    if (paused?.node && kind !== 'out') {
      this.pauseEnded();
      this.agentClient?.notify((agent, k) => agent.stepNodes(k), kind);
      this.nextStepReason = 'step';
      this.stepping = { kind: 'out', tries: 0, mode: 'v8' };
      await this.sendStep('out');
      return;
    }
    if (inGraphCallback) this.agentClient?.notify((agent) => agent.stepNodes('over'));
    // The user's frame the step starts from (a stop on a callback pauses in the agent, above it).
    const frames = paused?.event.callFrames ?? [];
    const at = frames.findIndex((f) => isUserFrame(this.scripts, f));
    const from = at >= 0 ? frames[at]! : undefined;
    const origin: StepOrigin | undefined = from
      ? { line: this.sourceLine(from), depth: frames.length - at, ...(from.functionLocation ? { functionLocation: from.functionLocation } : {}) }
      : undefined;
    const mode = await this.stepMode(kind, frames, at);
    this.pauseEnded();
    this.nextStepReason = 'step';
    this.stepping = { kind, tries: 0, mode, ...(origin ? { origin } : {}) };
    const resume = () => this.resumeStep();
    if (mode === 'v8') return this.sendStep(kind);
    const fn = from?.functionLocation;
    if (mode === 'caller') {
      // The nearest frame of the program's below: its own locations, hit once the frames above return.
      const below = frames.findIndex((f, i) => i > at && isUserFrame(this.scripts, f));
      this.stepping.callerDepth = frames.length - below;
      return this.stepBreakpoints.armFunction(frames[below]!.functionLocation!, resume);
    }
    const scripts = this.scripts.sources.all().filter((script) => isUserScript(this.scripts, script));
    if (mode === 'out' && fn) {
      // The rest of the frame being left runs unwatched: its own code but its first line (a later
      // call), and the functions written inside it (a tf.tidy body), which only it calls.
      const range = await this.stepBreakpoints.functionRange(fn);
      return this.stepBreakpoints.arm(scripts, (l) => !sameLocation(l, range.first) && range.holds(l), resume);
    }
    // Step Into passes over what is left of its own line in its own function (calls into TF.js there).
    const sameLine = kind === 'into' && fn && origin?.line ? await this.stepBreakpoints.ownLocationsOnLine(fn, (l) => this.sourceLine(l) === origin.line) : [];
    const here = from?.location;
    return this.stepBreakpoints.arm(scripts, (l) => (here !== undefined && sameLocation(l, here)) || sameLine.some((o) => sameLocation(o, l)), resume);
  }

  /**
   * How a step from `frames[at]` (the program's innermost frame) gets there. V8's own step where it
   * stays in the frame (Step Over of a line that is not the frame's last; Step Out to a caller of the
   * program's own), or where the user took files back from skipFiles (they step line by line there);
   * breakpoints on the program's code where the step leaves the frame for library code.
   */
  private async stepMode(kind: 'over' | 'into' | 'out', frames: readonly Protocol.Debugger.CallFrame[], at: number): Promise<StepMode> {
    if (this.scripts.skip.takesBackPackages()) return 'v8';
    const from = frames[at];
    if (!from?.functionLocation) return 'armed';
    const atReturn = await this.stepBreakpoints.isReturn(from.functionLocation, from.location);
    // A frame of the program's further down: the step stops there, past other entries into the
    // program's code on the way (the next element's map callback), as a JS debugger's Step Out does.
    const toCaller = frames.slice(at + 1).some((f) => isUserFrame(this.scripts, f) && f.functionLocation);
    if (kind === 'over') return at === 0 && !atReturn ? 'v8' : toCaller ? 'caller' : 'armed';
    if (kind === 'out') return toCaller ? 'caller' : atReturn ? 'armed' : 'out';
    return 'armed';
  }

  /** Breakpoints on all of the program's code, then the resume right behind them (step-breakpoints.ts). */
  private armProgram(): Promise<void> {
    const scripts = this.scripts.sources.all().filter((script) => isUserScript(this.scripts, script));
    return this.stepBreakpoints.arm(
      scripts,
      () => false,
      () => this.resumeStep(),
    );
  }

  /** Resumes with the step's breakpoints set (no V8 step: the code between runs at full speed). */
  private async resumeStep(): Promise<void> {
    await this.cdp?.send('Debugger.resume', {});
  }

  /**
   * Ends the agent's count of a stop's length (pipelined before the resume, so it costs no round
   * trip): an invocation's durationMs leaves out the time it was held here.
   */
  private pauseEnded(): void {
    if (this.paused) this.agentClient?.notify((agent) => agent.pauseEnded());
  }

  /** A paused frame's "file:line" in the user's source. */
  private sourceLine(at: Protocol.Debugger.CallFrame | Protocol.Debugger.Location): string | undefined {
    const location = 'location' in at ? at.location : at;
    const original = this.scripts.sources.original(location.scriptId, location.lineNumber, location.columnNumber ?? 0);
    return original ? `${original.file}:${original.line}` : undefined;
  }

  private async sendStep(kind: 'over' | 'into' | 'out'): Promise<void> {
    if (kind === 'over') await this.cdp?.send('Debugger.stepOver', {});
    else if (kind === 'into') await this.cdp?.send('Debugger.stepInto', {});
    else await this.cdp?.send('Debugger.stepOut');
  }

  async pause(): Promise<void> {
    if (!this.cdp) return;
    await this.enableDebugger();
    this.nextStepReason = 'pause';
    await this.cdp?.send('Debugger.pause');
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

  /** Loads the agent into a program that was not launched with it (attach): its source, run once. */
  private async inject(source: string): Promise<void> {
    const r = await this.cdp!.send('Runtime.evaluate', { expression: source, returnByValue: true, silent: true });
    if (r.exceptionDetails) throw new Error(r.exceptionDetails.exception?.description ?? r.exceptionDetails.text);
  }

  private async configureAgent(): Promise<void> {
    if (!this.cdp) return;
    const config: AgentConfig = {
      breakOnCallbacks: [...this.filters.breakOnCallbacks],
      // Callbacks, model nodes and ops: the agent counts their hits and evaluates their conditions.
      functionBreakpoints: this.functionBreakpoints.map(({ id, name, condition, hitCondition }) => ({
        id,
        name,
        ...(condition?.trim() ? { condition } : {}),
        ...(hitCondition?.trim() ? { hitCondition } : {}),
      })),
      breakOnToutMismatch: this.filters.breakOnToutMismatch,
      breakOnNonFinite: this.filters.breakOnNonFinite,
      breakOnGraphNonFinite: this.filters.breakOnGraphNonFinite,
      watchGraph: this.watchGraph,
      // Restart Frame (restart-frame.ts) puts back inputs a callback wrote: copies kept while the debugger is on.
      keepInputs: this.debuggerActive,
    };
    try {
      await this.agent.call((agent, c) => void agent.configure(c), { ...config });
    } catch (err) {
      if (!(err instanceof AgentMissingError)) throw err;
    }
  }

  /** The one unconditional breakpoint: on the agent's callbackBreak. */
  private async setAgentBreakpoint(): Promise<void> {
    const cdp = this.cdp!;
    const fn = await this.agent.callRemote((agent) => agent.callbackBreak);
    if (!fn.objectId) throw new AgentMissingError();
    const props = await cdp.send('Runtime.getProperties', { objectId: fn.objectId, ownProperties: true });
    const location = props.internalProperties?.find((p) => p.name === '[[FunctionLocation]]')?.value?.value as Protocol.Debugger.Location | undefined;
    if (!location) throw new Error('cannot locate the debugger agent');
    const result = await cdp.send('Debugger.setBreakpoint', { location });
    this.agentBreakpointId = result.breakpointId;
  }

  /**
   * Step Into Target (step-in-targets.ts): run to the chosen call's position, then step in. The
   * pause at that position is this run's own, never shown.
   */
  async stepIntoTarget(target: StepTarget): Promise<void> {
    // The program's own callee: a one-time breakpoint on its call, whatever the line calls first.
    const fn = await calleeFunction(this.cdp!, this.scripts.sources, target, (file) => !isAgentFile(file) && !this.scripts.skip.skips({ file }));
    const bp = fn ? await this.cdp!.send('Debugger.setBreakpointOnFunctionCall', { objectId: fn }).catch(() => undefined) : undefined;
    if (bp) {
      this.functionStop = { cdpId: bp.breakpointId, description: 'Paused after step', reason: 'step' };
      this.stepTargetBreakpoint = bp.breakpointId;
      return this.resume();
    }
    if (this.paused && reached(target, this.paused.event)) return this.step('into');
    this.pauseEnded();
    this.stepTarget = target;
    this.nextStepReason = 'step';
    await this.cdp?.send('Debugger.continueToLocation', { location: target.location, targetCallFrames: 'current' });
  }

  /** Restarts a paused frame (V8's Debugger.restartFrame): the next stop is at the start of its function. */
  async restartFrame(callFrameId: string): Promise<void> {
    this.pauseEnded();
    this.nextStepReason = 'restart';
    this.stepping = undefined;
    this.stepBreakpoints.disarm();
    try {
      await this.cdp!.send('Debugger.restartFrame', { callFrameId, mode: 'StepInto' });
    } catch (err) {
      this.nextStepReason = undefined;
      this.agent.notify((agent) => agent.pauseBegan());
      throw err;
    }
  }

  private async onPaused(event: Protocol.Debugger.PausedEvent): Promise<void> {
    const target = this.stepTarget;
    this.stepTarget = undefined;
    if (target && reached(target, event)) return this.step('into');
    // A Step Into Target's breakpoint on its callee lasts one pause: the call did not come first.
    const targetBreakpoint = this.stepTargetBreakpoint;
    this.stepTargetBreakpoint = undefined;
    if (targetBreakpoint && !(event.hitBreakpoints ?? []).includes(targetBreakpoint)) {
      if (this.functionStop?.cdpId === targetBreakpoint) this.functionStop = undefined;
      await this.cdp!.send('Debugger.removeBreakpoint', { breakpointId: targetBreakpoint }).catch(() => {});
    }
    mark(`adapter: paused (${event.reason})`);
    const hit = event.hitBreakpoints ?? [];
    if (this.agentBreakpointId && hit.includes(this.agentBreakpointId)) return this.onAgentBreak(event);
    if (this.functionStop && hit.includes(this.functionStop.cdpId)) {
      const { cdpId, description, reason } = this.functionStop;
      this.functionStop = undefined;
      await this.cdp!.send('Debugger.removeBreakpoint', { breakpointId: cdpId });
      return this.stopped(event, { reason, description });
    }
    if (event.reason === 'instrumentation') {
      const scriptId = (event.data as { scriptId?: string } | undefined)?.scriptId;
      await this.breakpoints.bindPending(scriptId ? this.scripts.sources.get(scriptId) : undefined);
      return this.resumeQuietly();
    }
    const entryHits = hit.filter((id) => this.breakpoints.isEntry(id));
    if (entryHits.length > 0 && hit.length === entryHits.length) {
      await this.breakpoints.bindPending();
      await this.breakpoints.dropEntries(entryHits);
      const top = this.scripts.sources.get(event.callFrames[0]!.location.scriptId);
      if (this.stopOnEntryFile && top?.file === this.stopOnEntryFile) {
        this.stopOnEntryFile = undefined;
        return this.stopped(event, { reason: 'entry', description: 'Paused on entry' });
      }
      return this.resumeQuietly();
    }
    const userHits = hit.map((id) => this.breakpoints.breakpointFor(id)).filter((bp): bp is SourceBreakpoint => bp !== undefined);
    if (userHits.length > 0) {
      const stopping = userHits.filter((bp) => this.breakpoints.shouldStop(bp));
      const logpoints = stopping.filter((bp) => bp.spec.logMessage !== undefined);
      for (const bp of logpoints) {
        const text = `${await logMessage(this.cdp!, bp.spec.logMessage!, event.callFrames[0]!.callFrameId)}\n`;
        this.emit('logpoint', text, logpointLocation(this.scripts.sources, bp, event.callFrames[0]!));
      }
      const breaking = stopping.filter((bp) => bp.spec.logMessage === undefined);
      if (breaking.length > 0)
        return this.stopped(event, { reason: 'breakpoint', description: 'Paused on breakpoint', hitBreakpointIds: breaking.map((bp) => bp.id) });
      // A step that lands where a breakpoint does not stop (its condition or hit count says no) is still a step's stop.
      if (this.nextStepReason !== 'step') return this.resumeQuietly();
    }
    if (event.reason === 'exception' || event.reason === 'promiseRejection') {
      const found = await exceptionStop(this.connection(), event, this.exceptionFilters);
      if (found) return this.stopped(event, found.stop, found.active ? { active: found.active } : undefined);
      // Not the user's: resume, or go on with a step under way (V8 forgot it at this pause).
      const step = this.stepping;
      if (step && step.mode === 'v8' && this.nextStepReason === 'step' && step.tries < MAX_STEP_RETRIES) {
        step.tries++;
        return this.sendStep(step.kind === 'into' ? 'into' : 'out');
      }
      return this.resumeQuietly();
    }
    const step = this.stepping;
    if (step && this.nextStepReason === 'step') {
      await this.stepBreakpoints.settled();
      const goOn = await this.stepGoesOn(step, event);
      if (goOn === 'step') return this.sendStep(step.kind === 'into' ? 'into' : 'out');
      if (goOn === 'stepIn' || goOn === 'stepOut') return this.sendStep(goOn === 'stepIn' ? 'into' : 'out');
      if (goOn === 'resume') return this.resumeQuietly();
      if (goOn === 'resumed') return;
    }
    const reason = this.nextStepReason ?? 'pause';
    // V8 reports a `debugger` statement as 'other', with no step or pause asked for.
    const description =
      reason === 'step'
        ? 'Paused after step'
        : reason === 'restart'
          ? 'Restarted frame'
          : this.nextStepReason === undefined && event.reason === 'other'
            ? 'Paused on debugger statement'
            : 'Paused';
    return this.stopped(event, { reason, description });
  }

  /**
   * Whether a pause of a step under way is not yet its stop: 'resume' (the step's breakpoints stay),
   * 'resumed' (already, behind new ones), 'step' (V8 steps on as asked) or 'stepIn'/'stepOut' (V8
   * steps so); undefined: stop here.
   */
  private async stepGoesOn(
    step: NonNullable<Controller['stepping']>,
    event: Protocol.Debugger.PausedEvent,
  ): Promise<'resume' | 'resumed' | 'step' | 'stepIn' | 'stepOut' | undefined> {
    const top = event.callFrames[0]!;
    const origin = step.origin;
    // A deeper call (the function the caller's frame runs, called again before it resumes).
    if (step.mode === 'caller') return step.callerDepth !== undefined && event.callFrames.length > step.callerDepth ? 'resume' : undefined;
    if (step.mode === 'out') {
      // Code the rest of the frame being left calls (outside it): that frame is still running.
      const below = origin ? event.callFrames[event.callFrames.length - origin.depth] : undefined;
      const leftYet = !below || event.callFrames.length <= (origin?.depth ?? 0) || !sameFunction(below.functionLocation, origin?.functionLocation);
      return leftYet ? undefined : 'resume';
    }
    if (step.mode === 'armed') {
      // Step Into goes on past the rest of its own line in its own frame (calls into libraries in it).
      const sameLine =
        step.kind === 'into' &&
        origin?.line !== undefined &&
        event.callFrames.length === origin.depth &&
        sameFunction(top.functionLocation, origin.functionLocation) &&
        this.sourceLine(top) === origin.line;
      return sameLine ? 'resume' : undefined;
    }
    // V8's own step. Blackboxing does not keep V8 out of Node's internals (a getter the runtime
    // calls, say): where it stops outside the program's code, the program's next line is the stop.
    if (step.tries >= MAX_STEP_RETRIES) return undefined;
    if (!isUserFrame(this.scripts, top)) {
      step.tries++;
      if (this.scripts.skip.takesBackPackages()) {
        // WebAssembly is not blackboxed by V8 (its URL matches no pattern it applies): a step into
        // it goes instruction by instruction, so it is left at once.
        return step.kind === 'into' && !this.scripts.sources.get(top.location.scriptId)?.wasm ? 'stepIn' : 'stepOut';
      }
      step.mode = 'armed';
      await this.armProgram();
      return 'resumed';
    }
    // Back on the line the step began on, in the same frame, after leaving library code it
    // entered (tfjs-node calls back into Node's util, wasm): the line is not done, step on.
    if (step.kind === 'into' && step.tries > 0 && origin?.line && event.callFrames.length === origin.depth && this.sourceLine(top) === origin.line) {
      step.tries++;
      return 'step';
    }
    return undefined;
  }

  private async onAgentBreak(event: Protocol.Debugger.PausedEvent): Promise<void> {
    // Summaries of the tensors (`details`) are read after the stop is shown (session.ts): a 2^20-element
    // input's first summary took 55 ms, on the path to the paused line.
    const { why, active } = await this.agent.call((agent) => ({ why: agent.lastBreak, active: agent.snapshot() }));
    const node = why?.node;
    if (why?.reason === 'data' && why.data) return this.stopped(event, dataStop(why.data), { active, data: why.data });
    if (why?.reason === 'graphNonFinite' && why.origin) {
      const { origin } = why;
      const description = `NaN/Inf in the graph: ${origin.message}`;
      return this.stopped(
        event,
        { reason: 'exception', description, text: `${origin.graph} › ${origin.node} (${origin.op})`, exception: { id: 'GraphNonFinite', description } },
        { active, ...(node ? { node } : {}) },
      );
    }
    if (node && why?.reason === 'nodeStep') {
      return this.stopped(event, { reason: 'step', description: `Paused after node ${node.node} (${node.op})` }, { active, node });
    }
    if (node && why?.reason === 'node') {
      this.reportConditionFailure(why, `at node ${node.node}`);
      return this.stopped(event, { reason: 'function breakpoint', description: `Paused on node ${node.node} (${node.op})` }, { active, node });
    }
    const entry = active.find((a) => a.id === why?.id);
    if (!why || !entry) return this.resumeQuietly();
    const name = displayName(entry);
    const where = entry.node !== undefined ? `${entry.graph} › ${entry.node} (${entry.op})` : `${name} (${entry.op})`;
    if (why.reason === 'toutMismatch') {
      // The runtime's words as sent: its short form after our name, its whole messages as details.
      const full = entry.toutCheck?.mismatches.map((m) => m.message).join('\n') ?? '';
      const description = `Tout mismatch in ${name}: ${entry.toutCheck?.mismatches[0]?.short ?? ''}`;
      return this.stopped(
        event,
        { reason: 'exception', description, text: `Tout mismatch in ${where}`, exception: { id: 'ToutMismatch', description, details: full } },
        { active },
      );
    }
    if (why.reason === 'nonFinite') {
      const description = `NaN/Inf in an output of ${name}`;
      return this.stopped(event, { reason: 'exception', description, text: where, exception: { id: 'NonFinite', description } }, { active });
    }
    // A step into from a node stop enters this callback: no breakpoint's names or conditions apply.
    const stepIn = why.reason === 'nodeStep';
    if (!stepIn && !(await this.functionBreakpointAllows(entry, why))) return this.resumeQuietly();
    // Stop at the first statement of the callback's own code, with its inputs bound.
    const func = await this.agent.callRemote((agent, id) => agent.live(id)?.func, entry.id);
    const nodeText = entry.node !== undefined ? ` (node ${entry.node}, ${entry.op})` : ` (${entry.op})`;
    const description = `${stepIn ? 'Stepped into' : 'Paused on'} callback ${name}${nodeText}`;
    const reason: StopReason = stepIn ? 'step' : 'function breakpoint';
    try {
      const bp = await this.cdp!.send('Debugger.setBreakpointOnFunctionCall', { objectId: func.objectId! });
      this.functionStop = { cdpId: bp.breakpointId, description, reason };
      return this.resumeQuietly();
    } catch {
      // A native or bound function has no first line: stop here, in the runtime, instead.
      return this.stopped(event, { reason, description }, { active });
    }
  }

  /** A function breakpoint's condition threw: the agent stopped, and the Debug Console says why. */
  private reportConditionFailure(why: LastBreak, where: string): void {
    const failure = why.conditionFailure;
    if (!failure) return;
    const kind = why.reason === 'node' ? 'node breakpoint' : 'function breakpoint';
    this.emit('output', 'stderr', `The condition of ${kind} '${failure.breakpoint}' failed ${where}: ${failure.message}\n`);
  }

  /**
   * A callback stop the agent decided (hit counts and conditions are counted where the hit
   * happens), except conditions it left undecided: they name the source's parameter names where
   * the JS renamed them, which only this side reads (parameter-names.ts).
   */
  private async functionBreakpointAllows(entry: ActiveSnapshot, why: LastBreak): Promise<boolean> {
    const where = `in callback ${displayName(entry)}`;
    if (!why.undecided?.length) {
      this.reportConditionFailure(why, where);
      return true;
    }
    const { parameterNames } = await this.withSourceNames(entry);
    const verdict = await this.agent.call((agent, id, ids, names) => agent.decideConditions(id, ids, names), entry.id, why.undecided, parameterNames);
    if (verdict.failure) this.reportConditionFailure({ ...why, conditionFailure: verdict.failure }, where);
    return verdict.stop;
  }

  private async stopped(event: Protocol.Debugger.PausedEvent, stop: Stop, known?: Pick<PausedState, 'active' | 'node' | 'data'>): Promise<void> {
    this.nextStepReason = undefined;
    this.stepping = undefined;
    this.agent.notify((agent) => agent.pauseBegan());
    const { active, node, data } = known ?? (await this.invocations());
    this.paused = {
      event,
      stop,
      active: await Promise.all(active.map((a) => this.withSourceNames(a))),
      ...(node ? { node } : {}),
      ...(data ? { data } : {}),
    };
    // A step's breakpoints go once the stop is known: the questions above do not wait behind their
    // removal (55 commands after a Step Into; V8 takes no break while paused), and whatever the
    // stop leads to (a resume, more questions) is sent after it.
    this.stepBreakpoints.disarm();
    this.emit('stopped', this.paused);
  }

  /** The invocations under way (their summaries come after the stop is shown: session.ts). */
  private async invocations(): Promise<Pick<PausedState, 'active' | 'node' | 'data'>> {
    try {
      return { active: await this.agent.call((agent) => agent.snapshot()) };
    } catch (err) {
      if (err instanceof AgentMissingError) return { active: [] };
      throw err;
    }
  }

  /** An invocation with its parameters named as the source names them (parameter-names.ts). */
  private async withSourceNames(active: ActiveSnapshot): Promise<ActiveSnapshot> {
    const location = await this.agent.functionLocation(active.id);
    if (!location) return active;
    const names = await sourceParameterNames(this.scripts, location, active.parameterNames);
    return names.generated ? { ...active, parameterNames: names.names, generatedParameterNames: names.generated } : active;
  }

  private async resumeQuietly(): Promise<void> {
    await this.cdp!.send('Debugger.resume', {}).catch(() => {});
  }
}

function sameFunction(a: Protocol.Debugger.Location | undefined, b: Protocol.Debugger.Location | undefined): boolean {
  return !!a && !!b && sameLocation(a, b);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
