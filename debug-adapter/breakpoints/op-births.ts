/**
 * "NaN/Inf in any op" (the `opNonFinite` exception filter, launch `breakOnOpNonFinite`): the words
 * of its stop. The agent decides the stop where the op runs (debuggee/agent/op-births.ts, through
 * the runtime's op watch); this names it as VS Code shows it: the description is the birth's
 * message as the runtime wrote it, the frame says which op, which pass and which layer.
 */
import type { LastBreak, OpBirthSnapshot } from '../debuggee/agent-protocol.js';
import type { Stop } from '../pauses/pause-state.js';

/** The op frame's name: `Log (forward, layer head)`, `RealDiv (backward of Sqrt, layer sqrt_1)`, `tf.tensor2d (data)`. */
export function opFrameName(op: OpBirthSnapshot): string {
  if (op.cause === 'data') return `${op.op} (data)`;
  const parts = [
    op.pass === 'backward' && op.gradientOf ? `backward of ${op.gradientOf.op}` : op.pass === 'update' ? `${op.optimizer ?? 'optimizer'} update` : op.pass,
  ];
  if (op.layer) parts.push(`layer ${op.layer.name}`);
  return `${op.op} (${parts.join(', ')})`;
}

/** The stop an 'opNonFinite' break makes; undefined for any other. */
export function opBirthStop(why: LastBreak | undefined): { stop: Stop; op: OpBirthSnapshot } | undefined {
  if (why?.reason !== 'opNonFinite' || !why.op) return undefined;
  const op = why.op;
  const description = `NaN/Inf in any op: ${op.message}`;
  return { stop: { reason: 'exception', description, text: opFrameName(op), exception: { id: 'OpNonFinite', description } }, op };
}
