/**
 * Tout: the declared outputs of a callback. Parsed once at wrap time, so a typo fails where the
 * wrapper is written, not in the middle of a run.
 */
import { ALL_DTYPES, parseDType, type TfDType } from '../dtypes.js';
import { editDistance } from '../edit-distance.js';

/** One dtype, or a list of them ([] when the callback returns nothing). */
export type ToutSpec = string | readonly string[];

export interface Tout {
  readonly dtypes: readonly TfDType[];
  /** Tout was one dtype, not a list: the wrapper then returns one tensor, as TensorFlow does. */
  readonly single: boolean;
}

const parsed = new Map<string, Tout>();
/** Programs write a handful of Touts; past this many spellings, parse without caching. */
const CACHE_LIMIT = 256;

/** Parses Tout, or throws a TypeError naming the callback. Parsed Touts are cached by spelling. */
export function parseTout(spec: ToutSpec, callback: string): Tout {
  // Read a list once: a getter or a Proxy must not show the cache one spelling and the parser another.
  const read: ToutSpec = Array.isArray(spec) ? (Array.from(spec as readonly unknown[]) as string[]) : spec;
  const key = cacheKey(read);
  const cached = key === undefined ? undefined : parsed.get(key);
  if (cached) return cached;
  const tout = parseUncached(read, callback);
  if (key !== undefined && parsed.size < CACHE_LIMIT) parsed.set(key, tout);
  return tout;
}

/**
 * One key per spelling that cannot stand for another: a string and a list differ by their first
 * character, and a list's entries are JSON-quoted, so ['float32'], [['float32']], '["float32"]'
 * and ['float32", "int32'] all have keys of their own. Lists holding anything but strings are
 * not cached.
 */
function cacheKey(spec: ToutSpec): string | undefined {
  if (typeof spec === 'string') return `s${spec}`;
  if (Array.isArray(spec) && spec.every((e) => typeof e === 'string')) return `l${JSON.stringify(spec)}`;
  return undefined;
}

function parseUncached(spec: ToutSpec, callback: string): Tout {
  if (spec === undefined) {
    throw new TypeError(
      `Missing required argument: 'Tout'\n  '${callback}' needs Tout: the dtype it returns ('float32'), a list of them, or [] when it returns nothing.`,
    );
  }
  if (typeof spec !== 'string' && !Array.isArray(spec)) throw new TypeError(invalidToutMessage(spec, 'Tout', callback));
  const single = typeof spec === 'string';
  const spellings: readonly unknown[] = single ? [spec] : spec;
  const dtypes = spellings.map((spelling, i) => {
    const dtype = parseDType(spelling);
    if (dtype === undefined) throw new TypeError(invalidToutMessage(spelling, single ? 'Tout' : `Tout[${i}]`, callback));
    return dtype;
  });
  // Cached and shared between callbacks: frozen so no caller can change another's Tout.
  return Object.freeze({ dtypes: Object.freeze(dtypes), single });
}

/**
 * TensorFlow's first line for a Tout entry that is no dtype, then ours: where it is, what the
 * spellings are, and the nearest dtype to a misspelling. The editor's static check uses it too.
 */
export function invalidToutMessage(spelling: unknown, where: string, callback: string): string {
  const repr =
    typeof spelling === 'string' ? `'${spelling}'` : spelling === null ? 'None' : typeof spelling === 'object' ? JSON.stringify(spelling) : String(spelling);
  const suggestion = typeof spelling === 'string' ? closestDType(spelling) : undefined;
  return (
    `Cannot convert the argument \`type_value\`: ${repr} to a TensorFlow DType.\n` +
    `  Invalid Tout for '${callback}': ${where} is ${JSON.stringify(spelling) ?? String(spelling)}, which is not a TensorFlow dtype. ` +
    `Use one of ${ALL_DTYPES.join(', ')} (or 'float', 'double', 'DT_FLOAT', …), a list of them, or [] when the callback returns nothing.` +
    (suggestion ? ` Did you mean '${suggestion}'?` : '')
  );
}

/** The dtype name nearest a misspelling (at most 2 edits away: 'flaot32' → 'float32'). */
function closestDType(spelling: string): string | undefined {
  let best: string | undefined;
  let bestDistance = 3;
  for (const name of ALL_DTYPES) {
    const d = editDistance(spelling.toLowerCase(), name);
    if (d < bestDistance) [best, bestDistance] = [name, d];
  }
  return best;
}
