/**
 * Where each node of a model.json sits in its text: the `"name": "…"` value of every node in
 * `modelTopology.node` and in `modelTopology.library.function[].nodeDef`. tensorflowjs_converter
 * writes model.json on one line, so a line alone says nothing: every location has its column.
 * One scan with jsonc-parser's visitor, whatever the number of nodes.
 */
import { visit } from 'jsonc-parser';

/** A span of text, 1-based lines and columns (end exclusive), as editors and stack traces count. */
export interface TextRange {
  readonly line: number;
  readonly column: number;
  readonly endLine: number;
  readonly endColumn: number;
}

export interface NodeLocations {
  /** The node `name` of the main graph, or of the library function named `inFunction`. */
  find(name: string, inFunction?: string): TextRange | undefined;
}

const MAIN_GRAPH = '';

export function locateNodes(text: string): NodeLocations {
  // Library functions are keyed by index while scanning: a function's signature (its name) may
  // come after its nodeDef list in the text.
  const byGraph = new Map<string, Map<string, TextRange>>();
  const functionNames = new Map<number, string>();
  let property: string | undefined;
  visit(text, {
    onObjectProperty(name) {
      property = name;
    },
    onLiteralValue(value, _offset, length, startLine, startCharacter, pathSupplier) {
      if (property !== 'name' || typeof value !== 'string') return;
      const where = graphOf(pathSupplier());
      if (where === undefined) return;
      if (where.signatureOf !== undefined) {
        functionNames.set(where.signatureOf, value);
        return;
      }
      let nodes = byGraph.get(where.graph);
      if (!nodes) byGraph.set(where.graph, (nodes = new Map()));
      // A string literal never spans lines in valid JSON.
      if (!nodes.has(value))
        nodes.set(value, { line: startLine + 1, column: startCharacter + 1, endLine: startLine + 1, endColumn: startCharacter + 1 + length });
    },
  });
  return {
    find(name, inFunction) {
      if (inFunction === undefined) return byGraph.get(MAIN_GRAPH)?.get(name);
      for (const [index, fnName] of functionNames) if (fnName === inFunction) return byGraph.get(`#${index}`)?.get(name);
      return undefined;
    },
  };
}

type JsonPath = (string | number)[];

/** Which graph a `name` literal at `path` names a node of, or which function's signature it is. */
function graphOf(path: JsonPath): { graph: string; signatureOf?: number } | undefined {
  if (path[0] !== 'modelTopology') return undefined;
  // ["modelTopology", "node", i, "name"]
  if (path.length === 4 && path[1] === 'node' && typeof path[2] === 'number') return { graph: MAIN_GRAPH };
  if (path[1] !== 'library' || path[2] !== 'function' || typeof path[3] !== 'number') return undefined;
  const index = path[3];
  // [..., "function", j, "nodeDef", k, "name"]
  if (path.length === 7 && path[4] === 'nodeDef' && typeof path[5] === 'number') return { graph: `#${index}` };
  // [..., "function", j, "signature", "name"]
  if (path.length === 6 && path[4] === 'signature') return { graph: '', signatureOf: index };
  return undefined;
}
