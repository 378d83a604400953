/**
 * NdArray: what a numpyFunction callback receives, TF.js's stand-in for numpy's ndarray.
 *
 * `data` is the tensor's flat, row-major storage. On the cpu backend it is the backend's own
 * array (zero-copy); on wasm and tensorflow it is a copy. As TensorFlow's docs say of numpy
 * arrays: they are not guaranteed to be copies, so do not modify them in place or keep them.
 * Its type is the dtype's, as numpy's would be: a float64 input (TF.js holds it as float32) comes
 * as a Float64Array, int64 as a BigInt64Array (a copy, widened from TF.js's storage).
 */
import { DEBUG_DESCRIPTION, describeArrayLike } from './debug-description.js';
import { arrayTypeOf, isBigIntDType, storageOf, type NumericArray, type TfDType } from './dtypes.js';
import { tf, type Tensor } from './tf.js';

export type { NumericArray };
export type NdData = NumericArray | string[];

export class NdArray<D extends NdData = NdData> {
  constructor(
    /** Flat row-major values. */
    readonly data: D,
    readonly shape: readonly number[],
    /** TensorFlow's dtype name. bool data is a Uint8Array of 0/1; complex64 interleaves re, im. */
    readonly dtype: TfDType,
  ) {}

  get size(): number {
    return this.shape.reduce((a, b) => a * b, 1);
  }

  get rank(): number {
    return this.shape.length;
  }

  /** The value at a multi-index (row-major). */
  get(...index: number[]): number | bigint | string {
    if (index.length !== this.shape.length) {
      throw new RangeError(`NdArray.get needs ${this.shape.length} indices for shape [${this.shape}], got ${index.length}`);
    }
    let flat = 0;
    for (let axis = 0; axis < index.length; axis++) {
      const i = index[axis]!;
      const dim = this.shape[axis]!;
      if (i < 0 || i >= dim) throw new RangeError(`index ${i} is out of bounds for axis ${axis} with size ${dim}`);
      flat = flat * dim + i;
    }
    return this.data[flat]!;
  }

  /** Nested JS arrays, like numpy's tolist(). */
  toNested(): unknown {
    const values = Array.from(this.data as ArrayLike<unknown>);
    return nest(values, this.shape, 0, 0).value;
  }

  /**
   * A new array of the same shape with `fn` applied to each value, like a numpy ufunc
   * (`x.map(Math.sinh)` for `np.sinh(x)`). Keeps the dtype unless one is given.
   */
  map(fn: (value: number, index: number) => number, dtype: TfDType = this.dtype): NdArray {
    if (Array.isArray(this.data)) throw new TypeError('NdArray.map applies to numeric arrays, not strings');
    const source = this.data as ArrayLike<number>;
    const Ctor = dtype === this.dtype ? (this.data.constructor as new (n: number) => NumericArray) : arrayTypeOf(dtype);
    if (!Ctor) throw new TypeError('NdArray.map cannot make string arrays');
    const out = new Ctor(source.length) as unknown as { [i: number]: number | bigint };
    const isBig = out instanceof BigInt64Array || out instanceof BigUint64Array;
    for (let i = 0; i < source.length; i++) {
      const v = fn(Number(source[i]), i);
      out[i] = isBig ? BigInt(Math.trunc(v)) : v;
    }
    return new NdArray(out as unknown as NumericArray, [...this.shape], dtype);
  }

  /** A copy that does not share memory with any tensor. */
  copy(): NdArray<D> {
    const data = Array.isArray(this.data) ? [...this.data] : (this.data as NumericArray).slice();
    return new NdArray(data as D, [...this.shape], this.dtype);
  }

  /** `NdArray float32[2,3]`: the one-line preview debuggers (js-debug too) show; reads no data. */
  [DEBUG_DESCRIPTION](): string {
    return describeArrayLike('NdArray', this.dtype, this.shape);
  }
}

function nest(values: unknown[], shape: readonly number[], axis: number, offset: number): { value: unknown; used: number } {
  if (axis === shape.length) return { value: values[offset], used: 1 };
  const out: unknown[] = [];
  let used = 0;
  for (let i = 0; i < shape[axis]!; i++) {
    const child = nest(values, shape, axis + 1, offset + used);
    out.push(child.value);
    used += child.used;
  }
  return { value: out, used };
}

/**
 * The NdArray of a tensor as numpy would hand it for `declared` (the node's Tin): one download,
 * none on cpu when TF.js holds that dtype as is; a float64 input (held as float32) comes as a
 * Float64Array, an int64 one as a BigInt64Array, as numpy arrays of those dtypes would.
 */
export function viewOf(tensor: Tensor, declared: TfDType = tensor.dtype): NdArray {
  let data = tensor.dataSync() as NdData;
  // tfjs-node hands back the very array a tensor was made from until an op has used the tensor:
  // writing to it would change the tensor. A copy, as on wasm (only cpu is zero-copy, see above).
  if (tf.getBackend() === 'tensorflow') data = (Array.isArray(data) ? [...data] : (data as NumericArray).slice()) as NdData;
  // A Tin the tensor is not held as (a float fed to an int64 node) does not apply: TF.js computed
  // with the tensor's own dtype.
  if (declared !== tensor.dtype && storageOf(declared) !== tensor.dtype) declared = tensor.dtype;
  const type = arrayTypeOf(declared);
  if (!type || data instanceof type) return new NdArray(data, tensor.shape, declared);
  const source = data as ArrayLike<number>;
  const widened = isBigIntDType(declared) ? type.from(source, (v) => BigInt(v as number)) : type.from(source, Number);
  return new NdArray(widened, tensor.shape, declared);
}
