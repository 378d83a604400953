/**
 * Tensors and values as TensorFlow's Python prints them in its messages (`<tf.Tensor: shape=(2,),
 * dtype=float32, numpy=array([1.5, 2. ], dtype=float32)>`), on one line and with at most a few
 * values, so our errors read like the TensorFlow ones porters search for.
 */
import { tf, type Tensor } from './tf.js';

const MAX_VALUES = 6;

/** `<tf.Tensor: …>`, or `<tf.Variable 'name:0' …>` for a variable, as TensorFlow's repr. */
export function tensorRepr(tensor: Tensor): string {
  const shape = shapeTuple(tensor.shape);
  const numpy = numpyRepr(tensor);
  if (tensor instanceof tf.Variable) {
    const name = tensor.name.includes(':') ? tensor.name : `${tensor.name}:0`;
    return `<tf.Variable '${name}' shape=${shape} dtype=${tensor.dtype}, numpy=${numpy}>`;
  }
  return `<tf.Tensor: shape=${shape}, dtype=${tensor.dtype}, numpy=${numpy}>`;
}

/** A plain JS value in a message: `1.5`, `'abc'`, `[1, 2]`. */
export function literalRepr(value: unknown): string {
  if (typeof value === 'string') return `'${value}'`;
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (Array.isArray(value)) {
    const items = value.slice(0, MAX_VALUES).map(literalRepr);
    return `[${items.join(', ')}${value.length > MAX_VALUES ? ', ...' : ''}]`;
  }
  return String(value);
}

function shapeTuple(shape: readonly number[]): string {
  return shape.length === 1 ? `(${shape[0]},)` : `(${shape.join(', ')})`;
}

/** numpy's repr of the tensor's values: `3`, `0.0`, `array([1, 2], dtype=int32)`. */
function numpyRepr(tensor: Tensor): string {
  if (tensor.isDisposed) return '<disposed>';
  const count = Math.min(tensor.size, MAX_VALUES);
  const values = Array.from(tf.tidy(() => (tensor.size <= MAX_VALUES ? tensor : tensor.reshape([-1]).slice(0, count)).dataSync()) as ArrayLike<unknown>);
  const isFloat = tensor.dtype === 'float32';
  if (tensor.rank === 0) return isFloat ? pyFloat(values[0] as number, true) : scalarText(values[0], tensor.dtype);
  const items = values.map((v) => (isFloat ? pyFloat(v as number, false) : scalarText(v, tensor.dtype)));
  const more = tensor.size > MAX_VALUES ? ', ...' : '';
  const dtype = tensor.dtype === 'string' ? 'object' : tensor.dtype;
  return `array(${'['.repeat(tensor.rank)}${items.join(', ')}${more}${']'.repeat(tensor.rank)}, dtype=${dtype})`;
}

function scalarText(v: unknown, dtype: string): string {
  if (dtype === 'string') return `b'${String(v)}'`;
  if (dtype === 'bool') return v ? 'True' : 'False';
  return String(v);
}

/** A float32 value as numpy prints it: shortest digits that read back the same, `2.` / `0.0`. */
function pyFloat(v: number, scalar: boolean): string {
  if (!Number.isFinite(v)) return Number.isNaN(v) ? 'nan' : v > 0 ? 'inf' : '-inf';
  let text = String(v);
  for (let digits = 1; digits <= 9; digits++) {
    const candidate = Number(v.toPrecision(digits));
    if (Math.fround(candidate) === v) {
      text = String(candidate);
      break;
    }
  }
  if (!/[.e]/.test(text)) text += scalar ? '.0' : '.';
  return text;
}
