/**
 * One-line previews of JS values as js-debug writes them, from V8's own preview (CDP
 * `generatePreview`): arrays `(3) [1, 2, 3]`, typed arrays `Float32Array(4) [1, 2, 3, 4]`, objects
 * `{a: 1, b: 'x'}` (a class instance with its class: `Point {x: 1, y: 2}`), maps and sets with
 * their entries. Tensors are not previewed here: the agent's summaries describe them.
 */
import type { Protocol } from 'devtools-protocol';

/** A preview longer than this is cut with `…`, as js-debug keeps them to one readable line. */
export const MAX_PREVIEW = 100;

/** The js-debug-style preview of `value`, or undefined when V8 gave none (or it is no object). */
export function previewText(value: Protocol.Runtime.RemoteObject): string | undefined {
  const preview = value.preview;
  if (value.type !== 'object' || !preview || value.subtype === 'null') return undefined;
  const text = objectPreview(preview, value.className ?? preview.description);
  return text === undefined ? undefined : cut(text);
}

function objectPreview(preview: Protocol.Runtime.ObjectPreview, className: string | undefined): string | undefined {
  const overflow = preview.overflow ? '…' : '';
  switch (preview.subtype) {
    case 'array': {
      const length = lengthOf(preview.description);
      const items = arrayItems(preview, length);
      return `(${length ?? items.length}) [${items.join(', ')}${overflow && items.length > 0 ? ', …' : overflow}]`;
    }
    case 'typedarray': {
      const items = arrayItems(preview, lengthOf(preview.description));
      return `${preview.description ?? className ?? 'TypedArray'} [${items.join(', ')}${overflow && items.length > 0 ? ', …' : overflow}]`;
    }
    case 'map':
    case 'set': {
      const entries = (preview.entries ?? []).map((e) => (e.key ? `${nested(e.key)} => ${nested(e.value)}` : nested(e.value)));
      return `${preview.description ?? className} {${entries.join(', ')}${overflow && entries.length > 0 ? ', …' : overflow}}`;
    }
    case 'error':
    case 'regexp':
    case 'date':
    case 'promise':
    case 'proxy':
    case 'arraybuffer':
    case 'dataview':
    case 'weakmap':
    case 'weakset':
    case 'iterator':
    case 'generator':
      return undefined;
    default: {
      if (preview.type === 'function') return undefined;
      const props = preview.properties.map((p) => `${propertyName(p.name)}: ${property(p)}`);
      const body = `{${props.join(', ')}${overflow && props.length > 0 ? ', …' : overflow}}`;
      const name = preview.description ?? className;
      return name && name !== 'Object' ? `${name} ${body}` : body;
    }
  }
}

/** Items of an array preview in index order, holes as `empty`. */
function arrayItems(preview: Protocol.Runtime.ObjectPreview, length: number | undefined): string[] {
  const indexed = preview.properties.filter((p) => /^\d+$/.test(p.name));
  const out: string[] = [];
  let next = 0;
  for (const p of indexed) {
    const i = Number(p.name);
    if (i > next) out.push(i - next === 1 ? 'empty' : `empty × ${i - next}`);
    out.push(property(p));
    next = i + 1;
  }
  if (!preview.overflow && length !== undefined && length > next) out.push(length - next === 1 ? 'empty' : `empty × ${length - next}`);
  return out;
}

function property(p: Protocol.Runtime.PropertyPreview): string {
  if (p.valuePreview) return nested(p.valuePreview);
  return scalar(p.type, p.subtype, p.value);
}

/** A value inside a preview: primitives as they are, objects by their short name (js-debug's `{…}`, `Array(2)`). */
function nested(preview: Protocol.Runtime.ObjectPreview): string {
  if (preview.type !== 'object') return scalar(preview.type, preview.subtype, preview.description);
  if (preview.subtype === 'null') return 'null';
  if (preview.subtype === 'array' || preview.subtype === 'typedarray') return preview.description ?? 'Array';
  const name = preview.description;
  if (preview.subtype === undefined && (!name || name === 'Object')) return '{…}';
  return name ?? '{…}';
}

function scalar(type: string, subtype: string | undefined, value: string | undefined): string {
  if (type === 'string') return `'${value ?? ''}'`;
  if (type === 'undefined') return 'undefined';
  if (type === 'function') return 'ƒ';
  if (type === 'object') return subtype === 'null' ? 'null' : subtype === undefined && (!value || value === 'Object') ? '{…}' : (value ?? '{…}');
  return value ?? type;
}

function propertyName(name: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(name) || /^\d+$/.test(name) ? name : `'${name}'`;
}

function lengthOf(description: string | undefined): number | undefined {
  const m = /\((\d+)\)$/.exec(description ?? '');
  return m ? Number(m[1]) : undefined;
}

function cut(text: string): string {
  return text.length > MAX_PREVIEW ? `${text.slice(0, MAX_PREVIEW - 1)}…` : text;
}
