/**
 * The last run's trace (the CLI's `--trace` JSON, runtime/cli/trace.ts): loaded when the client
 * says it changed, indexed by call site (file and 1-based line of the wrapper call, or of the
 * node in model.json), and summarised per call site for hovers and diagnostics.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { FileReadError, READ_LIMITS, readBoundedText } from '../../runtime/bounded-read.js';
import type { TraceFile } from '../../runtime/cli/trace.js';
import type { CallbackInvocation } from '../../runtime/events.js';
import { pathKey } from './positions.js';

export type TracedInvocation = CallbackInvocation;

/** What the last run observed at one call site. */
export interface ObservedSignature {
  readonly calls: number;
  readonly callbacks: readonly { name: string; token: string; functionName?: string }[];
  /** Distinct `in … → out …` signatures with how many calls had each, most frequent first. */
  readonly signatures: readonly { readonly inputs: string; readonly outputs: string; readonly count: number }[];
  readonly meanMs: number;
  readonly mismatchedCalls: number;
  /** TensorFlow's message of the last mismatch, all lines. */
  readonly lastMismatch?: string;
  readonly lastError?: string;
}

export class TraceStore {
  private byFile = new Map<string, Map<number, TracedInvocation[]>>();
  private file: string | undefined;
  private trace: TraceFile | undefined;
  /** Bumped by every load and clear: a slower earlier read must not overwrite a later one. */
  private generation = 0;

  get traceFile(): string | undefined {
    return this.file;
  }

  get target(): string | undefined {
    return this.trace?.target;
  }

  /**
   * (Re)reads the trace file (a regular file within the JSON cap, read without blocking the
   * server); on failure the store is empty and the reason is returned.
   */
  async load(traceFile: string): Promise<string | undefined> {
    const generation = ++this.generation;
    this.file = traceFile;
    this.trace = undefined;
    this.byFile = new Map();
    let parsed: TraceFile;
    try {
      const text = await readBoundedText(traceFile, { maxBytes: READ_LIMITS.json, what: 'the trace' });
      if (generation !== this.generation) return undefined; // a later load or clear won
      parsed = JSON.parse(text) as TraceFile;
    } catch (err) {
      // No run recorded yet (a fresh workspace): nothing to say.
      if (err instanceof FileReadError && err.reason === 'unreadable' && !existsSync(traceFile)) return undefined;
      return `cannot read the trace ${traceFile}: ${(err as Error).message}`;
    }
    if (!parsed || !Array.isArray(parsed.invocations)) return `${traceFile} is not a tfjs-callbacks trace (no invocations list)`;
    this.trace = parsed;
    const base = typeof parsed.cwd === 'string' ? parsed.cwd : path.dirname(traceFile);
    for (const inv of parsed.invocations) {
      const site = inv?.callSite;
      // Only well-formed entries: hovers and diagnostics read these fields without further checks.
      if (
        !site ||
        typeof site.file !== 'string' ||
        !Number.isInteger(site.line) ||
        typeof inv.callback?.name !== 'string' ||
        typeof inv.callback.token !== 'string'
      )
        continue;
      const key = pathKey(path.resolve(base, site.file));
      let lines = this.byFile.get(key);
      if (!lines) this.byFile.set(key, (lines = new Map()));
      const list = lines.get(site.line) ?? [];
      list.push(inv);
      lines.set(site.line, list);
    }
    return undefined;
  }

  clear(): void {
    this.generation++;
    this.byFile = new Map();
    this.trace = undefined;
    this.file = undefined;
  }

  /** Invocations whose call site is `file` at 1-based `line`. */
  at(file: string, line: number): readonly TracedInvocation[] {
    return this.byFile.get(pathKey(file))?.get(line) ?? [];
  }

  /** Every traced call site in `file`: 1-based line → invocations. */
  sitesIn(file: string): ReadonlyMap<number, readonly TracedInvocation[]> {
    return this.byFile.get(pathKey(file)) ?? new Map();
  }
}

export function observe(invocations: readonly TracedInvocation[]): ObservedSignature | undefined {
  if (invocations.length === 0) return undefined;
  const signatures = new Map<string, { inputs: string; outputs: string; count: number }>();
  const callbacks = new Map<string, { name: string; token: string; functionName?: string }>();
  let totalMs = 0;
  let mismatchedCalls = 0;
  let lastMismatch: string | undefined;
  let lastError: string | undefined;
  for (const inv of invocations) {
    const { name, token, functionName } = inv.callback;
    callbacks.set(`${name}|${token}`, { name, token, ...(functionName ? { functionName } : {}) });
    const inputs = list(inv.inputs);
    const outputs = inv.error ? '—' : list(inv.outputs);
    const key = `${inputs}→${outputs}`;
    const entry = signatures.get(key) ?? { inputs, outputs, count: 0 };
    entry.count++;
    signatures.set(key, entry);
    totalMs += Number(inv.durationMs) || 0;
    if (inv.toutCheck && !inv.toutCheck.ok) {
      mismatchedCalls++;
      lastMismatch = (Array.isArray(inv.toutCheck.mismatches) ? inv.toutCheck.mismatches : []).map((m) => String(m?.message)).join('\n');
    }
    if (inv.error) lastError = `${String(inv.error.name)}: ${String(inv.error.message)}`;
  }
  return {
    calls: invocations.length,
    callbacks: [...callbacks.values()],
    signatures: [...signatures.values()].sort((a, b) => b.count - a.count),
    meanMs: totalMs / invocations.length,
    mismatchedCalls,
    ...(lastMismatch !== undefined ? { lastMismatch } : {}),
    ...(lastError !== undefined ? { lastError } : {}),
  };
}

/** As runtime/summary.ts `signature` writes them, read defensively (the trace is a file on disk). */
function list(summaries: readonly { dtype: string; shape: readonly number[]; notAValue?: string }[] | undefined): string {
  if (!Array.isArray(summaries) || summaries.length === 0) return '()';
  return summaries
    .map((s) => (typeof s?.notAValue === 'string' ? s.notAValue : `${String(s?.dtype)}[${Array.isArray(s?.shape) ? s.shape.join(',') : '?'}]`))
    .join(', ');
}
