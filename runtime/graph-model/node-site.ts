/**
 * Where a node of a loaded model sits in its model.json, for a debugger's graph frame at a node
 * stop. Models register their text when they load; it is scanned only when a stop asks.
 */
import type { NodeSite } from '../hook-types.js';
import { shared } from '../hooks.js';
import { locateNodes, type NodeLocations } from './node-locations.js';

export type { NodeSite } from '../hook-types.js';

/** How many models' texts are kept (the latest loaded). */
const KEPT = 20;

const models = new Map<string, { text: string; locations?: NodeLocations }>();

/** A model was loaded from `modelPath`: its nodes can be located later. */
export function rememberModelText(modelPath: string, text: string): void {
  models.delete(modelPath);
  models.set(modelPath, { text });
  if (models.size > KEPT) models.delete(models.keys().next().value!);
}

/** The node's `"name"` value in the model.json, or undefined (not a loaded model, or not in its main graph). */
export function nodeSite(modelPath: string, node: string): NodeSite | undefined {
  const model = models.get(modelPath);
  if (!model) return undefined;
  model.locations ??= locateNodes(model.text);
  const at = model.locations.find(node);
  return at ? { file: modelPath, ...at } : undefined;
}

// A debugger's agent (which has no import of the runtime) locates nodes through this.
if (shared.tools) shared.tools.nodeSite = nodeSite;
