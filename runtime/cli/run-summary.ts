/**
 * A run's summary: its counts, and the line that tells them, for the CLI's last line and for Run
 * Graph's message (extension/run-announcement.ts), so both say the same. No TensorFlow.js import:
 * the extension's bundle takes it.
 */
import type { CallbackInvocation } from '../events.js';
import { nonFiniteText } from '../non-finite-text.js';
import { signature } from '../signature.js';

export interface TraceSummary {
  readonly invocations: number;
  readonly callbacks: number;
  readonly toutMismatches: number;
  readonly errors: number;
  readonly reused: number;
  /** Invocations with a NaN or ±Inf in some output. */
  readonly nonFinite: number;
  readonly callbackMs: number;
}

export function summarize(invocations: readonly CallbackInvocation[]): TraceSummary {
  return {
    invocations: invocations.length,
    callbacks: new Set(invocations.map((i) => `${i.graph ?? ''}|${i.callback.token}|${i.node ?? ''}`)).size,
    toutMismatches: invocations.filter((i) => i.toutCheck?.ok === false).length,
    errors: invocations.filter((i) => i.error !== undefined).length,
    reused: invocations.filter((i) => i.memoized).length,
    nonFinite: invocations.filter((i) => i.outputs.some((o) => o.nanCount > 0 || o.infCount > 0)).length,
    callbackMs: invocations.reduce((t, i) => t + i.durationMs, 0),
  };
}

/**
 * ✗ when a callback or the run failed; ⚠ when no callback ran at all (nothing the user asked to
 * check was checked) or one returned NaN/Inf; ✓ otherwise.
 */
export function summaryMark(s: TraceSummary, runFailed = false): '✓' | '✗' | '⚠' {
  if (s.toutMismatches > 0 || s.errors > 0 || runFailed) return '✗';
  return s.invocations === 0 || s.nonFinite > 0 ? '⚠' : '✓';
}

/** The counts in words: "3 callback invocations of 2 callbacks · 0 Tout mismatches · … · backend cpu". */
export function summaryCounts(s: TraceSummary, backend: string): string {
  return (
    `${s.invocations} callback invocation${s.invocations === 1 ? '' : 's'} of ${s.callbacks} callback${s.callbacks === 1 ? '' : 's'}` +
    ` · ${s.toutMismatches} Tout mismatch${s.toutMismatches === 1 ? '' : 'es'} · ${s.errors} error${s.errors === 1 ? '' : 's'}` +
    ` · ${s.reused} reused · ${s.nonFinite} with NaN/Inf outputs · ${s.callbackMs.toFixed(1)} ms in callbacks · backend ${backend}`
  );
}

/**
 * The CLI's summary line, its mark first; when no callback ran, a second line says so (unless the
 * run was for something else: `--find-nan` watches ops, in programs that may have no callback).
 */
export function formatSummary(s: TraceSummary, backend: string, runFailed = false, callbacksExpected = true): string {
  const line = `${summaryMark(s, runFailed)} ${summaryCounts(s, backend)}`;
  return s.invocations === 0 && !runFailed && callbacksExpected ? `${line}\n  ${NO_CALLBACK_RAN}` : line;
}

export const NO_CALLBACK_RAN =
  'no graph callback ran: the run called no numpyFunction, pyFunction or pyFunc and ran no callback node (is that work behind a flag, or in a function nothing calls?)';

/**
 * A call site's NaN/Inf outputs in a run, as a Problem says them: the last such call's counts per
 * output in the CLI's words, and in how many of the site's calls; undefined when there were none.
 */
export function nonFiniteOutputsProblem(invocations: readonly CallbackInvocation[]): string | undefined {
  const hit = invocations.filter((i) => i.outputs.some((o) => nonFiniteText(o) !== ''));
  const last = hit.at(-1);
  if (!last) return undefined;
  const outputs = last.outputs.flatMap((o, i) => {
    const words = nonFiniteText(o);
    return words ? [`${words} in output ${i} ${signature(o)}`] : [];
  });
  const calls = hit.length === invocations.length ? `all ${invocations.length}` : `${hit.length} of ${invocations.length}`;
  const { name, functionName } = last.callback;
  const who = functionName && functionName !== name ? `${name} (${functionName})` : name;
  return `${who} returned ${outputs.join('; ')}\n  (last run: NaN/Inf outputs in ${calls} call${invocations.length === 1 ? '' : 's'})`;
}
