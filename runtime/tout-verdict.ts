/**
 * The verdict of a callback's returned values against Tout, as plain data: judged once by the
 * runtime (tout/tout-checks.ts, tout/outputs.ts) and carried unchanged to the CLI's trace, the debugger and
 * the Tensor Inspector. Types only, importing no module that uses them, so the events and the
 * checks share it without importing one another.
 */
import type { TfDType } from './dtypes.js';

export interface ToutMismatch {
  readonly problem: 'count' | 'dtype' | 'value';
  /** Output index (dtype and value problems). */
  readonly index?: number;
  readonly expected: string;
  readonly actual: string;
  /** TensorFlow's message, first line exactly as TensorFlow prints it, then our fix. */
  readonly message: string;
  /**
   * The first line in the same words without the callback's name ('0-th value is double, but
   * expects float', 'returns 2 values, but expects to see 1 values.'), for a view that names the
   * callback already: the debugger's stop says "Tout mismatch in <name>: " and this.
   */
  readonly short: string;
}

/**
 * How a declared dtype TF.js holds in a narrower one is said, in every view (the CLI's line, the
 * Variables view, the inspector): "float64 in TensorFlow, held as float32 in TF.js".
 */
export function narrowingText(declared: string, heldAs: string): string {
  return `${declared} in TensorFlow, held as ${heldAs} in TF.js`;
}

/**
 * Whether an input declared `declared` (a node's or callback's Tin) is held narrower as `held`, and
 * how that is said; undefined when it is not (the runtime's rule, runtime/summary.ts `heldAs`).
 */
export function inputNarrowing(declared: string | undefined, held: string | undefined): string | undefined {
  return declared !== undefined && held !== undefined && declared !== held ? narrowingText(declared, held) : undefined;
}

/** A declared dtype TF.js holds in a narrower one (float64 as float32, …): reported, not hidden. */
export interface Narrowing {
  readonly index: number;
  readonly declared: TfDType;
  readonly storedAs: string;
}

/**
 * A value py_function converted to its Tout dtype, as TensorFlow's convert_to_tensor does
 * silently: a flag for the user, not an error and not a debugger stop.
 */
export interface Conversion {
  readonly index: number;
  /** What was returned: "Float64Array", "NdArray", … */
  readonly from: string;
  readonly fromDType: TfDType;
  readonly to: TfDType;
  readonly message: string;
}

export interface ToutCheck {
  readonly ok: boolean;
  readonly mismatches: readonly ToutMismatch[];
  readonly narrowed: readonly Narrowing[];
  /** Values py_function converted to their Tout dtype (TensorFlow does it silently; we flag it). */
  readonly conversions: readonly Conversion[];
}
