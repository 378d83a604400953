/**
 * Running on from a stop: continue, the steps (Step Into Target among them), pause and Restart
 * Frame. A command to a program that may just have exited fails quietly: its exit is reported by
 * its own events.
 */
import { OutputEvent } from '@vscode/debugadapter';
import type { DebugProtocol } from '@vscode/debugprotocol';
import type { ClientPositions } from '../client.js';
import type { Controller } from './controller.js';
import { messageOf } from '../request-guard.js';
import { planRestart, restoreInputs } from './restart-frame.js';
import type { StackView } from './stack-view.js';
import { StepInTargets } from './step-in-targets.js';

export class Stepping {
  private readonly stepInTargets = new StepInTargets();

  constructor(
    private readonly controller: Controller,
    private readonly stack: StackView,
    private readonly sendEvent: (event: DebugProtocol.Event) => void,
    /** Forgets the stop the program leaves (its frames, variables, evaluations). */
    private readonly resumed: () => void,
    private readonly positions: ClientPositions,
  ) {}

  continue(): Promise<void> {
    this.resumed();
    return this.quietly(() => this.controller.resume());
  }

  step(kind: 'over' | 'out'): Promise<void> {
    this.resumed();
    return this.quietly(() => this.controller.step(kind));
  }

  stepIn(targetId: number | undefined): Promise<void> {
    // A target of this stop's stepInTargets (step-in-targets.ts); any other id steps in as usual.
    const target = targetId !== undefined ? this.stepInTargets.get(targetId) : undefined;
    this.resumed();
    return this.quietly(() => (target ? this.controller.stepIntoTarget(target) : this.controller.step('into')));
  }

  pause(): Promise<void> {
    return this.quietly(() => this.controller.pause());
  }

  /**
   * Restart Frame (restart-frame.ts): a callback again on its inputs as they came, a JS function by
   * V8. The error to answer with where it is refused or fails.
   */
  async restartFrame(frameId: number): Promise<DebugProtocol.Message | undefined> {
    const plan = await planRestart(this.stack.frame(frameId), this.controller.paused, this.controller.scripts);
    if ('refused' in plan) return { id: 1110, format: plan.refused, showUser: true };
    const note = plan.active ? await restoreInputs(this.controller.agent, plan.active) : undefined;
    this.resumed();
    try {
      await this.controller.restartFrame(plan.callFrameId);
    } catch (err) {
      return { id: 1111, format: `Cannot restart ${plan.name}: ${messageOf(err)}`, showUser: true };
    }
    if (note) this.sendEvent(new OutputEvent(note, 'console'));
    return undefined;
  }

  /** The calls on the frame's paused line, from its position on (step-in-targets.ts). */
  async targets(frameId: number): Promise<DebugProtocol.StepInTarget[]> {
    const frame = this.stack.frame(frameId);
    const callFrame = frame?.kind === 'js' ? frame.callFrame : frame?.evalFrame;
    this.stepInTargets.reset();
    const targets =
      callFrame && this.controller.paused ? await this.stepInTargets.list(this.controller.connection().cdp, this.controller.scripts.sources, callFrame) : [];
    return targets.map((t) => ({ ...t, line: this.positions.lineToClient(t.line!), column: this.positions.columnToClient(t.column!) }));
  }

  /** Commands to a debuggee that may just have exited: the exit is reported by its own events. */
  private async quietly(command: () => Promise<unknown>): Promise<void> {
    try {
      await command();
    } catch (err) {
      if (!this.controller.closed) this.sendEvent(new OutputEvent(`${(err as Error).message}\n`, 'stderr'));
    }
  }
}
