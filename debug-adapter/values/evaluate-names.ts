/**
 * `evaluateName`s: the expression that gives a variable's value again, for Copy as Expression and
 * Add to Watch. A property of `p` is `p.name` (or `p["odd name"]`, `p[0]`); a tensor's values are
 * `t.dataSync()` (an NdArray's `nd.data`), its element at a flat index `t.dataSync()[5]`.
 */

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
/** An expression a member access can follow without parentheses: names, members, indexes and calls of them. */
const SIMPLE = /^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*|\[(\d+|"(?:[^"\\]|\\.)*")\]|\(\))*$/;

/** `parent` ready for a member access: parenthesized unless it is a plain path. */
function operand(parent: string): string {
  return SIMPLE.test(parent) ? parent : `(${parent})`;
}

/** The expression for property `name` of the value `parent` gives; none for V8's internal slots (`[[Prototype]]`). */
export function memberName(parent: string | undefined, name: string): string | undefined {
  if (parent === undefined || /^\[\[.*\]\]$/.test(name)) return undefined;
  if (/^\d+$/.test(name)) return `${operand(parent)}[${name}]`;
  if (name === '__proto__') return `Object.getPrototypeOf(${parent})`;
  return IDENTIFIER.test(name) ? `${operand(parent)}.${name}` : `${operand(parent)}[${JSON.stringify(name)}]`;
}

/** A name in a scope: itself, when it is an identifier. */
export function scopeName(name: string): string | undefined {
  return IDENTIFIER.test(name) || name === 'this' ? name : undefined;
}

/** The flat values of a tensor-like value `kind` that `parent` gives: what its `values` row pages. */
export function valuesName(parent: string | undefined, kind: string): string | undefined {
  if (parent === undefined) return undefined;
  if (kind === 'Tensor' || kind === 'Variable') return `${operand(parent)}.dataSync()`;
  if (kind === 'NdArray') return `${operand(parent)}.data`;
  return parent;
}

/** Element `flat` of the flat values `values` gives. */
export function elementName(values: string | undefined, flat: number): string | undefined {
  return values === undefined ? undefined : `${operand(values)}[${flat}]`;
}
