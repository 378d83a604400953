/**
 * What observers (the CLI's trace, a debugger) hear of one callback invocation: a start event
 * before it runs, then exactly one end event, timed without the time a debugger held it paused.
 */
import { captureCallSite } from './callsite.js';
import { parameterNames } from './callbacks.js';
import type { CallbackSpec, InvocationSite } from './callback-spec.js';
import { describeThrown } from './errors.js';
import type { CallbackInvocation, CallbackStart, LiveInvocation } from './events.js';
import { nextInvocationId, notifyEnd, notifyStart, pausedMs, wantsDetail } from './hooks.js';
import { returnedList, type ConvertedOutputs } from './outputs.js';
import { summarizeTensor, summarizeValues, type TensorSummary } from './summary.js';
import type { Tensor } from './tf.js';
import type { Tout } from './tout.js';

/** One observed invocation: tells the observers it started (on construction), then how it ended, once. */
export class InvocationObservation {
  private readonly began: number;
  private readonly pausedBefore: number;
  private readonly start: CallbackStart;
  private readonly tout: Tout;
  private ended = false;

  constructor(
    spec: CallbackSpec,
    inputs: readonly Tensor[],
    graph: string | undefined,
    site: InvocationSite,
    private readonly live: LiveInvocation,
    private readonly detail = wantsDetail(),
  ) {
    this.start = startEvent(spec, inputs, graph, site, detail);
    this.tout = spec.tout;
    notifyStart(this.start, live);
    this.began = performance.now();
    this.pausedBefore = pausedMs();
  }

  /** The callback returned and its value was checked (a Tout mismatch is told here, not as a failure). */
  converted(converted: ConvertedOutputs, returned: unknown): void {
    this.end(() => {
      this.live.returned = returned;
      this.live.outputs = converted.tensors;
      this.live.values = valuesOf(returned, this.tout);
      return endEvent(this.start, this.detail ? outputSummaries(converted, this.tout) : NO_SUMMARIES, this.elapsed(), checkOf(converted), false);
    });
  }

  failed(error: unknown): void {
    this.end(() => {
      this.live.outputs = [];
      return endEvent(this.start, NO_SUMMARIES, this.elapsed(), OK_CHECK, false, { thrown: error });
    });
  }

  /** A stateless callback's earlier result was reused: it did not run. */
  memoized(outputs: readonly Tensor[]): void {
    this.end(() => {
      this.live.outputs = outputs;
      return endEvent(this.start, this.detail ? outputs.map((t, i) => summarizeTensor(t, this.tout.dtypes[i])) : NO_SUMMARIES, 0, OK_CHECK, true);
    });
  }

  /**
   * The one end event. A later call is ignored (a failure after the check was told), and an event
   * that cannot be built (a returned value that throws when summarised) is told as that failure.
   */
  private end(build: () => CallbackInvocation): void {
    if (this.ended) return;
    this.ended = true;
    let event: CallbackInvocation;
    try {
      event = build();
    } catch (err) {
      event = endEvent(this.start, NO_SUMMARIES, this.elapsed(), OK_CHECK, false, { thrown: err });
    }
    notifyEnd(event, this.live);
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

/** Built field by field: this runs on every observed call, where spreads showed in profiles. */
function startEvent(spec: CallbackSpec, inputs: readonly Tensor[], graph: string | undefined, site: InvocationSite, detail: boolean): CallbackStart {
  const start: { -readonly [K in keyof CallbackStart]: CallbackStart[K] } = {
    id: nextInvocationId(),
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
  toutCheck: CallbackInvocation['toutCheck'],
  memoized: boolean,
  /** Boxed: `throw undefined` failed too. */
  failure?: { readonly thrown: unknown },
): CallbackInvocation {
  const event: { -readonly [K in keyof CallbackInvocation]: CallbackInvocation[K] } = Object.assign({}, start) as CallbackInvocation;
  event.outputs = outputs;
  event.durationMs = durationMs;
  event.toutCheck = toutCheck;
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
