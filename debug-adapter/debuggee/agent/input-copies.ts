/**
 * Copies of invocations' array inputs, for Restart Frame (`restoreInputs`): taken as an invocation
 * starts (`keepInputs`) or at its first stop, and put back in place on request.
 */
import { KEEP_INPUTS_LIMIT, type RestoredInputs } from '../agent-protocol.js';
import type { Entry } from './context.js';
import { arrayOf } from './kinds.js';

/** Copies of an invocation's array inputs' values; undefined where none was kept. */
interface SavedInputs {
  readonly values: (ArrayLike<unknown> | undefined)[];
  /** Whether they were taken at a stop rather than as it started. */
  readonly late: boolean;
}

export interface InputCopies {
  /** Copies an invocation's inputs (`late`: at a stop), unless it has copies already. */
  save(entry: Entry, late: boolean): void;
  /** The invocation ended: its copies go back to the spares. */
  release(entry: Entry): void;
  restore(entry: Entry): RestoredInputs;
}

/** Spare copies of each kind (by constructor: no key is built per call), and of how many values at most. */
const SPARES_PER_KIND = 8;
const SPARE_LENGTH_LIMIT = 1 << 16;

export function createInputCopies(): InputCopies {
  /**
   * Typed-array copies of invocations that ended, reused by the next ones: a hot callback made a
   * new one a call, 3.5 % of its loop.
   */
  const spareCopies = new Map<Function, Float64Array[]>();
  const copyOf = (values: Float64Array): Float64Array => {
    const spares = spareCopies.get(values.constructor);
    if (spares) {
      for (let i = spares.length - 1; i >= 0; i--) {
        const spare = spares[i]!;
        if (spare.length !== values.length) continue;
        spares[i] = spares[spares.length - 1]!;
        spares.pop();
        spare.set(values);
        return spare;
      }
    }
    return values.slice();
  };
  const spare = (copy: ArrayLike<unknown> | undefined) => {
    if (!ArrayBuffer.isView(copy) || (copy as Float64Array).length > SPARE_LENGTH_LIMIT) return;
    let spares = spareCopies.get(copy.constructor);
    if (!spares) {
      if (spareCopies.size >= 16) spareCopies.clear();
      spares = [];
      spareCopies.set(copy.constructor, spares);
    }
    if (spares.length < SPARES_PER_KIND) spares.push(copy as Float64Array);
  };
  /** Copies of the array inputs' values, each up to KEEP_INPUTS_LIMIT values. */
  const copies = (args: readonly unknown[]): (ArrayLike<unknown> | undefined)[] =>
    args.map((arg) => {
      const values = arrayOf(arg);
      if (!values || values.length > KEEP_INPUTS_LIMIT) return undefined;
      return ArrayBuffer.isView(values) ? copyOf(values as unknown as Float64Array) : Array.prototype.slice.call(values);
    });
  /** The input copies of the invocations under way that have some. */
  const saved = new Map<Entry, SavedInputs>();

  return {
    save(entry, late) {
      if (!saved.has(entry)) saved.set(entry, { values: copies(entry.args), late });
    },
    release(entry) {
      const kept = saved.get(entry);
      if (!kept) return;
      saved.delete(entry);
      for (const copy of kept.values) spare(copy);
    },
    restore(entry) {
      const kept = saved.get(entry);
      const out = { restored: 0, changed: 0, unsaved: 0, late: kept?.late === true };
      entry.args.forEach((arg, i) => {
        const target = arrayOf(arg);
        if (!target) return;
        const copy = kept?.values[i];
        if (!copy || copy.length !== target.length) {
          out.unsaved++;
          return;
        }
        let changed = false;
        for (let k = 0; k < copy.length; k++) {
          if (!Object.is(target[k], copy[k])) {
            target[k] = copy[k];
            changed = true;
          }
        }
        out.restored++;
        if (changed) out.changed++;
      });
      return out;
    },
  };
}
