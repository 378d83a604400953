/**
 * The call stack shown for a stop: source-mapped JS frames, the agent's frames hidden, the
 * runtime's and libraries' frames deemphasized, and a synthetic graph frame for each callback
 * invocation under way ("model › node (EagerPyFunc)"), placed below the callback's own frames.
 */
import path from 'node:path';
import type { Protocol } from 'devtools-protocol';
import { AGENT, displayName } from './agent-access.js';
import type { Controller, PausedState } from './controller.js';
import type { ActiveSnapshot } from './debuggee/agent.js';
import { offsetOf, positionOf, returnStatementStart } from './js-scan.js';
import { adapterPaths } from './paths.js';

export const AGENT_SOURCE_URL = 'tfjs-callback-debugger-agent.js';

export interface SourceRef {
  /** None for Node's own modules (`node:internal/...`): named, with no file to open. */
  readonly path?: string;
  readonly name: string;
}

export interface JsFrame {
  readonly kind: 'js';
  readonly name: string;
  readonly callFrame: Protocol.Debugger.CallFrame;
  readonly source?: SourceRef;
  readonly line: number;
  readonly column: number;
  readonly subtle: boolean;
  /** Set on the callback's own frame. */
  readonly active?: ActiveSnapshot;
}

export interface GraphFrame {
  readonly kind: 'graph';
  readonly name: string;
  readonly active: ActiveSnapshot;
  readonly source?: SourceRef;
  readonly line: number;
  readonly column: number;
  /** The end of the node's name in model.json, so the editor highlights just that node. */
  readonly endLine?: number;
  readonly endColumn?: number;
  /** The JS frame evaluations in this frame run on (the callback's frame, or the top one). */
  readonly evalFrame?: Protocol.Debugger.CallFrame;
  /** Whether evalFrame is the callback's own frame (it is still running). */
  readonly evalInCallback: boolean;
}

export type StackFrameEntry = JsFrame | GraphFrame;

export async function buildStack(controller: Controller, paused: PausedState): Promise<StackFrameEntry[]> {
  const js: JsFrame[] = [];
  for (const [index, callFrame] of paused.event.callFrames.entries()) {
    const script = controller.sources.get(callFrame.location.scriptId);
    const url = script?.url ?? callFrame.url;
    if (url.endsWith(AGENT_SOURCE_URL) || script?.file === adapterPaths.agent) continue;
    const library = isLibrary(script?.file) || url.startsWith('node:');
    // A frame paused on a return: V8 puts that break location at the end of the return statement
    // (exclusive), which in tsx's whitespace-minified output is the function's `}`, and that maps
    // to the closing brace's line. The character before it is the statement's own.
    const column = callFrame.location.columnNumber ?? 0;
    const onReturn = index === 0 && !library && !!script?.map && column > 0 && (await isReturnLocation(controller, callFrame.location));
    const at = onReturn ? column - 1 : column;
    // Libraries' maps point at sources that are not installed: show their generated code.
    const original = library && script?.file
      ? { file: script.file, line: callFrame.location.lineNumber + 1, column }
      : controller.sources.original(callFrame.location.scriptId, callFrame.location.lineNumber, at);
    const file = original?.file;
    const subtle = !file || library || isLibrary(file);
    js.push({
      kind: 'js',
      name: callFrame.functionName || (callFrame.scopeChain[0]?.type === 'module' ? '<module>' : '(anonymous)'),
      callFrame,
      // Node's internals are named as js-debug names them, not left as "Unknown Source".
      ...(file ? { source: { path: file, name: path.basename(file) } } : url.startsWith('node:') ? { source: { name: url } } : {}),
      line: original?.line ?? callFrame.location.lineNumber + 1,
      column: (original?.column ?? callFrame.location.columnNumber ?? 0) + 1,
      subtle,
    });
  }
  if (paused.active.length === 0) return js;

  // Each invocation's graph frame goes right below the deepest frame of its callback function.
  const out: StackFrameEntry[] = [...js];
  for (const active of [...paused.active].reverse()) {
    const location = await functionLocation(controller, active.id);
    let index = -1;
    if (location) {
      for (let i = 0; i < out.length; i++) {
        const f = out[i]!;
        if (f.kind === 'js' && sameLocation(f.callFrame.functionLocation, location)) index = i;
      }
    }
    const owner = index >= 0 ? (out[index] as JsFrame) : undefined;
    if (owner) out[index] = { ...owner, active };
    const site = await graphSite(controller, active, location);
    const evalFrame = owner?.callFrame ?? js.find((f) => !f.subtle)?.callFrame ?? js[0]?.callFrame;
    out.splice(index + 1, 0, {
      kind: 'graph',
      name: `${active.graph ?? 'eager'} › ${active.node ?? displayName(active)} (${active.op})`,
      active,
      ...site,
      ...(evalFrame ? { evalFrame } : {}),
      evalInCallback: owner !== undefined,
    });
  }
  return out;
}

/** Whether V8's break location at `location` is a return (only the top frame can be on one). */
async function isReturnLocation(controller: Controller, location: Protocol.Debugger.Location): Promise<boolean> {
  const column = location.columnNumber ?? 0;
  try {
    const { locations } = await controller.cdp!.send('Debugger.getPossibleBreakpoints', {
      start: location,
      end: { scriptId: location.scriptId, lineNumber: location.lineNumber, columnNumber: column + 1 },
      restrictToFunction: true,
    });
    return locations.some((l) => l.lineNumber === location.lineNumber && (l.columnNumber ?? 0) === column && l.type === 'return');
  } catch {
    return false;
  }
}

/** Whether a paused frame is the user's own code (not the agent, runtime, libraries or Node). */
export function isUserFrame(controller: Controller, callFrame: Protocol.Debugger.CallFrame): boolean {
  const script = controller.sources.get(callFrame.location.scriptId);
  const url = script?.url ?? callFrame.url;
  if (!script?.file || url.endsWith(AGENT_SOURCE_URL) || script.file.startsWith(path.dirname(adapterPaths.agent) + path.sep) || isLibrary(script.file)) return false;
  const original = controller.sources.original(callFrame.location.scriptId, callFrame.location.lineNumber, callFrame.location.columnNumber ?? 0);
  return !isLibrary(original?.file);
}

/** The runtime (built or source) and anything under node_modules. */
function isLibrary(file: string | undefined): boolean {
  if (!file) return false;
  return file.startsWith(adapterPaths.runtimeDir + path.sep) || file.startsWith(adapterPaths.runtimeSourceDir + path.sep) || file.includes(`${path.sep}node_modules${path.sep}`);
}

/**
 * Where the function's one `return` statement starts (its `return` keyword; an arrow function's
 * expression body), as the source has it. V8 lists the return positions of the function (not of
 * functions nested in it); undefined when there are several (which one ran is not known
 * afterwards) or the one there is the implicit return at the end.
 */
async function returnStatement(controller: Controller, location: Protocol.Debugger.Location): Promise<{ file: string; line: number; column: number } | undefined> {
  let returns: Protocol.Debugger.BreakLocation[];
  try {
    const { locations } = await controller.cdp!.send('Debugger.getPossibleBreakpoints', { start: location, restrictToFunction: true });
    returns = locations.filter((l) => l.type === 'return');
  } catch {
    return undefined;
  }
  if (returns.length !== 1) return undefined;
  const src = await controller.scriptSource(location.scriptId);
  if (src === undefined) return undefined;
  const r = returns[0]!;
  const at = returnStatementStart(src, offsetOf(src, location.lineNumber, location.columnNumber ?? 0), offsetOf(src, r.lineNumber, r.columnNumber ?? 0));
  if (at === undefined) return undefined;
  const pos = positionOf(src, at);
  return controller.sources.original(location.scriptId, pos.lineNumber, pos.columnNumber);
}

function sameLocation(a: Protocol.Debugger.Location | undefined, b: Protocol.Debugger.Location): boolean {
  return !!a && a.scriptId === b.scriptId && a.lineNumber === b.lineNumber && (a.columnNumber ?? 0) === (b.columnNumber ?? 0);
}

const locations = new Map<number, Protocol.Debugger.Location | null>();

/** Where the function of an invocation under way starts ([[FunctionLocation]]: its parameter list). */
export async function functionLocation(controller: Controller, id: number): Promise<Protocol.Debugger.Location | undefined> {
  if (locations.has(id)) return locations.get(id) ?? undefined;
  const cdp = controller.cdp!;
  const fn = await cdp.send('Runtime.evaluate', { expression: `${AGENT}.active.find((e) => e.start.id === ${id})?.live.func` });
  let location: Protocol.Debugger.Location | null = null;
  if (fn.result.objectId) {
    const props = await cdp.send('Runtime.getProperties', { objectId: fn.result.objectId, ownProperties: true });
    location = (props.internalProperties?.find((p) => p.name === '[[FunctionLocation]]')?.value?.value as Protocol.Debugger.Location | undefined) ?? null;
  }
  if (locations.size > 1000) locations.clear(); // invocation ids only grow; old ones never return
  locations.set(id, location);
  return location ?? undefined;
}

/**
 * A model node's name in model.json (its own column: a converted model.json is one line); for a
 * wrapper that returned, the `return` statement that produced its values when the function has
 * just one; else where the callback function is defined.
 */
async function graphSite(controller: Controller, active: ActiveSnapshot, location: Protocol.Debugger.Location | undefined): Promise<{ source?: SourceRef; line: number; column: number; endLine?: number; endColumn?: number }> {
  if (active.node === undefined && active.phase === 'returned' && location) {
    const ret = await returnStatement(controller, location);
    if (ret) return { source: { path: ret.file, name: path.basename(ret.file) }, line: ret.line, column: ret.column + 1 };
  }
  const site = active.callSite;
  if (site) {
    const end = site.endLine !== undefined && site.endColumn !== undefined ? { endLine: site.endLine, endColumn: site.endColumn } : {};
    return { source: { path: site.file, name: path.basename(site.file) }, line: site.line, column: site.column, ...end };
  }
  if (location) {
    const original = controller.sources.original(location.scriptId, location.lineNumber, location.columnNumber ?? 0);
    if (original) return { source: { path: original.file, name: path.basename(original.file) }, line: original.line, column: original.column + 1 };
  }
  return { line: 0, column: 0 };
}
