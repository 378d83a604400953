/**
 * A model.json read for the graph view: bounded (runtime/bounded-read.ts), parsed, and turned into
 * the view's graph. Free of the vscode API so tests run it; every failure says which file and why.
 */
import { READ_LIMITS, readBoundedText } from '../runtime/bounded-read.js';
import type { GraphData } from '../media/src/graph-protocol.js';
import { graphFromModelJson } from '../media/src/graph/model.js';

export interface LoadedGraph {
  readonly graph: GraphData;
  /** The file's text, for finding where a node is written (runtime/graph-model/node-locations.ts). */
  readonly text: string;
}

export async function loadGraph(file: string, title: string): Promise<LoadedGraph> {
  const text = await readBoundedText(file, { maxBytes: READ_LIMITS.json, what: 'The model' });
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new Error(`${title} is not valid JSON (${(err as Error).message}): fix the file or re-convert the model.`);
  }
  return { graph: graphFromModelJson(json, title), text };
}
