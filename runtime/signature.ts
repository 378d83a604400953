/** How a value is named in one line: its dtype and shape, or what was returned in place of a value. No TensorFlow.js import. */

/** "float32[2,3]", or what was returned in place of a value ("ragged nested array"). */
export function signature(s: { dtype: string; shape: readonly number[]; notAValue?: string }): string {
  return s.notAValue ?? `${s.dtype}[${s.shape.join(',')}]`;
}
