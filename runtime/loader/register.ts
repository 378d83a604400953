/**
 * `node --import <this file> program.js`: makes `tfjs-callback-debugger/runtime` importable by a
 * program whose project does not have it installed (ESM through loader hooks, CommonJS through
 * the require resolver), and points the runtime at the project's own TensorFlow.js.
 * TFJS_CALLBACKS_PROJECT_DIR names the project (default: the working directory).
 */
import Module, { register } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { RUNTIME_SPECIFIERS, type ResolveHookData } from './resolve-hooks.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const extension = path.extname(fileURLToPath(import.meta.url));
const runtimeEntryFile = path.join(here, '..', `index${extension}`);
const projectDir = process.env.TFJS_CALLBACKS_PROJECT_DIR ?? process.cwd();

const data: ResolveHookData = { runtimeEntry: new URL(`../index${extension}`, import.meta.url).href, projectDir };
register(new URL(`./resolve-hooks${extension}`, import.meta.url), { data });

// CommonJS programs resolve through Module._resolveFilename, which ESM hooks do not reach in Node 20.
type ResolveFilename = (request: string, parent: unknown, isMain: boolean, options?: unknown) => string;
const moduleInternals = Module as unknown as { _resolveFilename: ResolveFilename };
const original = moduleInternals._resolveFilename;
moduleInternals._resolveFilename = function (request, parent, isMain, options) {
  if (RUNTIME_SPECIFIERS.includes(request)) return runtimeEntryFile;
  return original.call(this, request, parent, isMain, options);
};

export { runtimeEntryFile };
