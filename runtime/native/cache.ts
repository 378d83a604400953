/**
 * Where `tfjs-callbacks setup-native` keeps the tfjs-node it builds: a cache folder outside any
 * node_modules, one build per tfjs version, reused by every project on the machine. The runtime
 * looks there after the project's and its own tfjs-node.
 */
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { READ_LIMITS, readBoundedTextSync } from '../bounded-read.js';

/** What setup-native wrote next to the build: what it was built against, for reuse and reports. */
export interface NativeBuildRecord {
  readonly tfjsNodeVersion: string;
  readonly napiVersion: number;
  readonly tensorflow: { readonly version: string; readonly libDir: string; readonly includeDir: string; readonly from: string };
  readonly builtAt: string;
  readonly buildSeconds: number;
}

/** The cache root: TFJS_CALLBACKS_NATIVE_DIR, else $XDG_CACHE_HOME (or ~/.cache)/tfjs-callback-debugger/native. */
export function nativeRoot(env: NodeJS.ProcessEnv = process.env): string {
  if (env.TFJS_CALLBACKS_NATIVE_DIR) return path.resolve(env.TFJS_CALLBACKS_NATIVE_DIR);
  const cache = env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(cache, 'tfjs-callback-debugger', 'native');
}

/** The folder of one build: an npm prefix holding node_modules/@tensorflow/tfjs-node. */
export function buildDir(root: string, tfjsNodeVersion: string): string {
  return path.join(root, `tfjs-node-${tfjsNodeVersion}`);
}

export function packageDir(build: string): string {
  return path.join(build, 'node_modules', '@tensorflow', 'tfjs-node');
}

export function recordFile(build: string): string {
  return path.join(build, 'setup-native.json');
}

/** The record of a finished build in `build`, if there is one. */
export function readRecord(build: string): NativeBuildRecord | undefined {
  try {
    // Bounded: TFJS_CALLBACKS_NATIVE_DIR may point anywhere.
    return JSON.parse(readBoundedTextSync(recordFile(build), { maxBytes: READ_LIMITS.manifest, what: "setup-native's record" })) as NativeBuildRecord;
  } catch {
    return undefined;
  }
}

/** The N-API version tfjs-node's loader picks: the highest it was published for that Node supports. */
export function napiVersionFor(published: readonly number[], nodeNapi = Number(process.versions.napi)): number {
  const usable = published.filter((v) => v <= nodeNapi);
  if (usable.length === 0) throw new Error(`this Node supports N-API ${nodeNapi}, older than tfjs-node's (${published.join(', ')})`);
  return Math.max(...usable);
}

/** Whether `build` holds a finished build for this tfjs version. */
export function hasBuild(build: string): boolean {
  const record = readRecord(build);
  return !!record && existsSync(path.join(packageDir(build), 'lib', `napi-v${record.napiVersion}`, 'tfjs_binding.node'));
}
