/**
 * Zip files written byte by byte, so a test can make any wheel: symbolic links, names with `..`,
 * members that declare another size than they inflate to. Unix "made by" entries (host 3), with
 * the mode in the external attributes as Python's zipfile and Info-ZIP write it.
 */
import { crc32, deflateRawSync } from 'node:zlib';

export interface ZipEntry {
  readonly name: string;
  /** A file's content (default empty). */
  readonly data?: string | Buffer;
  /** A symbolic link to this target. */
  readonly symlink?: string;
  readonly folder?: boolean;
  /** The size the directory declares, if not the data's. */
  readonly declaredSize?: number;
  /** Stored instead of deflated. */
  readonly stored?: boolean;
}

export function zip(entries: readonly ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const content = Buffer.from(entry.symlink ?? entry.data ?? '');
    const deflate = !entry.stored && !entry.folder && !entry.symlink;
    const body = deflate ? deflateRawSync(content) : content;
    const name = Buffer.from(entry.name);
    const mode = entry.symlink ? 0o120777 : entry.folder ? 0o040755 : 0o100644;
    const fields = { method: deflate ? 8 : 0, crc: crc32(content), compressed: body.length, size: entry.declaredSize ?? content.length };
    // From "version needed" on, a local header and a directory entry have the same layout.
    const shared = (header: Buffer, at: number) => {
      header.writeUInt16LE(20, at);
      header.writeUInt16LE(0x0800, at + 2);
      header.writeUInt16LE(fields.method, at + 4);
      header.writeUInt16LE(0x21, at + 8);
      header.writeUInt32LE(fields.crc, at + 10);
      header.writeUInt32LE(fields.compressed, at + 14);
      header.writeUInt32LE(fields.size, at + 18);
      header.writeUInt16LE(name.length, at + 22);
    };
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    shared(local, 4);
    locals.push(local, name, body);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 30, 4);
    shared(central, 6);
    central.writeUInt32LE(((mode << 16) | (entry.folder ? 0x10 : 0)) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += local.length + name.length + body.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}
