/**
 * Which open document starts the language server. VS Code activates the extension for any
 * TypeScript or JavaScript file and in a workspace holding a model.json or a package.json; the server, a process
 * that loads TypeScript, waits for a document it has something to say about: a TS/JS file that
 * imports the runtime, a model.json, or a model's callbacks module (which need not import the
 * runtime); and, in a TF.js project, as the window opens (isTfjsProject). Free of the VS Code API,
 * so it is tested as it is.
 */
import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { READ_LIMITS, readBoundedText } from '../runtime/bounded-read.js';
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

/** Dependencies that make a folder a TF.js project: the server is started for it before any file opens. */
const TFJS_DEPENDENCY = /^(?:@tensorflow\/tfjs(?:-[a-z-]+)?|tfjs-callback-debugger)$/;
const DEPENDENCY_FIELDS = ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies'] as const;
/** How many of a folder's entries are looked at for projects one level down (a monorepo's packages). */
const SUBFOLDER_LIMIT = 200;

/**
 * Whether a workspace folder is a TF.js project: its package.json, or one a level down, depends on
 * TF.js or the runtime. Then the server starts as the window opens, so that the first file opened
 * gets its diagnostics at once (started at the file's open, the server's load competed with VS
 * Code's own TypeScript server starting for the same file: 1.7 s of the 3.2 s to the squiggle).
 * Asynchronous and bounded: it runs in the extension host on whatever a cloned repository holds
 * (a package.json that is a FIFO, a link to /dev/zero, 40 MB), and no answer may stall the host.
 */
export async function isTfjsProject(folder: string): Promise<boolean> {
  if (await dependsOnTfjs(path.join(folder, 'package.json'))) return true;
  let entries: Dirent[];
  try {
    entries = (await readdir(folder, { withFileTypes: true })).slice(0, SUBFOLDER_LIMIT);
  } catch {
    return false;
  }
  const subfolders = entries.filter((e) => e.isDirectory() && !e.name.startsWith('.') && e.name !== 'node_modules');
  for (const e of subfolders) {
    if (await dependsOnTfjs(path.join(folder, e.name, 'package.json'))) return true;
  }
  return false;
}

async function dependsOnTfjs(packageJson: string): Promise<boolean> {
  let manifest: Partial<Record<(typeof DEPENDENCY_FIELDS)[number], unknown>>;
  try {
    manifest = JSON.parse(await readBoundedText(packageJson, { maxBytes: READ_LIMITS.manifest, what: 'package.json' }));
  } catch {
    // None, not a regular file, over the cap, or not JSON: not a project to start the server for
    // (the server's package.json check says what is wrong once the file is opened).
    return false;
  }
  return DEPENDENCY_FIELDS.some((field) => {
    const deps = manifest?.[field];
    return deps !== null && typeof deps === 'object' && Object.keys(deps).some((name) => TFJS_DEPENDENCY.test(name));
  });
}
