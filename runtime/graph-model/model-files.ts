/**
 * Reads a TF.js graph model (model.json + weight files) from disk with fs: loadGraphModel's
 * file:// loader needs tfjs-node, which is optional here.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ModelFormatError } from '../errors.js';
import { tf } from '../tf.js';

export interface ModelJson {
  format?: string;
  modelTopology?: { node?: GraphDefNode[]; library?: { function?: { signature?: { name?: string }; nodeDef?: GraphDefNode[] }[] }; versions?: unknown };
  weightsManifest?: { paths: string[]; weights: unknown[] }[];
  [key: string]: unknown;
}

export interface GraphDefNode {
  name: string;
  op: string;
  input?: string[];
  attr?: Record<string, RawAttr>;
}

export interface RawAttr {
  s?: string;
  b?: boolean;
  i?: string | number;
  type?: string | number;
  list?: { type?: (string | number)[]; s?: string[] };
  [key: string]: unknown;
}

export interface ModelFiles {
  readonly path: string;
  readonly json: ModelJson;
  /** model.json as written, to find nodes' lines for call sites. */
  readonly text: string;
  readonly artifacts: tf.io.ModelArtifacts;
}

export async function readModelFiles(modelJsonPath: string): Promise<ModelFiles> {
  const file = path.resolve(modelJsonPath);
  const text = await readText(file, 'model file');
  let json: ModelJson;
  try {
    json = JSON.parse(text) as ModelJson;
  } catch (err) {
    throw new ModelFormatError(`${file} is not valid JSON (${(err as Error).message}). Point to the model.json written by tensorflowjs_converter.`);
  }
  if (json === null || typeof json !== 'object' || !json.modelTopology || typeof json.modelTopology !== 'object') {
    throw new ModelFormatError(`${file} has no modelTopology: it is not a TF.js model. Convert the SavedModel with tensorflowjs_converter --output_format=tfjs_graph_model.`);
  }
  if (json.format === 'layers-model' || !Array.isArray(json.modelTopology.node)) {
    throw new ModelFormatError(`${file} is not a graph model (format ${JSON.stringify(json.format ?? 'unknown')}, no modelTopology.node list). Callback nodes live in graph models: convert with --output_format=tfjs_graph_model.`);
  }
  // tfjs requires versions; hand-written and some older converted models lack it.
  json.modelTopology.versions ??= {};
  const dir = path.dirname(file);
  const artifacts = await tf.io.getModelArtifactsForJSON(json as unknown as tf.io.ModelJSON, async (manifest) => {
    const buffers: Buffer[] = [];
    for (const group of manifest) {
      for (const weightPath of group.paths) buffers.push(await readWeights(path.join(dir, weightPath), file));
    }
    const joined = Buffer.concat(buffers);
    return [allWeightSpecs(manifest), joined.buffer.slice(joined.byteOffset, joined.byteOffset + joined.byteLength)];
  });
  return { path: file, json, text, artifacts };
}

function allWeightSpecs(manifest: tf.io.WeightsManifestConfig): tf.io.WeightsManifestEntry[] {
  return manifest.flatMap((group) => group.weights);
}

async function readText(file: string, what: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    throw new ModelFormatError(`Cannot read ${what} ${file}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message}.`);
  }
}

async function readWeights(file: string, modelFile: string): Promise<Buffer> {
  try {
    return await readFile(file);
  } catch (err) {
    const why = (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'is missing' : `cannot be read (${(err as Error).message})`;
    throw new ModelFormatError(`Weight file ${file}, listed in ${modelFile}'s weightsManifest, ${why}. Keep the .bin files next to model.json.`);
  }
}
