/**
 * Records callback invocations for the CLI: prints each as it ends, counts it for the summary, and
 * appends it to the trace JSON the editor reads (same content as the printed lines). It keeps no
 * invocation: its memory is the invocations under way and one key per distinct callback, whatever
 * the number of calls (trace-writer.ts writes the trace as the run goes).
 */
import type { BackendReport } from '../backend.js';
import type { CallbackInvocation, CallbackObserver, CallbackStart } from '../events.js';
import { formatInvocation } from './format.js';
import { TraceWriter } from './trace-writer.js';
import type { BirthRecord } from './nan-report.js';
import { summarize, type TraceSummary } from './run-summary.js';
import type { TraceTraining } from './training-report.js';

export interface TraceFile {
  readonly version: 1;
  readonly tool: 'tfjs-callbacks';
  readonly target: string;
  readonly cwd: string;
  readonly backend: BackendReport | undefined;
  readonly startedAt: string;
  readonly invocations: readonly CallbackInvocation[];
  readonly summary: TraceSummary;
  readonly failure?: { readonly name: string; readonly message: string };
  /** --find-nan: the births of NaN/Inf, in order (the first 100). */
  readonly opBirths?: readonly BirthRecord[];
  /** The program's model.fit / fitDataset curves (training-report.ts), when one ran. */
  readonly training?: TraceTraining;
}

export class TraceRecorder implements CallbackObserver {
  private readonly startedAt = new Date().toISOString();
  /** Invocations that started and have not ended, by id: what a stalled run waits on. */
  private readonly running = new Map<number, CallbackStart>();
  private counts: TraceSummary = summarize([]);
  /** The distinct callbacks seen (graph, token, node): the summary's `callbacks`. */
  private readonly callbacks = new Set<string>();
  private readonly trace: TraceWriter | undefined;

  /** `trace`: where --trace writes the trace file, and the run's target. */
  constructor(
    private readonly print: (line: string) => void,
    trace?: { readonly file: string; readonly target: string },
  ) {
    if (trace) {
      const head = { version: 1, tool: 'tfjs-callbacks', target: trace.target, cwd: process.cwd(), startedAt: this.startedAt };
      this.trace = new TraceWriter(trace.file, head);
    }
  }

  onCallbackStart(start: CallbackStart): void {
    this.running.set(start.id, start);
  }

  onCallbackEnd(invocation: CallbackInvocation): void {
    this.running.delete(invocation.id);
    this.addShared(invocation);
    this.print(formatInvocation(invocation));
  }

  /** An invocation another process or thread of the program printed and recorded (process-share.ts): counted and traced. */
  addShared(invocation: CallbackInvocation): void {
    this.count(invocation);
    this.trace?.add(invocation);
  }

  /** Callbacks that started and have not returned (or whose promise has not settled). */
  pending(): CallbackStart[] {
    return [...this.running.values()];
  }

  /** The run's summary so far. */
  summary(): TraceSummary {
    return { ...this.counts, callbacks: this.callbacks.size };
  }

  /** Completes the trace file with what comes after the invocations, and puts it in place. */
  finishTrace(backend: BackendReport | undefined, failure?: Error, extra: Record<string, unknown> = {}): void {
    this.trace?.finish({ backend, summary: this.summary(), ...extra, ...(failure ? { failure: { name: failure.name, message: failure.message } } : {}) });
  }

  /** Adds one invocation's counts, as `summarize` counts them. */
  private count(invocation: CallbackInvocation): void {
    const one = summarize([invocation]);
    const c = this.counts;
    this.counts = {
      invocations: c.invocations + 1,
      callbacks: 0,
      toutMismatches: c.toutMismatches + one.toutMismatches,
      errors: c.errors + one.errors,
      reused: c.reused + one.reused,
      nonFinite: c.nonFinite + one.nonFinite,
      callbackMs: c.callbackMs + one.callbackMs,
    };
    this.callbacks.add(`${invocation.graph ?? ''}|${invocation.callback.token}|${invocation.node ?? ''}`);
  }
}
