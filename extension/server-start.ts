/**
 * Which open document starts the language server. VS Code activates the extension for any
 * TypeScript or JavaScript file and in a workspace holding a model.json; the server, a process
 * that loads TypeScript, waits for a document it has something to say about: a TS/JS file that
 * imports the runtime, a model.json, or a model's callbacks module (which need not import the
 * runtime). Free of the VS Code API, so it is tested as it is.
 */
import path from 'node:path';
import { CALLBACKS_MODULE_NAMES, isModelJsonPath } from '../runtime/graph-model/model-path.js';

/** What the server treats as an import of the runtime (server/wrapper-calls.ts RUNTIME_MODULE, whose module loads TypeScript). */
const RUNTIME_MODULE = 'tfjs-callback-debugger/runtime';

export interface OpenDocument {
  readonly scheme: string;
  readonly languageId: string;
  readonly fileName: string;
  readonly text: string;
}

export interface Surroundings {
  /** The tfjsCallbacks.callbacksModule setting for the document's folder, as an absolute path. */
  readonly callbacksModule?: string;
  /** Whether a folder holds a model.json (or a *.model.json). */
  readonly holdsModel: (folder: string) => boolean;
}

export function needsLanguageServer(doc: OpenDocument, around: Surroundings): boolean {
  if (doc.scheme !== 'file') return false;
  if (doc.languageId === 'json') return isModelJsonPath(doc.fileName);
  if (doc.languageId !== 'typescript' && doc.languageId !== 'javascript') return false;
  if (doc.text.includes(RUNTIME_MODULE)) return true;
  if (around.callbacksModule !== undefined && path.resolve(around.callbacksModule) === path.resolve(doc.fileName)) return true;
  return CALLBACKS_MODULE_NAMES.includes(path.basename(doc.fileName)) && around.holdsModel(path.dirname(doc.fileName));
}
