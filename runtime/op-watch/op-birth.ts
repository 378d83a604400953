/**
 * A birth: the first non-finite value of a chain, where it entered TF.js. A kernel made NaN or
 * ±Inf from finite inputs ('op'), a tensor was made from the program's data that held them
 * ('data'), or a kernel's input already held them and the watch never saw it made ('input': made
 * before the watch began, or by code the watch does not see). What it says is built here, once:
 * the debugger's stop, the CLI's line and the trace all use `message`.
 *
 *   first NaN: op `Log` (forward, layer `custom_loss`) at train.ts:14:20, input 0 has 3 zeros
 */
import { formatCallSite } from '../callsite.js';
import { inputFacts, type NonFiniteKind, nonFiniteKind } from '../non-finite-facts.js';
import { summarizeTensor, type TensorSummary } from '../summary.js';
import type { Tensor } from '../tf.js';
import { firstNonFinite } from './finite-check.js';
import type { FirstNonFinite, OpBirth } from '../hook-types.js';

export type { FirstNonFinite, FitStep, GradientOf, LayerRef, OpBirth } from '../hook-types.js';
export type { NonFiniteKind } from '../non-finite-facts.js';

/** What the watch knows when it finds a birth; the rest is read from the tensors here. */
export type BirthFacts = Omit<OpBirth, 'kind' | 'message' | 'first'> & { readonly badInput?: number };

const FLOAT = /^(float|complex)/;

function summaryOf(t: Tensor | undefined): TensorSummary | undefined {
  return t && !t.isDisposed && FLOAT.test(t.dtype) ? summarizeTensor(t) : undefined;
}

export function describeBirth(facts: BirthFacts): OpBirth {
  const { badInput, ...rest } = facts;
  const checked = facts.cause === 'input' && badInput !== undefined ? [facts.inputs[badInput]] : facts.outputs;
  const kind = nonFiniteKind(checked.map(summaryOf)) ?? 'NaN';
  const first = firstPosition(facts.cause === 'input' ? [] : facts.outputs);
  return { ...rest, kind, ...(first ? { first } : {}), message: birthMessage({ ...facts, kind }) };
}

function firstPosition(outputs: readonly Tensor[]): FirstNonFinite | undefined {
  for (const [output, t] of outputs.entries()) {
    if (t.isDisposed || t.dtype !== 'float32') continue;
    const values = t.dataSync() as ArrayLike<number>;
    const index = firstNonFinite(values);
    if (index < 0) continue;
    const coords: number[] = [];
    let rest = index;
    for (let d = t.shape.length - 1; d >= 0; d--) {
      coords.unshift(rest % t.shape[d]!);
      rest = Math.floor(rest / t.shape[d]!);
    }
    return { output, index, coords, value: Number(values[index]) };
  }
  return undefined;
}

/** Where, in words: `(forward, layer `dense_1`, epoch 2 batch 5)`. */
function context(b: Pick<OpBirth, 'pass' | 'gradientOf' | 'optimizer' | 'layer' | 'fit' | 'within' | 'model'>): string {
  const parts: string[] = [];
  if (b.pass === 'backward' && b.gradientOf) {
    const at = b.gradientOf.site ? ` at ${formatCallSite(b.gradientOf.site)}` : '';
    parts.push(`backward of \`${b.gradientOf.op}\`${at}`);
  } else if (b.pass === 'update') parts.push(`optimizer update${b.optimizer ? ` (${b.optimizer})` : ''}`);
  else parts.push(b.pass);
  if (b.within) parts.push(`in \`${b.within}\``);
  if (b.model) parts.push(`model \`${b.model}\``);
  if (b.layer) parts.push(`layer \`${b.layer.name}\``);
  if (b.fit) parts.push(`epoch ${b.fit.epoch + 1} batch ${b.fit.batch + 1}`);
  return parts.join(', ');
}

function birthMessage(b: BirthFacts & { kind: NonFiniteKind }): string {
  const at = b.site ? ` at ${formatCallSite(b.site)}` : '';
  if (b.cause === 'data') {
    const counts = summaryOf(b.outputs[0]);
    const held = counts ? `${counts.nanCount} NaN, ${counts.infCount} Inf of ${counts.size}` : b.kind;
    return `first ${b.kind}: \`${b.op}\` made a tensor from the program's data that held ${held}${at}`;
  }
  if (b.cause === 'input') {
    const name = b.badInput !== undefined ? (b.inputNames[b.badInput] ?? String(b.badInput)) : '?';
    return `first ${b.kind}: input \`${name}\` of op \`${b.op}\` (${context(b)}) already held ${b.kind}, made where the watch did not see${at}`;
  }
  const facts = b.inputs.map((t, i) => inputFacts(summaryOf(t), i)).filter((f) => f !== '');
  return `first ${b.kind}: op \`${b.op}\` (${context(b)})${at}${facts.length ? `, ${facts.join(', ')}` : b.inputs.length ? ', from finite inputs' : ''}`;
}
