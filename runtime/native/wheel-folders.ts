/**
 * The folders a wheel is unpacked into, inside a build folder (cache.ts): a fresh one per attempt,
 * `wheel-<pid>-<random>`, so nothing an earlier wheel left (a file, a link) is under the new one;
 * removed when the attempt fails, and the older ones when it succeeds. One whose process died
 * mid-unpack (kill -9) is removed by the next setup-native of that build.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { NativeBuildRecord } from './cache.js';
import { isAlive } from '../process-alive.js';

const FOLDER = /^wheel(?:-(\d+)-[0-9a-f]+)?$/;

/** A new wheel folder's path in `build` (not made yet); dead attempts' folders are removed first. */
export function newWheelFolder(build: string, record: NativeBuildRecord | undefined): string {
  removeWheelFolders(build, (name, pid) => pid !== undefined && !isAlive(pid) && !inUse(build, name, record));
  return path.join(build, `wheel-${process.pid}-${randomBytes(4).toString('hex')}`);
}

/** After a build from `kept`: the other wheel folders (earlier builds', the old single `wheel`) but live attempts'. */
export function removeOtherWheelFolders(build: string, kept: string): void {
  removeWheelFolders(build, (name, pid) => path.join(build, name) !== kept && (pid === undefined || pid === process.pid || !isAlive(pid)));
}

/** Whether `record` was built from `wheel` (same file) whose libraries are still unpacked in the build. */
export function builtFromWheel(record: NativeBuildRecord, wheel: string): boolean {
  return record.tensorflow.from === path.resolve(wheel) && existsSync(record.tensorflow.libDir);
}

function removeWheelFolders(build: string, remove: (name: string, pid: number | undefined) => boolean): void {
  let names: string[];
  try {
    names = readdirSync(build);
  } catch {
    return;
  }
  for (const name of names) {
    const match = FOLDER.exec(name);
    if (match && remove(name, match[1] === undefined ? undefined : Number(match[1]))) rmSync(path.join(build, name), { recursive: true, force: true });
  }
}

function inUse(build: string, name: string, record: NativeBuildRecord | undefined): boolean {
  return !!record && record.tensorflow.libDir.startsWith(`${path.join(build, name)}${path.sep}`);
}
