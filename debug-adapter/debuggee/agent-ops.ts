/**
 * An op stop ("NaN/Inf in any op") as it crosses from the agent to the adapter (and on to the
 * inspector): the birth of NaN/Inf the runtime's op watch found (runtime/op-watch/op-birth.ts
 * `OpBirth`), as JSON, and the node the inspector shows it as. A leaf (the agent's bundle takes
 * it); agent-protocol.ts gives its types with the rest of the contract.
 */
import type { NodeAttrValue } from '../../runtime/graph-model/node-attrs.js';
import type { NodeSnapshot } from './agent-nodes.js';
import type { ValueInfo } from './agent-values.js';

/**
 * The graph an op stop is shown under in the inspector: `nodeInfo(OP_BIRTH_GRAPH, op)` is the
 * paused op as a node, and `tensorData` / `tensorBytes` page its inputs and outputs, as a node's.
 */
export const OP_BIRTH_GRAPH = 'NaN/Inf birth';

/** A line of the program's (1-based line and column, as stacks and editors count). */
export interface ProgramSite {
  file: string;
  line: number;
  column: number;
}

/** A birth the user dismissed for the session: this op anywhere, or anything born at this line. */
export type OpBirthIgnore = { op: string } | { file: string; line: number };

/** The names an op stop's condition sees (the `opNonFinite` filter's condition): `op === 'Log' && layer === 'head'`. */
export const OP_CONDITION_NAMES = ['op', 'layer', 'pass', 'kind', 'cause', 'epoch', 'batch', 'file', 'line', 'inputs', 'outputs', 'attrs'] as const;

export interface OpLayer {
  name: string;
  className: string;
}

export interface OpBirthSnapshot {
  kind: 'NaN' | 'Inf' | 'NaN and Inf';
  /** Made by the op from finite inputs, made from the program's data, or an input already held it (made where the watch did not see). */
  cause: 'op' | 'data' | 'input';
  /** The kernel (`Log`); for 'data', the TF.js function that made the tensor (`tf.tensor2d`). */
  op: string;
  /** The TF.js op the program called, when it ran the kernel among others (`logLoss`). */
  within?: string;
  /** Forward, backward (a gradient kernel), or an optimizer's update of the weights. */
  pass: 'forward' | 'backward' | 'update';
  /** For 'update': the optimizer's class. */
  optimizer?: string;
  /** For a backward kernel: the forward op it differentiates, its layer and the program's line where it ran. */
  gradientOf?: { op: string; layer?: OpLayer; site?: ProgramSite };
  layer?: OpLayer;
  /** `model.fit` / `fitDataset`: the epoch and batch, from 0 as TF.js counts them. */
  fit?: { epoch: number; batch: number };
  /** The model (graph model, tfFunction) whose run ran the op. */
  model?: string;
  /** The program's line that led to the op (the nearest frame of its own files). */
  site?: ProgramSite;
  inputNames: string[];
  inputs: (ValueInfo | null)[];
  outputs: ValueInfo[];
  attrs: Record<string, NodeAttrValue>;
  /** The first non-finite element of the outputs: which output, its flat index and coordinates, and its value in words. */
  first?: { output: number; index: number; coords: number[]; value: string };
  /** How many kernels the watch had checked when it found this one. */
  sequence: number;
  /** The stop in one line: ``first NaN: op `Log` (forward, layer `head`) at train.ts:14:20, input 0 has 3 zeros``. */
  message: string;
  /** The filter's condition threw here (it stops, saying why). */
  conditionError?: string;
}

/** The op as a node of OP_BIRTH_GRAPH: its inputs and outputs, and what the Op scope says as attributes. */
export function opBirthNode(op: OpBirthSnapshot): NodeSnapshot {
  const where = (s: ProgramSite) => `${s.file.split(/[\\/]/).pop()}:${s.line}:${s.column}`;
  const facts: Record<string, NodeAttrValue> = {
    birth: op.message,
    pass:
      op.pass === 'backward' && op.gradientOf ? `backward of ${op.gradientOf.op}` : op.pass === 'update' ? `${op.optimizer ?? 'optimizer'} update` : op.pass,
  };
  if (op.gradientOf?.site) facts['forward at'] = where(op.gradientOf.site);
  if (op.layer) facts.layer = `${op.layer.name} (${op.layer.className})`;
  if (op.fit) facts.fit = `epoch ${op.fit.epoch + 1}, batch ${op.fit.batch + 1}`;
  if (op.model) facts.model = op.model;
  if (op.site) facts.at = where(op.site);
  if (op.first) facts['first non-finite'] = `${op.first.value} at output ${op.first.output}[${op.first.coords.join(', ')}]`;
  return {
    graph: OP_BIRTH_GRAPH,
    node: op.op,
    op: op.op,
    index: op.sequence - 1,
    inputNames: [...op.inputNames],
    attrs: { ...facts, ...op.attrs },
    inputs: [...op.inputs],
    outputs: [...op.outputs],
    live: true,
  };
}
