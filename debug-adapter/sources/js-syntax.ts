/**
 * A script's syntax tree, read with acorn, for the adapter's questions about code V8 paused in
 * (js-scan.ts, line-entries.ts). One parse serves every frame of a pause in the same script.
 */
import { type Node, parse } from 'acorn';

export type { Node } from 'acorn';

/** The last few scripts' trees: one pause asks about the same script for several frames. */
const trees = new Map<string, Node | undefined>();
const TREES_KEPT = 4;

/** The tree of `src`: an ES module, else a script (Node's CommonJS body: a top-level `return` is allowed); undefined when acorn cannot parse it. */
export function parseScript(src: string): Node | undefined {
  if (trees.has(src)) return trees.get(src);
  const tree = parseAny(src);
  if (trees.size >= TREES_KEPT) trees.delete(trees.keys().next().value!);
  trees.set(src, tree);
  return tree;
}

function parseAny(src: string): Node | undefined {
  for (const sourceType of ['module', 'script'] as const) {
    try {
      return parse(src, {
        ecmaVersion: 'latest',
        sourceType,
        allowHashBang: true,
        allowReturnOutsideFunction: sourceType === 'script',
        allowAwaitOutsideFunction: true,
        allowImportExportEverywhere: true,
      });
    } catch {
      // the other kind, then none
    }
  }
  return undefined;
}

/** Each node directly under `node`, in field order. */
export function forEachChild(node: Node, see: (child: Node) => void): void {
  for (const value of Object.values(node)) {
    if (Array.isArray(value)) {
      for (const item of value) if (isNode(item)) see(item);
    } else if (isNode(value)) see(value);
  }
}

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && typeof (value as Node).type === 'string' && typeof (value as Node).start === 'number';
}
