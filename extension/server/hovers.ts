/**
 * Every name, dtype, message and file name in it comes from the program or the trace: escaped,
 * or in code spans and blocks that it cannot close.
 *
 * Hover on a wrapper call's callee (`numpyFunction`, `compat.v1.pyFunc`, …): the callback, its
 * declared Tout and what the last run observed there (calls, input and output dtypes and shapes,
 * mean time, the last Tout mismatch).
 */
import path from 'node:path';
import { MarkupKind, type Hover, type Position } from 'vscode-languageserver';
import type { ProgramAnalysis, TraceMatch } from './program-analysis.js';
import { rangeOf } from './positions.js';
import { observe } from './trace-store.js';
import { readTout } from './tout-checks.js';
import { callbackLabel, type WrapperCall } from './wrapper-calls.js';
import { codeBlock, codeSpan, escapeMarkdown } from './markdown.js';

export function wrapperHover(analysis: ProgramAnalysis, position: Position, match: TraceMatch | undefined, traceFile: string | undefined): Hover | null {
  const sf = analysis.sourceFile;
  const offset = sf.getPositionOfLineAndCharacter(position.line, position.character);
  const call = analysis.calls.find((c) => c.callee.getStart(sf) <= offset && offset <= c.callee.getEnd());
  if (!call) return null;
  const lines = [header(call)];
  const observed = observe(match?.byCall.get(call) ?? []);
  if (!observed) {
    lines.push('', traceFile ? `Not called in the last run (${escapeMarkdown(path.basename(traceFile))}).` : 'No run recorded yet: **Run graph** records one.');
  } else {
    const who = observed.callbacks.map((c) => escapeMarkdown(c.name === c.token ? c.token : `${c.name} [${c.token}]`)).join(', ');
    lines.push('', `**Last run** · ${observed.calls} call${observed.calls === 1 ? '' : 's'} of ${who} · mean ${observed.meanMs.toFixed(2)} ms`);
    for (const s of observed.signatures.slice(0, 5))
      lines.push(`- in ${codeSpan(s.inputs)} → out ${codeSpan(s.outputs)}${observed.signatures.length > 1 ? ` (${s.count}×)` : ''}`);
    if (observed.signatures.length > 5) lines.push(`- … ${observed.signatures.length - 5} more signatures`);
    if (observed.lastMismatch) {
      lines.push('', `**Last Tout mismatch** (${observed.mismatchedCalls} of ${observed.calls} calls):`, '', ...codeBlock(observed.lastMismatch));
    } else lines.push('', 'Tout check: ok in every call.');
    if (observed.lastError) lines.push('', `**Last error:** ${escapeMarkdown(observed.lastError.split('\n')[0]!)}`);
  }
  return { contents: { kind: MarkupKind.Markdown, value: lines.join('\n') }, range: rangeOf(call.callee, sf) };
}

function header(call: WrapperCall): string {
  const name = callbackLabel(call);
  const tout = call.tout ? readTout(call.tout, undefined) : undefined;
  const toutText = tout
    ? tout.single
      ? (tout.entries[0]!.spelling ?? '?')
      : `[${tout.entries.map((e) => e.spelling ?? '?').join(', ')}]`
    : (call.tout?.getText() ?? '?');
  const fn = call.functionName && call.functionName !== name ? ` (function ${escapeMarkdown(call.functionName)})` : '';
  return `**${call.api}** (${call.kind}) · callback ${name === undefined ? '`anonymous`' : codeSpan(name)}${fn} · Tout ${codeSpan(toutText)}`;
}
