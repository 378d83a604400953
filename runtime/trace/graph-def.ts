/**
 * GraphDef pieces as tensorflowjs_converter writes them in model.json: AttrValues in proto3 JSON
 * (ints as strings, strings base64), dtypes as `DT_*` names. tfjs-converter reads a raw JSON value
 * where it expects `{"b": true}` as false, and a plain string as base64: so every attr of an
 * exported graph is built here, never by hand.
 */
import { displayName, parseDType, type TfDType } from '../dtypes.js';

export type AttrValue =
  | { readonly b: boolean }
  | { readonly i: string }
  | { readonly f: number }
  | { readonly s: string }
  | { readonly type: string }
  | { readonly shape: { readonly dim: readonly { readonly size: string }[] } }
  | { readonly list: { readonly i?: readonly string[]; readonly s?: readonly string[]; readonly type?: readonly string[] } };

export interface GraphDefNode {
  readonly name: string;
  readonly op: string;
  readonly input?: readonly string[];
  readonly attr?: Readonly<Record<string, AttrValue>>;
}

export const bool = (b: boolean): AttrValue => ({ b });
export const int = (n: number): AttrValue => ({ i: String(n) });
export const float = (f: number): AttrValue => ({ f });
export const str = (s: string): AttrValue => ({ s: Buffer.from(s, 'utf8').toString('base64') });
export const ints = (ns: readonly number[]): AttrValue => ({ list: { i: ns.map(String) } });
export const dtype = (d: TfDType): AttrValue => ({ type: enumName(d) });
export const dtypes = (ds: readonly TfDType[]): AttrValue => ({ list: ds.length > 0 ? { type: ds.map(enumName) } : {} });
export const shape = (dims: readonly number[]): AttrValue => ({ shape: { dim: dims.map((d) => ({ size: String(d) })) } });

/**
 * A dtype's `DT_*` name: `DT_` + TensorFlow's DataTypeString (float → DT_FLOAT, double → DT_DOUBLE),
 * checked against dtypes.ts's table, the one source of those names.
 */
export function enumName(d: TfDType): string {
  const name = `DT_${displayName(d).toUpperCase()}`;
  if (parseDType(name) !== d) throw new Error(`No DT_* name found for dtype ${d} (tried ${name}): runtime/dtypes.ts and graph-def.ts disagree.`);
  return name;
}

/** A node name TensorFlow accepts (its op_def name rule, no scope separator). */
export const NODE_NAME = /^[A-Za-z0-9.][A-Za-z0-9_.-]*$/;
