/**
 * "NaN/Inf in any op" (the `opNonFinite` exception filter, launch `breakOnOpNonFinite`): the words
 * of its stop. The agent decides the stop where the op runs (debuggee/agent/op-births.ts, through
 * the runtime's op watch); this names it as VS Code shows it: the description is the birth's
 * message as the runtime wrote it, the frame says which op, which pass and which layer.
 */
import path from 'node:path';
import { type LastBreak, OP_CONDITION_NAMES, type OpBirthIgnore, type OpBirthSnapshot } from '../debuggee/agent-protocol.js';
import type { Stop } from '../state/pause-state.js';
import { opFrameName } from '../state/frame-names.js';
import { nonFiniteOutputsText } from '../../runtime/non-finite-text.js';

/** The stop an 'opNonFinite' break makes; undefined for any other. */
export function opBirthStop(why: LastBreak | undefined): { stop: Stop; op: OpBirthSnapshot } | undefined {
  if (why?.reason !== 'opNonFinite' || !why.op) return undefined;
  const op = why.op;
  const description = `NaN/Inf in any op: ${op.message}${op.conditionError ? ` (${op.conditionError}: it stops at every birth until the condition is fixed)` : ''}`;
  // The widget's second line: how many of each, in which of the op's outputs.
  const counts = nonFiniteOutputsText(op.outputs);
  const widget = counts ? `${description}\n${op.cause === 'data' ? `\`${op.op}\`` : `op \`${op.op}\``}: ${counts}` : description;
  return { stop: { reason: 'exception', description, text: opFrameName(op), exception: { id: 'OpNonFinite', description: widget } }, op };
}

/** Why a condition for the filter is refused (it does not compile), or undefined. */
export function checkOpCondition(source: string): string | undefined {
  try {
    new Function(...OP_CONDITION_NAMES, `return !!(\n${source}\n);`);
    return undefined;
  } catch (err) {
    return `The condition \`${source}\` does not compile: ${(err as Error).message}. It sees ${OP_CONDITION_NAMES.join(', ')} (e.g. op === 'Log' && layer === 'head').`;
  }
}

/** "Don't stop here again" at an op stop: `op`, this op anywhere; `line`, whatever is born at its line. */
export function ignoreRule(op: OpBirthSnapshot | undefined, what: unknown): { rule: OpBirthIgnore; words: string } {
  if (!op) throw new Error('ignoreOpBirth: the program is not stopped at a NaN/Inf birth (the "NaN/Inf in any op" filter)');
  if (what === 'op') return { rule: { op: op.op }, words: `no more stops at \`${op.op}\` this session` };
  if (what !== 'line') throw new Error(`ignoreOpBirth needs { what: "op" | "line" }, not ${JSON.stringify(what)}`);
  const at = op.gradientOf?.site ?? op.site;
  if (!at) throw new Error(`ignoreOpBirth: this birth of ${op.op} has no line of the program's to dismiss; dismiss the op instead ({ what: "op" })`);
  return { rule: { file: at.file, line: at.line }, words: `no more stops at ${path.basename(at.file)}:${at.line} this session` };
}
