/**
 * Evaluations while the debuggee runs or is paused: the Debug Console, watches, hovers, setVariable
 * values and tensorData expressions. A callback's frame (and its graph frame) also sees what its
 * Callback scope shows (callback-scope.ts); every evaluation is stopped when it runs over its time.
 */
import type { Protocol } from 'devtools-protocol';
import { withCallbackNames } from './callback-scope.js';
import { withNodeNames } from './node-scope.js';
import type { DebuggeeConnection } from '../state/live-debuggee.js';
import { evaluationError, evaluationTimeoutMs } from './evaluation.js';
import { stopGroup } from '../cdp/object-groups.js';
import type { PausedState } from '../state/pause-state.js';
import { messageOf } from '../request-guard.js';
import { isUserFrame, type StackFrameEntry } from '../state/stack.js';

export class Evaluator {
  /** Per call frame, which Callback names the frame itself resolves (callback-scope.ts). */
  private readonly definedInFrames = new Map<string, boolean>();

  constructor(
    private readonly debuggee: () => DebuggeeConnection,
    private readonly paused: () => PausedState | undefined,
  ) {}

  /** Forget what a stop taught: frames do not outlive it. */
  reset(): void {
    this.definedInFrames.clear();
  }

  /** `expression` on a stack frame (or globally), the Callback names bound where the frame has a callback. */
  async evaluate(expression: string, frame: StackFrameEntry | undefined, context: string | undefined): Promise<Protocol.Runtime.RemoteObject> {
    const { cdp } = this.debuggee();
    const callFrame = frame?.kind === 'js' ? frame.callFrame : frame?.evalFrame;
    const named = frame?.kind === 'graph' ? (frame.node ?? (frame.op && { attrs: frame.op.attrs, op: frame.op.op, node: frame.op.op })) : undefined;
    if (named && this.paused()) expression = withNodeNames(expression, named);
    else if (frame?.active && callFrame && this.paused()) {
      const inOwnFrame = frame.kind === 'js' || frame.evalInCallback;
      expression = await withCallbackNames(cdp, expression, frame.active, callFrame.callFrameId, inOwnFrame, this.definedInFrames);
    }
    // A hover names no frame we know (none given, or one of an earlier stop): it means the code in
    // view, the program's own innermost frame, never the global scope, where no local is found.
    const callFrameId = callFrame?.callFrameId ?? (context === 'hover' && this.paused() ? this.userCallFrame() : undefined);
    return this.evaluateOn(expression, callFrameId, context);
  }

  /**
   * One evaluation, stopped when it runs over its time (V8's `timeout` terminates it and the
   * debuggee stays as it was). While paused with no frame it runs on the top frame as a global
   * (indirect) eval: V8 honours the timeout there, not in Runtime.evaluate on a paused debuggee.
   */
  async evaluateOn(expression: string, callFrameId: string | undefined, context: string | undefined): Promise<Protocol.Runtime.RemoteObject> {
    const { cdp } = this.debuggee();
    const paused = this.paused();
    const timeout = evaluationTimeoutMs(context);
    const options = {
      silent: context !== 'repl',
      generatePreview: true,
      timeout,
      objectGroup: stopGroup(cdp),
      ...(context === 'hover' ? { throwOnSideEffect: true } : {}),
    };
    const topFrame = paused?.event.callFrames[0]?.callFrameId;
    try {
      const result =
        paused && callFrameId
          ? await cdp.send('Debugger.evaluateOnCallFrame', { callFrameId, expression, ...options })
          : paused && topFrame && context !== 'hover'
            ? await cdp.send('Debugger.evaluateOnCallFrame', { callFrameId: topFrame, expression: `(0, eval)(${JSON.stringify(expression)})`, ...options })
            : await cdp.send('Runtime.evaluate', { expression, ...options });
      if (result.exceptionDetails) throw new Error(evaluationError(result.exceptionDetails));
      return result.result;
    } catch (err) {
      if (/Execution was terminated/.test(messageOf(err))) {
        throw new Error(
          `evaluation ran over ${timeout / 1000} s and was stopped (${JSON.stringify(expression.slice(0, 60))}); the program ${paused ? 'is still paused where it was' : 'goes on'}`,
        );
      }
      throw err;
    }
  }

  /** The innermost frame of the program's own code while paused (where a bare expression means what the user sees). */
  userCallFrame(): string | undefined {
    const frames = this.paused()?.event.callFrames ?? [];
    const { scripts } = this.debuggee();
    return (frames.find((f) => isUserFrame(scripts, f)) ?? frames[0])?.callFrameId;
  }
}
