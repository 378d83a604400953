/**
 * The last run's failures as diagnostics at their call sites: Tout mismatches (toutCheck.ok
 * false) with TensorFlow's message, exceptions callbacks threw, and NaN/Inf outputs (warnings, in
 * the CLI's words). For graph programs they sit on the wrapper call; for model.json on the
 * callback node's name.
 */
import { DiagnosticSeverity, type Diagnostic, type Range } from 'vscode-languageserver';
import { nonFiniteOutputsProblem } from '../../runtime/cli/run-summary.js';
import type { ProgramAnalysis, TraceMatch } from './program-analysis.js';
import { LineIndex } from './line-index.js';
import { lineRange, rangeOf, textRangeToLsp } from './positions.js';
import type { TraceStore, TracedInvocation } from './trace-store.js';

export const LAST_RUN_SOURCE = 'tfjs-callbacks (last run)';

/** For a graph program: on each wrapper call the trace matched, or on the traced line. */
export function lastRunProgramDiagnostics(analysis: ProgramAnalysis, match: TraceMatch): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const [call, invocations] of match.byCall) out.push(...siteDiagnostics(invocations, rangeOf(call.callee, analysis.sourceFile)));
  const lines = match.unmatched.size > 0 ? new LineIndex(analysis.sourceFile.text) : undefined;
  for (const [line1, invocations] of match.unmatched) out.push(...siteDiagnostics(invocations, lineRange(line1 - 1, lines)));
  return out;
}

/**
 * For any other file the trace names (model.json): on each traced node's name where the trace
 * gives its span (a converted model.json is one line holding every node), else on the line.
 */
export function lastRunFileDiagnostics(file: string, text: string, store: TraceStore): Diagnostic[] {
  const out: Diagnostic[] = [];
  let lines: LineIndex | undefined;
  for (const [line1, invocations] of store.sitesIn(file)) {
    const bySpan = new Map<string, { range: Range; invocations: TracedInvocation[] }>();
    for (const inv of invocations) {
      const site = inv.callSite!;
      const span =
        site.endLine !== undefined && site.endColumn !== undefined
          ? textRangeToLsp({ line: site.line, column: site.column, endLine: site.endLine, endColumn: site.endColumn })
          : undefined;
      const key = span ? `${site.column}:${site.endLine}:${site.endColumn}` : '';
      const group = bySpan.get(key) ?? { range: span ?? lineRange(line1 - 1, (lines ??= new LineIndex(text))), invocations: [] };
      group.invocations.push(inv);
      bySpan.set(key, group);
    }
    for (const group of bySpan.values()) out.push(...siteDiagnostics(group.invocations, group.range));
  }
  return out;
}

function siteDiagnostics(invocations: readonly TracedInvocation[], range: Range): Diagnostic[] {
  const out: Diagnostic[] = [];
  const mismatched = invocations.filter((inv) => inv.toutCheck && !inv.toutCheck.ok);
  const last = mismatched.at(-1);
  if (last) {
    const count = mismatched.length === invocations.length ? `all ${invocations.length}` : `${mismatched.length} of ${invocations.length}`;
    const seen = new Set<string>();
    for (const mismatch of Array.isArray(last.toutCheck?.mismatches) ? last.toutCheck.mismatches : []) {
      if (typeof mismatch?.message !== 'string' || seen.has(mismatch.message)) continue;
      seen.add(mismatch.message);
      out.push({
        severity: DiagnosticSeverity.Error,
        range,
        message: `${mismatch.message}\n  (last run: Tout mismatch in ${count} call${invocations.length === 1 ? '' : 's'} of ${last.callback.name} [${last.callback.token}])`,
        source: LAST_RUN_SOURCE,
        code: 'tout-mismatch',
      });
    }
  }
  const nonFinite = nonFiniteOutputsProblem(invocations);
  if (nonFinite) out.push({ severity: DiagnosticSeverity.Warning, range, message: nonFinite, source: LAST_RUN_SOURCE, code: 'non-finite-output' });
  const failed = invocations.filter((inv) => inv.error !== undefined).at(-1);
  if (failed?.error) {
    out.push({
      severity: DiagnosticSeverity.Error,
      range,
      message: `${failed.callback.name} threw ${String(failed.error.name)}: ${String(failed.error.message).split('\n')[0]}`,
      source: LAST_RUN_SOURCE,
      code: 'callback-error',
    });
  }
  return out;
}
