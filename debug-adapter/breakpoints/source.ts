/**
 * Source breakpoints (through source maps, with conditions, hit counts and logpoints) and how they
 * bind: at once where the file's script is parsed; else before a CommonJS module holding it is
 * compiled (module-load.ts: the agent stops in Module.prototype._compile, where every require hook
 * hands over its output), before a source-mapped ES module runs (V8's instrumentation pause), when
 * the file starts (an entry breakpoint on its first position), or as V8 parses it; so breakpoints
 * set before launch hold from the first line, in every module a transpiler loads.
 */
import type { Protocol } from 'devtools-protocol';
import type { CdpConnection } from '../cdp/connection.js';
import { fileUrl } from '../paths.js';
import type { ModuleLoad } from '../debuggee/agent-protocol.js';
import type { ScriptInfo, Sources } from '../sources/sources.js';
import { loadScript, otherFileMessage } from './module-load.js';
import { logpointCondition } from './expressions.js';
import { parseHitCondition } from '../shared/hit-condition.js';
import { AdapterHitCounts, v8Condition, whyNoCounter } from './hit-counts.js';

export { hitConditionMet, parseHitCondition, type ParsedHitCondition } from '../shared/hit-condition.js';
export { v8Condition } from './hit-counts.js';

export interface SourceBreakpointSpec {
  /** 1-based. */
  readonly line: number;
  readonly condition?: string;
  readonly hitCondition?: string;
  readonly logMessage?: string;
}

export interface SourceBreakpoint {
  readonly id: number;
  readonly file: string;
  readonly spec: SourceBreakpointSpec;
  verified: boolean;
  /** The line it is bound to (1-based). */
  line: number;
  message?: string;
  /** Why it is never bound: its hit condition cannot be read (also its `message`). */
  readonly rejected?: string;
  readonly cdpIds: Set<string>;
  /**
   * The condition V8 evaluates where the line runs: the user's condition, then the hit count kept
   * in the debuggee and its hit condition, so a hit that does not stop costs no pause.
   */
  readonly v8Condition?: string;
  /**
   * With a hit condition: which hits stop, and the condition V8 gets when the adapter counts them
   * (a debuggee without its counter: hit-counts.ts): the user's condition alone, so each hit pauses.
   */
  readonly counted?: { readonly met: (hits: number) => boolean; readonly condition: string | undefined };
  /** Where V8 bound it on its line (1-based, in the source): a logpoint's line links there. */
  column?: number;
}

/** The condition V8 gets: the adapter's own counting drops the hit test from it. */
const conditionOf = (bp: SourceBreakpoint, whyNoCounter: string | undefined): { condition?: string } => {
  const condition = whyNoCounter !== undefined && bp.counted ? bp.counted.condition : bp.v8Condition;
  return condition === undefined ? {} : { condition };
};

/** Bound, or to be bound: everything but a breakpoint rejected for its hit condition. */
const bindable = (bp: SourceBreakpoint): boolean => bp.rejected === undefined;
const waiting = (bp: SourceBreakpoint): boolean => !bp.verified && bindable(bp);

export class BreakpointManager {
  private nextId = 1;
  /** Makes this adapter's hit-count keys its own (v8Condition). */
  private readonly keyPrefix = Math.random().toString(36).slice(2, 10);
  private readonly byFile = new Map<string, SourceBreakpoint[]>();
  private readonly byCdpId = new Map<string, SourceBreakpoint>();
  /** Entry breakpoints: CDP id → the file whose breakpoints bind when it starts. */
  private readonly entries = new Map<string, string>();
  /** V8's pause before each source-mapped ES module runs; set only while breakpoints wait to bind. */
  private instrumentationId: string | undefined;
  /** Whether this connection's debuggee counts hits (asked once, as the first breakpoint with a hit condition binds); if not, why. */
  private counter: { readonly cdp: CdpConnection; readonly why: string | undefined } | undefined;
  private readonly adapterHits = new AdapterHitCounts();
  /** Writes a line about a breakpoint to the Debug Console (logpoints.ts gives it the logpoints' writer). */
  private notice: ((text: string, bp: SourceBreakpoint) => void) | undefined;

  /** Binds one at a time: pauses, parsed scripts and the client's requests all bind. */
  private chain: Promise<unknown> = Promise.resolve();
  /** The waiting files the agent was last told of (module loads stop for them). */
  private told = '';

  constructor(
    private readonly cdp: () => CdpConnection | undefined,
    private readonly sources: Sources,
    private readonly changed: (bp: SourceBreakpoint) => void,
    /** The files whose breakpoints wait changed: the agent is told (its module-load stops). */
    private readonly waitingChanged: () => Promise<void> = async () => {},
  ) {}

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.chain.then(fn, fn);
    this.chain = run.catch(() => {});
    return run;
  }

  /** Files with breakpoints still to bind. */
  waitingFiles(): string[] {
    return [...this.byFile].filter(([, bps]) => bps.some(waiting)).map(([file]) => file);
  }

  /** The files a CommonJS module's compile stops for (debuggee/agent/module-loads.ts): none while the debugger is off. */
  watchedLoads(): string[] {
    return this.cdp() ? this.waitingFiles() : [];
  }

  /**
   * Replaces the breakpoints of `file`. Before the debuggee connects they are kept and bound later.
   * One whose hit condition cannot be read stays unverified, with why, and is never bound.
   */
  set(file: string, specs: readonly SourceBreakpointSpec[]): Promise<SourceBreakpoint[]> {
    return this.serial(async () => {
      for (const old of this.byFile.get(file) ?? []) await this.unbind(old);
      const bps = specs.map((spec) => this.create(file, spec));
      this.byFile.set(file, bps);
      if (this.cdp()) {
        await this.bindFile(file);
        await this.syncInstrumentation();
      }
      return bps;
    });
  }

  private create(file: string, spec: SourceBreakpointSpec): SourceBreakpoint {
    const hit = parseHitCondition(spec.hitCondition);
    const base = { id: this.nextId++, file, spec, verified: false, line: spec.line, cdpIds: new Set<string>() };
    if (!hit.ok) return { ...base, rejected: hit.message, message: hit.message };
    const counted = v8Condition(spec.condition, hit.source, `${this.keyPrefix}:${base.id}`);
    // A logpoint writes its line where it runs, once its condition and hit count hold: no pause.
    const logs = spec.logMessage === undefined ? undefined : logpointCondition(spec.logMessage, base.id);
    const condition = logs === undefined ? counted : counted === undefined ? logs : `(${counted}\n) && ${logs}`;
    const user = spec.condition?.trim() ? spec.condition : undefined;
    return {
      ...base,
      ...(condition === undefined ? {} : { v8Condition: condition }),
      ...(hit.source === undefined ? {} : { counted: { met: hit.met, condition: user } }),
    };
  }

  hasAny(): boolean {
    return [...this.byFile.values()].some((bps) => bps.some(bindable));
  }

  /** Binds everything known; called once the debugger is on. */
  bindAll(): Promise<void> {
    return this.serial(async () => {
      for (const file of this.byFile.keys()) await this.bindFile(file);
      await this.syncInstrumentation();
    });
  }

  /**
   * A breakpoint in a TS file that runs as compiled JS binds when that JS is about to run; this
   * pause costs a round trip per module, so it is on only while some breakpoint is unbound.
   */
  private async syncInstrumentation(): Promise<void> {
    const cdp = this.cdp();
    if (!cdp) return;
    const files = this.waitingFiles();
    if (files.join('\n') !== this.told) {
      this.told = files.join('\n');
      await this.waitingChanged();
    }
    const unbound = files.length > 0;
    if (unbound && !this.instrumentationId) {
      const instrumentation = 'beforeScriptWithSourceMapExecution';
      this.instrumentationId = (await cdp.send('Debugger.setInstrumentationBreakpoint', { instrumentation })).breakpointId;
    } else if (!unbound && this.instrumentationId) {
      const id = this.instrumentationId;
      this.instrumentationId = undefined;
      await cdp.send('Debugger.removeBreakpoint', { breakpointId: id }).catch(() => {});
    }
  }

  /** The column of V8's place on the breakpoint's own line, mapped to the source; 1 when it maps elsewhere. */
  private boundColumn(bp: SourceBreakpoint, at: Protocol.Debugger.Location | undefined): number | undefined {
    if (!at) return undefined;
    const original = this.sources.original(at.scriptId, at.lineNumber, at.columnNumber ?? 0);
    return original && original.file === bp.file && original.line === bp.line ? original.column + 1 : 1;
  }

  /** A breakpoint by its DAP id (a logpoint's line names it). */
  byId(id: number): SourceBreakpoint | undefined {
    for (const bps of this.byFile.values()) for (const bp of bps) if (bp.id === id) return bp;
    return undefined;
  }

  breakpointFor(cdpId: string): SourceBreakpoint | undefined {
    return this.byCdpId.get(cdpId);
  }

  isEntry(cdpId: string): boolean {
    return this.entries.has(cdpId);
  }

  /** At V8's pause before a source-mapped ES module runs (`data`: the script). */
  atInstrumentation(data: unknown): Promise<void> {
    const scriptId = (data as { scriptId?: string } | undefined)?.scriptId;
    return this.bindPending(scriptId ? this.sources.get(scriptId) : undefined);
  }

  /** At an entry or instrumentation pause, or as V8 parses a script: binds what waits for the scripts now parsed. */
  bindPending(script?: ScriptInfo): Promise<void> {
    return this.serial(async () => {
      const files = new Set<string>(this.entries.values());
      if (script) for (const f of script.sources ?? (script.file ? [script.file] : [])) files.add(f);
      for (const file of files) if (this.byFile.get(file)?.some(waiting)) await this.bindFile(file);
      await this.syncInstrumentation();
    });
  }

  /**
   * V8 parsed a script: breakpoints waiting for a file it holds bind now (a module no stop came
   * before: they hold from its functions' next calls), or say why a file of their name ran instead.
   */
  async scriptParsed(script: ScriptInfo): Promise<void> {
    const files = script.sources ?? (script.file ? [script.file] : []);
    const waits = this.waitingFiles();
    if (waits.length === 0) return;
    if (files.some((f) => waits.includes(f))) return this.bindPending(script);
    this.sayOtherFile(script);
  }

  /**
   * At the agent's stop before a CommonJS module is compiled: its breakpoints are set by URL where
   * its code's source map puts them, and V8 binds them as it parses the module, before it runs.
   */
  bindLoad(load: ModuleLoad): Promise<void> {
    return this.serial(async () => {
      const script = loadScript(this.sources, load, this.waitingFiles());
      if (!script) return;
      const files = this.sources.filesOf(script).filter((f) => this.byFile.get(f)?.some(waiting));
      for (const file of files) await this.bindFile(file);
      // Their entry breakpoints would only cost pauses (in a transpiled file, inside a helper).
      await this.dropEntries([...this.entries].filter(([, f]) => files.includes(f)).map(([id]) => id));
      await this.syncInstrumentation();
    });
  }

  /** A waiting breakpoint's file never ran under its own name: one of its name did, whose map does not name it. */
  private sayOtherFile(script: ScriptInfo): void {
    for (const [file, bps] of this.byFile) {
      const message = otherFileMessage(file, script, this.sources.filesOf(script));
      if (!message) continue;
      for (const bp of bps.filter(waiting)) {
        bp.message = message;
        this.changed(bp);
      }
    }
  }

  /**
   * The user's breakpoints among a pause's `hit` (CDP ids): V8 paused only for those whose
   * condition and hit condition held (v8Condition); logpoints apart. `any`: some breakpoint of the
   * user's was hit at all.
   */
  hitsAt(hit: readonly string[]): { any: boolean; breaking: SourceBreakpoint[]; logpoints: SourceBreakpoint[] } {
    const hits = hit.map((id) => this.breakpointFor(id)).filter((bp): bp is SourceBreakpoint => bp !== undefined);
    // Where the debuggee has no counter, V8 paused at every hit whose condition held: count it here.
    const adapterCounts = this.counter?.why !== undefined;
    const stopping = hits.filter((bp) => bindable(bp) && (!adapterCounts || !bp.counted || this.adapterHits.hit(bp.id, bp.counted.met)));
    return {
      any: hits.length > 0,
      breaking: stopping.filter((bp) => bp.spec.logMessage === undefined),
      logpoints: stopping.filter((bp) => bp.spec.logMessage !== undefined),
    };
  }

  /** Logpoints' writer, for a line about a breakpoint (where its hits are counted). */
  onNotice(write: (text: string, bp: SourceBreakpoint) => void): void {
    this.notice = write;
  }

  /** Why this connection's debuggee cannot count hits (asked once; the Debug Console is told once), or undefined. */
  private async whyNoCounter(cdp: CdpConnection): Promise<string | undefined> {
    if (this.counter?.cdp === cdp) return this.counter.why;
    const why = await whyNoCounter(cdp);
    this.counter = { cdp, why };
    const first = [...this.byFile.values()].flat().find((bp) => bp.counted);
    if (why !== undefined && first) this.notice?.(`${why}\n`, first);
    return why;
  }

  private async bindFile(file: string): Promise<void> {
    const cdp = this.cdp();
    if (!cdp) return;
    const bps = (this.byFile.get(file) ?? []).filter(bindable);
    const scripts = this.sources.scriptsFor(file);
    const why = bps.some((bp) => bp.counted) && scripts.length > 0 ? await this.whyNoCounter(cdp) : undefined;
    if (scripts.length === 0) {
      if (bps.length > 0) await this.ensureEntry(cdp, file);
      for (const bp of bps) if (!bp.verified && !bp.message) bp.message = 'Bound when the file is loaded.';
      return;
    }
    for (const bp of bps) {
      if (bp.verified) continue;
      for (const script of scripts) {
        const pos = this.sources.generated(script, file, bp.spec.line);
        if (!pos) continue;
        try {
          const result = await cdp.send('Debugger.setBreakpointByUrl', {
            url: script.url,
            lineNumber: pos.lineNumber,
            columnNumber: pos.columnNumber,
            ...conditionOf(bp, why),
          });
          bp.cdpIds.add(result.breakpointId);
          bp.column ??= this.boundColumn(bp, result.locations[0]);
          this.byCdpId.set(result.breakpointId, bp);
          bp.verified = true;
          bp.line = pos.line;
          delete bp.message;
        } catch (err) {
          bp.message = (err as Error).message;
        }
      }
      if (!bp.verified) bp.message = `No code at line ${bp.spec.line} or in the 20 lines after it.`;
      else if (why !== undefined && bp.counted) bp.message = why;
      this.changed(bp);
    }
  }

  /** Pauses (as an entry pause) when `file` starts running. */
  async watchEntry(file: string): Promise<void> {
    const cdp = this.cdp();
    if (cdp) await this.ensureEntry(cdp, file);
  }

  private async ensureEntry(cdp: CdpConnection, file: string): Promise<void> {
    if ([...this.entries.values()].includes(file)) return;
    const result = await cdp.send('Debugger.setBreakpointByUrl', { url: fileUrl(file), lineNumber: 0, columnNumber: 0 });
    this.entries.set(result.breakpointId, file);
  }

  /** Removes entry breakpoints that were hit: their files are running now. */
  async dropEntries(ids: readonly string[]): Promise<void> {
    const cdp = this.cdp();
    for (const id of ids) {
      if (!this.entries.delete(id)) continue;
      await cdp?.send('Debugger.removeBreakpoint', { breakpointId: id }).catch(() => {});
    }
  }

  private async unbind(bp: SourceBreakpoint): Promise<void> {
    const cdp = this.cdp();
    for (const id of bp.cdpIds) {
      this.byCdpId.delete(id);
      await cdp?.send('Debugger.removeBreakpoint', { breakpointId: id }).catch(() => {});
    }
    bp.cdpIds.clear();
  }
}

export type PausedEvent = Protocol.Debugger.PausedEvent;
