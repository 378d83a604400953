/**
 * What V8 does not say at a pause, read from the script's syntax tree (acorn): whether a frame's
 * position lies in the `try` block of a try statement with a `catch` (V8's catch prediction only
 * says that something catches: around a callback the runtime always does), whether a function is
 * async, where its parameters are and which statement returns. A script acorn cannot parse gets
 * the cautious answers: not caught, not async, no parameters, no return statement.
 */
import { forEachChild, type Node, parseScript } from './js-syntax.js';

/** The acorn nodes read here, with the fields this module uses. */
interface FunctionNode extends Node {
  readonly type: 'FunctionDeclaration' | 'FunctionExpression' | 'ArrowFunctionExpression';
  readonly async: boolean;
  readonly expression: boolean;
  readonly params: readonly PatternNode[];
  readonly body: Node & { readonly body?: readonly Node[] };
}
interface PatternNode extends Node {
  readonly name?: string;
  readonly left?: PatternNode;
  readonly argument?: PatternNode;
}
interface TryNode extends Node {
  readonly block: Node;
  readonly handler: Node | null;
}

const FUNCTION_TYPES = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression']);

/**
 * Whether `at` lies in the `try` block of a try statement that has a `catch` clause, within the
 * function whose source starts at `functionStart` (V8's `functionLocation`: its parameter list).
 * `at` must be a position of that function's own code (a frame's location), not of a function
 * nested in it. A `catch` or `finally` block does not protect itself.
 */
export function inTryWithCatch(src: string, functionStart: number, at: number): boolean {
  const fn = functionAt(src, functionStart);
  if (!fn) return false;
  let caught = false;
  forEachOwnNode(fn.body, (node) => {
    const statement = node as TryNode;
    if (node.type === 'TryStatement' && statement.handler !== null && statement.block.start <= at && at < statement.block.end) caught = true;
  });
  return caught;
}

/** Whether the function whose parameter list starts at `functionStart` is declared `async`. */
export function isAsyncFunction(src: string, functionStart: number): boolean {
  return functionAt(src, functionStart)?.async ?? false;
}

/**
 * The parameters of the function whose parameter list starts at `functionStart` (`(` or, for
 * `x => …`, the name): each identifier's name and offset; undefined for a destructured one.
 */
export function parameterList(src: string, functionStart: number): ({ name: string; at: number } | undefined)[] {
  const fn = functionAt(src, functionStart);
  if (!fn) return [];
  return fn.params.map((param) => {
    // `a = 1` and `...rest` name their identifier; `{a, b}` and `[c]` name none.
    const named = param.type === 'AssignmentPattern' ? param.left : param.type === 'RestElement' ? param.argument : param;
    return named?.type === 'Identifier' && named.name !== undefined ? { name: named.name, at: named.start } : undefined;
  });
}

/** The offset of a 0-based line and column (V8's line ends: \n, \r, \r\n, U+2028, U+2029). */
export function offsetOf(src: string, lineNumber: number, columnNumber: number): number {
  let offset = 0;
  for (let line = 0; line < lineNumber; line++) {
    const m = /\r\n|[\n\r\u2028\u2029]/g;
    m.lastIndex = offset;
    const found = m.exec(src);
    if (!found) return src.length;
    offset = found.index + found[0].length;
  }
  return offset + columnNumber;
}

/** The 0-based line and column of an offset. */
export function positionOf(src: string, offset: number): { lineNumber: number; columnNumber: number } {
  let lineNumber = 0;
  let lineStart = 0;
  const m = /\r\n|[\n\r\u2028\u2029]/g;
  for (let found = m.exec(src); found && found.index < offset; found = m.exec(src)) {
    lineNumber++;
    lineStart = found.index + found[0].length;
  }
  return { lineNumber, columnNumber: offset - lineStart };
}

/**
 * Where the statement that returns at `returnAt` (a V8 return position of the function whose
 * parameter list starts at `functionStart`) begins: its `return` keyword when it is the last
 * statement of the function's body, an arrow function's expression body; undefined for the
 * implicit return at the end of a body, or a return nested in a block.
 */
export function returnStatementStart(src: string, functionStart: number, returnAt: number): number | undefined {
  const fn = functionAt(src, functionStart);
  if (!fn || fn.body.start >= returnAt) return undefined;
  if (fn.expression) return fn.body.start;
  const last = (fn.body.body ?? []).filter((statement) => statement.start < returnAt).at(-1);
  return last?.type === 'ReturnStatement' ? last.start : undefined;
}

/**
 * The innermost function whose head holds `functionStart`: V8 puts a function's location at its
 * parameter list, which acorn's node starts at or after (`async`, `function f` come first).
 */
function functionAt(src: string, functionStart: number): FunctionNode | undefined {
  const program = parseScript(src);
  let found: FunctionNode | undefined;
  const visit = (node: Node): void => {
    if (node.start > functionStart || node.end <= functionStart) return;
    if (FUNCTION_TYPES.has(node.type) && functionStart < (node as FunctionNode).body.start) found = node as FunctionNode;
    forEachChild(node, visit);
  };
  if (program) visit(program);
  return found;
}

/** Every node under `root` that belongs to its own function: nested functions are not entered. */
function forEachOwnNode(root: Node, see: (node: Node) => void): void {
  see(root);
  forEachChild(root, (child) => {
    if (!FUNCTION_TYPES.has(child.type)) forEachOwnNode(child, see);
  });
}
