/**
 * The Op scope of a stop at the birth of NaN/Inf ("NaN/Inf in any op"): the op's inputs and
 * outputs as tensors (expanding through the agent, as a node's do), the first non-finite element,
 * the pass (forward, or the backward of which forward op and where it ran), the layer, the fit's
 * epoch and batch, and the kernel's attributes. Evaluations on the op frame see `inputs`,
 * `outputs`, `attrs` and `op` (node-scope.ts binds them, as for a node).
 */
import path from 'node:path';
import type { DebugProtocol } from '@vscode/debugprotocol';
import type { OpBirthSnapshot, ProgramSite } from '../debuggee/agent-protocol.js';
import { attrsRow, describePausedValues, pausedTensorRow } from './invocation-variables.js';
import { text, type VariableContext } from './variable-refs.js';

const siteText = (s: ProgramSite) => `${path.basename(s.file)}:${s.line}:${s.column}`;

export async function opVariables(c: VariableContext, op: OpBirthSnapshot): Promise<DebugProtocol.Variable[]> {
  const described = await describePausedValues(c);
  const out: DebugProtocol.Variable[] = [];
  op.inputNames.forEach((name, i) => out.push(pausedTensorRow(c, 'inputs', i, `${name} (input ${i})`, op.inputs[i], described.inputs[i])));
  op.outputs.forEach((info, i) => out.push(pausedTensorRow(c, 'outputs', i, `output ${i}`, info, described.outputs[i])));
  if (op.first) {
    const { output, coords, index, value } = op.first;
    out.push(text('first non-finite', `${value} at output ${output}[${coords.join(', ')}] (element ${index})`));
  }
  out.push(text('op', op.op, 'op'));
  if (op.within) out.push(text('within', op.within));
  const pass =
    op.pass === 'update'
      ? `optimizer update (${op.optimizer ?? 'optimizer'})`
      : op.pass === 'backward' && op.gradientOf
        ? `backward of ${op.gradientOf.op}${op.gradientOf.site ? ` (forward at ${siteText(op.gradientOf.site)})` : ''}`
        : op.pass;
  out.push(text('pass', op.cause === 'data' ? 'data (made from the program’s values)' : pass));
  if (op.layer) out.push(text('layer', `${op.layer.name} (${op.layer.className})`));
  if (op.fit) out.push(text('fit', `epoch ${op.fit.epoch + 1}, batch ${op.fit.batch + 1}`));
  if (op.model) out.push(text('model', op.model));
  if (op.site) out.push(text('at', siteText(op.site)));
  const attrs = attrsRow(c, op.attrs);
  if (attrs) out.push(attrs);
  out.push(text('kernels checked', `${op.sequence}`));
  return out;
}
