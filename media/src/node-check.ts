/**
 * A node event as the page may trust it (event-check.ts does the same for invocations): names,
 * the op and attrs come from the model file, so every field is checked and cut, and a value that
 * cannot be shown is replaced and named in `problems` instead of blanking the panel.
 */
import { describe, optional, Reader, tensorInfo, type Obj } from './event-check.js';
import type { NodeStopEvent, NodeStopSnapshot } from './protocol.js';

/** Most attrs read from one node; a list attr shows at most this many items. */
const MAX_ATTRS = 200;
const MAX_LIST = 64;

export type AttrValue = NodeStopSnapshot['attrs'][string];

export interface CheckedNodeEvent {
  readonly event: NodeStopEvent;
  readonly problems: readonly string[];
}

export function checkNodeEvent(raw: unknown): CheckedNodeEvent {
  const problems: string[] = [];
  const r = new Reader(problems);
  const e = r.object(raw, 'event') ?? {};
  const n = r.object(e.node, 'node') ?? {};
  const node: NodeStopSnapshot = {
    graph: r.text(n.graph, 'graph') ?? '?',
    ...optional('modelPath', r.text(n.modelPath, 'model path', true)),
    node: r.text(n.node, 'node name') ?? '(unnamed)',
    op: r.text(n.op, 'op') ?? '?',
    index: r.integer(n.index, 'node index') ?? -1,
    ...optional('frameKey', r.text(n.frameKey, 'frame key', true)),
    inputNames: r.texts(n.inputNames, 'input names') ?? [],
    attrs: attrs(r, n.attrs),
    inputs: r.list(n.inputs, 'inputs', (v, where) => tensorInfo(r, v, where)),
    outputs: r.list(n.outputs, 'outputs', (v, where) => tensorInfo(r, v, where)),
    live: n.live === true,
    ...optional('location', location(r, n.location)),
  };
  return { event: { reason: r.text(e.reason, 'reason') ?? '?', description: r.text(e.description, 'description') ?? '', node }, problems };
}

function attrs(r: Reader, v: unknown): Record<string, AttrValue> {
  if (v === undefined) return {};
  const o = r.object(v, 'attrs');
  if (!o) return {};
  const keys = Object.keys(o);
  if (keys.length > MAX_ATTRS) r.fail('attrs', `${keys.length} attributes, only the first ${MAX_ATTRS} are shown`);
  const out: Record<string, AttrValue> = {};
  for (const key of keys.slice(0, MAX_ATTRS)) {
    const name = r.text(key, 'attr name') ?? '?';
    const value = attr(r, o[key], `attr ${name}`);
    if (value !== undefined) out[name] = value;
  }
  return out;
}

function attr(r: Reader, v: unknown, where: string): AttrValue | undefined {
  if (v === null || typeof v === 'boolean') return v;
  if (typeof v === 'number') return Number.isNaN(v) ? r.fail(where, 'NaN') : v;
  if (typeof v === 'string') return r.text(v, where);
  if (Array.isArray(v)) {
    if (v.length > MAX_LIST) r.fail(where, `${v.length} items, only the first ${MAX_LIST} are shown`);
    return v.slice(0, MAX_LIST).map((x) => (typeof x === 'number' || typeof x === 'boolean' ? x : (r.text(String(x), where) ?? '?')));
  }
  const o = v as Obj;
  if (o && typeof o === 'object' && typeof o.dtype === 'string' && Array.isArray(o.shape)) {
    const shape = o.shape.filter((d): d is number => typeof d === 'number').slice(0, MAX_LIST);
    return { dtype: r.text(o.dtype, `${where}.dtype`) ?? '?', shape };
  }
  return r.fail(where, `expected a number, text, list or tensor's dtype and shape, got ${describe(v)}`);
}

function location(r: Reader, v: unknown): NodeStopSnapshot['location'] {
  if (v === undefined) return undefined;
  const o = r.object(v, 'location');
  if (!o) return undefined;
  const file = r.text(o.file, 'location file');
  const num = (k: string) => (typeof o[k] === 'number' && Number.isSafeInteger(o[k]) ? (o[k] as number) : 0);
  return file === undefined ? undefined : { file, line: num('line'), column: num('column'), endLine: num('endLine'), endColumn: num('endColumn') };
}

/** An attr as one line of text (never markup). */
export function attrText(v: AttrValue): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return `[${v.map((x) => (typeof x === 'string' ? JSON.stringify(x) : String(x))).join(', ')}]`;
  if (typeof v === 'object') {
    const t = v as { dtype: string; shape: readonly number[] };
    return `tensor ${t.dtype} [${t.shape.join(', ')}]`;
  }
  return String(v);
}
