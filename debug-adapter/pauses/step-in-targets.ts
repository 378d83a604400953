/**
 * Step Into Target (`stepInTargets`, then `stepIn` with a `targetId`), as js-debug offers it: the
 * calls on the paused line from the paused position on, as V8 lists them
 * (`Debugger.getPossibleBreakpoints`, type 'call', over the line's generated code), each named by
 * the callee's text in the original source (`combine`, `x.map`). Stepping into one runs to its
 * call position (`Debugger.continueToLocation`), then steps in; the controller takes that one
 * intermediate pause (`StepTarget.reached`).
 */
import type { DebugProtocol } from '@vscode/debugprotocol';
import type { Protocol } from 'devtools-protocol';
import type { CdpConnection } from '../cdp/connection.js';
import type { Sources } from '../sources/sources.js';

/** A chosen target: where its call is in the generated code, its callee's text, and the frame it is called from. */
export interface StepTarget {
  readonly location: Protocol.Debugger.Location;
  readonly callee: string;
  readonly callFrameId: string;
}

export class StepInTargets {
  private readonly targets = new Map<number, StepTarget>();
  private nextId = 1;

  /** Targets of an earlier stop are gone. */
  reset(): void {
    this.targets.clear();
  }

  get(id: number): StepTarget | undefined {
    return this.targets.get(id);
  }

  /** The calls on the line `callFrame` is paused on, from its position on, first to last. */
  async list(cdp: CdpConnection, sources: Sources, callFrame: Protocol.Debugger.CallFrame): Promise<DebugProtocol.StepInTarget[]> {
    const calls = await callsOnLine(cdp, sources, callFrame.location);
    const text = calls[0] ? sources.text(calls[0].original.file)?.split('\n')[calls[0].original.line - 1] : undefined;
    return calls.map(({ location, original }) => {
      const id = this.nextId++;
      const label = calleeText(text, original.column);
      this.targets.set(id, { location, callee: label, callFrameId: callFrame.callFrameId });
      return { id, label, line: original.line, column: original.column + 1 };
    });
  }
}

/** A call on a line: its position in the generated code and in the user's source. */
interface LineCall {
  readonly location: Protocol.Debugger.Location;
  readonly original: { readonly file: string; readonly line: number; readonly column: number };
}

/**
 * The calls V8 lists on the source line of `at`, from `at` on (`Debugger.getPossibleBreakpoints`,
 * type 'call', over the line's generated code, which runs up to the first position of a later line).
 */
export async function callsOnLine(cdp: CdpConnection, sources: Sources, at: Protocol.Debugger.Location): Promise<LineCall[]> {
  const here = sources.original(at.scriptId, at.lineNumber, at.columnNumber ?? 0);
  if (!here) return [];
  const { locations } = await cdp
    .send('Debugger.getPossibleBreakpoints', { start: at, end: { scriptId: at.scriptId, lineNumber: at.lineNumber + 1, columnNumber: 0 } })
    .catch(() => ({ locations: [] as Protocol.Debugger.BreakLocation[] }));
  const out: LineCall[] = [];
  for (const location of locations) {
    const original = sources.original(location.scriptId, location.lineNumber, location.columnNumber ?? 0);
    if (!original || original.file !== here.file) continue;
    if (original.line !== here.line) {
      if (original.line > here.line) break;
      continue;
    }
    if (location.type !== 'call') continue;
    out.push({ location: { scriptId: location.scriptId, lineNumber: location.lineNumber, columnNumber: location.columnNumber ?? 0 }, original });
  }
  return out;
}

/** The callee at `column` of a source line: `combine`, `x.map`, `tf.tidy` (what precedes the call's `(`). */
export function calleeText(line: string | undefined, column: number): string {
  if (line === undefined) return 'call';
  const rest = line.slice(column);
  // V8 puts a method call's position on the method's name, after the object: the object leads it.
  const object = /[A-Za-z_$][\w$]*(?:\s*\??\.\s*[A-Za-z_$][\w$]*)*\s*\??\.\s*$/.exec(line.slice(0, column))?.[0] ?? '';
  const callee = /^(?:new\s+)?[A-Za-z_$][\w$]*(?:\s*\??\.\s*[A-Za-z_$#][\w$]*)*/.exec(rest)?.[0];
  if (callee) {
    const constructed = /^new\s+/.exec(callee);
    const name = `${object}${callee.slice(constructed?.[0].length ?? 0)}`.replace(/\s+/g, '');
    return constructed ? `new ${name}` : name;
  }
  return rest.slice(0, 20).trim() || 'call';
}

/** Whether a pause is at the target's call position (the end of the run to it). */
export function reached(target: StepTarget, event: Protocol.Debugger.PausedEvent): boolean {
  const top = event.callFrames[0]?.location;
  return (
    !!top &&
    top.scriptId === target.location.scriptId &&
    top.lineNumber === target.location.lineNumber &&
    (top.columnNumber ?? 0) === (target.location.columnNumber ?? 0)
  );
}

/**
 * The callee's function, when it is the program's own and its text evaluates without side effects
 * (`combine`, `obj.method`): a breakpoint on its call then stops in it whatever runs first on the
 * line (arguments are called before the call they are passed to). Undefined otherwise.
 */
export async function calleeFunction(cdp: CdpConnection, sources: Sources, target: StepTarget, isUser: (file: string) => boolean): Promise<string | undefined> {
  if (!/^[A-Za-z_$][\w$]*(\??\.[A-Za-z_$][\w$]*)*$/.test(target.callee)) return undefined;
  const r = await cdp
    .send('Debugger.evaluateOnCallFrame', { callFrameId: target.callFrameId, expression: target.callee, silent: true, throwOnSideEffect: true, timeout: 1000 })
    .catch(() => undefined);
  if (!r || r.exceptionDetails || r.result.type !== 'function' || !r.result.objectId) return undefined;
  const props = await cdp.send('Runtime.getProperties', { objectId: r.result.objectId, ownProperties: true }).catch(() => undefined);
  const location = props?.internalProperties?.find((p) => p.name === '[[FunctionLocation]]')?.value?.value as Protocol.Debugger.Location | undefined;
  const file = location ? sources.original(location.scriptId, location.lineNumber, location.columnNumber ?? 0)?.file : undefined;
  return file && isUser(file) ? r.result.objectId : undefined;
}
