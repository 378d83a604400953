/**
 * Writes an exported graph model into a folder all at once: the files go to a temporary folder
 * beside it, then take its place by rename, so a failed export leaves no half-written model and
 * a reader never sees a model.json whose shard is not there yet.
 */
import { mkdirSync, mkdtempSync, readdirSync, renameSync, rmdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type GraphModelFiles, WEIGHTS_FILE } from './export.js';

export const MODEL_FILE = 'model.json';

/**
 * Writes `files` as `dir`/model.json and its shard; returns model.json's path. A folder that
 * exists must be empty, or `overwrite` replaces its model.json and shard (other files stay).
 */
export function writeGraphModel(dir: string, files: GraphModelFiles, overwrite: boolean): string {
  const target = path.resolve(dir);
  const existing = folderState(target);
  if (existing === 'not-empty' && !overwrite) {
    throw new Error(
      `Cannot export to ${target}: the folder is not empty (${listSome(target)}). Export to a new or empty folder, or pass { overwrite: true } ` +
        `to replace its ${MODEL_FILE} and ${WEIGHTS_FILE}.`,
    );
  }
  const parent = path.dirname(target);
  mkdirSync(parent, { recursive: true });
  const staging = mkdtempSync(path.join(parent, `.${path.basename(target)}.export-`));
  try {
    writeFileSync(path.join(staging, WEIGHTS_FILE), files.weights);
    writeFileSync(path.join(staging, MODEL_FILE), JSON.stringify(files.modelJson));
    if (existing === 'missing') renameSync(staging, target);
    else if (existing === 'empty') {
      rmdirSync(target);
      renameSync(staging, target);
    } else {
      // The shard first: the old model.json keeps reading a shard of its own size until the new one lands.
      renameSync(path.join(staging, WEIGHTS_FILE), path.join(target, WEIGHTS_FILE));
      renameSync(path.join(staging, MODEL_FILE), path.join(target, MODEL_FILE));
      rmdirSync(staging);
    }
  } catch (err) {
    rmSync(staging, { recursive: true, force: true });
    throw err;
  }
  return path.join(target, MODEL_FILE);
}

function folderState(target: string): 'missing' | 'empty' | 'not-empty' {
  let stat: ReturnType<typeof statSync>;
  try {
    stat = statSync(target);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    throw err;
  }
  if (!stat.isDirectory()) throw new Error(`Cannot export to ${target}: it is a file, not a folder. Name a folder to hold ${MODEL_FILE} and ${WEIGHTS_FILE}.`);
  return readdirSync(target).length === 0 ? 'empty' : 'not-empty';
}

function listSome(dir: string): string {
  const names = readdirSync(dir);
  return names.slice(0, 3).join(', ') + (names.length > 3 ? `, and ${names.length - 3} more` : '');
}
