/**
 * An op stop ("NaN/Inf in any op") as it crosses from the agent to the adapter (and on to the
 * inspector): the birth of NaN/Inf the runtime's op watch found (runtime/op-watch/op-birth.ts
 * `OpBirth`), as JSON. Types only; agent-protocol.ts gives them with the rest of the contract.
 */
import type { NodeAttrValue } from '../../runtime/graph-model/node-attrs.js';
import type { ValueInfo } from './agent-values.js';

/** A line of the program's (1-based line and column, as stacks and editors count). */
export interface ProgramSite {
  file: string;
  line: number;
  column: number;
}

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
}
