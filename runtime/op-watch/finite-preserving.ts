/**
 * Kernels that cannot make NaN or ±Inf from finite inputs (and finite attributes): they move,
 * select, compare or bound values (Reshape, Concat, Gather, Relu, Maximum, Max, Select, MaxPool),
 * or map every finite number to a finite one (Neg, Abs, Tanh, Sigmoid, Sin). The op watch checks
 * no output of theirs: a birth can never be one of them. It still carries what it knows through
 * them (an output of a NaN it already told is not a birth downstream). A list, not a guess: a
 * kernel missing here is checked, which costs time, never a birth.
 */
export const FINITE_PRESERVING: ReadonlySet<string> = new Set([
  // Moving values.
  'Identity',
  'Reshape',
  'Transpose',
  'Slice',
  'StridedSlice',
  'Concat',
  'Pack',
  'Unpack',
  'SplitV',
  'GatherV2',
  'GatherNd',
  'Tile',
  'ExpandDims',
  'Reverse',
  'BroadcastTo',
  'MirrorPad',
  'Cast',
  // Selecting, bounding and comparing.
  'Relu',
  'Relu6',
  'LeakyRelu',
  'Step',
  'ClipByValue',
  'Maximum',
  'Minimum',
  'Max',
  'Min',
  'Select',
  'MaxPool',
  'ZerosLike',
  'OnesLike',
  // Finite in, finite out.
  'Abs',
  'Neg',
  'Sign',
  'Floor',
  'Ceil',
  'Round',
  'Tanh',
  'Sigmoid',
  'Sin',
  'Cos',
]);

/** Whether every number among a kernel's attributes is finite (`Step`'s alpha, `ClipByValue`'s bounds). */
export function finiteAttrs(attrs: Readonly<Record<string, unknown>> | undefined): boolean {
  if (!attrs) return true;
  for (const key in attrs) {
    const v = attrs[key];
    if (typeof v === 'number' && !Number.isFinite(v)) return false;
  }
  return true;
}
