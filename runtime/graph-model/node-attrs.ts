/**
 * A node's attributes as JSON, for a debugger's Node scope: TensorFlow's names and values as
 * model.json has them (`transpose_a: false`, `T: "DT_FLOAT"`, `strides: [1, 2, 2, 1]`), a tensor
 * attribute (a Const's value) by its dtype and shape; a tfFunction's kernel attrs as tfjs has them.
 */
import type { NodeAttrValue } from '../hook-types.js';
import { ENUM_NUMBERS } from './callback-nodes.js';

export type { NodeAttrValue } from '../hook-types.js';

/** model.json's `attr` of a node (an AttrValue each: `b`, `i`, `f`, `s`, `type`, `shape`, `tensor`, `list`, `func`). */
export function rawAttrsAsJson(attrs: Readonly<Record<string, unknown>>): Record<string, NodeAttrValue> {
  const out: Record<string, NodeAttrValue> = {};
  for (const [name, value] of Object.entries(attrs)) out[name] = rawAttr(value);
  return out;
}

/** Values tfjs already parsed (a kernel's attrs): numbers, strings, booleans, arrays, tensors. */
export function attrsAsJson(attrs: Readonly<Record<string, unknown>>): Record<string, NodeAttrValue> {
  const out: Record<string, NodeAttrValue> = {};
  for (const [name, value] of Object.entries(attrs)) out[name] = parsed(value);
  return out;
}

function parsed(value: unknown): NodeAttrValue {
  if (value === undefined || value === null) return null;
  if (typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean') return value;
  if (Array.isArray(value)) return value.map((v) => (typeof v === 'number' || typeof v === 'boolean' ? v : String(v)));
  const t = value as { dtype?: unknown; shape?: unknown };
  if (typeof t.dtype === 'string' && Array.isArray(t.shape)) return { dtype: t.dtype, shape: [...(t.shape as number[])] };
  return String(value);
}

type Raw = Record<string, unknown>;

function rawAttr(value: unknown): NodeAttrValue {
  if (value === null || typeof value !== 'object') return parsed(value);
  const v = value as Raw;
  if ('b' in v) return v.b === true;
  if ('i' in v) return Number(v.i);
  if ('f' in v) return Number(v.f);
  if ('s' in v) return decoded(v.s);
  if ('type' in v) return dtypeName(v.type);
  if ('shape' in v) return shapeOf(v.shape);
  if ('tensor' in v) {
    const t = (v.tensor ?? {}) as Raw;
    return { dtype: dtypeName(t.dtype), shape: shapeOf(t.tensorShape) };
  }
  if ('func' in v) return String((v.func as Raw | undefined)?.name ?? '');
  if ('list' in v) {
    const list = (v.list ?? {}) as Raw;
    if (Array.isArray(list.i)) return list.i.map(Number);
    if (Array.isArray(list.f)) return list.f.map(Number);
    if (Array.isArray(list.b)) return list.b.map((b) => b === true);
    if (Array.isArray(list.s)) return list.s.map(decoded);
    if (Array.isArray(list.type)) return list.type.map(dtypeName);
    if (Array.isArray(list.shape)) return list.shape.map((s) => `[${shapeOf(s).join(',')}]`);
    return [];
  }
  return null;
}

function decoded(s: unknown): string {
  const text = String(s ?? '');
  try {
    const bytes = Buffer.from(text, 'base64');
    // Printable after decoding: model.json holds `s` base64-encoded.
    const out = bytes.toString('utf8');
    return bytes.toString('base64').replace(/=+$/, '') === text.replace(/=+$/, '') && /^[\x20-\x7e]*$/.test(out) ? out : text;
  } catch {
    return text;
  }
}

function dtypeName(type: unknown): string {
  return typeof type === 'number' ? (ENUM_NUMBERS[type] ?? String(type)) : String(type ?? '');
}

function shapeOf(shape: unknown): number[] {
  const dims = ((shape ?? {}) as { dim?: { size?: string | number }[]; unknownRank?: boolean }).dim ?? [];
  return dims.map((d) => Number(d.size ?? -1));
}
