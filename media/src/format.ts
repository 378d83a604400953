/**
 * Text for values, shapes and statistics. Everything returned here is plain text, to be put in
 * the page with textContent (see dom.ts).
 */
import { dtypeOfArrayName, parseDType } from '../../runtime/dtypes.js';
import { nonFiniteText, nonFiniteWord } from '../../runtime/non-finite-text.js';
import type { InvocationSnapshot, TensorInfo, WireValue } from './protocol.js';

/**
 * A value of a tensor as the page holds it: NaN and ±Infinity as numbers again (fromWire); null
 * where an older adapter sent JSON's null for one of them, which cannot say which.
 */
export type Value = number | string | boolean | null;

const MAX_STRING = 48;

/** A value as the adapter sends it (debug-adapter/cdp/wire-values.ts): its NonFiniteValue back to the number. */
export function fromWire(v: WireValue | null | undefined): Value {
  if (v === undefined) return null;
  return typeof v === 'object' && v !== null ? Number(v.nonFinite) : v;
}

export function formatNumber(x: number): string {
  const word = nonFiniteWord(x);
  if (word) return word;
  if (Number.isInteger(x) && Math.abs(x) < 1e9) return String(x);
  const abs = Math.abs(x);
  if (abs !== 0 && (abs >= 1e6 || abs < 1e-4)) return x.toExponential(3).replace(/\.?0+e/, 'e');
  return String(Number(x.toPrecision(6)));
}

/** A value for the grid: strings quoted (so "" and " " are visible) and cut to a readable length. */
export function formatValue(v: Value | undefined): string {
  if (v === undefined) return '';
  if (v === null) return 'NaN/∞';
  if (typeof v === 'number') return formatNumber(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  const quoted = JSON.stringify(v);
  return quoted.length > MAX_STRING ? `${quoted.slice(0, MAX_STRING - 1)}…` : quoted;
}

export function formatShape(shape: readonly number[]): string {
  return `[${shape.join(', ')}]`;
}

export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

/** "graph › node", or the callback's name (with its graph) when there is no node. */
export function invocationTitle(inv: InvocationSnapshot): string {
  if (inv.node !== undefined) return inv.graph !== undefined ? `${inv.graph} › ${inv.node}` : inv.node;
  return `${inv.graph !== undefined ? `${inv.graph} › ` : ''}${inv.callback.name}`;
}

export function isFailed(inv: InvocationSnapshot): boolean {
  return inv.error !== undefined || inv.toutCheck?.ok === false;
}

/** An invocation's mark in the header and the history: ✗ failed, • running, ⚠ returned NaN/Inf, ✓ returned. */
export function invocationMark(inv: InvocationSnapshot, outputs: readonly (TensorInfo | null | undefined)[]): { mark: string; label: string } {
  if (isFailed(inv)) return { mark: '✗', label: 'failed' };
  if (inv.phase === 'running') return { mark: '•', label: 'running' };
  const nonFinite = outputs.some((o) => (o?.nanCount ?? 0) + (o?.infCount ?? 0) > 0);
  return nonFinite ? { mark: '⚠', label: 'returned NaN/Inf' } : { mark: '✓', label: 'ok' };
}

/** TensorInfo as sent. */
export type TensorStats = TensorInfo;

export function statText(info: TensorStats, key: 'min' | 'max' | 'mean'): string {
  const v = info[key];
  if (typeof v !== 'number') return '—';
  return `${info.exact === false ? '≈' : ''}${formatNumber(v)}`;
}

/** A summary's NaN and ±Inf in the CLI's words ("2 NaN, 1 −Inf"), "0" when none, "—" where none are counted (strings). */
export function nonFiniteCounts(info: TensorStats): string {
  if (info.dtype === 'string' || info.nanCount === undefined) return '—';
  const counts = { dtype: info.dtype, nanCount: info.nanCount, infCount: info.infCount ?? 0 };
  return nonFiniteText(info.negInfCount === undefined ? counts : { ...counts, negInfCount: info.negInfCount }, formatCount) || '0';
}

export function countText(n: number | undefined): string {
  return n === undefined ? '—' : formatCount(n);
}

/** A typed-array kind or a dtype spelling ('double', 'DT_FLOAT') as TensorFlow's dtype name, for comparing with Tout (the runtime's tables). */
export function normalizeDtype(dtype: string): string {
  return dtypeOfArrayName(dtype) ?? parseDType(dtype) ?? dtype;
}
