/**
 * Text for values, shapes and statistics. Everything returned here is plain text, to be put in
 * the page with textContent (see dom.ts).
 */
import { dtypeOfArrayName, parseDType } from '../../runtime/dtypes.js';
import type { InvocationSnapshot, TensorInfo } from './protocol.js';

/** What a value of a tensor may be after JSON: NaN and ±Infinity arrive as null. */
export type Value = number | string | boolean | null;

const MAX_STRING = 48;

export function formatNumber(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return '∞';
  if (x === -Infinity) return '-∞';
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

/** TensorInfo as sent. */
export type TensorStats = TensorInfo;

export function statText(info: TensorStats, key: 'min' | 'max' | 'mean'): string {
  const v = info[key];
  if (typeof v !== 'number') return '—';
  return `${info.exact === false ? '≈' : ''}${formatNumber(v)}`;
}

export function countText(n: number | undefined): string {
  return n === undefined ? '—' : formatCount(n);
}

/** A typed-array kind or a dtype spelling ('double', 'DT_FLOAT') as TensorFlow's dtype name, for comparing with Tout (the runtime's tables). */
export function normalizeDtype(dtype: string): string {
  return dtypeOfArrayName(dtype) ?? parseDType(dtype) ?? dtype;
}
