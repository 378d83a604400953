/**
 * This stop's stack and scopes as the client sees them: the stack built once per stop (stack.ts),
 * frame ids handed out as frames are shown, and each frame's scopes (values/variables.ts).
 */
import { Source, Thread } from '@vscode/debugadapter';
import type { DebugProtocol } from '@vscode/debugprotocol';
import type { Controller } from './controller.js';
import { buildStack, type StackFrameEntry } from '../state/stack.js';
import type { VariableStore } from '../values/variables.js';
import { StopHandles } from '../values/stop-handles.js';

/** The program's one thread, as DAP counts threads. */
export const THREAD_ID = 1;

export function threads(): DebugProtocol.Thread[] {
  return [new Thread(THREAD_ID, 'main')];
}

export class StackView {
  /** Numbered on across stops: an earlier stop's frame id never names one of this stop's frames. */
  private readonly frames = new StopHandles<StackFrameEntry>();
  private stack: StackFrameEntry[] | undefined;

  constructor(
    private readonly controller: Controller,
    private readonly store: VariableStore,
  ) {}

  /** The program ran on: this stop's frames are gone. */
  reset(): void {
    this.stack = undefined;
    this.frames.reset();
  }

  /** The stack frame a request names, if it is one of this stop's. */
  frame(frameId: number | undefined): StackFrameEntry | undefined {
    return frameId !== undefined ? this.frames.get(frameId) : undefined;
  }

  /** The frames asked for; undefined when the program is not paused, or resumed while they were built. */
  async stackTrace(args: DebugProtocol.StackTraceArguments): Promise<DebugProtocol.StackTraceResponse['body'] | undefined> {
    const paused = this.controller.paused;
    if (!paused) return undefined;
    if (!this.stack) {
      const stack = await buildStack(this.controller.connection(), paused);
      // The program resumed (and may have stopped again) meanwhile: these frames are gone.
      if (this.controller.paused !== paused) return undefined;
      this.stack = stack;
    }
    const start = args.startFrame ?? 0;
    const frames = this.stack.slice(start, args.levels ? start + args.levels : undefined).map((f) => {
      const id = this.frames.create(f);
      const source: DebugProtocol.Source | undefined = f.source ? new Source(f.source.name, f.source.path) : undefined;
      // On the source, where VS Code looks when it picks the frame to focus (and to put an exception
      // widget on). VS Code keeps one Source per file, its hint the latest frame's.
      if (source && f.kind === 'js' && f.subtle && !f.plainSource) source.presentationHint = 'deemphasize';
      const frame: DebugProtocol.StackFrame = { id, name: f.name, line: f.line, column: f.column, ...(source ? { source } : {}) };
      // An op stop's frame is at a line of the program's: a plain frame VS Code opens (stack.ts).
      if (f.kind === 'graph' && !f.op) {
        frame.presentationHint = 'label';
        if (f.endLine !== undefined && f.endColumn !== undefined) Object.assign(frame, { endLine: f.endLine, endColumn: f.endColumn });
      } else if (f.kind === 'js' && f.subtle) frame.presentationHint = 'subtle';
      return frame;
    });
    return { stackFrames: frames, totalFrames: this.stack.length };
  }

  /** A frame's scopes: a data breakpoint's, the paused node's, the callback's, then V8's with the program's tf.Variables before Global. */
  scopes(frameId: number): DebugProtocol.Scope[] {
    const frame = this.frames.get(frameId);
    const scopes: DebugProtocol.Scope[] = [];
    const data = this.controller.paused?.data;
    if (frame && data) scopes.push(this.store.dataScope(data));
    if (frame?.kind === 'graph' && frame.node) scopes.push(this.store.nodeScope(frame.node));
    if (frame?.kind === 'graph' && frame.op) scopes.push(this.store.opScope(frame.op));
    if (frame?.kind === 'graph' && frame.active) scopes.push(this.store.callbackScope(frame.active));
    if (frame?.kind === 'js') {
      if (frame.active) scopes.push(this.store.callbackScope(frame.active));
      scopes.push(...this.store.v8Scopes(frame.callFrame));
    }
    if (frame) {
      const global = scopes.findIndex((scope) => scope.name === 'Global');
      scopes.splice(global >= 0 ? global : scopes.length, 0, this.store.trainingScope());
    }
    return scopes;
  }
}
