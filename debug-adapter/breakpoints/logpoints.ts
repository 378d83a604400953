/**
 * Logpoints: source breakpoints with a message (source.ts binds them and counts their hits). What
 * one writes when hit: its message, its `{expressions}` evaluated in the paused frame
 * (expressions.ts), and where the line comes from, so the Debug Console links it (`graph.ts:8`) as
 * js-debug does: the logpoint's file and line, and the column V8 paused at, mapped to the source.
 */
import type { DebugProtocol } from '@vscode/debugprotocol';
import type { Protocol } from 'devtools-protocol';
import type { CdpConnection } from '../cdp/connection.js';
import { LOGPOINT_BINDING, type LogpointNotice } from '../debuggee/agent-protocol.js';
import { logMessage } from './expressions.js';
import type { BreakpointManager, SourceBreakpoint } from './source.js';
import type { Sources } from '../sources/sources.js';

export interface LogpointLocation {
  readonly file: string;
  /** 1-based. */
  readonly line: number;
  /** 1-based. */
  readonly column: number;
}

/** The logpoint's place: the paused position when it maps into the logpoint's file and line, else the line's start. */
export function logpointLocation(sources: Sources, bp: SourceBreakpoint, top: Protocol.Debugger.CallFrame): LogpointLocation {
  const at = sources.original(top.location.scriptId, top.location.lineNumber, top.location.columnNumber ?? 0);
  if (at && at.file === bp.file && at.line === bp.line) return { file: bp.file, line: bp.line, column: at.column + 1 };
  return { file: bp.file, line: bp.line, column: 1 };
}

/** The lines logpoints hit at a pause write: each message evaluated in the paused frame, with its place. */
export async function logpointLines(
  cdp: CdpConnection,
  sources: Sources,
  logpoints: readonly SourceBreakpoint[],
  top: Protocol.Debugger.CallFrame,
): Promise<{ text: string; where: LogpointLocation }[]> {
  const lines: { text: string; where: LogpointLocation }[] = [];
  for (const bp of logpoints)
    lines.push({ text: `${await logMessage(cdp, bp.spec.logMessage!, top.callFrameId)}\n`, where: logpointLocation(sources, bp, top) });
  return lines;
}

/** The output event's body for a logpoint's text (lines and columns as the client counts them). */
export function logpointOutput(
  text: string,
  where: LogpointLocation,
  client: { line: (l: number) => number; column: (c: number) => number },
): DebugProtocol.OutputEvent['body'] {
  return {
    category: 'console',
    output: text,
    source: { name: where.file.split('/').pop()!, path: where.file },
    line: client.line(where.line),
    column: client.column(where.column),
  };
}

/**
 * Hears the lines logpoints write where they run (the agent's LOGPOINT_BINDING; source.ts gives V8
 * the condition that writes them), each with its logpoint's place.
 */
export async function listenForLogpoints(
  cdp: CdpConnection,
  breakpoints: BreakpointManager,
  write: (text: string, where: LogpointLocation) => void,
): Promise<void> {
  // Where hits are counted, when it is not where the user expects (source.ts), said at the breakpoint's place.
  breakpoints.onNotice((text, bp) => write(text, { file: bp.file, line: bp.line, column: bp.column ?? 1 }));
  cdp.on('Runtime.bindingCalled', (e) => {
    if (e.name !== LOGPOINT_BINDING) return;
    const { id, text } = JSON.parse(e.payload) as LogpointNotice;
    const bp = breakpoints.byId(id);
    if (bp?.spec.logMessage !== undefined) write(`${text}\n`, { file: bp.file, line: bp.line, column: bp.column ?? 1 });
  });
  await cdp.send('Runtime.addBinding', { name: LOGPOINT_BINDING });
}
