/**
 * A tensor's values as text people paste elsewhere: JSON (nested arrays), a NumPy literal
 * (`np.array([[1.0, 2.0]], dtype=np.float32)`) and CSV (1-D and 2-D). Pure: no tfjs, no DOM, no
 * Node; the debug adapter (evaluate in the `clipboard` context) and the tensor inspector's copy
 * buttons both format with it.
 *
 * Values are the tensor's, flat and row-major, as the debugger reads them: numbers, bigints
 * (int64), booleans or strings; complex64 interleaves real and imaginary parts. A `null` is a
 * number JSON could not carry (NaN or ±Infinity, as the inspector receives them): NumPy gets
 * `np.nan` and CSV `nan` for it. The strings 'NaN', 'Infinity' and '-Infinity' in a numeric
 * tensor are those numbers (how the adapter sends them exactly).
 *
 * @example
 * formatTensor('numpy', { dtype: 'float32', shape: [1, 2], values: [1, 2] })
 * // { ok: true, text: 'np.array([[1.0, 2.0]], dtype=np.float32)' }
 */

export type CopyFormat = 'json' | 'numpy' | 'csv';
export const COPY_FORMATS: readonly CopyFormat[] = ['json', 'numpy', 'csv'];

/** The most values a copy takes: a larger tensor is refused with a message, never truncated silently. */
export const MAX_COPY_VALUES = 1_000_000;

export type CopyValue = number | bigint | string | boolean | null;

export interface CopySource {
  readonly dtype: string;
  readonly shape: readonly number[];
  /** Every value, row-major (complex64: re, im pairs). */
  readonly values: readonly CopyValue[];
}

export type Formatted = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly message: string };

const LABELS: Record<CopyFormat, string> = { json: 'JSON', numpy: 'NumPy', csv: 'CSV' };

/** NumPy's name for each TensorFlow dtype (bfloat16 has none in NumPy itself). */
const NUMPY_DTYPES: Record<string, string> = {
  float16: 'np.float16',
  float32: 'np.float32',
  float64: 'np.float64',
  int8: 'np.int8',
  int16: 'np.int16',
  int32: 'np.int32',
  int64: 'np.int64',
  uint8: 'np.uint8',
  uint16: 'np.uint16',
  uint32: 'np.uint32',
  uint64: 'np.uint64',
  bool: 'np.bool_',
  complex64: 'np.complex64',
  complex128: 'np.complex128',
  string: 'object',
};

/**
 * Why a tensor of this dtype and shape cannot be copied in `format`, before its values are read;
 * undefined when it can. `name` is how the message calls it.
 */
export function copyRefusal(format: CopyFormat, dtype: string, shape: readonly number[], name = 'the tensor'): string | undefined {
  if (!COPY_FORMATS.includes(format)) return `unknown copy format ${JSON.stringify(format)}: expected one of ${COPY_FORMATS.join(', ')}`;
  const size = shape.reduce((a, b) => a * b, 1);
  if (size > MAX_COPY_VALUES) {
    return `${name} has ${size.toLocaleString('en-US')} values; a copy as ${LABELS[format]} takes at most ${MAX_COPY_VALUES.toLocaleString('en-US')}: copy a slice of it (e.g. ${name === 'the tensor' ? 'x' : name}.slice(...)) instead`;
  }
  if (format === 'csv' && shape.length > 2) {
    return `CSV holds 1-D or 2-D tensors; ${name} is ${shape.length}-D (shape [${shape.join(', ')}]): copy it as JSON or NumPy, or a 2-D slice of it`;
  }
  if (format === 'numpy' && dtype !== '' && !(dtype in NUMPY_DTYPES) && dtype !== 'bfloat16') return `NumPy has no dtype for ${dtype}`;
  return undefined;
}

/** The tensor as text in `format`, or why it cannot be. */
export function formatTensor(format: CopyFormat, source: CopySource, name?: string): Formatted {
  const refused = copyRefusal(format, source.dtype, source.shape, name);
  if (refused) return { ok: false, message: refused };
  const size = source.shape.reduce((a, b) => a * b, 1);
  const complex = source.dtype.startsWith('complex');
  const expected = complex ? size * 2 : size;
  if (source.values.length !== expected) {
    return {
      ok: false,
      message: `${name ?? 'the tensor'} has ${expected} values for shape [${source.shape.join(', ')}], but ${source.values.length} were read`,
    };
  }
  const item = itemWriter(format, source.dtype);
  const items: string[] = new Array(size);
  for (let i = 0; i < size; i++)
    items[i] = complex ? item.complex(source.values[2 * i] ?? null, source.values[2 * i + 1] ?? null) : item.one(source.values[i] ?? null);
  switch (format) {
    case 'json':
      return { ok: true, text: nested(items, source.shape, ',') };
    case 'numpy': {
      // bfloat16 has no NumPy dtype of its own: float32 holds its values exactly.
      const dtype = NUMPY_DTYPES[source.dtype] ?? 'np.float32';
      return { ok: true, text: `np.array(${nested(items, source.shape, ', ')}, dtype=${dtype})` };
    }
    case 'csv':
      return { ok: true, text: csv(items, source.shape) };
  }
}

interface ItemWriter {
  one(v: CopyValue): string;
  complex(re: CopyValue, im: CopyValue): string;
}

function itemWriter(format: CopyFormat, dtype: string): ItemWriter {
  const floating = /^(b?float|complex)/.test(dtype);
  const single = dtype === 'float32' || dtype === 'complex64' || dtype === 'bfloat16' || dtype === 'float16';
  const number = (v: CopyValue): number | undefined => {
    if (typeof v === 'number') return v;
    if (v === 'NaN') return NaN;
    if (v === 'Infinity') return Infinity;
    if (v === '-Infinity') return -Infinity;
    return undefined;
  };
  const numeric = (x: number): string => {
    if (Number.isNaN(x)) return format === 'numpy' ? 'np.nan' : format === 'csv' ? 'nan' : 'null';
    if (!Number.isFinite(x)) {
      if (format === 'json') return 'null';
      const inf = format === 'numpy' ? 'np.inf' : 'inf';
      return x > 0 ? inf : `-${inf}`;
    }
    const text = single ? shortestFloat32(x) : Object.is(x, -0) ? '-0' : String(x);
    // NumPy prints a float as a float: 1.0, not 1 (which would also make an int array).
    if (floating && format !== 'json' && /^-?\d+$/.test(text)) return `${text}.0`;
    return text;
  };
  const one = (v: CopyValue): string => {
    if (v === null) return format === 'json' ? 'null' : format === 'numpy' ? 'np.nan' : 'nan';
    if (typeof v === 'bigint') return v.toString();
    // TF.js keeps bools as 0/1 bytes: they read back as numbers.
    if (dtype === 'bool' && typeof v === 'number') v = v !== 0;
    if (typeof v === 'boolean') return format === 'numpy' ? (v ? 'True' : 'False') : String(v);
    const n = dtype === 'string' ? undefined : number(v);
    if (n !== undefined) return numeric(n);
    const s = String(v);
    if (format === 'json') return JSON.stringify(s);
    if (format === 'numpy') return pythonString(s);
    return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  const complex = (re: CopyValue, im: CopyValue): string => {
    if (format === 'json') return `[${one(re)},${one(im)}]`;
    const r = number(re) ?? NaN;
    const i = number(im) ?? NaN;
    const imag = Number.isFinite(i) ? `${i < 0 || Object.is(i, -0) ? '-' : '+'}${numeric(Math.abs(i))}j` : `+complex(0, ${numeric(i)})`;
    const text = `${numeric(r)}${imag}`;
    return format === 'numpy' ? `(${text})` : text;
  };
  return { one, complex };
}

/** The shortest decimal that reads back as the same float32 (0.1, not 0.10000000149011612). */
export function shortestFloat32(x: number): string {
  if (Object.is(x, -0)) return '-0';
  if (x === 0 || Math.fround(x) !== x) return String(x);
  for (let digits = 1; digits <= 9; digits++) {
    const text = x.toPrecision(digits);
    if (Math.fround(Number(text)) === x) return String(Number(text));
  }
  return String(x);
}

/** Python's repr of a string (single quotes unless the text has one and no double quote). */
function pythonString(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    const code = ch.codePointAt(0)!;
    if (ch === '\\') out += '\\\\';
    else if (ch === quote) out += `\\${quote}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else out += ch;
  }
  return out + quote;
}

/** Items nested by shape: `[[a, b], [c, d]]`; a scalar is its item alone. */
function nested(items: readonly string[], shape: readonly number[], separator: string): string {
  if (shape.length === 0) return items[0] ?? '';
  const strides: number[] = [];
  let s = 1;
  for (let axis = shape.length - 1; axis >= 0; axis--) {
    strides[axis] = s;
    s *= shape[axis]!;
  }
  const build = (axis: number, offset: number): string => {
    const d = shape[axis]!;
    const parts: string[] = new Array(d);
    if (axis === shape.length - 1) for (let i = 0; i < d; i++) parts[i] = items[offset + i]!;
    else for (let i = 0; i < d; i++) parts[i] = build(axis + 1, offset + i * strides[axis]!);
    return `[${parts.join(separator)}]`;
  };
  return build(0, 0);
}

/** CSV: a scalar as one field, a vector one value per line (as `np.savetxt` writes it), a matrix one row per line. */
function csv(items: readonly string[], shape: readonly number[]): string {
  if (shape.length < 2) return `${items.join('\n')}\n`;
  const [rows, cols] = shape as [number, number];
  const lines: string[] = new Array(rows);
  for (let r = 0; r < rows; r++) lines[r] = items.slice(r * cols, (r + 1) * cols).join(',');
  return `${lines.join('\n')}\n`;
}
