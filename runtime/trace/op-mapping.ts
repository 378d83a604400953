/**
 * TF.js kernels as TensorFlow ops that both TensorFlow and tfjs-converter's op mappers run the same
 * way (measured for tfjs 4.22 against tfjs-converter 4.22's op mappers). A kernel's attrs are often
 * the converter's *inputs* (Mean's axis, Reshape's shape): those become int32 Const inputs. A kernel
 * with no TensorFlow op of its semantics is written as the TensorFlow ops that compute it (Prelu,
 * the fused kernels tfjs-layers runs). Every node is checked against TensorFlow's op definition
 * (tf-op-defs.ts). Every kernel input and every attr with a value must find its place, or the
 * kernel is refused: a graph that loads but computes something else is worse than no graph.
 */
import { tf } from '../tf.js';
import { type AttrValue, bool, dtype, float, int, ints, str } from './graph-def.js';
import type { TensorSpec } from './graph.js';
import { NotTensorFlowsOp, tensorFlowOutputs } from './tf-op-defs.js';
import { Kernel, type KernelView, type MappedInput, type MappedKernel, type MappedNode, type MappedStep, Unmappable } from './kernel-reader.js';

type DType = TensorSpec['dtype'];

const T = (k: Kernel, key: string) => dtype(k.spec(key).dtype);
const int32 = (suffix: string, values: readonly number[], shape: readonly number[] = [values.length]): MappedInput => ({
  constant: { suffix, dtype: 'int32', shape, values },
});
/** A scalar in the dtype of a tensor input (ClipByValue's bounds, PadV2's fill value). */
function scalarOf(suffix: string, d: DType, value: number): MappedInput {
  if (d !== 'float32' && d !== 'int32' && d !== 'bool') throw new Unmappable(`its ${suffix} would be a ${d} constant, which the export does not write`);
  return { constant: { suffix, dtype: d, shape: [], values: [Number(value)] } };
}

type Mapper = (k: Kernel) => MappedKernel;

// biome-ignore format: a table, kept dense
const UNARY = [
  'Abs', 'Acos', 'Acosh', 'Asin', 'Asinh', 'Atan', 'Atanh', 'Ceil', 'Cos', 'Cosh', 'Elu', 'Erf', 'Exp', 'Expm1', 'Floor', 'IsFinite', 'IsInf',
  'IsNan', 'Log', 'Log1p', 'LogicalNot', 'Neg', 'Reciprocal', 'Relu', 'Relu6', 'Round', 'Rsqrt', 'Selu', 'Sigmoid', 'Sign', 'Sin', 'Sinh',
  'Softplus', 'Sqrt', 'Square', 'Tan', 'Tanh', 'ZerosLike', 'Identity',
];
/** tfjs kernel → TensorFlow op, for binary element-wise kernels ({a, b}). */
// biome-ignore format: a table, kept dense
const BINARY: Record<string, string> = {
  Add: 'AddV2', Sub: 'Sub', Multiply: 'Mul', RealDiv: 'RealDiv', FloorDiv: 'FloorDiv', Mod: 'FloorMod', Maximum: 'Maximum', Minimum: 'Minimum',
  Pow: 'Pow', SquaredDifference: 'SquaredDifference', Atan2: 'Atan2', Equal: 'Equal', NotEqual: 'NotEqual', Greater: 'Greater',
  GreaterEqual: 'GreaterEqual', Less: 'Less', LessEqual: 'LessEqual', LogicalAnd: 'LogicalAnd', LogicalOr: 'LogicalOr',
};
const REDUCTIONS: Record<string, string> = { Sum: 'axis', Mean: 'axis', Min: 'axis', Prod: 'axis', All: 'axis', Any: 'axis', Max: 'reductionIndices' };

/** TensorFlow's logical ops are over bool only: they have no T. */
const typed = (op: string, k: Kernel, key: string): Record<string, AttrValue> => (op.startsWith('Logical') ? {} : { T: T(k, key) });

const MAPPERS: Record<string, Mapper> = {
  ...Object.fromEntries(UNARY.map((op) => [op, (k: Kernel) => ({ op, inputs: k.take('x'), attr: typed(op, k, 'x') })])),
  ...Object.fromEntries(Object.entries(BINARY).map(([kernel, op]) => [kernel, (k: Kernel) => ({ op, inputs: k.take('a', 'b'), attr: typed(op, k, 'a') })])),
  ...Object.fromEntries(Object.entries(REDUCTIONS).map(([op, axisAttr]) => [op, (k: Kernel) => reduction(k, op, axisAttr)])),
  OnesLike: (k) => ({ op: 'OnesLike', inputs: k.take('x'), attr: { T: T(k, 'x') } }),
  // TensorFlow has no Prelu op (only tfjs-converter reads one).
  Prelu: (k) => prelu(k.take('x', 'alpha')[0]!, { input: 'alpha' }, k.spec('x').dtype),
  LeakyRelu: (k) => ({ op: 'LeakyRelu', inputs: k.take('x'), attr: { T: T(k, 'x'), alpha: float(k.number('alpha')) } }),
  AddN: (k) => ({ op: 'AddN', inputs: k.all(), attr: { T: T(k, '0'), N: int(k.view.inputs.length) } }),
  BatchMatMul: (k) => matMul(k, k.take('a', 'b')),
  // tfjs-layers' predict runs these: written unfused, as TF.js's cpu backend computes them.
  _FusedMatMul: (k) => unfused(k, 'a', { step: 'matmul', ...matMul(k, k.take('a', 'b', 'bias?', 'preluActivationWeights?').slice(0, 2)) }),
  FusedConv2D: (k) => unfused(k, 'x', { step: 'conv2d', ...conv2d(k, k.take('x', 'filter', 'bias?', 'preluActivationWeights?').slice(0, 2)) }),
  FusedDepthwiseConv2D: (k) => unfused(k, 'x', { step: 'depthwise', ...depthwise(k, k.take('x', 'filter', 'bias?', 'preluActivationWeights?').slice(0, 2)) }),
  ArgMax: (k) => argReduce(k, 'ArgMax'),
  ArgMin: (k) => argReduce(k, 'ArgMin'),
  Reshape: (k) => ({ op: 'Reshape', inputs: [...k.take('x'), int32('shape', k.integers('shape'))], attr: { T: T(k, 'x'), Tshape: dtype('int32') } }),
  Transpose: (k) => ({ op: 'Transpose', inputs: [...k.take('x'), int32('perm', k.integers('perm'))], attr: { T: T(k, 'x'), Tperm: dtype('int32') } }),
  ExpandDims: (k) => ({
    op: 'ExpandDims',
    inputs: [...k.take('input'), int32('dim', [k.number('dim')], [])],
    attr: { T: T(k, 'input'), Tdim: dtype('int32') },
  }),
  Cast: (k) => ({ op: 'Cast', inputs: k.take('x'), attr: { SrcT: T(k, 'x'), DstT: dtype(k.attr<DType>('dtype')), Truncate: bool(false) } }),
  Concat: (k) => ({
    op: 'ConcatV2',
    inputs: [...k.all(), int32('axis', [k.number('axis')], [])],
    attr: { T: T(k, '0'), N: int(k.view.inputs.length), Tidx: dtype('int32') },
  }),
  Pack: (k) => ({ op: 'Pack', inputs: k.all(), attr: { T: T(k, '0'), N: int(k.view.inputs.length), axis: int(k.number('axis')) } }),
  Unpack: (k) => ({ op: 'Unpack', inputs: k.take('value'), attr: { T: T(k, 'value'), num: int(k.view.outputs.length), axis: int(k.number('axis')) } }),
  Slice: (k) => {
    const inputs = k.take('x');
    // The kernel takes begin/size as the op was given them (a number, a short list): parsed as the kernel parses them.
    const [begin, size] = tf.slice_util.parseSliceParams(k.spec('x') as tf.TensorInfo, k.attr('begin'), k.attr('size'));
    return { op: 'Slice', inputs: [...inputs, int32('begin', begin), int32('size', size)], attr: { T: T(k, 'x'), Index: dtype('int32') } };
  },
  StridedSlice: (k) => ({
    op: 'StridedSlice',
    inputs: [...k.take('x'), int32('begin', k.integers('begin')), int32('end', k.integers('end')), int32('strides', k.integers('strides'))],
    attr: {
      T: T(k, 'x'),
      Index: dtype('int32'),
      begin_mask: int(k.number('beginMask')),
      end_mask: int(k.number('endMask')),
      ellipsis_mask: int(k.number('ellipsisMask')),
      new_axis_mask: int(k.number('newAxisMask')),
      shrink_axis_mask: int(k.number('shrinkAxisMask')),
    },
  }),
  Tile: (k) => ({ op: 'Tile', inputs: [...k.take('x'), int32('multiples', k.integers('reps'))], attr: { T: T(k, 'x'), Tmultiples: dtype('int32') } }),
  GatherV2: (k) => ({
    op: 'GatherV2',
    inputs: [...k.take('x', 'indices'), int32('axis', [k.number('axis')], [])],
    attr: { Tparams: T(k, 'x'), Tindices: T(k, 'indices'), Taxis: dtype('int32'), batch_dims: int(k.number('batchDims')) },
  }),
  PadV2: (k) => {
    const inputs = k.take('x');
    const paddings = k.attr<number[][]>('paddings');
    if (!Array.isArray(paddings) || !paddings.every((p) => Array.isArray(p) && p.length === 2))
      throw new Unmappable(`its paddings are ${JSON.stringify(paddings)}`);
    const x = k.spec('x');
    return {
      op: 'PadV2',
      inputs: [...inputs, int32('paddings', paddings.flat(), [paddings.length, 2]), scalarOf('constant_values', x.dtype, k.number('constantValue'))],
      attr: { T: dtype(x.dtype), Tpaddings: dtype('int32') },
    };
  },
  Fill: (k) => {
    k.take();
    const d = k.attr<DType>('dtype') ?? 'float32';
    return {
      op: 'Fill',
      inputs: [int32('dims', k.integers('shape')), scalarOf('value', d, k.number('value'))],
      attr: { T: dtype(d), index_type: dtype('int32') },
    };
  },
  Range: (k) => {
    k.take();
    const d = k.attr<DType>('dtype');
    const [start, limit, delta] = ['start', 'stop', 'step'].map((name) =>
      scalarOf(name === 'stop' ? 'limit' : name === 'step' ? 'delta' : name, d, k.number(name)),
    );
    return { op: 'Range', inputs: [start!, limit!, delta!], attr: { Tidx: dtype(d) } };
  },
  Softmax: (k) => {
    const inputs = k.take('logits');
    const rank = k.spec('logits').shape.length;
    const dim = k.number('dim');
    // TensorFlow's Softmax is over the last axis only.
    if (dim !== -1 && dim !== rank - 1) throw new Unmappable(`it is over axis ${dim} of a rank-${rank} tensor; TensorFlow's Softmax takes the last axis only`);
    return { op: 'Softmax', inputs, attr: { T: T(k, 'logits') } };
  },
  ClipByValue: (k) => {
    const x = k.spec('x');
    const bounds = [scalarOf('clip_value_min', x.dtype, k.number('clipValueMin')), scalarOf('clip_value_max', x.dtype, k.number('clipValueMax'))];
    return { op: 'ClipByValue', inputs: [...k.take('x'), ...bounds], attr: { T: dtype(x.dtype) } };
  },
  Select: (k) => ({ op: 'SelectV2', inputs: k.take('condition', 't', 'e'), attr: { T: T(k, 't') } }),
  OneHot: (k) => {
    const d = k.attr<DType>('dtype');
    const inputs = [
      ...k.take('indices'),
      int32('depth', [k.number('depth')], []),
      scalarOf('on_value', d, k.number('onValue')),
      scalarOf('off_value', d, k.number('offValue')),
    ];
    return { op: 'OneHot', inputs, attr: { T: dtype(d), TI: T(k, 'indices'), axis: int(-1) } };
  },
  Cumsum: (k) => ({
    op: 'Cumsum',
    inputs: [...k.take('x'), int32('axis', [k.number('axis')], [])],
    attr: { T: T(k, 'x'), Tidx: dtype('int32'), exclusive: bool(k.attr('exclusive') === true), reverse: bool(k.attr('reverse') === true) },
  }),
  TopK: (k) => ({
    op: 'TopKV2',
    inputs: [...k.take('x'), int32('k', [k.number('k')], [])],
    attr: { T: T(k, 'x'), sorted: bool(k.attr('sorted') !== false), index_type: dtype('int32') },
  }),
  Conv2D: (k) => conv2d(k, k.take('x', 'filter')),
  DepthwiseConv2dNative: (k) => depthwise(k, k.take('x', 'filter')),
  MaxPool: (k) => ({
    op: 'MaxPool',
    inputs: k.take('x'),
    attr: { T: T(k, 'x'), ksize: ints(nhwc(k.integers('filterSize'), 'filterSize')), ...windowAttrs(k) },
  }),
  AvgPool: (k) => ({
    op: 'AvgPool',
    inputs: k.take('x'),
    attr: { T: T(k, 'x'), ksize: ints(nhwc(k.integers('filterSize'), 'filterSize')), ...windowAttrs(k) },
  }),
};

function reduction(k: Kernel, op: string, axisAttr: string): MappedKernel {
  const inputs = k.take('x');
  const rank = k.spec('x').shape.length;
  // tfjs passes axis null for "every axis"; TensorFlow wants them listed.
  const axis = k.attr(axisAttr) == null ? [...Array(rank).keys()] : k.integers(axisAttr);
  // All and Any are over bool only: TensorFlow's have no T.
  const t: Record<string, AttrValue> = op === 'All' || op === 'Any' ? {} : { T: T(k, 'x') };
  return { op, inputs: [...inputs, int32('reduction_indices', axis)], attr: { ...t, Tidx: dtype('int32'), keep_dims: bool(k.attr('keepDims') === true) } };
}

/** MatMul for rank 2; BatchMatMulV2 takes any rank ≥ 2 and broadcasts, as the kernel does. */
function matMul(k: Kernel, inputs: MappedInput[]): MappedNode {
  const [ta, tb] = [bool(k.attr('transposeA') === true), bool(k.attr('transposeB') === true)];
  if (k.spec('a').shape.length === 2 && k.spec('b').shape.length === 2)
    return { op: 'MatMul', inputs, attr: { T: T(k, 'a'), transpose_a: ta, transpose_b: tb } };
  return { op: 'BatchMatMulV2', inputs, attr: { T: T(k, 'a'), adj_x: ta, adj_y: tb } };
}

function conv2d(k: Kernel, inputs: MappedInput[]): MappedNode {
  return { op: 'Conv2D', inputs, attr: { T: T(k, 'x'), ...windowAttrs(k), dilations: dilations(k) } };
}

function depthwise(k: Kernel, inputs: MappedInput[]): MappedNode {
  return { op: 'DepthwiseConv2dNative', inputs, attr: { T: T(k, 'x'), ...windowAttrs(k), dilations: dilations(k) } };
}

/**
 * A fused kernel as the kernels it fuses, in TF.js's order (its cpu backend runs exactly these):
 * the product, + bias (AddV2, broadcasting as TF.js's add), then the activation.
 */
function unfused(k: Kernel, x: string, core: MappedStep): MappedKernel {
  const d = k.spec(x).dtype;
  const steps: MappedStep[] = [core];
  if (k.view.inputs.some((i) => i.key === 'bias'))
    steps.push({ step: 'bias_add', op: 'AddV2', inputs: [{ step: core.step }, { input: 'bias' }], attr: { T: dtype(d) } });
  const last = steps.at(-1)!;
  const act = activation(k, { step: last.step }, d);
  if (act) return { ...act, steps: [...steps, ...(act.steps ?? [])] };
  const { step: _, ...final } = steps.pop()!;
  return { ...final, steps };
}

/** A fused kernel's activation after `x` (tfjs-core's applyActivation); undefined for linear. */
function activation(k: Kernel, x: MappedInput, d: DType): MappedKernel | undefined {
  const name = k.attr<string | undefined>('activation') ?? 'linear';
  // tf.fused.* passes 0.2 where none is given, and passes it with every activation.
  const alpha = k.attr('leakyreluAlpha') == null ? 0.2 : k.number('leakyreluAlpha');
  const simple: Record<string, string> = { relu: 'Relu', relu6: 'Relu6', elu: 'Elu', sigmoid: 'Sigmoid' };
  if (name === 'linear') return undefined;
  if (simple[name]) return { op: simple[name], inputs: [x], attr: { T: dtype(d) } };
  if (name === 'leakyrelu') return { op: 'LeakyRelu', inputs: [x], attr: { T: dtype(d), alpha: float(alpha) } };
  if (name === 'prelu') return prelu(x, { input: 'preluActivationWeights' }, d);
  throw new Unmappable(`its activation ${JSON.stringify(name)} has no TensorFlow op here`);
}

/** TF.js's prelu, `x < 0 ? alpha * x : x`, as TensorFlow's SelectV2(Less(x, 0), Mul(alpha, x), x): the same float32 products. */
function prelu(x: MappedInput, alpha: MappedInput, d: DType): MappedKernel {
  return {
    steps: [
      { step: 'negative', op: 'Less', inputs: [x, scalarOf('zero', d, 0)], attr: { T: dtype(d) } },
      { step: 'scaled', op: 'Mul', inputs: [alpha, x], attr: { T: dtype(d) } },
    ],
    op: 'SelectV2',
    inputs: [{ step: 'negative' }, { step: 'scaled' }, x],
    attr: { T: dtype(d) },
  };
}

function argReduce(k: Kernel, op: string): MappedKernel {
  const inputs = [...k.take('x'), int32('dimension', [k.number('axis')], [])];
  return { op, inputs, attr: { T: T(k, 'x'), Tidx: dtype('int32'), output_type: dtype(k.view.outputs[0]!.dtype) } };
}

/** 2-D window attrs in NHWC: strides, padding ('same'/'valid'); tfjs's rounding modes and explicit pads have no place. */
function windowAttrs(k: Kernel): Record<string, AttrValue> {
  const format = k.attr('dataFormat') ?? 'NHWC';
  if (format !== 'NHWC') throw new Unmappable(`its dataFormat is ${JSON.stringify(format)}; the export writes NHWC only`);
  const pad = k.attr('pad');
  if (pad !== 'same' && pad !== 'valid') throw new Unmappable(`its pad is ${JSON.stringify(pad)}; the export writes 'same' and 'valid' only`);
  if (k.attr('dimRoundingMode') != null)
    throw new Unmappable(`it has dimRoundingMode ${JSON.stringify(k.attr('dimRoundingMode'))}, which TensorFlow has no attr for`);
  return { strides: ints(nhwc(k.integers('strides'), 'strides')), padding: str(pad.toUpperCase()), data_format: str('NHWC') };
}

/** A convolution's dilations in NHWC; the kernel reads none (tfjs-layers' depthwise conv passes null) as 1. */
function dilations(k: Kernel): AttrValue {
  return ints(k.attr('dilations') == null ? [1, 1, 1, 1] : nhwc(k.integers('dilations'), 'dilations'));
}

/** tfjs's [h, w] (or one number) as TensorFlow's NHWC [1, h, w, 1]. */
function nhwc(values: readonly number[], name: string): number[] {
  if (values.length === 1) return [1, values[0]!, values[0]!, 1];
  if (values.length === 2) return [1, values[0]!, values[1]!, 1];
  throw new Unmappable(`its ${name} are ${JSON.stringify(values)}, not [h, w]`);
}

/** The kernels the export writes. */
export const MAPPED_KERNELS: readonly string[] = Object.keys(MAPPERS).sort();

/** The TensorFlow op for a kernel node; throws Unmappable saying why it has none. */
export function mapKernel(view: KernelView): MappedKernel {
  const mapper = MAPPERS[view.kernel];
  if (!mapper) throw new Unmappable('the export has no TensorFlow op for this kernel');
  const k = new Kernel(view);
  const mapped = mapper(k);
  const lost = k.unread();
  if (lost.length > 0) throw new Unmappable(`its attr(s) ${lost.map((a) => `${a}=${JSON.stringify(view.attrs[a])}`).join(', ')} would be lost`);
  return asTensorFlowDefines(mapped, view);
}

/**
 * Checks each node against TensorFlow's op definition; where TensorFlow's op gives another dtype
 * than TF.js's kernel (FloorDiv of float32: TF.js int32, TensorFlow float32), the op's result is
 * cast to TF.js's dtype, as TF.js stored it.
 */
function asTensorFlowDefines(mapped: MappedKernel, view: KernelView): MappedKernel {
  let given: DType[];
  try {
    for (const s of mapped.steps ?? []) tensorFlowOutputs(s.op, s.attr, 1);
    given = tensorFlowOutputs(mapped.op, mapped.attr, view.outputs.length);
  } catch (err) {
    throw err instanceof NotTensorFlowsOp ? new Unmappable(err.message) : err;
  }
  const wanted = view.outputs.map((o) => o.dtype);
  if (given.every((d, i) => d === wanted[i])) return mapped;
  if (given.length !== 1) throw new Unmappable(`TensorFlow's ${mapped.op} gives ${given.join(', ')} where TF.js gives ${wanted.join(', ')}`);
  const { steps = [], ...last } = mapped;
  const step = mapped.op.toLowerCase();
  const cast: MappedNode = { op: 'Cast', inputs: [{ step }], attr: { SrcT: dtype(given[0]!), DstT: dtype(wanted[0]!), Truncate: bool(false) } };
  tensorFlowOutputs(cast.op, cast.attr, 1);
  return { ...cast, steps: [...steps, { step, ...last }] };
}
