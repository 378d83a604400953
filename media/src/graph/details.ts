/**
 * The bar under the graph: the selected node (name, op, status, inputs) and what can be done with
 * it: break on it or on every node of its op (function breakpoints), collapse its scope. All text
 * enters as text nodes.
 */
import { button, h, replaceChildren } from '../dom.js';
import type { GraphNode, NodeStatus } from '../graph-protocol.js';
import { shortenMiddle } from './layout.js';
import type { Scope } from './scopes.js';

export interface DetailsActions {
  breakOn(node: string): void;
  breakOnOp(op: string): void;
  collapse(scope: Scope): void;
}

/** `holder`: the scope or group the node is directly in (undefined at the top level). */
export function renderDetails(target: HTMLElement, node: GraphNode | undefined, status: NodeStatus, actions: DetailsActions, holder?: Scope): void {
  if (!node) {
    replaceChildren(
      target,
      h(
        'span',
        { className: 'hint' },
        'Click a node: its tensors in the inspector while the debugger is paused, else where model.json writes it. ' +
          'Click a scope box to expand it. Drag to pan, wheel to zoom.',
      ),
    );
    return;
  }
  const data = node.inputs.filter((i) => !i.control);
  const control = node.inputs.length - data.length;
  replaceChildren(
    target,
    h('span', { className: 'detail-name' }, node.name),
    h('span', { className: 'detail-op' }, node.op),
    node.callback && h('span', { className: 'detail-callback' }, 'callback'),
    h('span', { className: `detail-status status-${status}` }, status === 'given' ? (node.op === 'Const' ? 'constant' : 'input') : status),
    h(
      'span',
      { className: 'detail-inputs' },
      data.length === 0 ? 'no inputs' : `inputs: ${data.map((i) => (i.output === 0 ? i.node : `${i.node}:${i.output}`)).join(', ')}`,
      control > 0 ? ` · ${control} control` : '',
    ),
    button('Break on this node', () => actions.breakOn(node.name), {
      className: 'primary',
      title: node.callback ? 'Stop at the first line of its callback when it runs' : 'Stop right after this node ran',
      attrs: { 'data-action': 'break' },
    }),
    button(`Break on every ${node.op}`, () => actions.breakOnOp(node.op), {
      title: `Stop after each ${node.op} node runs`,
      attrs: { 'data-action': 'break-op' },
    }),
    holder?.parent &&
      button(
        `Collapse ${shortenMiddle(holder.group ? `${holder.path}${holder.path ? '/ ' : ''}${holder.label}` : holder.path, 80)}`,
        () => actions.collapse(holder),
        {
          attrs: { 'data-action': 'collapse' },
        },
      ),
  );
}
