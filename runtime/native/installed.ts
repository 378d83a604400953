/**
 * The tfjs-node copies a project can load, looked at without loading any: which are installed,
 * and which have their native binding (tfjs_binding.node). npm installs tfjs-node even when its
 * install script could not download libtensorflow: such a copy registers ~150 kernels and then
 * throws, so loading one, then another, floods the output with "already registered". No
 * TensorFlow.js here: the loader's hooks (a thread of their own) use it too.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
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
}

/** Where tfjs-node's loader (node-pre-gyp) looks for the binding of the package in `dir`. */
export function bindingFile(dir: string): string {
  let napi = 8;
  try {
    const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { binary?: { napi_versions?: number[] } };
    napi = napiVersionFor(manifest.binary?.napi_versions ?? [napi]);
  } catch {
    // unreadable manifest: the usual place
  }
  return path.join(dir, 'lib', `napi-v${napi}`, 'tfjs_binding.node');
}

function copyAt(pkg: NativePackage, where: string, dir: string): NativeCopy {
  const binding = bindingFile(dir);
  return { pkg, where, dir, binding, hasBinding: existsSync(binding) };
}

/** The package folder `from` (a file) resolves `pkg` to, if installed there. */
function installedDir(pkg: string, from: string): string | undefined {
  try {
    return path.dirname(createRequire(from).resolve(`${pkg}/package.json`));
  } catch {
    return undefined;
  }
}

/**
 * The installed copies, in the order the runtime tries them: the project's (GPU build first), then
 * the runtime's own, each once.
 */
export function installedNativeCopies(projectDir: string, runtimeFile: string): NativeCopy[] {
  const copies: NativeCopy[] = [];
  for (const [where, from] of [
    ['the project', path.join(projectDir, 'noop.js')],
    ['the runtime', runtimeFile],
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
    if (dir && existsSync(bindingFile(dir))) return undefined;
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
