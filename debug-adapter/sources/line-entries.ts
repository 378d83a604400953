/**
 * Which of a script's break locations a step has to watch to stop on the next line of it that runs:
 * the first location of each line in each function. Code reaches any other location of a line only
 * after passing that first one (in the same call of the same function), so the others add nothing
 * but breakpoints to set and remove (93 → 56 on a small training script). A function's first
 * location is in the set (the first of its first line): an inline callback (`x.map(v => v - mean)`)
 * that library code calls later is still caught.
 *
 * Functions are read with acorn; a script it cannot parse keeps every location.
 */
import { forEachChild, type Node, parseScript } from './js-syntax.js';
import type { Protocol } from 'devtools-protocol';

type Location = Protocol.Debugger.Location;

const FUNCTION_TYPES = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression']);

/**
 * The first of `locations` on each line of each function of `text` (the script's generated
 * source). `lineOf` gives the line a location counts on (the user's source line where a source
 * map says); locations are in V8's order (by position).
 */
export function lineEntries(text: string, locations: readonly Location[], lineOf: (location: Location) => string | number): Location[] {
  const functions = functionRanges(text);
  if (!functions) return [...locations];
  const lineStarts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lineStarts.push(i + 1);
  const seen = new Set<string>();
  const entries: Location[] = [];
  for (const location of locations) {
    const offset = (lineStarts[location.lineNumber] ?? text.length) + (location.columnNumber ?? 0);
    const key = `${innermost(functions, offset)}:${lineOf(location)}`;
    if (seen.has(key)) continue;
    seen.add(key);
    entries.push(location);
  }
  return entries;
}

/** [start, end) of every function in `text`, in source order; undefined when acorn cannot parse it. */
function functionRanges(text: string): [number, number][] | undefined {
  const program = parseScript(text);
  if (!program) return undefined;
  const ranges: [number, number][] = [];
  const visit = (node: Node): void => {
    if (FUNCTION_TYPES.has(node.type)) ranges.push([node.start, node.end]);
    forEachChild(node, visit);
  };
  visit(program);
  return ranges.sort((a, b) => a[0] - b[0]);
}

/** The index of the innermost function holding `offset` (-1: the script's top level). Ranges nest. */
function innermost(ranges: readonly [number, number][], offset: number): number {
  let found = -1;
  for (let i = 0; i < ranges.length && ranges[i]![0] <= offset; i++) if (offset < ranges[i]![1]) found = i;
  return found;
}
