/**
 * `traced.export(dir, options)`: picks the concrete function to export, builds its graph model
 * (export.ts) and writes it (export-files.ts).
 */
import { buildGraphModel, type ExportedCallback, type ExportSource } from './export.js';
import { writeGraphModel } from './export-files.js';
import type { TensorSpec } from './graph.js';

export interface ExportOptions {
  /** Example arguments: exports the graph traced for their signature, tracing it now if needed (callbacks run). */
  readonly inputs?: readonly unknown[];
  /** An index into `concreteFunctions`. */
  readonly signature?: number;
  /** Replace model.json and the shard of a folder that is not empty. */
  readonly overwrite?: boolean;
}

export interface ExportedModel {
  /** The model.json written: pass it to loadCallbackModel. */
  readonly modelPath: string;
  /** The graph's inputs in the traced argument order (Placeholders): execute's positional inputs. */
  readonly inputs: readonly string[];
  /** Output names (the signature's keys), in the result's order: execute's `outputs` argument. */
  readonly outputs: readonly string[];
  readonly callbacks: readonly ExportedCallback[];
}

interface Pickable {
  readonly key: string;
  readonly underTape: boolean;
  readonly inputs: readonly TensorSpec[];
}

/** The index of the concrete function `options` picks; a clear error when it picks none or the choice is open. */
export function pickConcrete(
  name: string,
  list: () => readonly Pickable[],
  options: ExportOptions,
  keyOf: (inputs: readonly unknown[]) => string,
  traceFor: (inputs: readonly unknown[]) => string,
): number {
  const concretes = list();
  if (options.signature !== undefined) {
    if (!Number.isInteger(options.signature) || options.signature < 0 || options.signature >= concretes.length) {
      throw new RangeError(`tfFunction '${name}': export's signature ${options.signature} is not one of its graphs: ${describeAll(concretes)}.`);
    }
    return options.signature;
  }
  if (options.inputs !== undefined) {
    if (!Array.isArray(options.inputs)) throw new TypeError(`tfFunction '${name}': export's inputs must be the list of arguments of a call.`);
    const find = (key: string) => {
      const all = list();
      // A graph traced without a tape first: that is the one inference runs.
      const plain = all.findIndex((c) => c.key === key && !c.underTape);
      return plain >= 0 ? plain : all.findIndex((c) => c.key === key);
    };
    const known = find(keyOf(options.inputs));
    return known >= 0 ? known : find(traceFor(options.inputs));
  }
  if (concretes.length === 1) return 0;
  if (concretes.length === 0) {
    throw new Error(`tfFunction '${name}' has not been traced yet: call it once, or pass export's inputs (example arguments) to trace the graph to export.`);
  }
  throw new Error(
    `tfFunction '${name}' has ${concretes.length} traced graphs, one per input signature: ${describeAll(concretes)}. ` +
      `Pick one with export's signature (its index) or inputs (example arguments).`,
  );
}

function describeAll(concretes: readonly Pickable[]): string {
  if (concretes.length === 0) return 'none traced yet';
  return concretes
    .map((c, i) => `#${i} (${c.inputs.map((s) => `${s.dtype}[${s.shape}]`).join(', ')})${c.underTape ? ' under a gradient tape' : ''}`)
    .join('; ');
}

export function exportConcrete(source: ExportSource, dir: string, options: ExportOptions): ExportedModel {
  const files = buildGraphModel(source);
  const modelPath = writeGraphModel(dir, files, options.overwrite === true);
  return {
    modelPath,
    inputs: Object.keys(files.modelJson.signature.inputs),
    outputs: Object.keys(files.modelJson.signature.outputs),
    callbacks: files.callbacks,
  };
}
