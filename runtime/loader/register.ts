/**
 * `node --import <this file> program.js`: makes `tfjs-callback-debugger/runtime` importable by a
 * program whose project does not have it installed (ESM through loader hooks, CommonJS through
 * the require resolver), and makes every @tensorflow package this package loads (the runtime's
 * imports, the wasm backend it ships) the program's own copy when its project has one, so that
 * program and runtime share one engine. TFJS_CALLBACKS_PROJECT_DIR names the project (default:
 * the working directory).
 */
import { existsSync } from 'node:fs';
import Module, { createRequire, register } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { READ_LIMITS, readBoundedTextSync } from '../bounded-read.js';
import { nativeRoot } from '../native/cache.js';
import { isNativePackage, nativeRedirect } from '../native/installed.js';
import { isOurs, notInstalledMessage, RUNTIME_SPECIFIERS, SERVING_NATIVE_KEY, type ResolveHookData } from './one-engine.js';

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
  nativeRoot: nativeRoot(),
};

// Once per process: the CLI's program process and the Debug Terminal's bootloader may both preload it.
const LOADED_KEY = Symbol.for('tfjs-callback-debugger.loader.registered');
const alreadyLoaded = !!(globalThis as Record<symbol, unknown>)[LOADED_KEY];
(globalThis as Record<symbol, unknown>)[LOADED_KEY] = true;
if (!alreadyLoaded) {
  register(new URL(`./resolve-hooks${extension}`, import.meta.url), { data });
  patchCommonJsResolution();
}

// CommonJS resolves through Module._resolveFilename, which ESM hooks do not reach in Node 20: the
// runtime's name, the @tensorflow packages this package's CommonJS tfjs builds require, and the
// program's own require of tfjs-node (see nativeFor).
type ResolveFilename = (request: string, parent: { filename?: string | null } | undefined, isMain: boolean, options?: unknown) => string;
function patchCommonJsResolution(): void {
  const moduleInternals = Module as unknown as { _resolveFilename: ResolveFilename; _nodeModulePaths(dir: string): string[] };
  const original = moduleInternals._resolveFilename;
  const projectParent = { filename: path.join(projectDir, 'noop.js'), paths: moduleInternals._nodeModulePaths(projectDir) };
  const packageParent = { filename: path.join(packageDir, 'noop.js'), paths: moduleInternals._nodeModulePaths(packageDir) };
  moduleInternals._resolveFilename = function (request, parent, isMain, options) {
    if (RUNTIME_SPECIFIERS.includes(request)) return runtimeForRequire;
    if (!request.startsWith('@tensorflow/')) return original.call(this, request, parent, isMain, options);
    // (tfjs-node itself is not: setup-native's build requires its own.)
    const fromPackage = !isNativePackage(request) && !!parent?.filename && isOurs(parent.filename, data);
    let resolved: string | undefined;
    try {
      // This package's requires look in the program's project first; the program's own, as usual.
      resolved = original.call(this, request, fromPackage ? projectParent : parent, isMain, options);
    } catch (err) {
      try {
        // Not there: the copy shipped with the runtime, else a message that says what to do.
        resolved = original.call(this, request, fromPackage ? parent : packageParent, isMain, options);
      } catch {
        const served = nativeFor(request, undefined);
        if (served) return served;
        const message = notInstalledMessage(request, projectDir);
        if (!message) throw err;
        throw Object.assign(new Error(message), { code: 'MODULE_NOT_FOUND' });
      }
    }
    return nativeFor(request, resolved) ?? resolved;
  };
}

/**
 * What a require of tfjs-node (or -gpu) gets instead of `resolved`: the copy the runtime loaded for
 * the 'tensorflow' backend, when that is another; else setup-native's build when `resolved` cannot
 * load (native/installed.ts `nativeRedirect`).
 */
function nativeFor(request: string, resolved: string | undefined): string | undefined {
  if (!isNativePackage(request)) return undefined;
  const serving = (globalThis as Record<symbol, unknown>)[SERVING_NATIVE_KEY];
  if (typeof serving === 'string') {
    const main = createRequire(path.join(serving, 'noop.js')).resolve(serving);
    return main === resolved ? undefined : main;
  }
  return nativeRedirect(request, resolved, projectDir);
}

// The debugger's launch: the runtime loads before the program, and the backend is chosen as the
// CLI chooses it (the launch's `backend`, else auto), reported once; the program's own
// selectBackend() then gets the same one.
if (!alreadyLoaded && process.env.TFJS_CALLBACKS_PRELOAD_RUNTIME === '1') {
  const runtime = (await import(data.runtimeEntry)) as typeof import('../index.js');
  runtime.announceBackend(await runtime.selectBackend({ quiet: true }), (line) => process.stdout.write(`${line}\n`));
}

export { runtimeEntryFile };
