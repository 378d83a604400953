/**
 * CommonJS resolution for one engine. Module._resolveFilename, which ESM hooks do not reach in Node
 * 20, is patched so that: the runtime's own name resolves (under the loader); every @tensorflow
 * package required from inside this package (the tfjs build the runtime imports, the wasm backend
 * it ships, their own requires) is the project's copy when the project has one; and, under the
 * loader, a program's require of tfjs-node gets the copy that can load (native/installed.ts). Used by the loader
 * (register.ts) and, where a program runs under plain node, by the runtime itself (engine-guard.ts):
 * a runtime installed through a symlink (`npm install <folder>`) would otherwise resolve its
 * @tensorflow imports from the folder's own node_modules, a second engine.
 */
import { existsSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import path from 'node:path';
import { READ_LIMITS, readBoundedTextSync } from '../bounded-read.js';
import { isNativePackage, nativeRedirect } from '../native/installed.js';
import { isOurs, notInstalledMessage, RUNTIME_SPECIFIERS, SERVING_NATIVE_KEY } from './one-engine.js';

export interface CommonJsResolution {
  /** This package's root. */
  readonly packageDir: string;
  /** The program's project: its node_modules hold the engine. */
  readonly projectDir: string;
  /** setup-native's cache. */
  readonly nativeRoot: string;
  /** What `require('tfjs-callback-debugger/runtime')` gets, under the loader; plain node resolves it itself. */
  readonly runtimeForRequire?: string;
  /** Answer a require of tfjs-node with the copy that can load (under the loader; plain node keeps its own answer). */
  readonly serveNative: boolean;
}

type ResolveFilename = (request: string, parent: { filename?: string | null } | undefined, isMain: boolean, options?: unknown) => string;
const PATCHED_KEY = Symbol.for('tfjs-callback-debugger.loader.commonjs');

/** Patches CommonJS resolution once per process (a second call is a no-op). */
export function patchCommonJsResolution(options: CommonJsResolution): void {
  const holder = globalThis as Record<symbol, unknown>;
  if (holder[PATCHED_KEY]) return;
  holder[PATCHED_KEY] = true;
  const { packageDir, projectDir, runtimeForRequire } = options;
  const moduleInternals = Module as unknown as { _resolveFilename: ResolveFilename; _nodeModulePaths(dir: string): string[] };
  const original = moduleInternals._resolveFilename;
  const projectParent = { filename: path.join(projectDir, 'noop.js'), paths: moduleInternals._nodeModulePaths(projectDir) };
  const packageParent = { filename: path.join(packageDir, 'noop.js'), paths: moduleInternals._nodeModulePaths(packageDir) };
  moduleInternals._resolveFilename = function (request, parent, isMain, resolveOptions) {
    if (runtimeForRequire && RUNTIME_SPECIFIERS.includes(request)) return runtimeForRequire;
    if (!request.startsWith('@tensorflow/')) return original.call(this, request, parent, isMain, resolveOptions);
    // This package's requires look in the program's project first; the program's own, as usual.
    // (tfjs-node itself is not: setup-native's build requires its own.)
    const fromPackage = !isNativePackage(request) && !!parent?.filename && isOurs(parent.filename, options);
    let resolved: string;
    try {
      resolved = original.call(this, request, fromPackage ? projectParent : parent, isMain, resolveOptions);
    } catch (err) {
      try {
        // Not there: the copy shipped with the runtime, else a message that says what to do.
        resolved = original.call(this, request, fromPackage ? parent : packageParent, isMain, resolveOptions);
      } catch {
        const served = options.serveNative ? nativeFor(request, undefined, projectDir) : undefined;
        if (served) return served;
        const message = notInstalledMessage(request, projectDir);
        if (!message) throw err;
        throw Object.assign(new Error(message), { code: 'MODULE_NOT_FOUND' });
      }
    }
    return (options.serveNative && nativeFor(request, resolved, projectDir)) || resolved;
  };
}

/**
 * What a require of tfjs-node (or -gpu) gets instead of `resolved`: the copy the runtime loaded for
 * the 'tensorflow' backend, when that is another; else setup-native's build when `resolved` cannot
 * load (native/installed.ts `nativeRedirect`).
 */
function nativeFor(request: string, resolved: string | undefined, projectDir: string): string | undefined {
  if (!isNativePackage(request)) return undefined;
  const serving = (globalThis as Record<symbol, unknown>)[SERVING_NATIVE_KEY];
  if (typeof serving === 'string') {
    const main = createRequire(path.join(serving, 'noop.js')).resolve(serving);
    return main === resolved ? undefined : main;
  }
  return nativeRedirect(request, resolved, projectDir);
}

/** This package's root: the folder of its own package.json (the repository, the .vsix or node_modules/<it>) above `from`. */
export function packageRoot(from: string): string {
  for (let dir = from; path.dirname(dir) !== dir; dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (existsSync(manifest) && packageName(manifest) === 'tfjs-callback-debugger') return dir;
  }
  return path.resolve(from, '..');
}

/** A package.json's name; undefined for one that is not a bounded, regular JSON file (not ours then). */
function packageName(manifest: string): string | undefined {
  try {
    return (JSON.parse(readBoundedTextSync(manifest, { maxBytes: READ_LIMITS.json, what: 'package.json' })) as { name?: string } | null)?.name;
  } catch {
    return undefined;
  }
}
