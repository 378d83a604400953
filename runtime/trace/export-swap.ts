/**
 * How an export's new folder takes the target's place as a whole. The model is written into a
 * staging folder beside the target (one file system, so renames are atomic), then:
 * - no target: the staging folder is renamed to it;
 * - an empty folder: the staging folder is renamed over it (rename replaces an empty folder);
 * - a folder with files (overwrite): its other files are copied into the staging folder, the old
 *   folder is renamed aside, the new one renamed in, the old one removed; if the second rename
 *   fails, the old one is renamed back.
 * So a reader, a failure or a kill -9 sees the old folder or the new one, never one's model.json
 * beside the other's shard. Node has no atomic exchange of two folders: a kill -9 between the two
 * renames (microseconds) leaves the target away and the old folder whole beside it, and the next
 * export puts it back. Another export racing for the folder shows as a rename that fails: the
 * steps start over from what is there then. Staging and set-aside folders carry their process's
 * pid; the next export to the same folder removes those of processes that no longer run.
 */
import { createHash, randomBytes } from 'node:crypto';
import { accessSync, chmodSync, constants, cpSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { escapeRegExp } from '../escape-regexp.js';
import { WEIGHTS_FILE } from './export.js';
import { codeOf, ExportTargetError, exportFsError, MODEL_FILE, resolveTarget } from './export-target.js';
import { isAlive } from '../process-alive.js';

export type FolderState = 'missing' | 'empty' | 'not-empty';

/** Tries before giving up on a folder that other processes keep replacing. */
const ATTEMPTS = 5;
/** What a rename reports when another process got there first. */
const TAKEN = ['EEXIST', 'ENOTEMPTY', 'ENOTDIR'];

export function folderState(target: string): FolderState {
  try {
    resolveTarget(target);
    return readdirSync(target).length === 0 ? 'empty' : 'not-empty';
  } catch (err) {
    if (codeOf(err) === 'ENOENT') return 'missing';
    throw err;
  }
}

export function notEmpty(target: string, where: string, meanwhile: boolean): ExportTargetError {
  const names = readdirSync(target);
  const some = names.slice(0, 3).join(', ') + (names.length > 3 ? `, and ${names.length - 3} more` : '');
  return new ExportTargetError(
    `Cannot export to ${where}: the folder is not empty (${some}${meanwhile ? ': another export wrote it while this one was being written' : ''}). ` +
      `Export to a new or empty folder, or pass { overwrite: true } to replace its ${MODEL_FILE} and ${WEIGHTS_FILE}.`,
  );
}

/** A new, empty staging folder beside `target` (its parent made if need be); its mode follows the umask. */
export function makeStaging(target: string, where: string): string {
  const parent = path.dirname(target);
  try {
    mkdirSync(parent, { recursive: true });
  } catch (err) {
    throw exportFsError(where, err, `creating the folder ${parent}`);
  }
  const staging = sibling(target, 'export');
  try {
    mkdirSync(staging);
  } catch (err) {
    throw exportFsError(where, err, `creating a staging folder in ${parent}`);
  }
  return staging;
}

/** Puts the written `staging` folder in `target`'s place (see the top of this file). */
export function swapInto(staging: string, target: string, where: string, overwrite: boolean): void {
  let copied = false;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const state = folderState(target);
    // Without overwrite the folder was missing or empty before the model was written: another export filled it.
    if (state === 'not-empty' && !overwrite) throw notEmpty(target, where, true);
    if (state !== 'missing') keepMode(target, staging, where);
    if (state !== 'not-empty') {
      if (rename(staging, target, where)) return;
      continue;
    }
    if (!copied) copyOthers(target, staging, where);
    copied = true;
    const aside = sibling(target, 'replaced');
    if (!rename(target, aside, where, ['ENOENT'])) continue;
    if (rename(staging, target, where)) {
      removeTree(aside);
      return;
    }
    // Another export's folder took the place: its model is whole there, and the old one goes.
    if (!rename(aside, target, where)) removeTree(aside);
  }
  throw new ExportTargetError(
    `Cannot export to ${where}: other processes kept replacing the folder while this export was written (${ATTEMPTS} tries). Export to it one process at a time, or to separate folders.`,
  );
}

/** The replaced folder's mode for the new one; refused when it is read-only (replacing removes files from it). */
function keepMode(target: string, staging: string, where: string): void {
  try {
    accessSync(target, constants.W_OK);
  } catch {
    throw new ExportTargetError(
      `Cannot export to ${where}: the folder ${target} is read-only (not writable), and replacing its model removes files from it. ` +
        `Make it writable (chmod u+w ${target}), or export to another folder.`,
    );
  }
  try {
    chmodSync(staging, statSync(target).mode & 0o7777);
  } catch (err) {
    throw exportFsError(where, err, 'giving the new folder the mode of the one it replaces');
  }
}

/** Files of the replaced folder that are not the model's: kept, as copies (the old folder stays whole until the swap). */
function copyOthers(target: string, staging: string, where: string): void {
  for (const name of readdirSync(target)) {
    if (name === MODEL_FILE || name === WEIGHTS_FILE) continue;
    try {
      cpSync(path.join(target, name), path.join(staging, name), {
        recursive: true,
        verbatimSymlinks: true,
        preserveTimestamps: true,
        errorOnExist: true,
        force: false,
      });
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      throw new ExportTargetError(
        `Cannot export to ${where}: its file ${name} could not be kept (${why}); nothing was changed. Move it out of the folder, or export to another folder.`,
        { cause: err },
      );
    }
  }
}

/** Renames `from` to `to`; false when another process got there first (`raced` codes). */
function rename(from: string, to: string, where: string, raced: readonly string[] = TAKEN): boolean {
  try {
    renameSync(from, to);
    return true;
  } catch (err) {
    if (raced.includes(codeOf(err) ?? '')) return false;
    throw exportFsError(where, err, `renaming ${path.basename(from)} to ${to}`);
  }
}

/**
 * Removes what exports to `target` left when their process died: staging folders, and folders set
 * aside for a replacement; one set aside while the target is missing is put back instead.
 */
export function cleanStale(target: string): void {
  const parent = path.dirname(target);
  const pattern = new RegExp(`^\\.${escapeRegExp(stem(target))}\\.(export|replaced)-(\\d+)-[0-9a-f]+$`);
  let names: string[];
  try {
    names = readdirSync(parent);
  } catch {
    return;
  }
  for (const name of names.sort((a, b) => Number(b.includes('.replaced-')) - Number(a.includes('.replaced-')))) {
    const match = pattern.exec(name);
    if (!match || isAlive(Number(match[2]))) continue;
    const leftover = path.join(parent, name);
    if (match[1] === 'replaced' && folderState(target) === 'missing') {
      try {
        renameSync(leftover, target);
        continue;
      } catch {
        // not put back: removed below like the rest
      }
    }
    removeTree(leftover);
  }
}

/** Removes a folder of ours; a read-only folder in it is made writable first. Warns when it stays. */
export function removeTree(dir: string): void {
  try {
    rmSync(dir, { recursive: true, force: true });
    return;
  } catch {
    // below: once more with its folders writable
  }
  try {
    makeWritable(dir);
    rmSync(dir, { recursive: true, force: true });
  } catch (err) {
    process.emitWarning(`Could not remove ${dir}, left by an export: ${(err as Error).message}. Remove it by hand.`, 'TfjsExportWarning');
  }
}

function makeWritable(dir: string): void {
  chmodSync(dir, 0o700);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) makeWritable(path.join(dir, entry.name));
  }
}

/** `.<name>.<kind>-<pid>-<random>` beside `target`: hidden, and known as ours by the next export. */
function sibling(target: string, kind: 'export' | 'replaced'): string {
  return path.join(path.dirname(target), `.${stem(target)}.${kind}-${process.pid}-${randomBytes(4).toString('hex')}`);
}

/** The target's name, shortened (with a hash) where the sibling's name would pass the 255-byte limit. */
function stem(target: string): string {
  const name = path.basename(target);
  if (Buffer.byteLength(name) <= 200) return name;
  return `${Buffer.from(name)
    .subarray(0, 150)
    .toString('utf8')
    .replace(/\uFFFD+$/, '')}~${createHash('sha256').update(name).digest('hex').slice(0, 12)}`;
}
