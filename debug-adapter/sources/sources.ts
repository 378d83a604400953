/**
 * Scripts the debuggee parsed and their source maps: generated ↔ original positions.
 * tsx puts a whole module on one generated line, so breakpoints need the map's exact columns.
 * Lines and columns here: `line` 1-based, `column` 0-based (trace-mapping's convention); CDP's
 * are both 0-based.
 */
import { READ_LIMITS, readBoundedTextSync } from '../../runtime/bounded-read.js';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { helperLines } from './compiled-code.js';
import {
  decodedMappings,
  GREATEST_LOWER_BOUND,
  LEAST_UPPER_BOUND,
  TraceMap,
  generatedPositionFor,
  originalPositionFor,
  sourceContentFor,
} from '@jridgewell/trace-mapping';
import type { Protocol } from 'devtools-protocol';

export interface ScriptInfo {
  readonly scriptId: string;
  readonly url: string;
  /** The file, for file: URLs. */
  readonly file?: string;
  readonly sourceMapURL?: string;
  /** A WebAssembly module (tfjs-backend-wasm's): never the user's code. */
  readonly wasm?: boolean;
  map?: TraceMap | null;
  /** Original file paths the map covers, in the map's order. */
  sources?: string[];
  /** Lines (0-based) that define a compiler's helper (compiled-code.ts), once its generated text was read. */
  helperLines?: ReadonlySet<number>;
  /** A CommonJS module not parsed yet, seen as it is compiled (breakpoints/module-load.ts): V8's script replaces it. */
  readonly predicted?: boolean;
}

export interface OriginalPosition {
  readonly file: string;
  readonly line: number;
  readonly column: number;
}

export interface GeneratedPosition {
  readonly script: ScriptInfo;
  /** CDP (0-based) position. */
  readonly lineNumber: number;
  readonly columnNumber: number;
}

/** How far to look for the next line with code when a breakpoint sits on a blank or comment line. */
const LINE_SEARCH = 20;

export class Sources {
  /**
   * `lazyDirs`: directories whose scripts' maps are read only on demand (the runtime's own, say).
   * `ownUrl`: the URL the adapter's own evaluations in the debuggee carry (`//# sourceURL=`).
   */
  constructor(
    private readonly lazyDirs: readonly string[] = [],
    private readonly ownUrl?: string,
  ) {}

  private readonly scripts = new Map<string, ScriptInfo>();
  /** Told of each script added, once its map (for the user's code) is read. */
  private readonly added: ((script: ScriptInfo) => void)[] = [];
  /** Original file → scripts whose maps (or which themselves) cover it. */
  private readonly byFile = new Map<string, Set<ScriptInfo>>();
  /** Modules seen as they are compiled, by URL, until V8 parses them. */
  private readonly predicted = new Map<string, ScriptInfo>();

  /** The script V8 parsed; kept, and told to the listeners, unless it shows nowhere (`keeps`). */
  add(event: Protocol.Debugger.ScriptParsedEvent): ScriptInfo {
    const file = event.url.startsWith('file://') ? fileURLToPath(event.url) : undefined;
    const script: ScriptInfo = {
      scriptId: event.scriptId,
      url: event.url,
      ...(file ? { file } : {}),
      ...(event.sourceMapURL ? { sourceMapURL: event.sourceMapURL } : {}),
      ...(event.scriptLanguage === 'WebAssembly' ? { wasm: true } : {}),
    };
    if (!this.keeps(script)) return script;
    this.replacePredicted(script);
    this.scripts.set(event.scriptId, script);
    if (file) {
      this.index(file, script);
      // Maps of the user's code are read now so breakpoints bind at once; libraries' lazily.
      const library = file.includes(`${path.sep}node_modules${path.sep}`) || this.lazyDirs.some((dir) => file.startsWith(dir + path.sep));
      if (!library) this.mapOf(script);
    }
    for (const listener of this.added) listener(script);
    return script;
  }

  /**
   * V8 announces a script for every evaluation: each call the adapter makes into the agent, each
   * watch, hover and completion, a dozen a stop. One with neither a URL nor a source map, or one of
   * the adapter's own calls, shows nowhere (Loaded Scripts, frames' sources and breakpoints go by
   * file or map; a frame in it is named by its call frame's URL), so it is not kept: kept, a long
   * session's scripts grew with its stops (22,800 more from stop 100 to stop 2,000).
   */
  private keeps(script: ScriptInfo): boolean {
    return script.url !== this.ownUrl && (script.url !== '' || script.sourceMapURL !== undefined);
  }

  /**
   * A CommonJS module about to be compiled from `file` (its code's source map, if any): indexed
   * like a parsed script, so its breakpoints can be set by URL before V8 parses it.
   */
  predict(file: string, sourceMapURL: string | undefined): ScriptInfo {
    const url = pathToFileURL(file).href;
    const script: ScriptInfo = { scriptId: `predicted:${url}`, url, file, predicted: true, ...(sourceMapURL ? { sourceMapURL } : {}) };
    this.predicted.set(url, script);
    this.index(file, script);
    this.mapOf(script);
    return script;
  }

  /** V8 parsed the predicted module: its script takes the prediction's place (and its map, when the same). */
  private replacePredicted(script: ScriptInfo): void {
    const predicted = this.predicted.get(script.url);
    if (!predicted) return;
    this.predicted.delete(script.url);
    for (const set of this.byFile.values()) set.delete(predicted);
    if (predicted.map && predicted.sourceMapURL === script.sourceMapURL) {
      script.map = predicted.map;
      script.sources = predicted.sources;
      for (const file of script.sources ?? []) this.index(file, script);
    }
  }

  /**
   * Whether a generated line of a source-mapped script is the compiler's: a line its map leaves out
   * (TypeScript's `__importStar` and its re-export getters, babel's helpers in a CommonJS file),
   * while each line of the user's code has its mappings; or a line defining a helper babel maps to
   * the statement that asked for it (compiled-code.ts). False where the script has no map.
   */
  compiled({ scriptId, lineNumber }: { readonly scriptId: string; readonly lineNumber: number }): boolean {
    const script = this.scripts.get(scriptId);
    const map = script ? this.mapOf(script) : null;
    if (!map) return false;
    if (script!.helperLines?.has(lineNumber)) return true;
    const lines = decodedMappings(map);
    if (lineNumber >= lines.length) return false;
    return !lines[lineNumber]!.some((segment) => segment.length >= 4);
  }

  /** Whether a position lies after a source-mapped script's last mapped line: its module's end. */
  atEnd({ scriptId, lineNumber }: { readonly scriptId: string; readonly lineNumber: number }): boolean {
    const script = this.scripts.get(scriptId);
    const map = script ? this.mapOf(script) : null;
    return !!map && lineNumber >= decodedMappings(map).length;
  }

  /** Finds the helper lines of a source-mapped script from its generated `text` (compiled-code.ts). */
  markHelpers(script: ScriptInfo, text: string): void {
    const map = this.mapOf(script);
    if (!map) return;
    const lines = decodedMappings(map);
    const originals = new Map<string, string[] | undefined>();
    const textOf = (file: string, line: number): string => {
      if (!originals.has(file)) originals.set(file, this.text(file)?.split('\n'));
      return originals.get(file)?.[line] ?? '';
    };
    script.helperLines = helperLines(text, (line) => {
      const at = new Map<string, [string, number]>();
      for (const s of lines[line] ?? []) if (s.length >= 4 && script.sources?.[s[1]!]) at.set(`${s[1]}:${s[2]}`, [script.sources[s[1]!]!, s[2]!]);
      return [...at.values()].map(([file, l]) => textOf(file, l));
    });
  }

  /** A source-mapped script's runs of compiled lines (`compiled`), as [first, end) CDP line numbers. */
  compiledLines(script: ScriptInfo): [number, number][] {
    const map = this.mapOf(script);
    if (!map) return [];
    const runs: [number, number][] = [];
    for (const [line, segments] of decodedMappings(map).entries()) {
      if (segments.some((segment) => segment.length >= 4) && !script.helperLines?.has(line)) continue;
      const last = runs.at(-1);
      if (last && last[1] === line) last[1] = line + 1;
      else runs.push([line, line + 1]);
    }
    return runs;
  }

  /** How many scripts are kept. */
  get size(): number {
    return this.scripts.size;
  }

  /** Calls `listener` with each script added from now on. */
  onAdded(listener: (script: ScriptInfo) => void): void {
    this.added.push(listener);
  }

  /** Every script kept so far. */
  all(): ScriptInfo[] {
    return [...this.scripts.values()];
  }

  /** The original files a script holds: its map's sources (read now if need be), else its own file. */
  filesOf(script: ScriptInfo): string[] {
    this.mapOf(script);
    return script.sources ?? (script.file ? [script.file] : []);
  }

  get(scriptId: string): ScriptInfo | undefined {
    return this.scripts.get(scriptId);
  }

  /** The text of an original file: its map's sourcesContent, else the file on disk. */
  text(file: string): string | undefined {
    for (const script of this.byFile.get(file) ?? []) {
      const key = script.map ? this.sourceKey(script, file) : undefined;
      const content = key !== undefined ? sourceContentFor(script.map!, key) : null;
      if (content) return content;
    }
    try {
      return readBoundedTextSync(file, { maxBytes: READ_LIMITS.source, what: 'Source file' });
    } catch {
      return undefined;
    }
  }

  /** Scripts that hold code of `file` (directly or through a source map). */
  scriptsFor(file: string): ScriptInfo[] {
    return [...(this.byFile.get(file) ?? [])];
  }

  original(scriptId: string, lineNumber: number, columnNumber: number): OriginalPosition | undefined {
    const script = this.scripts.get(scriptId);
    if (!script) return undefined;
    const map = this.mapOf(script);
    if (map) {
      for (const bias of [GREATEST_LOWER_BOUND, LEAST_UPPER_BOUND] as const) {
        const pos = originalPositionFor(map, { line: lineNumber + 1, column: columnNumber, bias });
        if (pos.source && pos.line !== null) return { file: toFile(pos.source), line: pos.line, column: pos.column ?? 0 };
      }
      const end = this.pastTheMap(script, map, lineNumber);
      if (end) return end;
    }
    return script.file ? { file: script.file, line: lineNumber + 1, column: columnNumber } : undefined;
  }

  /**
   * A position after a map's last mapped line (a transpiled module's end, where its function
   * returns): the last position the map names, as the end of a plain file shows on its last line.
   */
  private pastTheMap(script: ScriptInfo, map: TraceMap, lineNumber: number): OriginalPosition | undefined {
    if (!this.atEnd({ scriptId: script.scriptId, lineNumber })) return undefined;
    const lines = decodedMappings(map);
    for (let line = lines.length - 1; line >= 0; line--) {
      const last = lines[line]!.findLast((segment) => segment.length >= 4);
      const file = last && script.sources?.[last[1]!];
      if (last && file) return { file, line: last[2]! + 1, column: last[3]! };
    }
    return undefined;
  }

  /**
   * Where `file:line` (1-based) runs in `script`: the first code position on that line, or on the
   * next line with code. Returns the line actually used.
   */
  generated(script: ScriptInfo, file: string, line: number): (GeneratedPosition & { line: number }) | undefined {
    const map = this.mapOf(script);
    if (!map) {
      return script.file === file ? { script, lineNumber: line - 1, columnNumber: 0, line } : undefined;
    }
    const source = this.sourceKey(script, file);
    if (source === undefined) return undefined;
    for (let l = line; l < line + LINE_SEARCH; l++) {
      const pos = generatedPositionFor(map, { source, line: l, column: 0, bias: LEAST_UPPER_BOUND });
      if (pos.line !== null && pos.column !== null) {
        // LEAST_UPPER_BOUND may jump to a later line: keep it only if it maps back to line l.
        const back = originalPositionFor(map, { line: pos.line, column: pos.column });
        if (back.line === l) return { script, lineNumber: pos.line - 1, columnNumber: pos.column, line: l };
      }
    }
    return undefined;
  }

  private sourceKey(script: ScriptInfo, file: string): string | undefined {
    const map = script.map;
    if (!map || !script.sources) return undefined;
    const i = script.sources.indexOf(file);
    return i >= 0 ? (map.sources[i] ?? undefined) : undefined;
  }

  private mapOf(script: ScriptInfo): TraceMap | null {
    if (script.map !== undefined) return script.map;
    script.map = null;
    if (!script.sourceMapURL) return null;
    try {
      const raw = loadMap(script);
      const map = new TraceMap(raw, script.url);
      script.map = map;
      script.sources = map.resolvedSources.map((s) => toFile(s ?? ''));
      for (const file of script.sources) this.index(file, script);
    } catch {
      script.map = null;
    }
    return script.map;
  }

  private index(file: string, script: ScriptInfo): void {
    let set = this.byFile.get(file);
    if (!set) this.byFile.set(file, (set = new Set()));
    set.add(script);
  }
}

function loadMap(script: ScriptInfo): string {
  const url = script.sourceMapURL!;
  if (url.startsWith('data:')) {
    const comma = url.indexOf(',');
    const meta = url.slice(0, comma);
    const body = url.slice(comma + 1);
    return meta.endsWith(';base64') ? Buffer.from(body, 'base64').toString('utf8') : decodeURIComponent(body);
  }
  const mapFile = url.startsWith('file://') ? fileURLToPath(url) : path.resolve(path.dirname(script.file ?? ''), url);
  return readBoundedTextSync(mapFile, { maxBytes: READ_LIMITS.json, what: 'Source map' });
}

function toFile(source: string): string {
  return source.startsWith('file://') ? fileURLToPath(source) : path.resolve(source);
}
