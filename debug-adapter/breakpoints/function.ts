/**
 * Function breakpoints on callbacks (and, by a node path or op, on a model's nodes: node.ts): the
 * names as the client set them, the agent told them with their conditions and hit conditions (it
 * counts the hits and evaluates the conditions where each call happens), the names checked against
 * the callbacks the program made known (callback-names.ts: verified, or a warning for a likely
 * typo), and the words of a callback stop. The one decision left to this side: a condition that
 * names a parameter by its source name where the JS renamed it (sources/parameter-names.ts).
 */
import type { AgentClient } from '../cdp/agent-client.js';
import { displayName } from '../state/frame-names.js';
import type { ActiveSnapshot, FunctionBreakpointRule, KnownNotice, LastBreak } from '../debuggee/agent-protocol.js';
import type { StopReason } from '../state/pause-state.js';
import { CallbackNames, type FunctionBreakpointStatus } from './callback-names.js';
import { parseHitCondition } from '../shared/hit-condition.js';

export interface FunctionBreakpointSpec {
  readonly name: string;
  readonly condition?: string;
  readonly hitCondition?: string;
}

/** What function breakpoints need of the controller. */
export interface FunctionBreakpointHost {
  /** The agent of the live debuggee; undefined before one connects. */
  readonly agent: () => AgentClient | undefined;
  /** The launch configuration's `breakOnCallbacks` names (checked and warned about alike). */
  readonly launchNames: () => readonly string[];
  /** Tells the agent the breakpoints (with the rest of its configuration). */
  readonly configure: () => Promise<void>;
  /** An invocation with its parameters as the source names them. */
  readonly sourceNames: (active: ActiveSnapshot) => Promise<ActiveSnapshot>;
  readonly changed: (status: FunctionBreakpointStatus) => void;
  readonly output: (category: 'console' | 'stderr', text: string) => void;
}

export class FunctionBreakpoints {
  private list: (FunctionBreakpointSpec & { id: number })[] = [];
  private nextId = 1;
  /** The callbacks the program has made known, for verification and typos. */
  private readonly names = new CallbackNames();

  constructor(private readonly host: FunctionBreakpointHost) {}

  /** Replaces the function breakpoints; a name no callback has answered to yet is unverified. */
  async set(specs: readonly FunctionBreakpointSpec[]): Promise<FunctionBreakpointStatus[]> {
    const all = specs.map((spec) => ({ ...spec, id: this.nextId++, hits: parseHitCondition(spec.hitCondition) }));
    // One whose hit condition cannot be read never stops: the agent is not told its name.
    this.list = all.filter((bp) => bp.hits.ok);
    await this.host.configure();
    await this.refresh();
    const valid = this.names.statuses(this.list);
    return all.map((bp) => (bp.hits.ok ? valid.find((v) => v.id === bp.id)! : { id: bp.id, verified: false, message: bp.hits.message }));
  }

  /** The breakpoints as the agent keeps them: it counts their hits and evaluates their conditions. */
  forAgent(): FunctionBreakpointRule[] {
    return this.list.map(({ id, name, condition, hitCondition }) => ({
      id,
      name,
      ...(condition?.trim() ? { condition } : {}),
      ...(hitCondition?.trim() ? { hitCondition } : {}),
    }));
  }

  /** What the agent knows so far (after it was configured, or for a program attached to late). */
  async refresh(): Promise<void> {
    const agent = this.host.agent();
    if (!agent) return;
    const names = [...new Set([...this.host.launchNames(), ...this.list.map((f) => f.name)])];
    const status = await agent.call((a, wanted) => a.knownStatus(wanted), names).catch(() => undefined);
    if (status) this.names.reset(status);
  }

  /** The agent told of a callback (or a model's node) that became known while a wanted name had none. */
  known(notice: KnownNotice): void {
    this.names.add(notice);
    // A model's callback node: the model is loading, and the agent tells its graph only where it
    // matched a name. Asked after the load (the agent answers once the program's turn ends), it
    // says whether a node path waiting for a model has it.
    const wanted = [...this.list.map((f) => f.name), ...this.host.launchNames()];
    const graph = notice.callback?.graph;
    if (graph !== undefined && this.names.awaitsModel(wanted)) void this.refreshUntilGraph(graph).then(() => this.report());
    else this.report();
  }

  /** What the agent knows, once it knows the model `graph` (whose callback nodes it tells just before the graph). */
  private async refreshUntilGraph(graph: string): Promise<void> {
    for (let attempt = 0; attempt < 5 && !this.names.knowsGraph(graph); attempt++) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 20));
      await this.refresh();
    }
  }

  /** `changed` events for breakpoints whose state moved; a warning for a likely typo (`final`: for each name never matched). */
  report(final = false): void {
    const { changed, warnings } = this.names.report(this.list, this.host.launchNames(), final);
    for (const status of changed) this.host.changed(status);
    for (const warning of warnings) this.host.output('console', `${warning}\n`);
  }

  /**
   * The stop at a callback the agent broke in (a function breakpoint, or a step into it from a
   * node stop, where no breakpoint's names or conditions apply); undefined where the conditions
   * left to this side say no.
   */
  async callbackStop(entry: ActiveSnapshot, why: LastBreak): Promise<{ reason: StopReason; description: string } | undefined> {
    const stepIn = why.reason === 'nodeStep';
    if (!stepIn && !(await this.allows(entry, why))) return undefined;
    const nodeText = entry.node !== undefined ? ` (node ${entry.node}, ${entry.op})` : ` (${entry.op})`;
    return {
      reason: stepIn ? 'step' : 'function breakpoint',
      description: `${stepIn ? 'Stepped into' : 'Paused on'} callback ${displayName(entry)}${nodeText}`,
    };
  }

  /**
   * A callback stop the agent decided (hit counts and conditions are counted where the hit
   * happens), except conditions it left undecided: they name the source's parameter names where
   * the JS renamed them, which only this side reads (sources/parameter-names.ts).
   */
  private async allows(entry: ActiveSnapshot, why: LastBreak): Promise<boolean> {
    const where = `in callback ${displayName(entry)}`;
    const agent = this.host.agent();
    if (!why.undecided?.length || !agent) {
      this.conditionFailed(why, where);
      return true;
    }
    const { parameterNames } = await this.host.sourceNames(entry);
    const verdict = await agent.call((a, id, ids, names) => a.decideConditions(id, ids, names), entry.id, why.undecided, parameterNames);
    if (verdict.failure) this.conditionFailed({ ...why, conditionFailure: verdict.failure }, where);
    return verdict.stop;
  }

  /** A function or node breakpoint's condition threw: the agent stopped, and the Debug Console says why. */
  conditionFailed(why: LastBreak, where: string): void {
    const failure = why.conditionFailure;
    if (!failure) return;
    const kind = why.reason === 'node' ? 'node breakpoint' : 'function breakpoint';
    this.host.output('stderr', `The condition of ${kind} '${failure.breakpoint}' failed ${where}: ${failure.message}\n`);
  }
}
