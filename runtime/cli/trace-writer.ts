/**
 * The trace file (`--trace`, trace.ts `TraceFile`) written as the run goes: each invocation is
 * appended as it ends, so the CLI holds none of them (100,000 calls kept every one: heap 24 →
 * 211 MB). It is written to a hidden file beside the target and renamed into place at the end, so
 * a reader (the language server, Run Graph) never sees half a trace; one a killed run left behind
 * is removed by the next run to the same target.
 */
import { closeSync, mkdirSync, openSync, readdirSync, renameSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';

/** Appended text is written once this much has gathered: a few writes per thousand calls. */
const FLUSH_CHARS = 1 << 16;

export class TraceWriter {
  private fd: number | undefined;
  private failure: Error | undefined;
  private pending = '';
  private count = 0;
  private readonly partial: string;

  /** `head`: the fields before the invocations (version, tool, target, …), in order. */
  constructor(
    private readonly file: string,
    head: Record<string, unknown>,
  ) {
    const dir = path.dirname(path.resolve(file));
    const stem = `.${path.basename(file)}.`;
    this.partial = path.join(dir, `${stem}${process.pid}.partial`);
    this.attempt(() => {
      mkdirSync(dir, { recursive: true });
      removeAbandoned(dir, stem);
      this.fd = openSync(this.partial, 'w');
    });
    // The head as JSON.stringify(…, null, 2) writes it, the closing brace left open.
    this.pending = `${JSON.stringify(head, null, 2).slice(0, -2)},\n  "invocations": [`;
  }

  add(invocation: unknown): void {
    if (this.fd === undefined) return;
    const text = JSON.stringify(invocation, null, 2).replace(/\n/g, '\n    ');
    this.pending += `${this.count++ === 0 ? '\n' : ',\n'}    ${text}`;
    if (this.pending.length >= FLUSH_CHARS) this.flush();
  }

  /** Writes `tail` (the fields after the invocations) and puts the file in place; throws what went wrong on the way. */
  finish(tail: Record<string, unknown>): void {
    const rest = JSON.stringify(tail, null, 2);
    this.pending += `${this.count > 0 ? '\n  ' : ''}${rest === '{}' ? ']\n}' : `],${rest.slice(1)}`}\n`;
    this.flush();
    this.attempt(() => {
      if (this.fd === undefined) return;
      closeSync(this.fd);
      this.fd = undefined;
      renameSync(this.partial, this.file);
    });
    if (this.failure) {
      rmSync(this.partial, { force: true });
      throw new Error(`cannot write the trace to ${this.file}: ${this.failure.message}`);
    }
  }

  private flush(): void {
    const text = this.pending;
    this.pending = '';
    this.attempt(() => {
      if (this.fd !== undefined) writeSync(this.fd, text);
    });
  }

  /** Runs an fs step; the first failure stops the writing and is reported by finish. */
  private attempt(step: () => void): void {
    if (this.failure) return;
    try {
      step();
    } catch (err) {
      this.failure = err instanceof Error ? err : new Error(String(err));
      if (this.fd !== undefined) closeSync(this.fd);
      this.fd = undefined;
    }
  }
}

/** Partial traces of `stem` whose process is gone (a run that was killed). */
function removeAbandoned(dir: string, stem: string): void {
  for (const name of readdirSync(dir)) {
    const pid = name.startsWith(stem) && name.endsWith('.partial') ? Number(name.slice(stem.length, -'.partial'.length)) : Number.NaN;
    if (Number.isInteger(pid) && pid > 0 && !isRunning(pid)) rmSync(path.join(dir, name), { force: true });
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
