/**
 * The program's other processes and threads (a fork of itself, its worker threads) are counted in
 * the CLI's one summary and trace: each prints its invocations as they end, as the program's own
 * process does, and leaves them (and --find-nan's births) in the run's share folder, one JSON line
 * each, written as they end, so a process that is killed loses nothing that had ended. The
 * program's own process reads them all as it reports (program-report.ts).
 */
import { closeSync, constants, openSync, readdirSync, readSync, writeSync } from 'node:fs';
import path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { threadId } from 'node:worker_threads';
import type { CallbackInvocation, CallbackObserver } from '../events.js';
import type { OpBirth, OpBirthObserver } from '../hook-types.js';
import { formatInvocation } from './format.js';
import { type BirthRecord, recordOf } from './nan-report.js';

/** One line of a share file. */
export type SharedRecord = { readonly invocation: CallbackInvocation } | { readonly birth: BirthRecord };

const SHARE_SUFFIX = '.jsonl';

/** What a fork or a worker thread of the program records: printed, and written to its share file. */
export class ShareWriter implements CallbackObserver, OpBirthObserver {
  private fd: number | undefined;
  private failed = false;
  private readonly file: string;

  constructor(
    shareDir: string,
    private readonly print: (line: string) => void,
    private readonly warn: (line: string) => void,
  ) {
    this.file = path.join(shareDir, `${process.pid}-${threadId}${SHARE_SUFFIX}`);
  }

  onCallbackEnd(invocation: CallbackInvocation): void {
    this.print(formatInvocation(invocation));
    this.write({ invocation });
  }

  onBirth(birth: OpBirth): void {
    this.write({ birth: recordOf(birth) });
  }

  private write(record: SharedRecord): void {
    if (this.failed) return;
    try {
      this.fd ??= openSync(this.file, 'a');
      writeSync(this.fd, `${JSON.stringify(record)}\n`);
    } catch (err) {
      this.failed = true;
      this.warn(
        `tfjs-callbacks: process ${process.pid} could not leave its invocations for the run's summary (${(err as Error).message}): they are printed above but not counted`,
      );
      if (this.fd !== undefined) closeSync(this.fd);
    }
  }
}

/** Reads every share file in `shareDir`, record by record; the number of processes and threads that left one. */
export function readShared(shareDir: string, add: (record: SharedRecord) => void): number {
  let names: string[];
  try {
    names = readdirSync(shareDir).filter((n) => n.endsWith(SHARE_SUFFIX));
  } catch {
    return 0;
  }
  for (const name of names) forEachLine(path.join(shareDir, name), (line) => parseLine(line, add));
  return names.length;
}

function parseLine(line: string, add: (record: SharedRecord) => void): void {
  try {
    add(JSON.parse(line) as SharedRecord);
  } catch {
    // The last line of a process killed while it wrote: that invocation is lost, the others are not.
  }
}

/** A file's lines, read in chunks (a hot callback in a fork may leave many megabytes). */
function forEachLine(file: string, each: (line: string) => void): void {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch {
    return;
  }
  try {
    const chunk = Buffer.alloc(1 << 16);
    const decoder = new StringDecoder('utf8');
    let rest = '';
    for (let n = readSync(fd, chunk); n > 0; n = readSync(fd, chunk)) {
      const lines = (rest + decoder.write(chunk.subarray(0, n))).split('\n');
      rest = lines.pop()!;
      for (const line of lines) if (line) each(line);
    }
    if (rest) each(rest);
  } finally {
    closeSync(fd);
  }
}
