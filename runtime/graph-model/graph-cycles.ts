/**
 * A GraphDef's nodes must form a DAG, except for TensorFlow 1 while loops, whose back edge runs
 * from a NextIteration node into a Merge. TF.js's executor does not check: given a cycle it runs
 * what it can order and skips the rest (a callback on the cycle silently never runs).
 */
import type { GraphDefNode } from './model-json.js';

/** The nodes of the first cycle found, in edge order (the first node again at the end), or undefined. */
export function findCycle(nodes: readonly GraphDefNode[]): string[] | undefined {
  const byName = new Map(nodes.map((n) => [n.name, n]));
  // 0: unvisited, 1: on the current path, 2: done.
  const state = new Map<string, 1 | 2>();
  for (const start of nodes) {
    if (state.has(start.name)) continue;
    // Iterative DFS: a converted model may chain thousands of nodes.
    const path: { name: string; inputs: string[]; next: number }[] = [];
    const enter = (name: string) => {
      state.set(name, 1);
      path.push({ name, inputs: producersOf(byName.get(name)!, byName), next: 0 });
    };
    enter(start.name);
    while (path.length > 0) {
      const top = path[path.length - 1]!;
      if (top.next === top.inputs.length) {
        state.set(top.name, 2);
        path.pop();
        continue;
      }
      const input = top.inputs[top.next++]!;
      const seen = state.get(input);
      if (seen === undefined) enter(input);
      else if (seen === 1) {
        // Inputs point backwards along data flow: reverse so the cycle reads producer → consumer.
        const from = path.findIndex((p) => p.name === input);
        const cycle = path
          .slice(from)
          .map((p) => p.name)
          .reverse();
        return [...cycle, cycle[0]!];
      }
    }
  }
  return undefined;
}

/**
 * The nodes whose outputs `node` reads (data and control inputs) that are nodes of this graph,
 * leaving out NextIteration: its edge into a Merge is a while loop's legal back edge.
 */
function producersOf(node: GraphDefNode, byName: ReadonlyMap<string, GraphDefNode>): string[] {
  const out: string[] = [];
  for (const input of node.input ?? []) {
    // `^name` (control), `name:1` (main graph), `name:output:0` (function body).
    const name = input.replace(/^\^/, '').split(':')[0]!;
    const producer = byName.get(name);
    if (producer && producer.op !== 'NextIteration') out.push(name);
  }
  return out;
}

/** "a → b → a", shortened past `max` nodes. */
export function describeCycle(cycle: readonly string[], max = 12): string {
  const shown = cycle.length > max ? [...cycle.slice(0, max - 1), `… (${cycle.length - max} more)`, cycle.at(-1)!] : cycle;
  return shown
    .map((n) => `'${n}'`)
    .join(' → ')
    .replace(/'… \((\d+) more\)'/, '… ($1 more)');
}
