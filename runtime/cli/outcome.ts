/**
 * How a run ends on the CLI, for a model (run.ts) and a program (program-report.ts): the failure,
 * with a hint where its own message does not say what to do, the summary line, and the trace.
 */
import type { BackendReport } from '../backend.js';
import { formatSummary } from './run-summary.js';
import type { TraceRecorder } from './trace.js';
import type { BirthReport } from './nan-report.js';
import type { TrainingReport } from './training-report.js';

/** Failures whose message says everything: no stack under them. */
const SELF_EXPLAINED = ['InvalidArgumentError', 'UnboundCallbackError', 'UnsettledRunError', 'ModelFormatError', 'InputsError'];

export interface Outcome {
  readonly target: string;
  readonly backend: BackendReport | undefined;
  readonly traceFile: string | undefined;
  readonly failure: Error | undefined;
  /** Print the failure's whole message and stack (false for a program's uncaught error: Node printed them already). */
  readonly withStack: boolean;
  /** A program that ended with a non-zero code without an uncaught error (process.exit(1)). */
  readonly exitCode?: number;
  /** A program stopped by a signal (Ctrl+C, kill, a closed terminal, the CLI gone): its name, and why where known. */
  readonly signal?: string;
  /** How many other processes and threads of the program (forks, workers) the counts include. */
  readonly others?: number;
  /** --find-nan's births: a line after the summary, and `opBirths` in the trace. */
  readonly births?: BirthReport;
  /** The program's fits: a line after the summary, and `training` in the trace (when a fit ran). */
  readonly training?: TrainingReport;
}

/** Prints the failure and the summary (writing with `print`, one line at a time) and writes the trace. */
export function finish(recorder: TraceRecorder, outcome: Outcome, print: (line: string) => void): void {
  const { failure, target } = outcome;
  if (failure) {
    // A program's uncaught error Node has printed whole: its first line says which.
    const message = outcome.withStack ? failure.message : failure.message.split('\n')[0];
    print(`\n✗ ${target} failed: ${failure.name}: ${message}`);
    const hint = hintFor(failure);
    if (hint) print(`  ${hint}`);
    if (outcome.withStack && failure.stack && !SELF_EXPLAINED.includes(failure.name)) {
      print(failure.stack.split('\n').slice(1, 8).join('\n'));
    }
  } else if (outcome.signal) {
    print(`\n✗ ${target} was stopped by ${outcome.signal}`);
  } else if (outcome.exitCode) {
    print(`\n✗ ${target} exited with code ${outcome.exitCode}`);
  }
  const failed = failure !== undefined || !!outcome.exitCode || !!outcome.signal;
  // The training curve's last values, before the summary (which stays the counts' last line).
  const training = outcome.training?.any ? outcome.training : undefined;
  if (training) print(`\n${training.summaryLine() ?? ''}`);
  print(`\n${formatSummary(recorder.summary(), outcome.backend?.backend ?? 'none', failed, !outcome.births)}`);
  if (outcome.others)
    print(
      `  counted across the program's process and ${outcome.others} other process${outcome.others === 1 ? '' : 'es'} or thread${outcome.others === 1 ? '' : 's'} it started`,
    );
  if (outcome.births) print(outcome.births.summaryLine());
  if (outcome.traceFile) {
    recorder.finishTrace(outcome.backend, failure, {
      ...(outcome.births ? { opBirths: outcome.births.records } : {}),
      ...(training ? { training: training.trace() } : {}),
    });
    print(`trace written to ${outcome.traceFile}`);
  }
}

/** What to do about failures whose own message does not say. */
function hintFor(failure: Error): string | undefined {
  if (/Top-level await is currently not supported with the "cjs" output format/.test(failure.message)) {
    return 'The file is CommonJS (its package.json has no "type": "module"), as tsx and Node read it, and CommonJS has no top-level await: add "type": "module" to package.json, rename it to .mts, or wrap the code in an async function.';
  }
  return undefined;
}
