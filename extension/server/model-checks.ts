/**
 * model.json documents: each callback node (PyFunc, PyFuncStateless, EagerPyFunc; found with the
 * runtime's findCallbackNodes) that the callbacks module does not bind by node name or token is
 * a diagnostic on the node's line, saying how to bind it. Running such a model fails.
 */
import path from 'node:path';
import { DiagnosticSeverity, type Diagnostic } from 'vscode-languageserver';
import { findCallbackNodes, givenName, isBoundBy, type CallbackNode } from '../../runtime/graph-model/callback-nodes.js';
import { isModelJsonPath } from '../../runtime/graph-model/model-path.js';
import type { ModelJson } from '../../runtime/graph-model/model-files.js';
import type { CallbacksModule, Located } from './callbacks-module.js';
import { LineIndex } from './line-index.js';
import { lineRange, textRangeToLsp } from './positions.js';

export const MODEL_SOURCE = 'tfjs-callbacks';

export function isModelJson(uri: string, languageId: string): boolean {
  return (languageId === 'json' || languageId === 'jsonc') && isModelJsonPath(decodeURIComponent(uri.split('?')[0]!));
}

/** The callback nodes of a model.json text; [] when it is not (yet) valid JSON or not a graph model. */
export function callbackNodesOf(text: string): { nodes: CallbackNode[]; error?: string } {
  let json: ModelJson;
  try {
    json = JSON.parse(text) as ModelJson;
  } catch {
    return { nodes: [] }; // the JSON language service reports syntax errors
  }
  if (!json || typeof json !== 'object' || !json.modelTopology || typeof json.modelTopology !== 'object') return { nodes: [] };
  try {
    return { nodes: findCallbackNodes(json, text) };
  } catch (err) {
    return { nodes: [], error: (err as Error).message };
  }
}

export interface ModelCheckContext {
  readonly modelFile: string;
  readonly located: Located;
  /** Read when `located` found a file. */
  readonly module?: CallbacksModule;
  readonly relativeTo: string;
}

export function checkModel(text: string, context: ModelCheckContext): Diagnostic[] {
  const { nodes, error } = callbackNodesOf(text);
  const diagnostics: Diagnostic[] = [];
  // One pass over the text for every node without a location (not a split per node: a 4,000-node model.json took 35 s).
  let lines: LineIndex | undefined;
  const firstLine = () => lineRange(0, (lines ??= new LineIndex(text)));
  if (error) diagnostics.push({ severity: DiagnosticSeverity.Error, range: firstLine(), message: error, source: MODEL_SOURCE, code: 'model-format' });
  if (context.module?.unreadable && nodes.length > 0) {
    // Its exports are unknown: one diagnostic that says why, not a false "no binding" per node.
    diagnostics.push({
      severity: DiagnosticSeverity.Error,
      range: firstLine(),
      message: `The callback nodes' bindings cannot be checked: ${context.module.unreadable}`,
      source: MODEL_SOURCE,
      code: 'callbacks-module-unreadable',
    });
    if (context.module.keys.size === 0) return diagnostics;
  }
  for (const node of nodes) {
    if (context.module && isBoundBy(node, context.module.keys)) continue;
    diagnostics.push({
      severity: context.module ? DiagnosticSeverity.Error : DiagnosticSeverity.Warning,
      range: node.location ? textRangeToLsp(node.location) : firstLine(),
      message: unboundMessage(node, context),
      source: MODEL_SOURCE,
      code: 'unbound-callback',
    });
  }
  return diagnostics;
}

function unboundMessage(node: CallbackNode, context: ModelCheckContext): string {
  const rel = (file: string) => {
    const r = path.relative(context.relativeTo, file);
    return r.startsWith('..') || path.isAbsolute(r) ? file : r;
  };
  const where = node.inFunction ? ` in function ${node.inFunction}` : '';
  const head = `Callback node '${node.node}'${where} (${node.op}, token '${node.token}') has no binding`;
  const receives = node.op === 'EagerPyFunc' ? 'tf.Tensor inputs (py_function)' : 'NdArray inputs (numpy_function)';
  const contract = `It receives ${node.Tin.length} ${receives} [${node.Tin.join(', ')}] and must return Tout [${node.Tout.join(', ')}].`;
  const short = givenName(node);
  // Each key once: an exported anonymous callback's name in TensorFlow is its token.
  const keys = [`'${short}' (its name in TensorFlow)`];
  if (node.node !== short) keys.push(`'${node.node}' (the node name)`);
  if (node.token !== short) keys.push(`'${node.token}' (the token)`);
  const how = `export a function named ${keys.slice(0, -1).join(', ')}${keys.length > 1 ? ' or ' : ''}${keys.at(-1)}, or a default object with one of those keys`;
  const located = context.located;
  if (context.module) return `${head} in ${rel(context.module.file)}: ${how}.\n${contract}`;
  if ('missing' in located && located.via === 'setting') {
    return `${head}: the callbacks module ${rel(located.missing)} (setting tfjsCallbacks.callbacksModule) does not exist. Create it and ${how}.\n${contract}`;
  }
  return (
    `${head}: no callbacks module found. Create callbacks.ts next to model.json (or set tfjsCallbacks.callbacksModule) and ${how}; ` +
    `or bind it in code with loadCallbackModel(path, { callbacks: { ${propertyKey(short)}(…) { … } } }).\n${contract}`
  );
}

/** A key as an object literal writes it: `log1p64`, or `'StatefulPartitionedCall/PyFunc'` quoted. */
function propertyKey(key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? key : `'${key}'`;
}
