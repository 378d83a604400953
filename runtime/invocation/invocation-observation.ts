/**
 * What observers (the CLI's trace, a debugger) hear of one callback invocation: a start event
 * before it runs, then exactly one end event, timed without the time a debugger held it paused.
 *
 * The observation is also the invocation's frame (../events.ts InvocationFrame): an observer told the
 * frame (a debugger's agent) gets the events built only when it asks, at a stop; only observers of
 * events (onCallbackStart/onCallbackEnd) have them built on every call.
 */
import { captureCallSite } from '../callsite.js';
import { parameterNames } from './callbacks.js';
import type { CallbackSpec, InvocationSite } from './callback-spec.js';
import { describeThrown } from '../errors.js';
import type { CallbackIdentity, CallbackInvocation, CallbackStart, InvocationFrame } from '../events.js';
import { nextInvocationId, notifyEnd, notifyStart, pausedMs, wantsDetail } from '../hooks.js';
import { returnedList, type ConvertedOutputs } from '../tout/outputs.js';
import { summarizeTensor, summarizeValues, type TensorSummary } from '../summary.js';
import type { Tensor } from '../tf.js';
import type { Tout } from '../tout/tout.js';

/** How it ended, kept to build the end event when asked. */
type Outcome =
  | { readonly kind: 'converted'; readonly converted: ConvertedOutputs }
  | { readonly kind: 'failed'; readonly thrown: unknown }
  | { readonly kind: 'memoized' };

/** One observed invocation: tells the observers it started (on construction), then how it ended, once. */
export class InvocationObservation implements InvocationFrame {
  readonly id: number;
  readonly callback: CallbackIdentity;
  readonly node: string | undefined;
  readonly func: Function;
  state: InvocationFrame['state'] = 'running';
  returned?: unknown;
  outputs?: readonly unknown[];
  private readonly began: number;
  private readonly pausedBefore: number;
  private startEvent: CallbackStart | undefined;
  private endEvent: CallbackInvocation | undefined;
  private outcome: Outcome | undefined;
  private durationMs = 0;
  private returnedValues: readonly unknown[] | undefined;

  constructor(
    private readonly spec: CallbackSpec,
    private readonly inputs: readonly Tensor[],
    readonly graph: string | undefined,
    private readonly site: InvocationSite,
    readonly args: readonly unknown[],
    private readonly detail = wantsDetail(),
  ) {
    this.id = nextInvocationId();
    this.callback = spec.identity;
    this.node = site.node;
    this.func = spec.func;
    notifyStart(this);
    this.began = performance.now();
    this.pausedBefore = pausedMs();
  }

  start(): CallbackStart {
    this.startEvent ??= startEvent(this.id, this.spec, this.inputs, this.graph, this.site, this.detail);
    return this.startEvent;
  }

  end(): CallbackInvocation | undefined {
    const outcome = this.outcome;
    if (!outcome || this.endEvent) return this.endEvent;
    // An event that cannot be built (a returned value that throws when summarised) is that failure.
    try {
      this.endEvent = this.buildEnd(outcome);
    } catch (err) {
      this.endEvent = endEvent(this.start(), NO_SUMMARIES, this.durationMs, undefined, false, { thrown: err });
    }
    return this.endEvent;
  }

  /** `returned` as the list of values the Tout check saw: one per output (none when reading it throws). */
  get values(): readonly unknown[] | undefined {
    if (this.outcome?.kind !== 'converted') return undefined;
    this.returnedValues ??= valuesOf(this.returned, this.spec.tout);
    return this.returnedValues;
  }

  /** The callback returned and its value was checked (a Tout mismatch is told here, not as a failure). */
  converted(converted: ConvertedOutputs, returned: unknown): void {
    if (this.state !== 'running') return;
    this.returned = returned;
    this.outputs = converted.tensors;
    this.finish({ kind: 'converted', converted }, converted.mismatches.length === 0 ? 'returned' : 'toutMismatch');
  }

  failed(error: unknown): void {
    if (this.state !== 'running') return;
    this.outputs = [];
    this.finish({ kind: 'failed', thrown: error }, 'failed');
  }

  /** A stateless callback's earlier result was reused: it did not run. */
  memoized(outputs: readonly Tensor[]): void {
    if (this.state !== 'running') return;
    this.outputs = outputs;
    this.finish({ kind: 'memoized' }, 'returned');
  }

  /** The one end: a later call is ignored (a failure after the check was told). */
  private finish(outcome: Outcome, state: InvocationFrame['state']): void {
    this.durationMs = outcome.kind === 'memoized' ? 0 : this.elapsed();
    this.outcome = outcome;
    this.state = state;
    notifyEnd(this);
  }

  private buildEnd(outcome: Outcome): CallbackInvocation {
    const start = this.start();
    const tout = this.spec.tout;
    switch (outcome.kind) {
      case 'converted': {
        const summaries = this.detail ? outputSummaries(outcome.converted, tout) : NO_SUMMARIES;
        return endEvent(start, summaries, this.durationMs, checkOf(outcome.converted), false);
      }
      case 'failed':
        return endEvent(start, NO_SUMMARIES, this.durationMs, undefined, false, { thrown: outcome.thrown });
      case 'memoized': {
        const outputs = (this.outputs ?? []) as readonly Tensor[];
        return endEvent(start, this.detail ? outputs.map((t, i) => summarizeTensor(t, tout.dtypes[i])) : NO_SUMMARIES, 0, OK_CHECK, true);
      }
    }
  }

  /** Time the callback ran, less the time a debugger held it paused meanwhile. */
  private elapsed(): number {
    return Math.max(0, performance.now() - this.began - (pausedMs() - this.pausedBefore));
  }
}

/** The returned list for a debugger; none when reading it throws (the Tout error says why). */
function valuesOf(returned: unknown, tout: Tout): readonly unknown[] {
  try {
    return returnedList(returned, tout);
  } catch {
    return [];
  }
}

/** Built field by field: spreads showed in profiles. */
function startEvent(
  id: number,
  spec: CallbackSpec,
  inputs: readonly Tensor[],
  graph: string | undefined,
  site: InvocationSite,
  detail: boolean,
): CallbackStart {
  const start: { -readonly [K in keyof CallbackStart]: CallbackStart[K] } = {
    id,
    callback: spec.identity,
    op: spec.op,
    Tout: spec.tout.dtypes,
    Tin: spec.Tin ?? inputs.map((t) => t.dtype),
    inputs: detail ? inputs.map((t, i) => summarizeTensor(t, spec.Tin?.[i])) : NO_SUMMARIES,
    parameterNames: parameterNames(spec.func),
  };
  if (graph !== undefined) start.graph = graph;
  if (site.node !== undefined) start.node = site.node;
  const callSite = site.callSite ?? (detail ? captureCallSite() : undefined);
  if (callSite) start.callSite = callSite;
  return start;
}

const NO_SUMMARIES: readonly TensorSummary[] = Object.freeze([]);

function endEvent(
  start: CallbackStart,
  outputs: readonly TensorSummary[],
  durationMs: number,
  /** Undefined for a call that threw: it returned nothing to judge. */
  toutCheck: CallbackInvocation['toutCheck'],
  memoized: boolean,
  /** Boxed: `throw undefined` failed too. */
  failure?: { readonly thrown: unknown },
): CallbackInvocation {
  const event: { -readonly [K in keyof CallbackInvocation]: CallbackInvocation[K] } = Object.assign({}, start) as CallbackInvocation;
  event.outputs = outputs;
  event.durationMs = durationMs;
  if (toutCheck) event.toutCheck = toutCheck;
  event.memoized = memoized;
  if (failure) event.error = errorOf(failure.thrown);
  return event;
}

/** The event's copy of what was thrown: plain strings, read so that no getter can throw here. */
function errorOf(error: unknown): NonNullable<CallbackInvocation['error']> {
  if (!(error instanceof Error)) return { name: 'Error', message: `threw ${describeThrown(error)}` };
  const read = (f: () => unknown) => {
    try {
      const v = f();
      return typeof v === 'string' ? v : undefined;
    } catch {
      return undefined;
    }
  };
  const name = read(() => error.name) ?? 'Error';
  const message = read(() => error.message) ?? describeThrown(error);
  const stack = read(() => error.stack);
  return stack ? { name, message, stack } : { name, message };
}

function outputSummaries(converted: ConvertedOutputs, tout: Tout): TensorSummary[] {
  if (converted.mismatches.length === 0) return converted.tensors.map((t, i) => summarizeTensor(t, tout.dtypes[i]));
  // On a mismatch there are no output tensors: summarise what the callback returned instead.
  return converted.returned.map((r) => {
    if (r.tensor) return summarizeTensor(r.tensor);
    const summary = summarizeValues({ dtype: r.dtype ?? 'float64', shape: r.shape, flat: r.flat ?? [] });
    return r.problem ? { ...summary, notAValue: r.describe } : summary;
  });
}

function checkOf(converted: ConvertedOutputs): CallbackInvocation['toutCheck'] {
  return { ok: converted.mismatches.length === 0, mismatches: converted.mismatches, narrowed: converted.narrowed, conversions: converted.conversions };
}

const OK_CHECK: CallbackInvocation['toutCheck'] = Object.freeze({
  ok: true,
  mismatches: Object.freeze([]),
  narrowed: Object.freeze([]),
  conversions: Object.freeze([]),
});
