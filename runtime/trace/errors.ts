/**
 * What a trace refuses, and what it only warns about, each naming the user's line.
 */
import { captureCallSite, formatCallSite, type CallSite } from '../callsite.js';

/** A traced function does something a replayed graph cannot repeat; `site` is the line that did it. */
export class TraceError extends Error {
  override name = 'TraceError';
  constructor(
    message: string,
    readonly site: CallSite | undefined,
  ) {
    super(message);
  }
}

/** The first frame of the user's code that is running now, past the runtime and TensorFlow.js. */
export function userCallSite(): CallSite | undefined {
  return captureCallSite();
}

/** An error at the user's line that is running now: `at file:line:column` ends the first sentence. */
export function traceErrorHere(what: string, fix: string, site: CallSite | undefined = userCallSite()): TraceError {
  return new TraceError(`${what} at ${formatCallSite(site)}: ${fix}`, site);
}

/** Warnings go to process 'warning' listeners (and stderr) under this type. */
export const TRACE_WARNING = 'TfjsTraceWarning';

export function warnHere(what: string, site: CallSite | undefined = userCallSite()): void {
  process.emitWarning(`${what} (at ${formatCallSite(site)})`, TRACE_WARNING);
}
