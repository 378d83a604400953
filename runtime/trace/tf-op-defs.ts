/**
 * TensorFlow's own definitions of the ops the export writes (its op registry), so that every node
 * the export writes is one TensorFlow imports: only attrs its op defines, only dtypes its type
 * attrs allow, and the dtype its op gives where TF.js's kernel gives another (FloorDiv of float32:
 * TF.js gives int32, TensorFlow float32, so a Cast follows). tfjs-converter ignores most of these
 * attrs; TensorFlow does not.
 */
import { displayName, parseDType } from '../dtypes.js';
import type { AttrValue } from './graph-def.js';
import type { TensorSpec } from './graph.js';

type DType = TensorSpec['dtype'];

/**
 * TensorFlow 2.21's op registry for the ops the export writes, as `python scripts/tf-run-exports.py
 * --op-defs OP…` prints it (tf-export-in-tensorflow.test.ts checks each line against TensorFlow):
 * the op's attrs, a type attr with the export's dtypes it allows (f float32, i int32, b bool; * any
 * type), then `->` and its outputs, each a type attr or a fixed dtype.
 */
// biome-ignore format: a table, kept dense
export const TF_OP_DEFS: Readonly<Record<string, string>> = {
  Abs: 'T:fi -> T', Acos: 'T:f -> T', Acosh: 'T:f -> T', AddN: 'N T:fi -> T', AddV2: 'T:fi -> T', All: 'keep_dims Tidx:i -> bool',
  Any: 'keep_dims Tidx:i -> bool', ArgMax: 'T:fib Tidx:i output_type:i -> output_type', ArgMin: 'T:fib Tidx:i output_type:i -> output_type',
  Asin: 'T:f -> T', Asinh: 'T:f -> T', Atan: 'T:f -> T', Atan2: 'T:f -> T', Atanh: 'T:f -> T', AvgPool: 'ksize strides padding data_format T:f -> T',
  BatchMatMulV2: 'T:fi adj_x adj_y grad_x grad_y -> T', Cast: 'SrcT:* DstT:* Truncate -> DstT', Ceil: 'T:f -> T', ClipByValue: 'T:fi -> T',
  ConcatV2: 'N T:* Tidx:i -> T', Conv2D: 'T:fi strides use_cudnn_on_gpu padding explicit_paddings data_format dilations -> T', Cos: 'T:f -> T',
  Cosh: 'T:f -> T', Cumsum: 'exclusive reverse T:fi Tidx:i -> T',
  DepthwiseConv2dNative: 'T:f strides padding explicit_paddings data_format dilations -> T', Elu: 'T:f -> T',
  Equal: 'T:* incompatible_shape_error -> bool', Erf: 'T:f -> T', Exp: 'T:f -> T', ExpandDims: 'T:* Tdim:i -> T', Expm1: 'T:f -> T',
  Fill: 'T:* index_type:i -> T', Floor: 'T:f -> T', FloorDiv: 'T:fi -> T', FloorMod: 'T:fi -> T',
  GatherV2: 'batch_dims Tparams:* Tindices:i Taxis:i -> Tparams', Greater: 'T:fi -> bool', GreaterEqual: 'T:fi -> bool', Identity: 'T:* -> T',
  IsFinite: 'T:f -> bool', IsInf: 'T:f -> bool', IsNan: 'T:f -> bool', LeakyRelu: 'alpha T:f -> T', Less: 'T:fi -> bool', LessEqual: 'T:fi -> bool',
  Log: 'T:f -> T', Log1p: 'T:f -> T', LogicalAnd: '-> bool', LogicalNot: '-> bool', LogicalOr: '-> bool',
  MatMul: 'transpose_a transpose_b T:fi grad_a grad_b -> T', Max: 'keep_dims T:fi Tidx:i -> T',
  MaxPool: 'T:fi ksize strides padding explicit_paddings data_format -> T', Maximum: 'T:fi -> T', Mean: 'keep_dims T:fi Tidx:i -> T',
  Min: 'keep_dims T:fi Tidx:i -> T', Minimum: 'T:fi -> T', Mul: 'T:fi -> T', Neg: 'T:fi -> T', NotEqual: 'T:* incompatible_shape_error -> bool',
  OneHot: 'axis T:* TI:i -> T', OnesLike: 'T:fib -> T', Pack: 'N T:* axis -> T', PadV2: 'T:* Tpaddings:i -> T', Pow: 'T:fi -> T',
  Prod: 'keep_dims T:fi Tidx:i -> T', Range: 'Tidx:fi -> Tidx', RealDiv: 'T:fi -> T', Reciprocal: 'T:fi -> T', Relu: 'T:fi -> T', Relu6: 'T:fi -> T',
  Reshape: 'T:* Tshape:i -> T', Round: 'T:fi -> T', Rsqrt: 'T:f -> T', SelectV2: 'T:* -> T', Selu: 'T:f -> T', Sigmoid: 'T:f -> T',
  Sign: 'T:fi -> T', Sin: 'T:f -> T', Sinh: 'T:f -> T', Slice: 'T:* Index:i -> T', Softmax: 'T:f -> T', Softplus: 'T:f -> T', Sqrt: 'T:f -> T',
  Square: 'T:fi -> T', SquaredDifference: 'T:fi -> T',
  StridedSlice: 'T:* Index:i begin_mask end_mask ellipsis_mask new_axis_mask shrink_axis_mask -> T', Sub: 'T:fi -> T',
  Sum: 'keep_dims T:fi Tidx:i -> T', Tan: 'T:f -> T', Tanh: 'T:f -> T', Tile: 'T:* Tmultiples:i -> T',
  TopKV2: 'sorted T:fi Tk:i index_type:i -> T index_type', Transpose: 'T:* Tperm:i -> T', Unpack: 'num T:* axis -> T', ZerosLike: 'T:* -> T',
};

interface OpDef {
  /** Attr name → the dtypes a type attr allows ('*' any); undefined for other attrs. */
  readonly attrs: ReadonlyMap<string, readonly DType[] | '*' | undefined>;
  readonly outputs: readonly string[];
}

const LETTERS: Record<string, DType> = { f: 'float32', i: 'int32', b: 'bool' };

function parseOpDef(line: string): OpDef {
  const [attrs, outputs] = line.split('->').map((side) => side.trim().split(/\s+/).filter(Boolean));
  const entries = attrs!.map((a): [string, readonly DType[] | '*' | undefined] => {
    const [name, types] = a.split(':');
    return [name!, types === undefined ? undefined : types === '*' ? '*' : [...types].map((l) => LETTERS[l]!)];
  });
  return { attrs: new Map(entries), outputs: outputs! };
}

const DEFS = new Map(Object.entries(TF_OP_DEFS).map(([op, line]) => [op, parseOpDef(line)]));

/** A node the export would write that TensorFlow's op definition refuses: why, in a sentence. */
export class NotTensorFlowsOp extends Error {}

/**
 * The dtypes TensorFlow's `op` gives for a node with these attrs (`count` outputs where its one
 * output is a list, as Unpack's). Throws NotTensorFlowsOp where a type attr has a dtype TensorFlow
 * does not allow; throws Error for an op or attr tf-op-defs.ts lacks (a mapping's bug, not the user's).
 */
export function tensorFlowOutputs(op: string, attr: Readonly<Record<string, AttrValue>>, count: number): DType[] {
  const def = DEFS.get(op);
  if (!def) throw new Error(`The export writes op ${op}, which runtime/trace/tf-op-defs.ts does not define`);
  for (const [name, value] of Object.entries(attr)) {
    if (!def.attrs.has(name)) throw new Error(`The export writes attr ${name} on ${op}, which TensorFlow's ${op} does not define`);
    const allowed = def.attrs.get(name);
    if (allowed === undefined || allowed === '*' || !('type' in value)) continue;
    const d = dtypeOf(value);
    if (!allowed.includes(d)) {
      const which = allowed.length > 0 ? `; of the export's dtypes it takes ${allowed.map(displayName).join(', ')}` : '';
      throw new NotTensorFlowsOp(`TensorFlow's ${op} takes no ${displayName(d)} (its attr ${name}${which})`);
    }
  }
  const outputs = def.outputs.map((o) => (isExportDType(o) ? o : typeAttr(op, attr, o)));
  return outputs.length === 1 && count > 1 ? Array<DType>(count).fill(outputs[0]!) : outputs;
}

const isExportDType = (s: string): s is DType => s === 'float32' || s === 'int32' || s === 'bool';

function typeAttr(op: string, attr: Readonly<Record<string, AttrValue>>, name: string): DType {
  const value = attr[name];
  if (!value || !('type' in value)) throw new Error(`The export writes ${op} without its output's type attr ${name}`);
  return dtypeOf(value);
}

function dtypeOf(value: { readonly type: string }): DType {
  const d = parseDType(value.type);
  if (!d || !isExportDType(d)) throw new Error(`The export writes a ${value.type} type attr`);
  return d;
}
