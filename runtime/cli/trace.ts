/**
 * Records callback invocations for the CLI: prints each as it ends and writes the trace JSON the
 * editor reads (same content as the printed lines).
 */
import { writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { BackendReport } from '../backend.js';
import type { CallbackInvocation, CallbackObserver, CallbackStart } from '../events.js';
import { formatInvocation } from './format.js';
import { summarize, type TraceSummary } from './run-summary.js';

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
}

export class TraceRecorder implements CallbackObserver {
  readonly invocations: CallbackInvocation[] = [];
  private readonly startedAt = new Date().toISOString();
  /** Invocations that started and have not ended, by id: what a stalled run waits on. */
  private readonly running = new Map<number, CallbackStart>();

  constructor(private readonly print: (line: string) => void) {}

  onCallbackStart(start: CallbackStart): void {
    this.running.set(start.id, start);
  }

  onCallbackEnd(invocation: CallbackInvocation): void {
    this.running.delete(invocation.id);
    this.invocations.push(invocation);
    this.print(formatInvocation(invocation));
  }

  /** Callbacks that started and have not returned (or whose promise has not settled). */
  pending(): CallbackStart[] {
    return [...this.running.values()];
  }

  toJSON(target: string, backend: BackendReport | undefined, failure?: Error): TraceFile {
    return {
      version: 1,
      tool: 'tfjs-callbacks',
      target,
      cwd: process.cwd(),
      backend,
      startedAt: this.startedAt,
      invocations: this.invocations,
      summary: summarize(this.invocations),
      ...(failure ? { failure: { name: failure.name, message: failure.message } } : {}),
    };
  }

  write(file: string, target: string, backend: BackendReport | undefined, failure?: Error): void {
    mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    writeFileSync(file, `${JSON.stringify(this.toJSON(target, backend, failure), null, 2)}\n`);
  }
}
