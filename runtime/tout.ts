/**
 * Tout: the declared outputs of a callback. Parsed once at wrap time, so a typo fails where the
 * wrapper is written, not in the middle of a run.
 */
import { ALL_DTYPES, parseDType, type TfDType } from './dtypes.js';

/** One dtype, or a list of them ([] when the callback returns nothing). */
export type ToutSpec = string | readonly string[];

export interface Tout {
  readonly dtypes: readonly TfDType[];
  /** Tout was one dtype, not a list: the wrapper then returns one tensor, as TensorFlow does. */
  readonly single: boolean;
}

const parsed = new Map<string, Tout>();

/** Parses Tout, or throws a TypeError naming the callback. Parsed Touts are cached by spelling. */
export function parseTout(spec: ToutSpec, callback: string): Tout {
  const key = typeof spec === 'string' ? spec : Array.isArray(spec) ? `[${spec.join('\u0000')}` : undefined;
  const cached = key === undefined ? undefined : parsed.get(key);
  if (cached) return cached;
  const tout = parseUncached(spec, callback);
  parsed.set(key!, tout);
  return tout;
}

function parseUncached(spec: ToutSpec, callback: string): Tout {
  if (typeof spec !== 'string' && !Array.isArray(spec)) throw toutTypeError(spec, callback);
  const single = typeof spec === 'string';
  const spellings: readonly unknown[] = single ? [spec] : spec;
  const dtypes = spellings.map((spelling, i) => {
    const dtype = parseDType(spelling);
    if (dtype === undefined) {
      const where = single ? 'Tout' : `Tout[${i}]`;
      throw new TypeError(
        `Invalid Tout for '${callback}': ${where} is ${JSON.stringify(spelling)}, which is not a TensorFlow dtype. ` +
          `Use one of ${ALL_DTYPES.join(', ')} (or 'float', 'double', 'DT_FLOAT', …), a list of them, or [] when the callback returns nothing.`,
      );
    }
    return dtype;
  });
  return { dtypes, single };
}

function toutTypeError(spec: unknown, callback: string): TypeError {
  return new TypeError(`Invalid Tout for '${callback}': expected a dtype name or a list of them, got ${typeof spec}.`);
}
