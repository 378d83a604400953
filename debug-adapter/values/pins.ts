/**
 * Pinned expressions (`setPins`, `pinnedValues`; extension-protocol.ts): the Tensor Inspector's
 * pins, evaluated at every stop on the top user frame in ONE `Debugger.evaluateOnCallFrame`. The
 * generated script evaluates each pin in its own try/catch (one that throws does not stop the
 * others), then hands the results to the agent's summary code (values.ts, as for a callback's
 * inputs) with each value's first PIN_VALUE_LIMIT values, read back by value. A ReferenceError for
 * a name the frame does not see is `unresolved` (cheap: nothing is summarized), not an error.
 */
import vm from 'node:vm';
import { Event } from '@vscode/debugadapter';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { agentValueExpression } from '../cdp/agent-client.js';
import type { DebugAgent, PinnedValue } from '../debuggee/agent-protocol.js';
import { PINNED_VALUES_EVENT, type PinnedValuesEventBody, type SetPinsArguments } from '../extension-protocol.js';
import type { LiveDebuggee } from '../state/live-debuggee.js';
import type { PausedState } from '../state/pause-state.js';
import { evaluationError, QUIET_EVALUATION_TIMEOUT_MS } from './evaluation.js';
import type { Evaluator } from './evaluator.js';
import { MAX_PINS } from './pins-limits.js';

/** What the pins read of the controller (pauses/controller.ts): its stops, the pause now, the live connection. */
export interface StoppingDebuggee extends Pick<LiveDebuggee, 'connection'> {
  readonly paused: PausedState | undefined;
  on(event: 'stopped', listener: () => void): unknown;
}

/** Values sent per pin and stop: its first ones (the summary covers them all). */
export const PIN_VALUE_LIMIT = 1024;
/** Each pin at most this long (and at most MAX_PINS of them). */
const MAX_PIN_LENGTH = 2000;
/** Marks the one evaluation per stop (in a CDP log: TFJS_CALLBACKS_CDP_LOG). */
export const PINS_SCRIPT_MARK = '/* tfjs-callbacks pins */';

/** What the script's try/catch made of one pin: its value, or what it threw. */
type Caught = { v: unknown } | { e: unknown };
/** A pin's entry without its expression (the adapter adds it back). */
type Outcome = PinnedValue extends infer P ? (P extends unknown ? Omit<P, 'expression'> : never) : never;

export class Pins {
  private expressions: string[] = [];
  /** Per expression, why it cannot be evaluated (a syntax error), checked once when pinned. */
  private invalid = new Map<string, string>();
  private stops = 0;

  constructor(
    private readonly controller: StoppingDebuggee,
    private readonly evaluator: Evaluator,
    private readonly sendEvent: (event: DebugProtocol.Event) => void,
  ) {
    controller.on('stopped', () => this.stops++);
  }

  /** The `setPins` request: the new list (checked: strings, at most MAX_PINS, each parsed as an expression). */
  set(args: Partial<SetPinsArguments> | undefined): void {
    const list = args?.expressions;
    if (!Array.isArray(list) || !list.every((e) => typeof e === 'string' && e.trim() !== '' && e.length <= MAX_PIN_LENGTH)) {
      throw new Error(
        `setPins needs { expressions: [<expression>, …] } (non-empty strings of at most ${MAX_PIN_LENGTH} characters), not ${JSON.stringify(args ?? null).slice(0, 200)}`,
      );
    }
    if (list.length > MAX_PINS) throw new Error(`at most ${MAX_PINS} pins (${list.length} were sent)`);
    this.expressions = [...new Set(list.map((e) => e.trim()))];
    this.invalid = new Map(this.expressions.flatMap((e) => (syntaxError(e) ? [[e, syntaxError(e)!] as const] : [])));
  }

  /** After a stop's own events: the pins' values at this stop, as one event (none without pins). */
  async stopped(state: PausedState): Promise<void> {
    if (this.expressions.length === 0) return;
    const stop = this.stops;
    const pins = await this.evaluate(state);
    if (this.controller.paused !== state) return;
    const body: PinnedValuesEventBody = { stop, valueLimit: PIN_VALUE_LIMIT, pins };
    this.sendEvent(new Event(PINNED_VALUES_EVENT, body));
  }

  private async evaluate(state: PausedState): Promise<PinnedValue[]> {
    const valid = this.expressions.filter((e) => !this.invalid.has(e));
    const callFrameId = this.evaluator.userCallFrame() ?? state.event.callFrames[0]?.callFrameId;
    let outcomes: Outcome[] = [];
    let failure: string | undefined;
    if (valid.length > 0 && callFrameId) {
      try {
        const { cdp } = this.controller.connection();
        const r = await cdp.send('Debugger.evaluateOnCallFrame', {
          callFrameId,
          expression: pinsScript(valid),
          silent: true,
          returnByValue: true,
          timeout: QUIET_EVALUATION_TIMEOUT_MS,
        });
        if (r.exceptionDetails) failure = evaluationError(r.exceptionDetails);
        else outcomes = r.result.value as Outcome[];
      } catch (err) {
        failure = /Execution was terminated/.test(String(err))
          ? `the pins ran over ${QUIET_EVALUATION_TIMEOUT_MS / 1000} s together and were stopped`
          : String((err as Error).message ?? err);
      }
    } else if (valid.length > 0) failure = 'the program is paused in no frame the pins can be evaluated on';
    return this.expressions.map((expression): PinnedValue => {
      const invalid = this.invalid.get(expression);
      if (invalid) return { expression, status: 'error', error: invalid };
      const outcome = outcomes[valid.indexOf(expression)];
      if (!outcome) return { expression, status: 'error', error: failure ?? 'no value came back' };
      return { expression, ...outcome } as PinnedValue;
    });
  }
}

/** The one script per stop: each pin in its own try/catch, then the agent's summaries of them all. */
export function pinsScript(expressions: readonly string[]): string {
  const tries = expressions.map((e, i) => `try { __tfjsPins[${i}] = { v: (${e}\n) }; } catch (e) { __tfjsPins[${i}] = { e }; }`);
  return `${PINS_SCRIPT_MARK} { const __tfjsPins = [];\n${tries.join('\n')}\n${agentValueExpression(summarizePins, '__tfjsPins', String(PIN_VALUE_LIMIT))} }`;
}

/** Runs in the debuggee (self-contained): each pin's summary and first values, or why it has none. */
function summarizePins(agent: DebugAgent, caught: Caught[], limit: number): Outcome[] {
  return caught.map((c) => {
    if ('e' in c) {
      const e = c.e;
      // A name the frame does not see (or one not yet initialized): the pin is not in scope here.
      if (e instanceof ReferenceError && /is not defined|before initialization/.test(e.message)) return { status: 'unresolved' };
      return { status: 'error', error: e instanceof Error ? `${e.name}: ${e.message}` : `Uncaught ${String(e)}` };
    }
    const { preview: _preview, ...info } = agent.valueInfo(c.v);
    return { status: 'value', info, values: info.opaque ? [] : agent.slice(c.v, 0, limit) };
  });
}

/** Why `expression` is not one JS expression (parsed only, never run), or undefined. */
function syntaxError(expression: string): string | undefined {
  try {
    new vm.Script(`(${expression}\n)`);
    return undefined;
  } catch (err) {
    return `SyntaxError: ${(err as Error).message}`;
  }
}
