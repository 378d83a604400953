/**
 * "Copy as JSON": the selected tensor's values (the whole tensor, or its first COPY_CAP values),
 * nested by shape when complete, as text for the panel to put on the clipboard.
 */
import { copyRefusal, formatTensor } from '../../runtime/tensor-formats.js';
import type { Value } from './format.js';
import { MAX_REQUEST, type TensorData, type TensorSource } from './tensor-data.js';

export const COPY_CAP = 1_000_000;
const CHUNK = Math.min(MAX_REQUEST, 250_000);

export interface CopyResult {
  readonly text: string;
  readonly count: number;
  readonly truncated: boolean;
}

export async function tensorAsJson(data: TensorData, source: TensorSource, name: string): Promise<CopyResult> {
  const { info } = source;
  const total = Math.min(info.size, COPY_CAP);
  const parts: Promise<readonly Value[]>[] = [];
  for (let start = 0; start < total; start += CHUNK) parts.push(data.range(source, start, Math.min(CHUNK, total - start)));
  const flat = (await Promise.all(parts)).flat();
  const truncated = flat.length < info.size;
  const values = truncated ? flat : nest(flat, info.shape);
  const body = {
    name,
    kind: info.kind,
    dtype: info.dtype,
    shape: info.shape,
    size: info.size,
    ...(truncated ? { truncated: true, count: flat.length, note: `first ${flat.length} of ${info.size} values, row-major` } : {}),
    values,
  };
  // NaN and ±Infinity have no JSON form: JSON.stringify writes them null.
  return { text: JSON.stringify(body), count: flat.length, truncated };
}

/** Flat row-major values as nested arrays of the given shape. */
export function nest(flat: readonly Value[], shape: readonly number[]): unknown {
  if (shape.length === 0) return flat[0] ?? null;
  const st: number[] = [];
  let s = 1;
  for (let i = shape.length - 1; i >= 0; i--) {
    st[i] = s;
    s *= shape[i]!;
  }
  const build = (axis: number, offset: number): unknown[] => {
    const d = shape[axis]!;
    if (axis === shape.length - 1) return flat.slice(offset, offset + d) as unknown[];
    const out = new Array<unknown>(d);
    for (let i = 0; i < d; i++) out[i] = build(axis + 1, offset + i * st[axis]!);
    return out;
  };
  return build(0, 0);
}

/**
 * "Copy as NumPy" / "Copy as CSV": the whole tensor as a NumPy literal or CSV (runtime/tensor-formats.ts,
 * as the adapter's Copy Value formats), or why not (over MAX_COPY_VALUES, CSV of more than 2-D), said
 * before any value is fetched. NaN and ±Infinity arrive as themselves (tensor-data.ts): np.nan, np.inf, -np.inf.
 */
export async function tensorAsText(data: TensorData, source: TensorSource, name: string, format: 'numpy' | 'csv'): Promise<CopyResult> {
  const { info } = source;
  const refused = copyRefusal(format, info.dtype, info.shape, name);
  if (refused) throw new Error(refused);
  const total = info.size;
  const parts: Promise<readonly Value[]>[] = [];
  for (let start = 0; start < total; start += CHUNK) parts.push(data.range(source, start, Math.min(CHUNK, total - start)));
  const values = (await Promise.all(parts)).flat();
  const formatted = formatTensor(format, { dtype: info.dtype, shape: info.shape, values }, name);
  if (!formatted.ok) throw new Error(formatted.message);
  return { text: formatted.text, count: info.size, truncated: false };
}
