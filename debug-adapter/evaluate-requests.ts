/**
 * The requests that evaluate on a frame of this stop: the Debug Console, watches and hovers
 * (evaluate), Copy Value (evaluate's clipboard context), Set Value, completions, and the value a
 * data breakpoint is asked about. Each returns its response's body and throws what went wrong.
 */
import type { DebugProtocol } from '@vscode/debugprotocol';
import type { Protocol } from 'devtools-protocol';
import type { ClientPositions } from './client.js';
import { clipboardText } from './values/clipboard.js';
import { completions } from './values/completions.js';
import { count, shownResult } from './debuggee/agent/result-cut.js';
import type { Controller } from './pauses/controller.js';
import type { Evaluator } from './values/evaluator.js';
import type { StackView } from './pauses/stack-view.js';
import type { VariableStore } from './values/variables.js';

export { MAX_RESULT_CHARS, shownResult } from './debuggee/agent/result-cut.js';

/** Copy Value takes at most this many characters; a longer value is refused, never cut on the clipboard. */
export const MAX_COPY_CHARS = 10_000_000;

export class EvaluateRequests {
  constructor(
    private readonly controller: Controller,
    private readonly evaluator: Evaluator,
    private readonly store: VariableStore,
    private readonly stack: StackView,
    private readonly positions: ClientPositions,
  ) {}

  async evaluate(args: DebugProtocol.EvaluateArguments): Promise<DebugProtocol.EvaluateResponse['body']> {
    if (args.context === 'clipboard') return this.evaluateForClipboard(args);
    const value = await this.evaluator.evaluate(args.expression, this.stack.frame(args.frameId), args.context);
    const v = await this.store.evaluated(value, args.expression);
    return {
      result: shownResult(v.value, args.expression),
      variablesReference: v.variablesReference,
      ...(v.type ? { type: v.type } : {}),
      ...(v.indexedVariables ? { indexedVariables: v.indexedVariables } : {}),
      ...(v.memoryReference ? { memoryReference: v.memoryReference } : {}),
    };
  }

  /** Copy Value: a tensor as JSON nested by shape (clipboard.ts); anything else as evaluate shows it. */
  private async evaluateForClipboard(args: DebugProtocol.EvaluateArguments): Promise<DebugProtocol.EvaluateResponse['body']> {
    const value = await this.evaluator.evaluate(args.expression, this.stack.frame(args.frameId), 'clipboard');
    const text = await clipboardText(value, this.controller.agent, args.expression);
    if (text !== undefined) return { result: copied(text, args.expression), variablesReference: 0 };
    const v = await this.store.evaluated(value, args.expression);
    return { result: copied(v.value, args.expression), variablesReference: v.variablesReference };
  }

  async setVariable(args: DebugProtocol.SetVariableArguments): Promise<DebugProtocol.SetVariableResponse['body']> {
    // The new value is an expression, evaluated where the variable lives: `factor * 3` sees factor.
    const value = await this.evaluator.evaluateOn(args.value, this.store.callFrameOf(args.variablesReference) ?? this.evaluator.userCallFrame(), 'repl');
    const v = await this.store.set(args.variablesReference, args.name, value);
    return { value: v.value, variablesReference: v.variablesReference };
  }

  /** Debug Console completions (completions.ts); DAP columns in and out as the client counts them. */
  async completions(args: DebugProtocol.CompletionsArguments): Promise<DebugProtocol.CompletionsResponse['body']> {
    const lines = args.text.split('\n');
    const line = Math.min(Math.max((args.line ?? 1) - 1, 0), lines.length - 1);
    const lineStart = lines.slice(0, line).reduce((n, l) => n + l.length + 1, 0);
    const offset = lineStart + Math.max(0, this.positions.columnToDebugger(args.column) - 1);
    const items = this.controller.closed
      ? []
      : await completions(
          { cdp: this.controller.connection().cdp, evaluator: this.evaluator, paused: !!this.controller.paused, frame: this.stack.frame(args.frameId) },
          args.text,
          offset,
        );
    return {
      targets: items.map((item) => ({ ...item, start: this.positions.columnToClient(item.start! - lineStart + 1) })),
    };
  }

  /** The value a data breakpoint is asked about, if it can be read. */
  async dataBreakpointValue(args: DebugProtocol.DataBreakpointInfoArguments): Promise<Protocol.Runtime.RemoteObject | undefined> {
    // A variable of a V8 scope or an object shown is read from it; otherwise the name is an expression on the frame.
    const reference = args.variablesReference;
    const value = reference !== undefined ? await this.store.childValue(reference, args.name).catch(() => undefined) : undefined;
    if (value) return value;
    const frame = args.frameId !== undefined ? this.stack.frame(args.frameId) : undefined;
    return (frame ? this.evaluator.evaluate(args.name, frame, 'watch') : this.evaluator.evaluateOn(args.name, this.evaluator.userCallFrame(), 'watch')).catch(
      () => undefined,
    );
  }
}

/** Copy Value's text, or why it is refused: too long for the clipboard. */
function copied(text: string, expression: string): string {
  if (text.length <= MAX_COPY_CHARS) return text;
  throw new Error(
    `${expression} is ${count(text.length)} characters; Copy Value takes at most ${count(MAX_COPY_CHARS)}: copy a slice of it, e.g. (${expression.trim()}).slice(0, ${MAX_COPY_CHARS})`,
  );
}
