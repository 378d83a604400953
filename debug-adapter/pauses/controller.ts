/**
 * The debuggee seen through CDP: decides what each V8 pause means (a user breakpoint, a callback
 * the agent stopped in, a breakpoint binding, a step) and reports stops as plain events. It knows
 * nothing of DAP; session.ts translates. Each kind of breakpoint has its home under breakpoints/
 * (what a hit means, its words); steps are steps.ts; this coordinates the pauses.
 */
import type { Protocol } from 'devtools-protocol';
import { AgentMissingError } from '../cdp/agent-client.js';
import type { FunctionBreakpointStatus } from '../breakpoints/callback-names.js';
import { dataStop } from '../breakpoints/data.js';
import { agentExceptionStop, type ExceptionFilters, exceptionStop, pausesOnExceptions } from '../breakpoints/exceptions.js';
import { FunctionBreakpoints, type FunctionBreakpointSpec } from '../breakpoints/function.js';
import { listenForLogpoints, type LogpointLocation, logpointLines } from '../breakpoints/logpoints.js';
import { nodeStop } from '../breakpoints/node.js';
import { opBirthStop } from '../breakpoints/op-births.js';
import { BreakpointManager, type SourceBreakpoint, type SourceBreakpointSpec } from '../breakpoints/source.js';
import { ConditionScripts } from '../cdp/condition-scripts.js';
import type { CdpConnection } from '../cdp/connection.js';
import { type ActiveSnapshot, type GraphRunRecord, KNOWN_BINDING, type KnownNotice } from '../debuggee/agent-protocol.js';
import { mark } from '../debuggee/timeline.js';
import type { FilterConfig } from '../launch-config.js';
import { withSourceNames } from '../sources/parameter-names.js';
import { SKIPPED_ALWAYS } from '../sources/scripts.js';
import { agentConfig, configureAgent, injectAgent, setAgentBreakpoint } from './agent-config.js';
import type { PausedState, Stop, StopReason } from '../state/pause-state.js';
import { type ConnectOptions, LiveDebuggee } from '../state/live-debuggee.js';
import { Blackbox, SkipFiles } from '../sources/skip-files.js';
import type { StepTarget } from './step-in-targets.js';
import { Steps } from './steps.js';

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
export class Controller extends LiveDebuggee {
  readonly breakpoints: BreakpointManager;
  private readonly functionBreakpoints: FunctionBreakpoints;
  private readonly steps: Steps;
  paused: PausedState | undefined;
  private agentBreakpointId: string | undefined;
  /** A one-time stop on a function's call: a callback's first line, or a Step Into Target's callee. */
  private callStop: { cdpId: string; description: string; reason: StopReason } | undefined;
  /** Whether the graph view watches runs (the agent keeps each run's node statuses). */
  private watchGraph = false;
  private exceptionFilters: ExceptionFilters = { caught: false, uncaught: false, callbackErrors: false };
  private filters: FilterConfig = {
    breakOnCallbacks: [],
    breakOnToutMismatch: true,
    breakOnNonFinite: false,
    breakOnGraphNonFinite: false,
    breakOnOpNonFinite: false,
  };
  private stopOnEntryFile: string | undefined;
  private pauseQueue: Promise<void> = Promise.resolve();

  /**
   * The V8 debugger, turned on once. With it on, V8 hashes every script it parses (~80 ms for
   * TF.js), so a launch with no source breakpoint and no exception pauses leaves it off: the
   * agent decides its stops in-process and asks for the debugger just before the first one.
   */
  private debuggerOn: Promise<void> | undefined;
  private debuggerActive = false;
  private readonly blackbox = new Blackbox(this.scripts.sources);
  /** Settles when the debugger may come on (a launched program's preloads have run). */
  private debuggerGate: Promise<void> = Promise.resolve();

  constructor() {
    super();
    this.breakpoints = new BreakpointManager(
      () => (this.debuggerActive ? this.cdp : undefined),
      this.scripts.sources,
      (bp) => this.emit('breakpoint', bp),
      () => this.configureAgent(),
    );
    this.functionBreakpoints = new FunctionBreakpoints({
      agent: () => (this.cdp ? this.agentClient : undefined),
      launchNames: () => this.filters.breakOnCallbacks,
      configure: () => this.configureAgent(),
      sourceNames: (active) => this.withSourceNames(active),
      changed: (status) => this.emit('functionBreakpoint', status),
      output: (category, text) => this.emit('output', category, text),
    });
    this.steps = new Steps({
      cdp: () => this.cdp,
      agent: () => this.agentClient,
      scripts: this.scripts,
      pauseEnded: () => this.pauseEnded(),
      stopOnCall: (objectId, description, reason) => this.stopOnCall(objectId, description, reason),
      forgetCallStop: (cdpId) => {
        if (this.callStop?.cdpId === cdpId) this.callStop = undefined;
      },
      resume: () => this.resume(),
    });
  }

  /**
   * Wires CDP and prepares the debuggee before it runs: the agent's configuration, and the
   * debugger with its breakpoints when something needs it from the start (`debuggerNow`, source
   * breakpoints, stop on entry). `viaBridge`: through a launched program's bridge (debuggee/bridge.ts).
   */
  async connect(cdp: CdpConnection, options: ConnectOptions): Promise<void> {
    this.open(cdp);
    const conditionScripts = new ConditionScripts(cdp, options.viaBridge === true);
    // A dead debuggee has no stop to show: stack and scopes answer empty, not from stale frames.
    cdp.onClose(() => {
      this.paused = undefined;
    });
    this.filters = options.filters;
    this.stopOnEntryFile = options.stopOnEntryFile;
    cdp.on('Debugger.scriptParsed', (e) => {
      if (conditionScripts.has(e)) return;
      const script = this.scripts.sources.add(e);
      if (this.debuggerActive) void Promise.all([this.blackbox.script(cdp, this.scripts.skip, script), this.breakpoints.scriptParsed(script)]).catch(() => {});
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
    // The agent tells each callback that becomes known while a wanted name has none (debuggee/agent/known.ts).
    cdp.on('Runtime.bindingCalled', (e) => {
      if (e.name !== KNOWN_BINDING) return;
      const notice = JSON.parse(e.payload) as KnownNotice;
      if (!notice.graphRun) this.functionBreakpoints.known(notice);
      else if (this.watchGraph) this.emit('graphRunEnded', notice.graphRun);
    });
    await cdp.send('Runtime.addBinding', { name: KNOWN_BINDING });
    await listenForLogpoints(cdp, this.breakpoints, (text, where) => this.emit('logpoint', text, where));
    if (options.injectAgent) await injectAgent(cdp, options.injectAgent);
    await this.configureAgent();
    for (const hook of this.connectHooks) await hook(this.agent);
    await this.functionBreakpoints.refresh();
    this.functionBreakpoints.report();
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
    if (this.debuggerActive) await this.blackbox.apply(this.cdp!, this.scripts.skip, this.scripts.sources.all());
    return skipped;
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
      await this.blackbox.apply(cdp, this.scripts.skip, this.scripts.sources.all());
      if (pausesOnExceptions(this.exceptionFilters)) await cdp.send('Debugger.setPauseOnExceptions', { state: 'all' });
      this.agentBreakpointId = await setAgentBreakpoint(cdp, this.agent);
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

  /** Replaces the function breakpoints (breakpoints/function.ts). */
  setFunctionBreakpoints(specs: FunctionBreakpointSpec[]): Promise<FunctionBreakpointStatus[]> {
    return this.functionBreakpoints.set(specs);
  }

  /** At the program's end: a warning for each name that no callback ever answered to. */
  warnUnmatchedNames(): void {
    this.functionBreakpoints.report(true);
  }

  get watchingGraph(): boolean {
    return this.watchGraph;
  }

  /** The graph view opened or closed: whether the agent keeps each run's node statuses. */
  async setWatchGraph(on: boolean): Promise<void> {
    this.watchGraph = on;
    await this.configureAgent();
  }

  /** Exception filters: V8 pauses on every exception, breakpoints/exceptions.ts decides (callback errors alone: from a callback's start, `debuggerBeforeCallbacks`). */
  async setPauseOnExceptions(filters: ExceptionFilters): Promise<void> {
    this.exceptionFilters = filters;
    if (this.cdp && (filters.caught || filters.uncaught)) await this.enableDebugger();
    else if (this.debuggerOn) await this.debuggerOn;
    if (this.debuggerActive) await this.cdp?.send('Debugger.setPauseOnExceptions', { state: pausesOnExceptions(filters) ? 'all' : 'none' });
  }

  async resume(): Promise<void> {
    this.pauseEnded();
    await this.cdp?.send('Debugger.resume', {});
  }

  step(kind: 'over' | 'into' | 'out'): Promise<void> {
    return this.steps.step(kind, this.paused);
  }

  /** Step Into Target (step-in-targets.ts, steps.ts). */
  stepIntoTarget(target: StepTarget): Promise<void> {
    return this.steps.intoTarget(target, this.paused);
  }

  /** Restarts a paused frame (V8's Debugger.restartFrame): the next stop is at the start of its function. */
  restartFrame(callFrameId: string): Promise<void> {
    return this.steps.restartFrame(callFrameId);
  }

  async pause(): Promise<void> {
    if (!this.cdp) return;
    await this.enableDebugger();
    this.steps.pauseAsked();
    await this.cdp?.send('Debugger.pause');
  }

  /**
   * Ends the agent's count of a stop's length (pipelined before the resume, so it costs no round
   * trip): an invocation's durationMs leaves out the time it was held here.
   */
  private pauseEnded(): void {
    if (this.paused) this.agentClient?.notify((agent) => agent.pauseEnded());
  }

  private async configureAgent(): Promise<void> {
    if (!this.cdp) return;
    const debuggerBeforeCallbacks = this.exceptionFilters.callbackErrors && !this.debuggerActive;
    const options = { watchGraph: this.watchGraph, debuggerActive: this.debuggerActive, debuggerBeforeCallbacks, moduleLoads: this.breakpoints.watchedLoads() };
    await configureAgent(this.agent, agentConfig(this.filters, this.functionBreakpoints.forAgent(), options));
  }

  private async onPaused(event: Protocol.Debugger.PausedEvent): Promise<void> {
    if (await this.steps.atPause(event, this.paused)) return;
    mark(`adapter: paused (${event.reason})`);
    const hit = event.hitBreakpoints ?? [];
    if (this.agentBreakpointId && hit.includes(this.agentBreakpointId)) return this.onAgentBreak(event);
    if (this.callStop && hit.includes(this.callStop.cdpId)) {
      const { cdpId, description, reason } = this.callStop;
      this.callStop = undefined;
      await this.cdp!.send('Debugger.removeBreakpoint', { breakpointId: cdpId });
      return this.stopped(event, { reason, description });
    }
    if (event.reason === 'instrumentation') return this.breakpoints.atInstrumentation(event.data).then(() => this.resumeQuietly());
    const entryHits = hit.filter((id) => this.breakpoints.isEntry(id));
    if (entryHits.length > 0 && hit.length === entryHits.length) return this.onEntry(event, entryHits);
    const user = this.breakpoints.hitsAt(hit);
    if (user.any) {
      for (const line of await logpointLines(this.cdp!, this.scripts.sources, user.logpoints, event.callFrames[0]!))
        this.emit('logpoint', line.text, line.where);
      if (user.breaking.length > 0)
        return this.stopped(event, { reason: 'breakpoint', description: 'Paused on breakpoint', hitBreakpointIds: user.breaking.map((bp) => bp.id) });
      // A step that lands where a breakpoint does not stop (its condition or hit count says no) is still a step's stop.
      if (!this.steps.isStep) return this.resumeQuietly();
    }
    if (event.reason === 'exception' || event.reason === 'promiseRejection') {
      const found = await exceptionStop(this.connection(), event, this.exceptionFilters);
      if (found) return this.stopped(event, found.stop, found.active ? { active: found.active } : undefined);
      // Not the user's: resume, or go on with a step under way (V8 forgot it at this pause).
      if (!(await this.steps.afterException())) await this.resumeQuietly();
      return;
    }
    if (await this.steps.goesOn(event)) return;
    return this.stopped(event, this.steps.stopFor(event));
  }

  /** A pause on entry breakpoints only: what waited for the file binds; a stop on entry stops here. */
  private async onEntry(event: Protocol.Debugger.PausedEvent, entryHits: readonly string[]): Promise<void> {
    await this.breakpoints.bindPending();
    await this.breakpoints.dropEntries(entryHits);
    const top = this.scripts.sources.get(event.callFrames[0]!.location.scriptId);
    if (this.stopOnEntryFile && top?.file === this.stopOnEntryFile) {
      this.stopOnEntryFile = undefined;
      return this.stopped(event, { reason: 'entry', description: 'Paused on entry' });
    }
    return this.resumeQuietly();
  }

  /** A stop the agent decided (breakpoints/: data, node, exception filters, function breakpoints). */
  private async onAgentBreak(event: Protocol.Debugger.PausedEvent): Promise<void> {
    // Summaries of the tensors (`details`) are read after the stop is shown (stop-events.ts): a 2^20-element
    // input's first summary took 55 ms, on the path to the paused line.
    const { why, active } = await this.agent.call((agent) => ({ why: agent.lastBreak, active: agent.snapshot() }));
    // Before a CommonJS module is compiled, for breakpoints waiting (debuggee/agent/module-loads.ts): never shown; a V8 step goes on.
    if (why?.reason === 'moduleLoad' && why.load)
      return this.breakpoints.bindLoad(why.load).then(async () => void ((await this.steps.afterException()) || (await this.resumeQuietly())));
    if (why?.reason === 'data' && why.data) return this.stopped(event, dataStop(why.data), { active, data: why.data });
    const atNode = nodeStop(why, (failed, where) => this.functionBreakpoints.conditionFailed(failed, where));
    if (atNode) return this.stopped(event, atNode.stop, { active, node: atNode.node });
    const atOp = opBirthStop(why);
    if (atOp) return this.stopped(event, atOp.stop, { active, op: atOp.op });
    const filtered = agentExceptionStop(why, active);
    if (filtered) return this.stopped(event, filtered.stop, { active, ...(filtered.node ? { node: filtered.node } : {}) });
    const entry = active.find((a) => a.id === why?.id);
    const stop = why && entry ? await this.functionBreakpoints.callbackStop(entry, why) : undefined;
    if (!entry || !stop) return this.resumeQuietly();
    // Stop at the first statement of the callback's own code, with its inputs bound.
    const func = await this.agent.callRemote((agent, id) => agent.live(id)?.func, entry.id);
    if (await this.stopOnCall(func.objectId!, stop.description, stop.reason)) return this.resumeQuietly();
    // A native or bound function has no first line: stop here, in the runtime, instead.
    return this.stopped(event, stop, { active });
  }

  /** A one-time stop when the function `objectId` is called; its CDP id, or undefined where V8 sets none. */
  private async stopOnCall(objectId: string, description: string, reason: StopReason): Promise<string | undefined> {
    try {
      const bp = await this.cdp!.send('Debugger.setBreakpointOnFunctionCall', { objectId });
      this.callStop = { cdpId: bp.breakpointId, description, reason };
      return bp.breakpointId;
    } catch {
      return undefined;
    }
  }

  private async stopped(event: Protocol.Debugger.PausedEvent, stop: Stop, known?: Pick<PausedState, 'active' | 'node' | 'data' | 'op'>): Promise<void> {
    this.steps.ended();
    this.agent.notify((agent) => agent.pauseBegan());
    const { active, node, data, op } = known ?? (await this.invocations());
    this.paused = {
      event,
      stop,
      active: await Promise.all(active.map((a) => this.withSourceNames(a))),
      ...(node ? { node } : {}),
      ...(data ? { data } : {}),
      ...(op ? { op } : {}),
    };
    // A step's breakpoints go once the stop is known: the questions above do not wait behind their removal
    // (55 commands after a Step Into; V8 takes no break while paused), and what follows is sent after it.
    this.steps.breakpoints.disarm();
    this.emit('stopped', this.paused);
  }

  /** The invocations under way (their summaries come after the stop is shown: stop-events.ts). */
  private async invocations(): Promise<Pick<PausedState, 'active' | 'node' | 'data' | 'op'>> {
    try {
      return { active: await this.agent.call((agent) => agent.snapshot()) };
    } catch (err) {
      if (err instanceof AgentMissingError) return { active: [] };
      throw err;
    }
  }

  /** An invocation with its parameters named as the source names them (sources/parameter-names.ts). */
  private withSourceNames(active: ActiveSnapshot): Promise<ActiveSnapshot> {
    return withSourceNames(this.agent, this.scripts, active);
  }

  private async resumeQuietly(): Promise<void> {
    await this.cdp!.send('Debugger.resume', {}).catch(() => {});
  }
}
