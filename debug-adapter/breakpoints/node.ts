/**
 * Node breakpoints: a function breakpoint whose name is a model's node path or op answers to the
 * nodes of a graph run (callback-names.ts matches the names). The agent counts their hits and
 * evaluates their conditions as each node runs, and stops after the node; this words the stop, and
 * that of a step from node to node.
 */
import type { LastBreak, NodeSnapshot } from '../debuggee/agent-protocol.js';
import type { Stop } from '../state/pause-state.js';

/**
 * The stop the agent made at a model node (a node breakpoint, or a step from a node), or undefined
 * for any other break. `conditionFailed` tells of a node breakpoint's condition that threw.
 */
export function nodeStop(why: LastBreak | undefined, conditionFailed: (why: LastBreak, where: string) => void): { stop: Stop; node: NodeSnapshot } | undefined {
  const node = why?.node;
  if (!why || !node) return undefined;
  if (why.reason === 'nodeStep') return { stop: { reason: 'step', description: `Paused after node ${node.node} (${node.op})` }, node };
  if (why.reason !== 'node') return undefined;
  conditionFailed(why, `at node ${node.node}`);
  return { stop: { reason: 'function breakpoint', description: `Paused on node ${node.node} (${node.op})` }, node };
}
