/**
 * What Run Graph's message says after a run: the CLI's summary line from its trace (the counts,
 * NaN/Inf outputs included, under the same ✓/⚠/✗), the target's name after the mark. No vscode
 * import: run-graph.ts shows it.
 */
import { summaryCounts, summaryMark } from '../runtime/cli/run-summary.js';
import type { TraceFile } from '../runtime/cli/trace.js';

export interface Announcement {
  /** info for ✓, warning for ⚠ (NaN/Inf outputs, a run that went through), error for ✗ and when there is no trace to tell. */
  readonly severity: 'info' | 'warning' | 'error';
  readonly text: string;
}

export function runAnnouncement(name: string, exitCode: number, trace: TraceFile | undefined): Announcement {
  const s = trace?.summary;
  if (!s) return { severity: 'error', text: `Run Graph: ${name} exited with code ${exitCode} and wrote no trace. See the "TF.js Callbacks" output.` };
  const mark = summaryMark(s, exitCode !== 0 || trace.failure !== undefined);
  const failure = trace.failure ? ` — ${trace.failure.message.split('\n')[0]}` : '';
  const severity = mark === '✓' ? 'info' : mark === '✗' ? 'error' : 'warning';
  return { severity, text: `Run Graph ${mark} ${name}: ${summaryCounts(s, trace.backend?.backend ?? '?')}${failure}` };
}
