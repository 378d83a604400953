/**
 * What is wrong with each output against Tout: the runtime's verdict (invocation.toutCheck) laid
 * out per row, its messages as sent, with count mismatches, narrowing and py_function's
 * conversions on the rows they are about. The page judges nothing and words no verdict itself
 * (narrowing, an input's included, by the runtime's rule and words: runtime/tout-verdict.ts): an
 * invocation that returned without a verdict says only that.
 */
import { normalizeDtype } from './format.js';
import type { TensorCallbackEvent } from './protocol.js';
import { inputNarrowing, narrowingText } from '../../runtime/tout-verdict.js';

export type OutputStatus = 'ok' | 'dtype' | 'value' | 'missing' | 'extra' | 'narrowed' | 'converted' | 'pending' | 'threw' | 'unchecked';

export interface OutputCheck {
  readonly status: OutputStatus;
  /** The declared dtype (Tout[i]), when there is one. */
  readonly declared?: string;
  readonly messages: readonly string[];
  /** e.g. "float64 in TensorFlow, held as float32 in TF.js". */
  readonly narrowing?: string;
  /** py_function converted the returned value to Tout's dtype (TensorFlow does it silently). */
  readonly conversion?: string;
}

export interface ToutReport {
  readonly outputs: readonly OutputCheck[];
  /** Messages not about one output (the count of values returned, …). */
  readonly general: readonly string[];
  readonly countMismatch: boolean;
}

export function checkOutputs(event: TensorCallbackEvent): ToutReport {
  const inv = event.invocation;
  const check = inv.toutCheck;
  const returned = inv.phase === 'returned' && !inv.error;
  const rows = Math.max(event.outputs.length, returned ? inv.Tout.length : 0);
  const byIndex = new Map<number, string[]>();
  const problems = new Map<number, string>();
  const general: string[] = [];
  let countMismatch = false;
  for (const m of check?.mismatches ?? []) {
    if (m.index === undefined || m.problem === 'count') {
      general.push(m.message);
      if (m.problem === 'count') countMismatch = true;
      continue;
    }
    byIndex.set(m.index, [...(byIndex.get(m.index) ?? []), m.message]);
    problems.set(m.index, m.problem);
  }
  const narrowed = new Map((check?.narrowed ?? []).map((n) => [n.index, narrowingText(n.declared, n.storedAs)]));
  const converted = new Map((check?.conversions ?? []).map((c) => [c.index, c.message]));
  const outputs: OutputCheck[] = [];
  for (let i = 0; i < rows; i++) {
    const declared = inv.Tout[i];
    const messages = byIndex.get(i) ?? [];
    let status: OutputStatus = 'ok';
    if (inv.error) status = 'threw';
    else if (!returned) status = 'pending';
    else if (messages.length > 0) status = problems.get(i) === 'dtype' ? 'dtype' : 'value';
    else if (declared === undefined) status = 'extra';
    else if (i >= event.outputs.length) status = 'missing';
    else if (!check) status = 'unchecked';
    else if (converted.has(i)) status = 'converted';
    else if (narrowed.has(i)) status = 'narrowed';
    outputs.push({ status, declared, messages, narrowing: narrowed.get(i), conversion: converted.get(i) });
  }
  return { outputs, general, countMismatch };
}

export const STATUS_TEXT: Readonly<Record<OutputStatus, string>> = {
  ok: '✓ matches Tout',
  dtype: '✗ dtype mismatch',
  value: '✗ not a tensor value',
  missing: '✗ missing (count mismatch)',
  extra: '✗ not in Tout (count mismatch)',
  narrowed: '⚠ narrowed',
  converted: '⚠ converted to Tout',
  pending: '… not returned yet',
  threw: '✗ the callback threw',
  unchecked: '— no Tout verdict sent',
};

/** Each input's declared dtype (Tin) and, when TF.js holds it narrower, how. */
export function checkInputs(event: TensorCallbackEvent): { readonly declared?: string; readonly narrowing?: string }[] {
  const Tin = event.invocation.Tin ?? [];
  return event.inputs.map((info, i) => {
    const declared = Tin[i];
    const narrowing = inputNarrowing(declared, info ? normalizeDtype(info.dtype) : undefined);
    return declared === undefined ? {} : narrowing ? { declared, narrowing } : { declared };
  });
}
