/**
 * One readable line per callback invocation, and the run's summary line.
 */
import { formatCallSite } from '../callsite.js';
import type { CallbackInvocation } from '../events.js';
import { signature, type TensorSummary } from '../summary.js';
import { nonFiniteText } from '../non-finite-text.js';

export function formatInvocation(inv: CallbackInvocation, cwd = process.cwd()): string {
  const failed = inv.error !== undefined || !inv.toutCheck.ok;
  const mark = failed ? '✗' : '✓';
  const where = inv.node !== undefined ? `${inv.graph} › ${inv.node}` : `${inv.graph ? `${inv.graph} › ` : ''}${inv.callback.name}`;
  const fn = inv.callback.functionName && inv.callback.functionName !== inv.callback.name ? ` (${inv.callback.functionName})` : '';
  const io = `in ${list(inv.inputs)} → out ${inv.error ? '—' : list(inv.outputs)}`;
  const tout = `Tout [${inv.Tout.join(', ')}]`;
  const time = `${inv.durationMs.toFixed(2)} ms`;
  const notes: string[] = [];
  if (inv.memoized) notes.push('↺ reused (stateless, same inputs)');
  const narrowing = narrowingNote(inv);
  if (narrowing) notes.push(narrowing);
  for (const c of inv.toutCheck.conversions ?? []) notes.push(`⚠ ${c.message}`);
  for (const s of [...inv.inputs, ...inv.outputs]) {
    const nonFinite = nonFiniteText(s);
    if (nonFinite) notes.push(`⚠ ${nonFinite} in ${signature(s)}`);
  }
  if (!inv.toutCheck.ok) notes.push(`✗ ${inv.toutCheck.mismatches.map((m) => m.message.split('\n')[0]).join('; ')}`);
  if (inv.error) notes.push(`✗ ${inv.error.message.split('\n')[0]}`);
  const site = inv.callSite ? `  ${formatCallSite(inv.callSite, cwd)}` : '';
  return `${mark} ${where}${fn} [${inv.op}] ${io}  ${tout}  ${time}${site}${notes.length ? `\n    ${notes.join('\n    ')}` : ''}`;
}

/** "⚠ float64 is held as float32 in TF.js: input 0, output 0", from the summaries and Tout check. */
function narrowingNote(inv: CallbackInvocation): string | undefined {
  const byDType = new Map<string, string[]>();
  const add = (declared: string, heldAs: string, where: string) => {
    const key = `${declared} is held as ${heldAs}`;
    byDType.set(key, [...(byDType.get(key) ?? []), where]);
  };
  inv.inputs.forEach((s, i) => s.heldAs && add(s.dtype, s.heldAs, `input ${i}`));
  for (const n of inv.toutCheck.narrowed) add(n.declared, n.storedAs, `output ${n.index}`);
  if (byDType.size === 0) return undefined;
  return `⚠ ${[...byDType].map(([what, where]) => `${what} in TF.js (${where.join(', ')})`).join('; ')}`;
}

function list(summaries: readonly TensorSummary[]): string {
  return summaries.length === 0 ? '()' : summaries.map(signature).join(', ');
}

export interface TraceSummary {
  readonly invocations: number;
  readonly callbacks: number;
  readonly toutMismatches: number;
  readonly errors: number;
  readonly reused: number;
  readonly nonFinite: number;
  readonly callbackMs: number;
}

export function summarize(invocations: readonly CallbackInvocation[]): TraceSummary {
  return {
    invocations: invocations.length,
    callbacks: new Set(invocations.map((i) => `${i.graph ?? ''}|${i.callback.token}|${i.node ?? ''}`)).size,
    toutMismatches: invocations.filter((i) => !i.toutCheck.ok).length,
    errors: invocations.filter((i) => i.error !== undefined).length,
    reused: invocations.filter((i) => i.memoized).length,
    nonFinite: invocations.filter((i) => i.outputs.some((o) => o.nanCount > 0 || o.infCount > 0)).length,
    callbackMs: invocations.reduce((t, i) => t + i.durationMs, 0),
  };
}

/**
 * The run's summary line: ✓ when callbacks ran and all matched, ✗ when one failed or the run did,
 * ⚠ when no callback ran at all (nothing the user asked the CLI to check was checked), with a
 * second line saying so.
 */
export function formatSummary(s: TraceSummary, backend: string, runFailed = false): string {
  const ok = s.toutMismatches === 0 && s.errors === 0 && !runFailed;
  const mark = !ok ? '✗' : s.invocations === 0 ? '⚠' : '✓';
  const line =
    `${mark} ${s.invocations} callback invocation${s.invocations === 1 ? '' : 's'} of ${s.callbacks} callback${s.callbacks === 1 ? '' : 's'}` +
    ` · ${s.toutMismatches} Tout mismatch${s.toutMismatches === 1 ? '' : 'es'} · ${s.errors} error${s.errors === 1 ? '' : 's'}` +
    ` · ${s.reused} reused · ${s.nonFinite} with NaN/Inf outputs · ${s.callbackMs.toFixed(1)} ms in callbacks · backend ${backend}`;
  return s.invocations === 0 && !runFailed ? `${line}\n  ${NO_CALLBACK_RAN}` : line;
}

export const NO_CALLBACK_RAN =
  'no graph callback ran: the run called no numpyFunction, pyFunction or pyFunc and ran no callback node (is that work behind a flag, or in a function nothing calls?)';
