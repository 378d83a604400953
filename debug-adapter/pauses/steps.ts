/**
 * The step under way, on the CDP side: Step Over/Into/Out (node by node inside a graph run), Step
 * Into Target and Restart Frame, and whether a pause during a step is its stop yet. A step that
 * leaves the program's frame for library code runs there at full speed, behind breakpoints on the
 * program's code (step-breakpoints.ts), rather than V8 stepping through it. The controller asks
 * this at each pause; the DAP side of stepping is stepping.ts.
 */
import type { Protocol } from 'devtools-protocol';
import type { AgentClient } from '../cdp/agent-client.js';
import type { CdpConnection } from '../cdp/connection.js';
import type { Scripts } from '../sources/scripts.js';
import { isUserFrame, isUserScript } from '../state/stack.js';
import { isAgentFile } from '../sources/library-files.js';
import type { PausedState, StopReason } from '../state/pause-state.js';
import { sameLocation, StepBreakpoints } from './step-breakpoints.js';
import { calleeFunction, callsOnLine, reached, type StepTarget } from './step-in-targets.js';

/** How many extra steps to take to get out of library code before stopping anyway. */
const MAX_STEP_RETRIES = 60;

type StepKind = 'over' | 'into' | 'out';

/** Where a step began: its source line, and how deep the stack was (the same frame when equal). */
interface StepOrigin {
  /** "file:line" in the user's source (tsx's output puts a whole module on one generated line). */
  readonly line: string | undefined;
  readonly depth: number;
  /** The start of the frame's function (the same frame: this function at this depth). */
  readonly functionLocation?: Protocol.Debugger.Location;
}

/**
 * How a step under way gets to its stop, with no V8 stepping through library code: V8's own step
 * where it stays in the frame (or the user took files back from skipFiles); 'caller': breakpoints
 * on the nearest caller of the program's own; 'out': on the program's code but the rest of the
 * frame being left; 'armed': on all of the program's code.
 */
type StepMode = 'v8' | 'caller' | 'out' | 'armed';

interface StepUnderWay {
  kind: StepKind;
  tries: number;
  origin?: StepOrigin;
  mode: StepMode;
  callerDepth?: number;
  /** A Step Over from a node stop: the agent stops after the next node, which may run a callback. */
  overNode?: boolean;
}

/** What a pause of a step under way leads to: on ('resume', 'resumed': already, 'step', 'stepIn', 'stepOut'), or its stop (undefined). */
type GoOn = 'resume' | 'resumed' | 'step' | 'stepIn' | 'stepOut' | undefined;

/** What the steps need of the controller. */
export interface StepHost {
  readonly cdp: () => CdpConnection | undefined;
  readonly agent: () => AgentClient | undefined;
  readonly scripts: Scripts;
  /** Ends the agent's count of a stop's length, before the program goes on. */
  pauseEnded(): void;
  /** A one-time stop when `objectId`'s function is called; false where V8 cannot set one. */
  stopOnCall(objectId: string, description: string, reason: StopReason): Promise<string | undefined>;
  forgetCallStop(cdpId: string): void;
  resume(): Promise<void>;
}

export class Steps {
  /** Why the next pause comes, where the adapter asked for it: a step, a pause, a frame restart. */
  reason: StopReason | undefined;
  /** The step under way, repeated while it stops outside the user's code. */
  private stepping: StepUnderWay | undefined;
  /** A Step Into Target under way: the call position it runs to first. */
  private target: StepTarget | undefined;
  private targetBreakpoint: string | undefined;
  /** The breakpoints steps set for themselves. */
  readonly breakpoints: StepBreakpoints;

  constructor(private readonly host: StepHost) {
    this.breakpoints = new StepBreakpoints(
      host.cdp,
      (scriptId) => host.scripts.text(scriptId),
      // A transpiled module's end shows on its last line, but is a line of its own to a step, as a plain file's is.
      (location) => (host.scripts.sources.atEnd(location) ? `end:${location.scriptId}` : (this.sourceLine(location) ?? location.lineNumber)),
      (location) => host.scripts.sources.compiled(location),
    );
  }

  get isStep(): boolean {
    return this.reason === 'step';
  }

  async step(kind: StepKind, paused: PausedState | undefined): Promise<void> {
    this.breakpoints.disarm();
    // Inside a graph run, over and into go node by node: from a node stop to the next node (into:
    // or into the callback that starts first), and out of a graph's callback to its node. The
    // agent stops there; V8 steps out meanwhile, to the program's own code if the run ends first.
    const inGraphCallback = paused?.active.some((a) => a.node !== undefined) ?? false;
    if (paused?.node && kind !== 'out') {
      this.host.pauseEnded();
      this.host.agent()?.notify((agent, k) => agent.stepNodes(k), kind);
      this.begin({ kind: 'out', tries: 0, mode: 'v8', ...(kind === 'over' ? { overNode: true } : {}) });
      return this.send('out');
    }
    if (inGraphCallback) this.host.agent()?.notify((agent) => agent.stepNodes('over'));
    // The user's frame the step starts from (a stop on a callback pauses in the agent, above it).
    const frames = paused?.event.callFrames ?? [];
    const at = frames.findIndex((f) => isUserFrame(this.host.scripts, f));
    const from = at >= 0 ? frames[at]! : undefined;
    const origin: StepOrigin | undefined = from
      ? { line: this.sourceLine(from), depth: frames.length - at, ...(from.functionLocation ? { functionLocation: from.functionLocation } : {}) }
      : undefined;
    const mode = await this.mode(kind, frames, at);
    this.host.pauseEnded();
    const step = this.begin({ kind, tries: 0, mode, ...(origin ? { origin } : {}) });
    if (mode === 'v8') return this.send(kind);
    if (mode === 'caller') {
      // The nearest frame of the program's below: its own locations, hit once the frames above return.
      const below = frames.findIndex((f, i) => i > at && isUserFrame(this.host.scripts, f));
      step.callerDepth = frames.length - below;
      return this.breakpoints.armFunction(frames[below]!.functionLocation!, () => this.resumeStep());
    }
    return this.armFrom(step, from);
  }

  private begin(step: StepUnderWay): StepUnderWay {
    this.reason = 'step';
    this.stepping = step;
    return step;
  }

  /** Breakpoints for an 'out' or 'armed' step from `from`, then the resume behind them. */
  private async armFrom(step: StepUnderWay, from: Protocol.Debugger.CallFrame | undefined): Promise<void> {
    const resume = () => this.resumeStep();
    const scripts = this.userScripts();
    const fn = from?.functionLocation;
    if (step.mode === 'out' && fn) {
      // The rest of the frame being left runs unwatched: its own code but its first line (a later
      // call), and the functions written inside it (a tf.tidy body), which only it calls.
      const range = await this.breakpoints.functionRange(fn);
      return this.breakpoints.arm(scripts, (l) => !sameLocation(l, range.first) && range.holds(l), resume);
    }
    // Step Into passes over what is left of its own line in its own function (calls into TF.js there).
    const line = step.origin?.line;
    const sameLine = step.kind === 'into' && fn && line ? await this.breakpoints.ownLocationsOnLine(fn, (l) => this.sourceLine(l) === line) : [];
    const here = from?.location;
    return this.breakpoints.arm(scripts, (l) => (here !== undefined && sameLocation(l, here)) || sameLine.some((o) => sameLocation(o, l)), resume);
  }

  /**
   * How a step from `frames[at]` (the program's innermost frame) gets there. V8's own step where it
   * stays in the frame (Step Over of a line that is not the frame's last; Step Out to a caller of the
   * program's own), or where the user took files back from skipFiles (they step line by line there);
   * breakpoints on the program's code where the step leaves the frame for library code.
   */
  private async mode(kind: StepKind, frames: readonly Protocol.Debugger.CallFrame[], at: number): Promise<StepMode> {
    if (this.host.scripts.skip.takesBackPackages()) return 'v8';
    const from = frames[at];
    if (!from?.functionLocation) return 'armed';
    const atReturn = await this.breakpoints.isReturn(from.functionLocation, from.location);
    // A frame of the program's further down: the step stops there, past other entries into the
    // program's code on the way (the next element's map callback), as a JS debugger's Step Out does.
    const toCaller = frames.slice(at + 1).some((f) => isUserFrame(this.host.scripts, f) && f.functionLocation);
    if (kind === 'over') return at === 0 && !atReturn ? 'v8' : toCaller ? 'caller' : 'armed';
    if (kind === 'out') return toCaller ? 'caller' : atReturn ? 'armed' : 'out';
    // Into from a line that calls nothing more and is not the frame's last: V8's own step, which
    // goes to the next line (or into a getter of the program's) without arming every script.
    if (at === 0 && !atReturn && (await this.callsNothingMore(from.location))) return 'v8';
    return 'armed';
  }

  /** Whether the rest of the paused line calls nothing and does not wait (an `await` resumes elsewhere first). */
  private async callsNothingMore(location: Protocol.Debugger.Location): Promise<boolean> {
    const sources = this.host.scripts.sources;
    const here = sources.original(location.scriptId, location.lineNumber, location.columnNumber ?? 0);
    const text = here ? sources.text(here.file)?.split('\n')[here.line - 1] : undefined;
    if (text === undefined || /\b(await|yield)\b/.test(text)) return false;
    return (await callsOnLine(this.host.cdp()!, sources, location)).length === 0;
  }

  /**
   * Step Into Target (step-in-targets.ts): run to the chosen call's position, then step in. The
   * pause at that position is this run's own, never shown.
   */
  async intoTarget(target: StepTarget, paused: PausedState | undefined): Promise<void> {
    const cdp = this.host.cdp()!;
    const scripts = this.host.scripts;
    // The program's own callee: a one-time breakpoint on its call, whatever the line calls first.
    const fn = await calleeFunction(cdp, scripts.sources, target, (file) => !isAgentFile(file) && !scripts.skip.skips({ file }));
    const bp = fn ? await this.host.stopOnCall(fn, 'Paused after step', 'step') : undefined;
    if (bp) {
      this.targetBreakpoint = bp;
      return this.host.resume();
    }
    if (paused && reached(target, paused.event)) return this.step('into', paused);
    this.host.pauseEnded();
    this.target = target;
    this.reason = 'step';
    await cdp.send('Debugger.continueToLocation', { location: target.location, targetCallFrames: 'current' });
  }

  /** Restarts a paused frame (V8's Debugger.restartFrame): the next stop is at the start of its function. */
  async restartFrame(callFrameId: string): Promise<void> {
    this.host.pauseEnded();
    this.reason = 'restart';
    this.stepping = undefined;
    this.breakpoints.disarm();
    try {
      await this.host.cdp()!.send('Debugger.restartFrame', { callFrameId, mode: 'StepInto' });
    } catch (err) {
      this.reason = undefined;
      this.host.agent()?.notify((agent) => agent.pauseBegan());
      throw err;
    }
  }

  /** The adapter asked for a pause: the next one is it. */
  pauseAsked(): void {
    this.reason = 'pause';
  }

  /**
   * First at each pause: a Step Into Target that reached its call steps in (true: the pause is
   * taken). Its breakpoint on the callee lasts one pause: the call did not come first.
   */
  async atPause(event: Protocol.Debugger.PausedEvent, paused: PausedState | undefined): Promise<boolean> {
    const target = this.target;
    this.target = undefined;
    if (target && reached(target, event)) {
      await this.step('into', paused);
      return true;
    }
    const targetBreakpoint = this.targetBreakpoint;
    this.targetBreakpoint = undefined;
    if (targetBreakpoint && !(event.hitBreakpoints ?? []).includes(targetBreakpoint)) {
      this.host.forgetCallStop(targetBreakpoint);
      await this.host
        .cdp()!
        .send('Debugger.removeBreakpoint', { breakpointId: targetBreakpoint })
        .catch(() => {});
    }
    return false;
  }

  /** An exception not the user's, or a module load's stop: a V8 step under way goes on (V8 forgot it at this pause); true when it did. */
  async afterException(): Promise<boolean> {
    const step = this.stepping;
    if (step?.mode !== 'v8' || !this.isStep || step.tries >= MAX_STEP_RETRIES) return false;
    step.tries++;
    await this.send(step.kind === 'into' ? 'into' : 'out');
    return true;
  }

  /** Whether a pause of a step under way is not its stop yet: true when the step went on from it. */
  async goesOn(event: Protocol.Debugger.PausedEvent): Promise<boolean> {
    const step = this.stepping;
    if (!step || !this.isStep) return false;
    await this.breakpoints.settled();
    const goOn = (await this.inNodeStepped(step, event)) ? 'resume' : await this.decide(step, event);
    if (goOn === 'step') await this.send(step.kind === 'into' ? 'into' : 'out');
    else if (goOn === 'stepIn' || goOn === 'stepOut') await this.send(goOn === 'stepIn' ? 'into' : 'out');
    else if (goOn === 'resume')
      await this.host
        .cdp()!
        .send('Debugger.resume', {})
        .catch(() => {});
    return goOn !== undefined;
  }

  /**
   * Step Over from a node stop passes the next node's callback by: V8's step reaches its first line
   * before the node ends, while the agent's node step, still under way, stops after that node.
   */
  private async inNodeStepped(step: StepUnderWay, event: Protocol.Debugger.PausedEvent): Promise<boolean> {
    if (!step.overNode || !isUserFrame(this.host.scripts, event.callFrames[0]!)) return false;
    const stepping = await this.host
      .agent()
      ?.call((agent) => agent.nodeStepping())
      .catch(() => undefined);
    if (stepping !== 'over') return false;
    this.breakpoints.disarm();
    return true;
  }

  /** What a pause of a step under way leads to (see GoOn). */
  private async decide(step: StepUnderWay, event: Protocol.Debugger.PausedEvent): Promise<GoOn> {
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
    return this.decideV8(step, event);
  }

  /**
   * V8's own step. Blackboxing does not keep V8 out of Node's internals (a getter the runtime
   * calls, say): where it stops outside the program's code, the program's next line is the stop.
   */
  private async decideV8(step: StepUnderWay, event: Protocol.Debugger.PausedEvent): Promise<GoOn> {
    const top = event.callFrames[0]!;
    const origin = step.origin;
    if (step.tries >= MAX_STEP_RETRIES) return undefined;
    if (!isUserFrame(this.host.scripts, top)) {
      step.tries++;
      if (this.host.scripts.skip.takesBackPackages()) {
        // WebAssembly is not blackboxed by V8 (its URL matches no pattern it applies): a step into
        // it goes instruction by instruction, so it is left at once.
        return step.kind === 'into' && !this.host.scripts.sources.get(top.location.scriptId)?.wasm ? 'stepIn' : 'stepOut';
      }
      step.mode = 'armed';
      await this.breakpoints.arm(
        this.userScripts(),
        () => false,
        () => this.resumeStep(),
      );
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

  /** Why a pause that no breakpoint explains stops, in a stop's words. */
  stopFor(event: Protocol.Debugger.PausedEvent): { reason: StopReason; description: string } {
    const reason = this.reason ?? 'pause';
    // V8 reports a `debugger` statement as 'other', with no step or pause asked for.
    const description =
      reason === 'step'
        ? 'Paused after step'
        : reason === 'restart'
          ? 'Restarted frame'
          : this.reason === undefined && event.reason === 'other'
            ? 'Paused on debugger statement'
            : 'Paused';
    return { reason, description };
  }

  /** A stop is being shown: no step is under way any more. */
  ended(): void {
    this.reason = undefined;
    this.stepping = undefined;
  }

  private userScripts() {
    return this.host.scripts.sources.all().filter((script) => isUserScript(this.host.scripts, script));
  }

  /** Resumes with the step's breakpoints set (no V8 step: the code between runs at full speed). */
  private async resumeStep(): Promise<void> {
    await this.host.cdp()?.send('Debugger.resume', {});
  }

  /** A paused frame's "file:line" in the user's source. */
  private sourceLine(at: Protocol.Debugger.CallFrame | Protocol.Debugger.Location): string | undefined {
    const location = 'location' in at ? at.location : at;
    const original = this.host.scripts.sources.original(location.scriptId, location.lineNumber, location.columnNumber ?? 0);
    return original ? `${original.file}:${original.line}` : undefined;
  }

  private async send(kind: StepKind): Promise<void> {
    const cdp = this.host.cdp();
    if (kind === 'over') await cdp?.send('Debugger.stepOver', {});
    else if (kind === 'into') await cdp?.send('Debugger.stepInto', {});
    else await cdp?.send('Debugger.stepOut');
  }
}

function sameFunction(a: Protocol.Debugger.Location | undefined, b: Protocol.Debugger.Location | undefined): boolean {
  return !!a && !!b && sameLocation(a, b);
}
