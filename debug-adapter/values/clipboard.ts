/**
 * `evaluate` in the `clipboard` context (VS Code's Copy Value) on a tensor, NdArray or typed
 * array: its values as JSON nested by shape (runtime/tensor-formats.ts, which the inspector's copy
 * buttons use too), read exactly: NaN and ±Infinity as such (JSON writes them null), int64 as
 * bigints. Anything else is copied as the evaluate shows it.
 */
import type { Protocol } from 'devtools-protocol';
import { copyRefusal, formatTensor, MAX_COPY_VALUES, type CopyFormat, type CopyValue } from '../../runtime/tensor-formats.js';
import type { AgentClient } from '../cdp/agent-client.js';

/** The exact values of a tensor-like remote value, or undefined when it is not one. */
export async function exactValues(
  agent: AgentClient,
  objectId: string,
): Promise<{ dtype: string; shape: number[]; values?: CopyValue[]; error?: string } | undefined> {
  const read = await agent
    .callOn(
      objectId,
      function (a, cap) {
        const info = a.info(this);
        if (!info) return undefined;
        const head = { dtype: info.dtype, shape: info.shape };
        if (info.disposed) return { ...head, error: 'the tensor is disposed' };
        if (info.size > cap) return head;
        const own = this as { data?: ArrayLike<unknown> };
        const raw: ArrayLike<unknown> = ArrayBuffer.isView(this)
          ? (this as unknown as ArrayLike<unknown>)
          : info.kind === 'NdArray' && own.data
            ? own.data
            : a.slice(this, 0, info.size);
        let bigints = false;
        // JSON has no NaN, ±Infinity or bigint: they travel as text.
        const values = Array.from(raw, (x) => {
          if (typeof x === 'bigint') {
            bigints = true;
            return String(x);
          }
          if (typeof x === 'number' && !Number.isFinite(x)) return String(x);
          return x as number | string | boolean;
        });
        return { ...head, values, bigints };
      },
      MAX_COPY_VALUES,
    )
    .catch(() => undefined);
  if (!read) return undefined;
  const { bigints, values, ...rest } = read as typeof read & { bigints?: boolean; values?: (number | string | boolean)[] };
  if (!values) return rest;
  return { ...rest, values: bigints ? values.map((v) => (typeof v === 'string' ? BigInt(v) : v)) : values };
}

/** The clipboard text for an evaluated value: a tensor-like as `format`, else undefined (copy it as shown). */
export async function clipboardText(
  value: Protocol.Runtime.RemoteObject,
  agent: AgentClient,
  name: string,
  format: CopyFormat = 'json',
): Promise<string | undefined> {
  if (value.type !== 'object' || !value.objectId) return undefined;
  const read = await exactValues(agent, value.objectId);
  if (!read) return undefined;
  if (read.error) throw new Error(`${name}: ${read.error}`);
  const refused = copyRefusal(format, read.dtype, read.shape, name);
  if (refused) return refused;
  const formatted = formatTensor(format, { dtype: read.dtype, shape: read.shape, values: read.values ?? [] }, name);
  return formatted.ok ? formatted.text : formatted.message;
}
