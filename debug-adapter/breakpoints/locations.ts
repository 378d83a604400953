/**
 * `breakpointLocations`: where on a line a breakpoint can go (VS Code's inline markers), as V8
 * says: `Debugger.getPossibleBreakpoints` over the generated code of each requested line, each
 * position mapped back through the source map to the original column. A file no script holds
 * yet (not loaded, or the debugger still off) has none: an empty answer, no error.
 */
import { LEAST_UPPER_BOUND, generatedPositionFor, originalPositionFor } from '@jridgewell/trace-mapping';
import type { Protocol } from 'devtools-protocol';
import type { CdpConnection } from '../cdp/connection.js';
import type { ScriptInfo, Sources } from '../sources/sources.js';

/** A possible breakpoint: 1-based line, 0-based column, in the original file. */
export interface BreakpointPosition {
  readonly line: number;
  readonly column: number;
}

/** The most lines one request covers: a client asking for a whole file gets its first 1,000. */
const MAX_LINES = 1000;

/** The possible breakpoint positions on lines `line`…`endLine` (1-based, inclusive) of `file`. */
export async function breakpointLocations(
  cdp: CdpConnection | undefined,
  sources: Sources,
  file: string,
  line: number,
  endLine = line,
): Promise<BreakpointPosition[]> {
  if (!cdp || !Number.isSafeInteger(line) || !Number.isSafeInteger(endLine) || line < 1 || endLine < line) return [];
  const last = Math.min(endLine, line + MAX_LINES - 1);
  const found = new Map<string, BreakpointPosition>();
  for (const script of sources.scriptsFor(file)) {
    const range = generatedRange(script, file, line, last);
    if (!range) continue;
    let locations: Protocol.Debugger.BreakLocation[];
    try {
      ({ locations } = await cdp.send('Debugger.getPossibleBreakpoints', { start: range.start, end: range.end }));
    } catch {
      continue; // the script is gone, or the debugger is off
    }
    for (const at of locations) {
      const original = originalOf(script, file, at);
      if (original && original.line >= line && original.line <= last) found.set(`${original.line}:${original.column}`, original);
    }
  }
  return [...found.values()].sort((a, b) => a.line - b.line || a.column - b.column);
}

/** The generated range that runs lines `line`…`last` of `file` in `script`. */
function generatedRange(
  script: ScriptInfo,
  file: string,
  line: number,
  last: number,
): { start: Protocol.Debugger.Location; end: Protocol.Debugger.Location } | undefined {
  const { scriptId } = script;
  if (!script.map) {
    if (script.file !== file) return undefined;
    return { start: { scriptId, lineNumber: line - 1, columnNumber: 0 }, end: { scriptId, lineNumber: last, columnNumber: 0 } };
  }
  const index = script.sources?.indexOf(file) ?? -1;
  const source = index >= 0 ? script.map.sources[index] : undefined;
  if (source === undefined || source === null) return undefined;
  // The first generated position of the first line with code from `line` on, and of the first after `last`.
  const first = firstGenerated(script, source, line, last);
  if (!first) return undefined;
  const after = firstGenerated(script, source, last + 1, last + 200);
  return {
    start: { scriptId, lineNumber: first.line - 1, columnNumber: first.column },
    end: after ? { scriptId, lineNumber: after.line - 1, columnNumber: after.column } : { scriptId, lineNumber: first.line + 1, columnNumber: 0 },
  };
}

function firstGenerated(script: ScriptInfo, source: string, from: number, to: number): { line: number; column: number } | undefined {
  for (let l = from; l <= to; l++) {
    const pos = generatedPositionFor(script.map!, { source, line: l, column: 0, bias: LEAST_UPPER_BOUND });
    if (pos.line === null || pos.column === null) continue;
    const back = originalPositionFor(script.map!, { line: pos.line, column: pos.column });
    if (back.line !== null && back.line >= from) return { line: pos.line, column: pos.column };
  }
  return undefined;
}

/** Where a generated location is in `file`, or undefined when it maps elsewhere. */
function originalOf(script: ScriptInfo, file: string, at: Protocol.Debugger.BreakLocation): BreakpointPosition | undefined {
  if (!script.map) return { line: at.lineNumber + 1, column: at.columnNumber ?? 0 };
  const pos = originalPositionFor(script.map, { line: at.lineNumber + 1, column: at.columnNumber ?? 0 });
  if (pos.line === null || pos.source === null) return undefined;
  // originalPositionFor answers with the resolved source (the map's `sources` entry resolved against its URL).
  const index = script.map.resolvedSources.indexOf(pos.source);
  if (index < 0 || script.sources?.[index] !== file) return undefined;
  return { line: pos.line, column: pos.column ?? 0 };
}
