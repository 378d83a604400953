/**
 * JS literals a callback may return (a number, boolean or string, or a rectangular nested array of
 * one kind of them, as runtime/tout/returned-values.ts `classify` accepts), as the agent shows them.
 */
import type { TensorSummary } from '../../../runtime/summary.js';

/** A JS literal's shape, values and what they are; summary cached. */
export interface Literal {
  shape: number[];
  flat: readonly unknown[];
  leaf: 'number' | 'integer' | 'boolean' | 'string';
  summary?: TensorSummary;
}

/** A nested array's shape along its first elements; undefined past 64 levels (an array that contains itself). */
function shapeOf(v: unknown[]): number[] | undefined {
  const shape: number[] = [];
  for (let level: unknown = v; Array.isArray(level); level = level[0]) if (shape.push(level.length) > 64) return undefined;
  return shape;
}

/** Its values row-major, or undefined where it is not rectangular. */
function flatten(v: unknown[], shape: readonly number[]): unknown[] | undefined {
  const flat: unknown[] = [];
  const walk = (x: unknown, axis: number): boolean => {
    if (axis === shape.length) {
      if (Array.isArray(x)) return false;
      flat.push(x);
      return true;
    }
    if (!Array.isArray(x) || x.length !== shape[axis]) return false;
    for (const y of x) if (!walk(y, axis + 1)) return false;
    return true;
  };
  return walk(v, 0) ? flat : undefined;
}

/** Reads literals; arrays are cached: a stop asks for each one several times. */
export function createLiterals(): (v: unknown) => Literal | undefined {
  const literals = new WeakMap<object, Literal | undefined>();
  return (v) => {
    if (typeof v === 'number') return { shape: [], flat: [v], leaf: Number.isInteger(v) ? 'integer' : 'number' };
    if (typeof v === 'boolean') return { shape: [], flat: [v], leaf: 'boolean' };
    if (typeof v === 'string') return { shape: [], flat: [v], leaf: 'string' };
    if (!Array.isArray(v)) return undefined;
    if (literals.has(v)) return literals.get(v);
    const shape = shapeOf(v);
    if (!shape) return undefined;
    const flat = flatten(v, shape);
    let found: Literal | undefined;
    if (flat) {
      const kind = flat.length > 0 ? typeof flat[0] : 'number';
      const uniform = flat.every((x) => typeof x === kind);
      if (uniform && (kind === 'number' || kind === 'boolean' || kind === 'string')) {
        found = { shape, flat, leaf: kind === 'number' && flat.every((x) => Number.isInteger(x)) ? 'integer' : kind };
      }
    }
    literals.set(v, found);
    return found;
  };
}
