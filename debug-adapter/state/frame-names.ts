/**
 * How the adapter names what a stop is in, to people: a callback invocation, a model node's graph
 * frame, an op's frame (the call stack, stop descriptions, Restart Frame's words).
 */
import type { ActiveSnapshot, NodeSnapshot, OpBirthSnapshot } from '../debuggee/agent-protocol.js';

/** A named callback by its name; an unnamed one by its JS function's name rather than its token. */
export function displayName(active: ActiveSnapshot): string {
  const c = active.callback;
  return c.name !== c.token ? c.name : (c.functionName ?? c.name);
}

/** How the stack names a node: `model › dense/MatMul (MatMul)`, with its place inside a loop. */
export function nodeFrameName(node: NodeSnapshot): string {
  return `${node.graph} › ${node.node} (${node.op})${node.frameKey !== undefined ? ` [${node.frameKey.slice(node.node.length + 1)}]` : ''}`;
}

/** The op frame's name: `Log (forward, layer head)`, `RealDiv (backward of Sqrt, layer sqrt_1)`, `tf.tensor2d (data)`. */
export function opFrameName(op: OpBirthSnapshot): string {
  if (op.cause === 'data') return `${op.op} (data)`;
  const parts = [
    op.pass === 'backward' && op.gradientOf ? `backward of ${op.gradientOf.op}` : op.pass === 'update' ? `${op.optimizer ?? 'optimizer'} update` : op.pass,
  ];
  if (op.layer) parts.push(`layer ${op.layer.name}`);
  return `${op.op} (${parts.join(', ')})`;
}
