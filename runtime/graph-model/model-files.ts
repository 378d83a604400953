/**
 * Reads a TF.js graph model (model.json + weight files) from disk with fs: loadGraphModel's
 * file:// loader needs tfjs-node, which is optional here. Every read is bounded
 * (runtime/bounded-read.ts), model.json's fields are checked before TF.js reads them, and weights
 * come from the model's folder only (weight-files.ts).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { FileReadError, READ_LIMITS, readBoundedText } from '../bounded-read.js';
import { ModelFormatError } from '../errors.js';
import type { tf } from '../tf.js';
import { describeCycle, findCycle } from './graph-cycles.js';
import { checkModelJson, ModelFieldError } from './model-json-check.js';
import type { ModelJson } from './model-json.js';
import { readWeightShards } from './weight-files.js';

/** For readers of a model outside graph-model/ (the editor's model checks). */
export type { ModelJson } from './model-json.js';

export interface ModelFiles {
  readonly path: string;
  readonly json: ModelJson;
  /** model.json as written, to find nodes' lines for call sites. */
  readonly text: string;
  readonly artifacts: tf.io.ModelArtifacts;
}

export async function readModelFiles(modelJsonPath: string): Promise<ModelFiles> {
  const file = path.resolve(modelJsonPath);
  const text = await readModelText(file);
  let json: ModelJson;
  try {
    json = JSON.parse(text) as ModelJson;
  } catch (err) {
    throw new ModelFormatError(`${file} is not valid JSON (${(err as Error).message}). Point to the model.json written by tensorflowjs_converter.`);
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json) || !json.modelTopology || typeof json.modelTopology !== 'object') {
    throw new ModelFormatError(
      `${file} has no modelTopology: it is not a TF.js model. Convert the SavedModel with tensorflowjs_converter --output_format=tfjs_graph_model.`,
    );
  }
  if (json.format === 'layers-model' || (json.modelTopology.node === undefined && json.format !== 'graph-model')) {
    throw new ModelFormatError(
      `${file} is not a graph model (format ${JSON.stringify(json.format ?? 'unknown')}, no modelTopology.node list). Callback nodes live in graph models: convert with --output_format=tfjs_graph_model.`,
    );
  }
  checkFields(json, file);
  checkAcyclic(json, file);
  // tfjs requires versions; hand-written and some older converted models lack it.
  json.modelTopology.versions ??= {};
  return { path: file, json, text, artifacts: await modelArtifacts(json as unknown as tf.io.ModelJSON, file) };
}

/**
 * model.json and its weights as the ModelArtifacts a GraphModel loads: what
 * tf.io.getModelArtifactsForJSON builds, written out because TF.js before 3.8 lacks it.
 */
async function modelArtifacts(json: tf.io.ModelJSON, file: string): Promise<tf.io.ModelArtifacts> {
  const artifacts: tf.io.ModelArtifacts = {
    modelTopology: json.modelTopology,
    format: json.format,
    generatedBy: json.generatedBy,
    convertedBy: json.convertedBy,
  };
  for (const key of ['trainingConfig', 'signature', 'userDefinedMetadata', 'modelInitializer', 'initializerSignature'] as const) {
    if (json[key] != null) Object.assign(artifacts, { [key]: json[key] });
  }
  if (json.weightsManifest != null) {
    const joined = await readWeightShards(json.weightsManifest, file);
    artifacts.weightSpecs = allWeightSpecs(json.weightsManifest);
    artifacts.weightData = joined.buffer.slice(joined.byteOffset, joined.byteOffset + joined.byteLength) as ArrayBuffer;
  }
  return artifacts;
}

function checkFields(json: ModelJson, file: string): void {
  try {
    checkModelJson(json);
  } catch (err) {
    if (!(err instanceof ModelFieldError)) throw err;
    throw new ModelFormatError(`${file}: ${err.message}. It is not a model.json as tensorflowjs_converter writes it: re-convert the model, or fix that field.`);
  }
}

/** The main graph and each library function must be acyclic but for while loops' NextIteration edges. */
function checkAcyclic(json: ModelJson, file: string): void {
  const graphs = [
    { where: 'modelTopology.node', nodes: json.modelTopology?.node ?? [] },
    ...(json.modelTopology?.library?.function ?? []).map((fn) => ({ where: `library function '${fn.signature?.name}'`, nodes: fn.nodeDef ?? [] })),
  ];
  for (const { where, nodes } of graphs) {
    const cycle = findCycle(nodes);
    if (!cycle) continue;
    throw new ModelFormatError(
      `${file}: the nodes of ${where} form a cycle: ${describeCycle(cycle)}. A TensorFlow graph is acyclic except for a while loop's NextIteration → Merge edge; ` +
        `TF.js would skip the nodes on it. Check each node's "input" list (re-convert the model if it was edited).`,
    );
  }
}

function allWeightSpecs(manifest: tf.io.WeightsManifestConfig): tf.io.WeightsManifestEntry[] {
  return manifest.flatMap((group) => group.weights);
}

async function readModelText(file: string): Promise<string> {
  try {
    return await readBoundedText(file, { maxBytes: READ_LIMITS.json, what: 'Model file' });
  } catch (err) {
    if (!(err instanceof FileReadError)) throw err;
    if (err.reason === 'unreadable' && !existsSync(file)) throw new ModelFormatError(`Cannot read model file ${file}: no such file.`);
    throw new ModelFormatError(`Cannot read model file: ${err.message}`);
  }
}

/** Every node of a model.json (its graph's and its library functions'), by name and op. */
export function modelNodes(json: ModelJson): { name: string; op: string }[] {
  const topology = json.modelTopology;
  const lists = [topology?.node ?? [], ...(topology?.library?.function ?? []).map((f) => f.nodeDef ?? [])];
  return lists
    .flatMap((list) => (Array.isArray(list) ? list : []))
    .flatMap((n) => (typeof n?.name === 'string' ? [{ name: n.name, op: String(n.op ?? '') }] : []));
}
