/**
 * One TensorFlow.js engine per process: what the loader's ESM hooks (resolve-hooks.ts) and its
 * CommonJS patch (register.ts) share. A second copy of @tensorflow/tfjs-core is a second engine:
 * "Platform node has already been set", hundreds of "kernel … already registered" lines, and
 * tensors of one engine that the other does not know.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface ResolveHookData {
  /** URL of the runtime entry the launcher ships. */
  readonly runtimeEntry: string;
  /** URL of the CommonJS file `require()` of the runtime gets (runtime-cjs.cts). */
  readonly runtimeForRequire: string;
  /** The specifiers that name the runtime. */
  readonly runtimeSpecifiers: readonly string[];
  /** Directory of this package (its runtime and node_modules). */
  readonly packageDir: string;
  /** Directory whose node_modules hold the program's tfjs (its project). */
  readonly projectDir: string;
  /** setup-native's cache (runtime/native/cache.ts): its tfjs-node is ours too, and uses the project's engine. */
  readonly nativeRoot: string;
}

export const RUNTIME_SPECIFIERS = ['tfjs-callback-debugger/runtime', 'tfjs-callback-debugger'];

/** Where the loaded runtime module (its ES namespace) is kept for CommonJS require()s. */
export const RUNTIME_MODULE_KEY = Symbol.for('tfjs-callback-debugger.runtime.module');

/** True when `parent` (a file URL or path) lies inside `dir`. */
export function isInPackage(parent: string, dir: string): boolean {
  const file = parent.startsWith('file:') ? fileURLToPath(parent) : parent;
  return file.startsWith(dir.endsWith(path.sep) ? dir : dir + path.sep);
}

/**
 * Whether `parent` (a file URL or path) is this package's or setup-native's build's: their
 * @tensorflow imports look in the program's project first, so that there is one engine.
 */
export function isOurs(parent: string, data: Pick<ResolveHookData, 'packageDir' | 'nativeRoot'>): boolean {
  return isInPackage(parent, data.packageDir) || isInPackage(parent, data.nativeRoot);
}

/** Where runtime/backend.ts records the folder of the tfjs-node it loaded for the 'tensorflow' backend. */
export const SERVING_NATIVE_KEY = Symbol.for('tfjs-callback-debugger.runtime.native');

/** The native backend's packages: a program that requires one that is not installed is told how to get it. */
const NATIVE = ['@tensorflow/tfjs-node', '@tensorflow/tfjs-node-gpu'];

/**
 * The message for a @tensorflow package found neither in the program's project nor with the
 * runtime, or undefined when Node's own says enough.
 */
export function notInstalledMessage(specifier: string, projectDir: string): string | undefined {
  const pkg = specifier.split('/').slice(0, 2).join('/');
  if (!NATIVE.includes(pkg)) return undefined;
  return (
    `Cannot find module '${specifier}': ${pkg} is not installed in ${projectDir} (nor shipped with tfjs-callback-debugger). ` +
    `It is the native TensorFlow backend, which is optional: without it this program can run on wasm or cpu ` +
    `(drop the require and call selectBackend(), or use @tensorflow/tfjs). To get it: npm install ${pkg} ` +
    `(its install downloads libtensorflow; where that download is blocked, see tfjs-callback-debugger's docs/backends.md).`
  );
}
