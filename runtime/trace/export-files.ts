/**
 * Writes an exported graph model into a folder all at once: the whole new folder (model.json, its
 * shard, and with overwrite the old folder's other files) is written beside the target, then takes
 * its place by rename (export-swap.ts), so the folder is the old one whole or the new one whole.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { GraphModelFiles } from './export.js';
import { WEIGHTS_FILE } from './export.js';
import { cleanStale, folderState, makeStaging, notEmpty, removeTree, swapInto } from './export-swap.js';
import { exportFsError, MODEL_FILE, resolveTarget } from './export-target.js';

export { MODEL_FILE };

/**
 * Writes `files` as `dir`/model.json and its shard; returns model.json's path. A folder that
 * exists must be empty, or `overwrite` replaces its model.json and shard (other files stay). A
 * symbolic link to a folder is followed: the folder it points to gets the model.
 */
export function writeGraphModel(dir: string, files: GraphModelFiles, overwrite: boolean): string {
  const named = path.resolve(dir);
  const target = resolveTarget(named);
  const where = target === named ? named : `${named} (a symbolic link to ${target})`;
  cleanStale(target);
  // Refused before anything is written.
  if (!overwrite && folderState(target) === 'not-empty') throw notEmpty(target, where, false);
  const staging = makeStaging(target, where);
  try {
    write(path.join(staging, WEIGHTS_FILE), files.weights, where);
    write(path.join(staging, MODEL_FILE), JSON.stringify(files.modelJson), where);
    swapInto(staging, target, where, overwrite);
  } catch (err) {
    removeTree(staging);
    throw err;
  }
  return path.join(named, MODEL_FILE);
}

function write(file: string, data: string | Uint8Array, where: string): void {
  try {
    writeFileSync(file, data);
  } catch (err) {
    throw exportFsError(where, err, `writing ${path.basename(file)}`);
  }
}
