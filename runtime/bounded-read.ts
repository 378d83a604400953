/**
 * Reading a file that someone else chose (a workspace setting, a model's weight paths, a program's
 * imports): it must be a regular file, and no larger than a cap, so `/dev/zero`, a FIFO or a 10 GB
 * file gets a clear error instead of exhausting memory or hanging the reader.
 */
import { constants, fstatSync, openSync, closeSync, readSync, type Stats } from 'node:fs';
import { open } from 'node:fs/promises';

/** Caps by what is read; a reader passes its own where these do not fit. */
export const READ_LIMITS = {
  /** Source files: programs, callbacks modules, source maps. */
  source: 8 * 1024 * 1024,
  /** model.json and other JSON the project writes or reads (traces, inputs). */
  json: 64 * 1024 * 1024,
  /**
   * A package.json read to learn a project's dependencies (the extension's activation): real ones
   * are a few kB, and a cloned repository's may be anything.
   */
  manifest: 1024 * 1024,
  /** One weight shard. TF.js's converter writes 4 MB shards; a hand-made model may have one file. */
  weights: 2 * 1024 * 1024 * 1024,
} as const;

export class FileReadError extends Error {
  override name = 'FileReadError';
  constructor(
    message: string,
    readonly file: string,
    readonly reason: 'not-regular' | 'too-large' | 'unreadable',
  ) {
    super(message);
  }
}

export interface ReadOptions {
  /** At most this many bytes. */
  readonly maxBytes: number;
  /** What the file is, for the error ("the callbacks module", "weight file"). */
  readonly what: string;
}

// O_NONBLOCK: opening a FIFO with no writer would otherwise block the reader forever.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/** The whole file, checked to be a regular file within `maxBytes`. */
export async function readBounded(file: string, options: ReadOptions): Promise<Buffer> {
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    handle = await open(file, OPEN_FLAGS);
  } catch (err) {
    throw unreadable(file, options, err);
  }
  try {
    const stats = await handle.stat();
    check(file, stats, options);
    const buffer = Buffer.alloc(stats.size);
    let filled = 0;
    while (filled < buffer.length) {
      const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return filled === buffer.length ? buffer : buffer.subarray(0, filled);
  } finally {
    await handle.close();
  }
}

export async function readBoundedText(file: string, options: ReadOptions): Promise<string> {
  return (await readBounded(file, options)).toString('utf8');
}

/** The same checks, for the few readers that must stay synchronous (TypeScript's host, source maps). */
export function readBoundedTextSync(file: string, options: ReadOptions): string {
  let fd: number;
  try {
    fd = openSync(file, OPEN_FLAGS);
  } catch (err) {
    throw unreadable(file, options, err);
  }
  try {
    const stats = fstatSync(fd);
    check(file, stats, options);
    const buffer = Buffer.alloc(stats.size);
    let filled = 0;
    while (filled < buffer.length) {
      const n = readSync(fd, buffer, filled, buffer.length - filled, filled);
      if (n === 0) break;
      filled += n;
    }
    return buffer.toString('utf8', 0, filled);
  } finally {
    closeSync(fd);
  }
}

function check(file: string, stats: Stats, { maxBytes, what }: ReadOptions): void {
  if (!stats.isFile()) {
    throw new FileReadError(`${what} ${file} is ${kindOf(stats)}, not a regular file: point it at a file.`, file, 'not-regular');
  }
  if (stats.size > maxBytes) {
    throw new FileReadError(
      `${what} ${file} is ${formatBytes(stats.size)}, over the ${formatBytes(maxBytes)} this reads: it was not read. Is it the file you meant?`,
      file,
      'too-large',
    );
  }
}

function unreadable(file: string, { what }: ReadOptions, err: unknown): FileReadError {
  const code = (err as NodeJS.ErrnoException).code;
  const why = code === 'ENOENT' ? 'does not exist' : code === 'EACCES' ? 'is not readable (permission denied)' : `cannot be read (${(err as Error).message})`;
  return new FileReadError(`${what} ${file} ${why}.`, file, 'unreadable');
}

function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return 'a folder';
  if (stats.isFIFO()) return 'a named pipe (FIFO)';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  if (stats.isSocket()) return 'a socket';
  return 'not a regular file';
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 ** 3) return `${(bytes / 1024 ** 3).toFixed(1)} GB`;
  if (bytes >= 1024 ** 2) return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} kB`;
  return `${bytes} bytes`;
}
