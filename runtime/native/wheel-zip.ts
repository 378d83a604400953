/**
 * Unpacks members of a wheel (a zip file) treating it as hostile: the central directory is read
 * here rather than by `unzip`, which writes symbolic links and writes through those already there.
 * Members are written only as regular files and folders under a folder of the caller's (fresh, so
 * nothing in it is a link): a symbolic link or device among them, a name that is absolute or goes
 * up with `..`, a member that inflates past its declared size or fails its CRC-32, and members
 * whose sizes add up past a cap are refused with the member's name.
 */
import { closeSync, createReadStream, createWriteStream, fstatSync, mkdirSync, openSync, readSync } from 'node:fs';
import path from 'node:path';
import { PassThrough, Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { crc32, createInflateRaw } from 'node:zlib';

/** A wheel that cannot be unpacked safely; the message names the member and why. */
export class WheelError extends Error {}

export interface ZipMember {
  readonly name: string;
  readonly kind: 'file' | 'folder' | 'symbolic link' | 'special file';
  readonly method: number;
  readonly encrypted: boolean;
  readonly crc: number;
  readonly compressedSize: number;
  readonly size: number;
  readonly localOffset: number;
}

const EOCD = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_EOCD = 0x06064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
/** A central directory larger than this is no wheel's (TensorFlow's: 1.6 MB for 15,600 members). */
const MAX_DIRECTORY = 64 * 2 ** 20;

/** The members the wheel's central directory lists. */
export function listMembers(file: string): ZipMember[] {
  const fd = openSync(file, 'r');
  try {
    const size = fstatSync(fd).size;
    const { offset, length, count } = directoryExtent(fd, size);
    if (length > MAX_DIRECTORY) throw new WheelError(`its zip directory is ${length} bytes, more than any wheel's`);
    const dir = readAt(fd, offset, length);
    const members: ZipMember[] = [];
    for (let at = 0; members.length < count; ) {
      if (at + 46 > dir.length || dir.readUInt32LE(at) !== CENTRAL) throw new WheelError(`its zip directory is damaged at entry ${members.length + 1}`);
      const [member, next] = centralEntry(dir, at);
      if (member.localOffset + 30 > size) throw new WheelError(`its member ${member.name} starts past the end of the file`);
      members.push(member);
      at = next;
    }
    return members;
  } finally {
    closeSync(fd);
  }
}

/** Why `name` cannot be a path under the unpack folder, if it cannot. */
export function unsafeName(name: string): string | undefined {
  if (name === '' || name.includes('\0')) return 'has an empty or NUL name';
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name)) return 'is an absolute path';
  if (name.includes('\\')) return "has a '\\' in its name";
  if (name.split('/').includes('..')) return "goes up with '..'";
  return undefined;
}

/**
 * Writes `members` under `into` (an empty folder made for this unpack), in the wheel's order;
 * refused before anything is written when one is not a file or folder, or their sizes add up past `cap`.
 */
export async function unpackMembers(file: string, members: readonly ZipMember[], into: string, cap: number): Promise<void> {
  let total = 0;
  const seen = new Set<string>();
  for (const m of members) {
    const unsafe = unsafeName(m.name);
    if (unsafe) throw new WheelError(`its member ${JSON.stringify(m.name)} ${unsafe}`);
    if (m.kind !== 'file' && m.kind !== 'folder')
      throw new WheelError(`its member ${m.name} is a ${m.kind}; setup-native unpacks regular files and folders only`);
    if (m.encrypted) throw new WheelError(`its member ${m.name} is encrypted`);
    if (m.kind === 'file' && m.method !== 0 && m.method !== 8)
      throw new WheelError(`its member ${m.name} is compressed with zip method ${m.method} (a wheel uses 0 or 8)`);
    const key = m.name.replace(/\/+$/, '');
    if (seen.has(key)) throw new WheelError(`it names the member ${key} twice`);
    seen.add(key);
    total += m.size;
  }
  if (total > cap) {
    throw new WheelError(`the members setup-native needs declare ${gib(total)} GiB, more than the ${gib(cap)} GiB it unpacks from a wheel`);
  }
  for (const m of [...members].sort((a, b) => a.localOffset - b.localOffset)) {
    const dest = path.join(into, ...m.name.split('/').filter(Boolean));
    if (!dest.startsWith(`${into}${path.sep}`)) throw new WheelError(`its member ${JSON.stringify(m.name)} is not inside the unpack folder`);
    try {
      if (m.kind === 'folder') mkdirSync(dest, { recursive: true });
      else {
        mkdirSync(path.dirname(dest), { recursive: true });
        await unpackFile(file, m, dest);
      }
    } catch (err) {
      if (err instanceof WheelError) throw err;
      throw new WheelError(`its member ${m.name} could not be written: ${(err as Error).message}`);
    }
  }
}

async function unpackFile(file: string, m: ZipMember, dest: string): Promise<void> {
  const start = dataStart(file, m);
  const check = new SizeAndCrc(m);
  const out = createWriteStream(dest, { flags: 'wx', mode: 0o644 });
  const source =
    m.compressedSize === 0 ? new PassThrough().end() : createReadStream(file, { start, end: start + m.compressedSize - 1, highWaterMark: 2 ** 20 });
  try {
    await pipeline(source, m.method === 8 ? createInflateRaw() : new PassThrough(), check, out);
  } catch (err) {
    if (err instanceof WheelError) throw err;
    throw new WheelError(`its member ${m.name} does not unpack: ${(err as Error).message}`);
  }
  check.verify();
}

/** Counts and checksums what a member inflates to: stops at more than it declared. */
class SizeAndCrc extends Transform {
  private bytes = 0;
  private crc = 0;
  constructor(private readonly member: ZipMember) {
    super();
  }
  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.member.size) {
      done(new WheelError(`its member ${this.member.name} inflates past the ${this.member.size} bytes it declares`));
      return;
    }
    this.crc = crc32(chunk, this.crc);
    done(null, chunk);
  }
  verify(): void {
    if (this.bytes !== this.member.size)
      throw new WheelError(`its member ${this.member.name} has ${this.bytes} bytes, not the ${this.member.size} it declares`);
    if (this.crc >>> 0 !== this.member.crc >>> 0) throw new WheelError(`its member ${this.member.name} fails its CRC-32 check (a damaged download?)`);
  }
}

function dataStart(file: string, m: ZipMember): number {
  const fd = openSync(file, 'r');
  try {
    const header = readAt(fd, m.localOffset, 30);
    if (header.readUInt32LE(0) !== LOCAL) throw new WheelError(`its member ${m.name} has no local header where the directory says`);
    const start = m.localOffset + 30 + header.readUInt16LE(26) + header.readUInt16LE(28);
    if (start + m.compressedSize > fstatSync(fd).size) throw new WheelError(`its member ${m.name} runs past the end of the file`);
    return start;
  } finally {
    closeSync(fd);
  }
}

/** Where the central directory is and how many entries it has (zip64 included). */
function directoryExtent(fd: number, size: number): { offset: number; length: number; count: number } {
  const tailLength = Math.min(size, 22 + 0xffff);
  const tail = readAt(fd, size - tailLength, tailLength);
  let at = tail.length - 22;
  while (at >= 0 && tail.readUInt32LE(at) !== EOCD) at--;
  if (at < 0) throw new WheelError('it is not a zip file (no end of central directory)');
  let count = tail.readUInt16LE(at + 10);
  let length = tail.readUInt32LE(at + 12);
  let offset = tail.readUInt32LE(at + 16);
  if ((count === 0xffff || length === 0xffffffff || offset === 0xffffffff) && at >= 20 && tail.readUInt32LE(at - 20) === ZIP64_LOCATOR) {
    const record = readAt(fd, safeNumber(tail.readBigUInt64LE(at - 20 + 8)), 56);
    if (record.readUInt32LE(0) !== ZIP64_EOCD) throw new WheelError('its zip64 directory record is damaged');
    count = safeNumber(record.readBigUInt64LE(32));
    length = safeNumber(record.readBigUInt64LE(40));
    offset = safeNumber(record.readBigUInt64LE(48));
  }
  if (offset + length > size) throw new WheelError('its zip directory lies past the end of the file');
  return { offset, length, count };
}

function centralEntry(dir: Buffer, at: number): [ZipMember, number] {
  const nameLength = dir.readUInt16LE(at + 28);
  const extraLength = dir.readUInt16LE(at + 30);
  const next = at + 46 + nameLength + extraLength + dir.readUInt16LE(at + 32);
  if (next > dir.length) throw new WheelError('its zip directory is cut short');
  const flags = dir.readUInt16LE(at + 8);
  const rawName = dir.subarray(at + 46, at + 46 + nameLength);
  const name = rawName.toString(flags & 0x800 ? 'utf8' : 'latin1');
  let size = dir.readUInt32LE(at + 24);
  let compressedSize = dir.readUInt32LE(at + 20);
  let localOffset = dir.readUInt32LE(at + 42);
  // Zip64: the 32-bit fields that are all ones are in the extra field, in this order.
  for (let e = at + 46 + nameLength; e + 4 <= at + 46 + nameLength + extraLength; ) {
    const id = dir.readUInt16LE(e);
    const length = dir.readUInt16LE(e + 2);
    if (id === 1) {
      let field = e + 4;
      const take = () => (field + 8 <= e + 4 + length ? safeNumber(dir.readBigUInt64LE((field += 8) - 8)) : undefined);
      if (size === 0xffffffff) size = take() ?? size;
      if (compressedSize === 0xffffffff) compressedSize = take() ?? compressedSize;
      if (localOffset === 0xffffffff) localOffset = take() ?? localOffset;
    }
    e += 4 + length;
  }
  const member: ZipMember = {
    name,
    kind: kindOf(dir.readUInt16LE(at + 4) >> 8, dir.readUInt32LE(at + 38), name),
    method: dir.readUInt16LE(at + 10),
    encrypted: (flags & 1) !== 0,
    crc: dir.readUInt32LE(at + 16),
    compressedSize,
    size,
    localOffset,
  };
  return [member, next];
}

/** A member's kind from its Unix mode (host 3) or its DOS folder bit and trailing '/'. */
function kindOf(host: number, external: number, name: string): ZipMember['kind'] {
  const type = host === 3 ? (external >>> 16) & 0o170000 : 0;
  if (type === 0o120000) return 'symbolic link';
  if (type === 0o040000 || name.endsWith('/') || (type === 0 && external & 0x10)) return 'folder';
  if (type === 0o100000 || type === 0) return 'file';
  return 'special file';
}

function readAt(fd: number, position: number, length: number): Buffer {
  const buffer = Buffer.alloc(length);
  const read = readSync(fd, buffer, 0, length, position);
  if (read !== length) throw new WheelError('it ends before its zip directory says');
  return buffer;
}

function safeNumber(value: bigint): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new WheelError('its zip64 sizes are out of range');
  return Number(value);
}

function gib(bytes: number): string {
  return (bytes / 2 ** 30).toFixed(1);
}
