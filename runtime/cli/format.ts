/**
 * One readable line per callback invocation (the run's summary line: run-summary.ts).
 */
import { formatCallSite } from '../callsite.js';
import type { CallbackInvocation } from '../events.js';
import { signature, type TensorSummary } from '../summary.js';
import { nonFiniteText } from '../non-finite-text.js';
import { narrowingText } from '../tout-verdict.js';

export function formatInvocation(inv: CallbackInvocation, cwd = process.cwd()): string {
  const failed = inv.error !== undefined || inv.toutCheck?.ok === false;
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
  for (const c of inv.toutCheck?.conversions ?? []) notes.push(`⚠ ${c.message}`);
  for (const s of [...inv.inputs, ...inv.outputs]) {
    const nonFinite = nonFiniteText(s);
    if (nonFinite) notes.push(`⚠ ${nonFinite} in ${signature(s)}`);
  }
  if (inv.toutCheck?.ok === false) notes.push(`✗ ${inv.toutCheck.mismatches.map((m) => m.message.split('\n')[0]).join('; ')}`);
  if (inv.error) notes.push(`✗ ${inv.error.message.split('\n')[0]}`);
  const site = inv.callSite ? `  ${formatCallSite(inv.callSite, cwd)}` : '';
  return `${mark} ${where}${fn} [${inv.op}] ${io}  ${tout}  ${time}${site}${notes.length ? `\n    ${notes.join('\n    ')}` : ''}`;
}

/** "⚠ float64 in TensorFlow, held as float32 in TF.js (input 0, output 0)", from the summaries and Tout check. */
function narrowingNote(inv: CallbackInvocation): string | undefined {
  const byDType = new Map<string, string[]>();
  const add = (declared: string, heldAs: string, where: string) => {
    const key = narrowingText(declared, heldAs);
    byDType.set(key, [...(byDType.get(key) ?? []), where]);
  };
  inv.inputs.forEach((s, i) => s.heldAs && add(s.dtype, s.heldAs, `input ${i}`));
  for (const n of inv.toutCheck?.narrowed ?? []) add(n.declared, n.storedAs, `output ${n.index}`);
  if (byDType.size === 0) return undefined;
  return `⚠ ${[...byDType].map(([what, where]) => `${what} (${where.join(', ')})`).join('; ')}`;
}

function list(summaries: readonly TensorSummary[]): string {
  return summaries.length === 0 ? '()' : summaries.map(signature).join(', ');
}
