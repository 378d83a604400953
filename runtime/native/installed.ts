/**
 * The tfjs-node copies a project can load, looked at without loading any: which are installed,
 * and which have their native binding (tfjs_binding.node). npm installs tfjs-node even when its
 * install script could not download libtensorflow: such a copy registers ~150 kernels and then
 * throws, so loading one, then another, floods the output with "already registered". No
 * TensorFlow.js here: the loader's hooks (a thread of their own) use it too.
 */
import { existsSync, realpathSync, type Stats, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { FileReadError, formatBytes, READ_LIMITS, readBoundedTextSync } from '../bounded-read.js';
import { installedPackage } from '../tfjs-version.js';
import { buildDir, hasBuild, nativeRoot, napiVersionFor } from './cache.js';

export const NATIVE_PACKAGES = ['@tensorflow/tfjs-node-gpu', '@tensorflow/tfjs-node'] as const;
export type NativePackage = (typeof NATIVE_PACKAGES)[number];

/** Whether `request` names tfjs-node or tfjs-node-gpu (the package, not a file in it). */
export function isNativePackage(request: string): request is NativePackage {
  return (NATIVE_PACKAGES as readonly string[]).includes(request);
}

export interface NativeCopy {
  readonly pkg: NativePackage;
  /** 'the project', 'the runtime', or setup-native's build. */
  readonly where: string;
  /** The package's folder. */
  readonly dir: string;
  /** Where its loader looks for the binding. */
  readonly binding: string;
  readonly hasBinding: boolean;
  /**
   * Why the copy is not to be loaded at all, though installed: its package.json or its binding is
   * not a regular file of a sane size (a FIFO would block the load forever, /dev/zero fill memory).
   */
  readonly refused?: string;
}

/** Far above any tfjs_binding.node (~200 kB; libtensorflow is a file of its own): a larger one is not a binding. */
const BINDING_MAX_BYTES = 256 * 1024 * 1024;

/** The package.json of the copy in `dir`, read bounded; a FileReadError says why it was not read. */
function readCopyManifest(pkg: string, dir: string): { binary?: { napi_versions?: number[] } } | FileReadError | undefined {
  try {
    return JSON.parse(readBoundedTextSync(path.join(dir, 'package.json'), { maxBytes: READ_LIMITS.manifest, what: `${pkg}'s package.json` }));
  } catch (err) {
    // Not JSON: the loader's usual place is looked at, as before.
    return err instanceof FileReadError ? err : undefined;
  }
}

/** Where tfjs-node's loader (node-pre-gyp) looks for the binding of the package in `dir`. */
export function bindingFile(dir: string): string {
  const manifest = readCopyManifest('tfjs-node', dir);
  return bindingIn(dir, manifest instanceof FileReadError ? undefined : manifest);
}

function bindingIn(dir: string, manifest: { binary?: { napi_versions?: number[] } } | undefined): string {
  let napi = 8;
  try {
    napi = napiVersionFor(manifest?.binary?.napi_versions ?? [napi]);
  } catch {
    // no N-API version this Node has: the usual place
  }
  return path.join(dir, 'lib', `napi-v${napi}`, 'tfjs_binding.node');
}

/**
 * 'missing', 'ok', or why the binding must not be dlopen'ed: dlopen of a FIFO blocks for good and
 * node-pre-gyp's look at it reads what it finds, so only a regular file of a sane size is loaded.
 */
export function bindingState(binding: string): 'missing' | 'ok' | { readonly problem: string } {
  let stats: Stats;
  try {
    stats = statSync(binding);
  } catch {
    return 'missing';
  }
  if (!stats.isFile())
    return {
      problem: `its native binding ${binding} is ${stats.isFIFO() ? 'a named pipe (FIFO)' : stats.isDirectory() ? 'a folder' : 'a device or socket'}, not a regular file: it was not loaded (reinstall the package)`,
    };
  if (stats.size > BINDING_MAX_BYTES) {
    return { problem: `its native binding ${binding} is ${formatBytes(stats.size)}, not a binding (~200 kB): it was not loaded (reinstall the package)` };
  }
  return 'ok';
}

function copyAt(pkg: NativePackage, where: string, dir: string): NativeCopy {
  const manifest = readCopyManifest(pkg, dir);
  if (manifest instanceof FileReadError) {
    // Node's own require would read it unbounded (or wait on a FIFO): the copy is not touched further.
    const binding = bindingIn(dir, undefined);
    return {
      pkg,
      where,
      dir,
      binding,
      hasBinding: false,
      refused: `${pkg} in ${where} was not loaded: ${manifest.message} Reinstall it (npm install ${pkg}) or remove it.`,
    };
  }
  const binding = bindingIn(dir, manifest);
  const state = bindingState(binding);
  if (typeof state === 'object') return { pkg, where, dir, binding, hasBinding: false, refused: `${pkg} in ${where}: ${state.problem}` };
  return { pkg, where, dir, binding, hasBinding: state === 'ok' };
}

/**
 * The package folder code in `fromDir` finds `pkg` in (Node's node_modules lookup, folder by folder
 * up), if installed there. Not require.resolve: Node's resolver reads the package's package.json
 * whole, and waits forever on one that is a FIFO, before anything here could check it.
 */
function installedDir(pkg: string, fromDir: string): string | undefined {
  for (let dir = path.resolve(fromDir); ; dir = path.dirname(dir)) {
    const folder = path.join(dir, 'node_modules', ...pkg.split('/'));
    // existsSync opens nothing: a FIFO or /dev/zero link is found here and refused by copyAt.
    if (path.basename(dir) !== 'node_modules' && existsSync(path.join(folder, 'package.json'))) return realOrSelf(folder);
    if (path.dirname(dir) === dir) return undefined;
  }
}

/** The folder with its links resolved, as Node's resolver gives it; as it is where that fails. */
function realOrSelf(folder: string): string {
  try {
    return realpathSync(folder);
  } catch {
    return folder;
  }
}

/**
 * The installed copies, in the order the runtime tries them: the project's (GPU build first), then
 * the runtime's own, each once.
 */
export function installedNativeCopies(projectDir: string, runtimeFile: string): NativeCopy[] {
  const copies: NativeCopy[] = [];
  for (const [where, from] of [
    ['the project', projectDir],
    ['the runtime', path.dirname(runtimeFile)],
  ] as const) {
    for (const pkg of NATIVE_PACKAGES) {
      const dir = installedDir(pkg, from);
      if (dir && !copies.some((c) => c.dir === dir)) copies.push(copyAt(pkg, where, dir));
    }
  }
  return copies;
}

/** The @tensorflow/tfjs version the project runs (undefined when it has none). */
export function projectTfjsVersion(projectDir: string): string | undefined {
  return installedPackage('@tensorflow/tfjs', projectDir)?.version;
}

/** setup-native's build for tfjs `version`, when one is finished. */
export function setupNativeBuild(version: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const build = buildDir(nativeRoot(env), version);
  return hasBuild(build) ? build : undefined;
}

/** A line for a copy that cannot load: what is missing and what to do. */
export function withoutBinding(copy: NativeCopy): string {
  return `${copy.pkg} in ${copy.where} is installed without its native binding (${copy.binding} is missing: its install downloads libtensorflow, which failed or was skipped; \`tfjs-callbacks setup-native\` builds one from a TensorFlow you have)`;
}

/**
 * What a program's own `require('@tensorflow/tfjs-node')` (or -gpu) is to get instead of what Node
 * resolves, `resolved` (undefined: not installed): setup-native's build, when the program's own copy
 * is missing or has no binding and a build for the project's tfjs is there. Undefined: leave it.
 */
export function nativeRedirect(request: string, resolved: string | undefined, projectDir: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (!isNativePackage(request)) return undefined;
  if (resolved) {
    const dir = packageRootOf(resolved);
    // A binding that is not a regular file is not loaded: setup-native's build serves, when there is one.
    if (dir && bindingState(bindingFile(dir)) === 'ok') return undefined;
  }
  const version = projectTfjsVersion(projectDir);
  const build = version && setupNativeBuild(version, env);
  if (!build) return undefined;
  return createRequire(path.join(build, 'noop.js')).resolve('@tensorflow/tfjs-node');
}

/** The folder of the package that holds `file` (the nearest package.json above it). */
function packageRootOf(file: string): string | undefined {
  for (let dir = path.dirname(file); path.dirname(dir) !== dir; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
  }
  return undefined;
}
