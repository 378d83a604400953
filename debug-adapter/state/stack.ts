/**
 * The call stack shown for a stop: source-mapped JS frames, the agent's frames hidden, the
 * runtime's and libraries' frames deemphasized, and a synthetic graph frame for each callback
 * invocation under way ("model › node (EagerPyFunc)"), placed below the callback's own frames.
 */
import path from 'node:path';
import type { Protocol } from 'devtools-protocol';
import type { AgentClient } from '../cdp/agent-client.js';
import { displayName, nodeFrameName, opFrameName } from './frame-names.js';
import type { PausedState } from './pause-state.js';
import { AGENT_SOURCE_URL, type ActiveSnapshot, type NodeSnapshot, type OpBirthSnapshot } from '../debuggee/agent-protocol.js';

export { AGENT_SOURCE_URL };
import type { Scripts } from '../sources/scripts.js';
import type { ScriptInfo } from '../sources/sources.js';
import { offsetOf, positionOf, returnStatementStart } from '../sources/js-scan.js';
import { adapterPaths } from '../paths.js';
import { isAgentFile, isLibrary } from '../sources/library-files.js';

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
  /** Its file is shown plainly though the frame is subtle (a data breakpoint's writer's file). */
  readonly plainSource?: boolean;
  /** Set on the callback's own frame. */
  readonly active?: ActiveSnapshot;
}

export interface GraphFrame {
  readonly kind: 'graph';
  readonly name: string;
  /** The callback invocation this graph frame is the node of; absent on a node stop's frame. */
  readonly active?: ActiveSnapshot;
  /** On a node stop: the node that just ran (the top frame). */
  readonly node?: NodeSnapshot;
  /** On an op stop: the op whose outputs hold the first NaN/Inf (the top frame, at the program's line). */
  readonly op?: OpBirthSnapshot;
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

/** What building a stack reads: the scripts, and the agent for where callbacks are defined. */
export interface StackContext {
  readonly scripts: Scripts;
  readonly agent: AgentClient;
}

export async function buildStack(context: StackContext, paused: PausedState): Promise<StackFrameEntry[]> {
  const { scripts, agent } = context;
  const js: JsFrame[] = [];
  for (const [index, callFrame] of paused.event.callFrames.entries()) {
    const script = scripts.sources.get(callFrame.location.scriptId);
    const url = script?.url ?? callFrame.url;
    if (url.endsWith(AGENT_SOURCE_URL) || script?.file?.startsWith(adapterPaths.agentDir + path.sep)) continue;
    const library = isLibrary(script?.file) || url.startsWith('node:');
    // A frame paused on a return: V8 puts that break location at the end of the return statement
    // (exclusive), which in tsx's whitespace-minified output is the function's `}`, and that maps
    // to the closing brace's line. The character before it is the statement's own.
    const column = callFrame.location.columnNumber ?? 0;
    const onReturn = index === 0 && !library && !!script?.map && column > 0 && (await scripts.isReturn(callFrame.location));
    const at = onReturn ? column - 1 : column;
    // Libraries' maps point at sources that are not installed: show their generated code.
    const original =
      library && script?.file
        ? { file: script.file, line: callFrame.location.lineNumber + 1, column }
        : scripts.sources.original(callFrame.location.scriptId, callFrame.location.lineNumber, at);
    const file = original?.file;
    const subtle = !file || library || isLibrary(file) || scripts.skip.skips({ file }) || scripts.sources.compiled(callFrame.location);
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
  // A data breakpoint stops in the code that assigned the variable, TF.js's optimizer mostly. With no
  // frame of the program's on the stack (model.fit awaits), that frame is shown plainly, so VS Code
  // selects it and shows its Data Breakpoint scope, as a JS debugger stops where a value is written.
  // VS Code keeps one Source per file, its hint the last frame's: no frame of that file deemphasizes it.
  const writer = paused.data ? js.findIndex((f) => f.source?.path) : -1;
  if (writer >= 0 && !js.some((f) => !f.subtle)) {
    const file = js[writer]!.source!.path;
    js[writer] = { ...js[writer]!, subtle: false };
    for (const [i, f] of js.entries()) if (f.source?.path === file) js[i] = { ...f, plainSource: true };
  }
  const out: StackFrameEntry[] = [...js];
  // A node stop: the node that just ran is the top frame, above the runtime's and tfjs's frames.
  if (paused.node) out.unshift(nodeFrame(paused.node, js));
  // An op stop: the op's frame, at the program's line that ran it, goes right above the program's
  // innermost frame (below TF.js's, deemphasized), or last where the program has none on the stack.
  // VS Code then focuses it once the whole stack is in, as it does a callback's frame at a Tout
  // mismatch, and puts the exception widget there (on top, the widget came in some runs only).
  if (paused.op) {
    const own = out.findIndex((f) => f.kind === 'js' && !f.subtle);
    out.splice(own >= 0 ? own : out.length, 0, opFrame(paused.op, js));
  }
  if (paused.active.length === 0) return out;

  // Each invocation's graph frame goes right below the deepest frame of its callback function.
  for (const active of [...paused.active].reverse()) {
    const location = await agent.functionLocation(active.id);
    let index = -1;
    if (location) {
      for (let i = 0; i < out.length; i++) {
        const f = out[i]!;
        if (f.kind === 'js' && sameLocation(f.callFrame.functionLocation, location)) index = i;
      }
    }
    const owner = index >= 0 ? (out[index] as JsFrame) : undefined;
    if (owner) out[index] = { ...owner, active };
    const site = await graphSite(scripts, active, location);
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

/** A node stop's frame: the node's name in model.json; evaluations run on the program's own innermost frame. */
function nodeFrame(node: NodeSnapshot, js: readonly JsFrame[]): GraphFrame {
  const at = node.location;
  const evalFrame = js.find((f) => !f.subtle)?.callFrame ?? js[0]?.callFrame;
  return {
    kind: 'graph',
    name: nodeFrameName(node),
    node,
    ...(at
      ? { source: { path: at.file, name: path.basename(at.file) }, line: at.line, column: at.column, endLine: at.endLine, endColumn: at.endColumn }
      : { line: 0, column: 0 }),
    ...(evalFrame ? { evalFrame } : {}),
    evalInCallback: false,
  };
}

/**
 * An op stop's frame: at the program's line that ran the op; for a backward kernel, at the line
 * where its forward op ran (model.fit's backward pass has no line of the program's on its stack).
 * Evaluations run on the program's own innermost frame.
 */
function opFrame(op: OpBirthSnapshot, js: readonly JsFrame[]): GraphFrame {
  const at = op.gradientOf?.site ?? op.site;
  const evalFrame = js.find((f) => !f.subtle)?.callFrame ?? js[0]?.callFrame;
  return {
    kind: 'graph',
    name: opFrameName(op),
    op,
    ...(at ? { source: { path: at.file, name: path.basename(at.file) }, line: at.line, column: at.column } : { line: 0, column: 0 }),
    ...(evalFrame ? { evalFrame } : {}),
    evalInCallback: false,
  };
}

/**
 * Whether a paused frame is the user's own code: not the agent, the runtime, a file skipFiles
 * skips, nor a line of a transpiled file that its source map leaves out (the compiler's: a
 * re-export getter, babel's helpers, regenerator's `case` lines), which steps pass over as
 * js-debug's smartStep does.
 */
export function isUserFrame(scripts: Pick<Scripts, 'sources' | 'skip'>, callFrame: Protocol.Debugger.CallFrame): boolean {
  const script = scripts.sources.get(callFrame.location.scriptId);
  if (!script || !isUserScript(scripts, script)) return false;
  if (scripts.sources.compiled(callFrame.location)) return false;
  const original = scripts.sources.original(callFrame.location.scriptId, callFrame.location.lineNumber, callFrame.location.columnNumber ?? 0);
  return !original || !scripts.skip.skips({ file: original.file });
}

/** Whether a script is the user's own code: a file, not the agent's, not the runtime's, not skipped. */
export function isUserScript(scripts: Pick<Scripts, 'skip'>, script: ScriptInfo): boolean {
  if (!script.file || script.wasm || script.url.endsWith(AGENT_SOURCE_URL) || isAgentFile(script.file)) return false;
  return !scripts.skip.skips({ file: script.file });
}

/**
 * Where the function's one `return` statement starts (its `return` keyword; an arrow function's
 * expression body), as the source has it. V8 lists the return positions of the function (not of
 * functions nested in it); undefined when there are several (which one ran is not known
 * afterwards) or the one there is the implicit return at the end.
 */
async function returnStatement(scripts: Scripts, location: Protocol.Debugger.Location): Promise<{ file: string; line: number; column: number } | undefined> {
  const returns = (await scripts.breakLocations(location)).filter((l) => l.type === 'return');
  if (returns.length !== 1) return undefined;
  const src = await scripts.text(location.scriptId);
  if (src === undefined) return undefined;
  const r = returns[0]!;
  const at = returnStatementStart(src, offsetOf(src, location.lineNumber, location.columnNumber ?? 0), offsetOf(src, r.lineNumber, r.columnNumber ?? 0));
  if (at === undefined) return undefined;
  const pos = positionOf(src, at);
  return scripts.sources.original(location.scriptId, pos.lineNumber, pos.columnNumber);
}

function sameLocation(a: Protocol.Debugger.Location | undefined, b: Protocol.Debugger.Location): boolean {
  return !!a && a.scriptId === b.scriptId && a.lineNumber === b.lineNumber && (a.columnNumber ?? 0) === (b.columnNumber ?? 0);
}

/**
 * A model node's name in model.json (its own column: a converted model.json is one line); for a
 * wrapper that returned, the `return` statement that produced its values when the function has
 * just one; else where the callback function is defined.
 */
async function graphSite(
  scripts: Scripts,
  active: ActiveSnapshot,
  location: Protocol.Debugger.Location | undefined,
): Promise<{ source?: SourceRef; line: number; column: number; endLine?: number; endColumn?: number }> {
  if (active.node === undefined && active.phase === 'returned' && location) {
    const ret = await returnStatement(scripts, location);
    if (ret) return { source: { path: ret.file, name: path.basename(ret.file) }, line: ret.line, column: ret.column + 1 };
  }
  const site = active.callSite;
  if (site) {
    const end = site.endLine !== undefined && site.endColumn !== undefined ? { endLine: site.endLine, endColumn: site.endColumn } : {};
    return { source: { path: site.file, name: path.basename(site.file) }, line: site.line, column: site.column, ...end };
  }
  if (location) {
    const original = scripts.sources.original(location.scriptId, location.lineNumber, location.columnNumber ?? 0);
    if (original) return { source: { path: original.file, name: path.basename(original.file) }, line: original.line, column: original.column + 1 };
  }
  return { line: 0, column: 0 };
}
