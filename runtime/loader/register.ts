/**
 * `node --import <this file> program.js`: makes `tfjs-callback-debugger/runtime` importable by a
 * program whose project does not have it installed (ESM through loader hooks, CommonJS through
 * the require resolver), and makes every @tensorflow package this package loads (the runtime's
 * imports, the wasm backend it ships) the program's own copy when its project has one, so that
 * program and runtime share one engine. TFJS_CALLBACKS_PROJECT_DIR names the project (default:
 * the working directory).
 */
import { existsSync } from 'node:fs';
import Module, { register } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { READ_LIMITS, readBoundedTextSync } from '../bounded-read.js';
import { isInPackage, notInstalledMessage, RUNTIME_SPECIFIERS, type ResolveHookData } from './one-engine.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const extension = path.extname(fileURLToPath(import.meta.url));
const runtimeEntryFile = path.join(here, '..', `index${extension}`);
/** What CommonJS gets for the runtime: the loaded ES module, through a CommonJS file. */
const runtimeForRequire = path.join(here, `runtime-cjs${extension === '.ts' ? '.cts' : '.cjs'}`);
const projectDir = path.resolve(process.env.TFJS_CALLBACKS_PROJECT_DIR ?? process.cwd());

/** This package's root: the folder of its own package.json (the repository, the .vsix or node_modules/<it>). */
function packageRoot(from: string): string {
  for (let dir = from; path.dirname(dir) !== dir; dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (existsSync(manifest) && packageName(manifest) === 'tfjs-callback-debugger') return dir;
  }
  return path.resolve(from, '..');
}
const packageDir = packageRoot(path.join(here, '..'));

/** A package.json's name; undefined for one that is not a bounded, regular JSON file (not ours then). */
function packageName(manifest: string): string | undefined {
  try {
    return (JSON.parse(readBoundedTextSync(manifest, { maxBytes: READ_LIMITS.json, what: 'package.json' })) as { name?: string } | null)?.name;
  } catch {
    return undefined;
  }
}

const data: ResolveHookData = {
  runtimeEntry: new URL(`../index${extension}`, import.meta.url).href,
  runtimeForRequire: pathToFileURL(runtimeForRequire).href,
  runtimeSpecifiers: RUNTIME_SPECIFIERS,
  packageDir,
  projectDir,
};
register(new URL(`./resolve-hooks${extension}`, import.meta.url), { data });

// CommonJS resolves through Module._resolveFilename, which ESM hooks do not reach in Node 20: the
// runtime's name, and the @tensorflow packages this package's CommonJS tfjs builds require.
type ResolveFilename = (request: string, parent: { filename?: string | null } | undefined, isMain: boolean, options?: unknown) => string;
const moduleInternals = Module as unknown as { _resolveFilename: ResolveFilename };
const original = moduleInternals._resolveFilename;
const projectParent = {
  filename: path.join(projectDir, 'noop.js'),
  paths: (Module as unknown as { _nodeModulePaths(dir: string): string[] })._nodeModulePaths(projectDir),
};
const packageParent = {
  filename: path.join(packageDir, 'noop.js'),
  paths: (Module as unknown as { _nodeModulePaths(dir: string): string[] })._nodeModulePaths(packageDir),
};
moduleInternals._resolveFilename = function (request, parent, isMain, options) {
  if (RUNTIME_SPECIFIERS.includes(request)) return runtimeForRequire;
  if (!request.startsWith('@tensorflow/')) return original.call(this, request, parent, isMain, options);
  const fromPackage = !!parent?.filename && isInPackage(parent.filename, packageDir);
  try {
    // This package's requires look in the program's project first; the program's own, as usual.
    return original.call(this, request, fromPackage ? projectParent : parent, isMain, options);
  } catch (err) {
    try {
      // Not there: the copy shipped with the runtime, else a message that says what to do.
      return original.call(this, request, fromPackage ? parent : packageParent, isMain, options);
    } catch {
      const message = notInstalledMessage(request, projectDir);
      if (!message) throw err;
      throw Object.assign(new Error(message), { code: 'MODULE_NOT_FOUND' });
    }
  }
};

// The debugger's launch: the runtime loads before the program, and the backend is chosen as the
// CLI chooses it (the launch's `backend`, else auto), reported once; the program's own
// selectBackend() then gets the same one.
if (process.env.TFJS_CALLBACKS_PRELOAD_RUNTIME === '1') {
  const runtime = (await import(data.runtimeEntry)) as typeof import('../index.js');
  runtime.announceBackend(await runtime.selectBackend({ quiet: true }), (line) => process.stdout.write(`${line}\n`));
}

export { runtimeEntryFile };
