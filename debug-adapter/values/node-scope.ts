/**
 * What a stop at a model node shows and binds: the Node scope (its inputs under their names, its
 * outputs, op, attrs, its place in the run), and the same names for the Debug Console and watches
 * (`inputs`, `outputs`, `attrs`, `op`, `node`; the agent binds them for node breakpoints' conditions).
 */
import { agentExpression } from '../cdp/agent-client.js';
import { type CallbackBinding, isExpression, mentions } from './callback-scope.js';
import type { NodeSnapshot } from '../debuggee/agent-protocol.js';

/** The paused node's live inputs or outputs, as an expression in the debuggee. */
export function nodeValuesExpression(side: 'inputs' | 'outputs'): string {
  return agentExpression((agent, s: 'inputs' | 'outputs') => agent.nodeValues(s), JSON.stringify(side));
}

/** What a node stop and an op stop bind beside the paused values: the attrs, the op and the node's name (an op stop's: its op). */
export type PausedNames = Pick<NodeSnapshot, 'attrs' | 'op' | 'node'>;

/** Every name the Node scope (and the Op scope) shows, with how to get its value in the debuggee. */
export function nodeBindings(node: PausedNames): CallbackBinding[] {
  return [
    { name: 'inputs', value: nodeValuesExpression('inputs'), always: true },
    { name: 'outputs', value: nodeValuesExpression('outputs'), always: true },
    { name: 'attrs', value: JSON.stringify(node.attrs), always: true },
    { name: 'op', value: JSON.stringify(node.op), always: true },
    { name: 'node', value: JSON.stringify(node.node), always: true },
  ];
}

/** `expression` with the Node scope's names it mentions bound (evaluated on the node's graph frame). */
export function withNodeNames(expression: string, node: PausedNames): string {
  if (!isExpression(expression)) return expression;
  const bindings = nodeBindings(node).filter((b) => mentions(expression, b.name));
  if (bindings.length === 0) return expression;
  return `((${bindings.map((b) => b.name).join(', ')}) => (\n${expression}\n))(${bindings.map((b) => b.value).join(', ')})`;
}

/** An attribute's value as one line. */
export function attrText(value: NodeSnapshot['attrs'][string]): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `[${value.map((v) => (typeof v === 'string' ? JSON.stringify(v) : String(v))).join(', ')}]`;
  if (typeof value === 'object') {
    const t = value as { dtype: string; shape: readonly number[] };
    return `tensor ${t.dtype}[${t.shape.join(',')}]`;
  }
  return typeof value === 'string' ? value : String(value);
}
