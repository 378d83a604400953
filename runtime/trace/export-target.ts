/**
 * The folder an export writes, read before anything is written: a symbolic link to a folder is
 * followed (the link stays, the folder it points to gets the model), anything else that is not a
 * folder is refused with its path and what to do. Errors from the file system are said the same
 * way: the path, what was wrong, what to do, never Node's bare ENOTDIR or EACCES.
 */
import { lstatSync, readlinkSync, realpathSync, type Stats, statSync } from 'node:fs';
import path from 'node:path';

export const MODEL_FILE = 'model.json';

/** An export that cannot be written where it was asked to: the message says where and what to do. */
export class ExportTargetError extends Error {
  override name = 'ExportTargetError';
}

const HOLD = `Name a folder to hold ${MODEL_FILE} and its shard`;

/** The folder to write for the path `named` (absolute): itself, or the folder its symbolic link points to. */
export function resolveTarget(named: string): string {
  let stat: Stats;
  try {
    stat = lstatSync(named);
  } catch (err) {
    if (codeOf(err) === 'ENOENT') return named;
    throw exportFsError(named, err);
  }
  if (stat.isSymbolicLink()) return followLink(named);
  if (!stat.isDirectory()) throw new ExportTargetError(`Cannot export to ${named}: it is ${kindOf(stat)}, not a folder. ${HOLD}.`);
  return named;
}

function followLink(named: string): string {
  const to = readlinkSync(named);
  let real: string;
  try {
    real = realpathSync(named);
  } catch (err) {
    if (codeOf(err) === 'ELOOP') {
      throw new ExportTargetError(`Cannot export to ${named}: it is a symbolic link (to ${to}) that leads back to itself. Fix or remove the link.`);
    }
    if (codeOf(err) !== 'ENOENT') throw exportFsError(named, err, 'following its symbolic link');
    throw new ExportTargetError(
      `Cannot export to ${named}: it is a symbolic link to ${path.resolve(path.dirname(named), to)}, which does not exist. ` +
        `Create that folder, point the link at a folder, or export to another path.`,
    );
  }
  const stat = statSync(real);
  if (!stat.isDirectory()) {
    throw new ExportTargetError(`Cannot export to ${named}: it is a symbolic link to ${real}, ${kindOf(stat)}, not a folder. ${HOLD}, or remove the link.`);
  }
  return real;
}

function kindOf(stat: Stats): string {
  if (stat.isFile()) return 'a file';
  if (stat.isFIFO()) return 'a named pipe';
  if (stat.isSocket()) return 'a socket';
  return 'a device';
}

export function codeOf(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException | undefined)?.code;
}

/**
 * A file-system failure while exporting to `named`, said with the path it hit and what to do;
 * `doing` names the step that failed ("writing the shard").
 */
export function exportFsError(named: string, err: unknown, doing?: string): ExportTargetError {
  const e = err as NodeJS.ErrnoException;
  const at = e.path ?? named;
  const why: Record<string, string> = {
    EACCES: `${writableFolder(at)} is not writable (permission denied). Make it writable, or export to another folder`,
    EPERM: `${at} may not be changed (operation not permitted). Make it writable, or export to another folder`,
    EROFS: `${at} is on a read-only file system. Export to another folder`,
    ENOSPC: 'the disk is full. Free some space, or export to another disk',
    EDQUOT: 'the disk quota is used up. Free some space, or export to another disk',
    ENOTDIR: `${firstFile(at) ?? 'a part of the path'} is a file, not a folder. ${HOLD}`,
    ENAMETOOLONG: 'the path is too long. Export to a shorter path',
    ELOOP: 'a symbolic link in the path leads back to itself. Fix the link',
  };
  const said = (e.code && why[e.code]) ?? `${e.message}. Check the path, or export to another folder`;
  return new ExportTargetError(`Cannot export to ${named}: ${doing ? `${doing} failed: ` : ''}${said}.`, { cause: err });
}

/** What a write to `file` was refused by: `file` when it exists, else the nearest folder above it that does. */
function writableFolder(file: string): string {
  for (let dir = file; path.dirname(dir) !== dir; dir = path.dirname(dir)) {
    try {
      statSync(dir);
      return dir;
    } catch {
      // not there: the folder above it is the one written
    }
  }
  return file;
}

/** The first part of `file`'s path that exists and is not a folder (why ENOTDIR). */
function firstFile(file: string): string | undefined {
  const parts = path.resolve(file).split(path.sep);
  for (let i = 2; i <= parts.length; i++) {
    const prefix = parts.slice(0, i).join(path.sep);
    try {
      if (!statSync(prefix).isDirectory()) return prefix;
    } catch {
      return undefined;
    }
  }
  return undefined;
}
