/**
 * A model node in the inspector: its header (`model › name (op)`, its place in the run, why it is
 * shown), its attrs as a compact table, and the summary of its inputs (named by `inputNames`) and
 * outputs with the same rows as a callback's. Everything from the model file enters as text.
 */
import { h, type Child } from './dom.js';
import { attrText } from './node-check.js';
import type { NodeStopSnapshot } from './protocol.js';
import type { NodeEntry, TensorRef } from './state.js';
import { NODE_COLUMNS, entryBanners, fact, sideHeading, tensorRow } from './summary.js';

/** Shown when a node's tensors cannot be read: tfjs frees a tensor after its last use. */
export const NOT_LIVE_NOTE =
  'Summaries only: tfjs freed these tensors after their last use; the summaries were taken when the node ran. ' +
  'Stop at the node (a node breakpoint) to see its values.';

export const MOVED_ON_NOTE = 'The program has moved on from this node: its values can no longer be fetched (summaries only).';

export function nodeTitle(node: NodeStopSnapshot): string {
  return `${node.graph} › ${node.node} (${node.op})`;
}

/** Whether the node's values can be fetched: the program is paused at it and its session goes on. */
export function nodeIsLive(entry: NodeEntry): boolean {
  return entry.live && entry.event.node.live && !entry.ended;
}

export function renderNodeHeader(entry: NodeEntry): HTMLElement {
  const { event } = entry;
  const node = event.node;
  const banners = entryBanners(entry, false);
  if (!entry.ended && !node.live) banners.unshift(h('p', { className: 'banner stale not-live' }, NOT_LIVE_NOTE));
  else if (!entry.ended && !entry.live) banners.unshift(h('p', { className: 'banner stale moved-on' }, MOVED_ON_NOTE));
  const attrs = Object.entries(node.attrs);
  return h(
    'header',
    { className: 'invocation-header node-header' },
    h('h1', null, h('span', { className: 'status-mark' }, '◆'), ' ', h('span', { className: 'node-name' }, nodeTitle(node))),
    h(
      'dl',
      { className: 'facts' },
      fact('op', node.op),
      fact('in its run', node.index >= 0 ? `node ${node.index + 1}` : 'unknown'),
      node.frameKey !== undefined ? fact('frame', node.frameKey) : null,
      node.location ? fact('model.json', `${node.location.file}:${node.location.line}`) : null,
    ),
    h('p', { className: 'reason' }, h('span', { className: 'reason-kind' }, event.reason), ' — ', h('span', { className: 'description' }, event.description)),
    ...banners,
    attrs.length > 0
      ? h(
          'table',
          { className: 'attrs' },
          h('caption', null, 'attrs'),
          h('tbody', null, ...attrs.map(([name, value]) => h('tr', null, h('th', { attrs: { scope: 'row' } }, name), h('td', null, attrText(value))))),
        )
      : null,
  );
}

export function renderNodeSummary(entry: NodeEntry, selected: TensorRef | undefined, onSelect: (ref: TensorRef) => void): HTMLElement {
  const node = entry.event.node;
  const body = h('tbody');
  body.append(sideHeading('Inputs', node.inputs.length === 0 ? '(none)' : undefined));
  node.inputs.forEach((info, i) => {
    body.append(tensorRow('inputs', i, inputName(node, i), info, undefined, selected, onSelect, undefined, true));
  });
  body.append(sideHeading('Outputs', node.outputs.length === 0 ? '(none)' : undefined));
  node.outputs.forEach((info, i) => {
    body.append(tensorRow('outputs', i, `output ${i}`, info, undefined, selected, onSelect, undefined, true));
  });
  const columns: Child[] = NODE_COLUMNS.map((c) => h('th', { attrs: { scope: 'col' } }, c));
  const table = h('table', { className: 'summary node-summary' }, h('thead', null, h('tr', null, ...columns)), body);
  return h('section', { className: 'summary-section', attrs: { 'aria-label': 'inputs and outputs' } }, h('div', { className: 'table-scroll' }, table));
}

/** An input's name: the node (and output) it comes from, as model.json writes it. */
export function inputName(node: NodeStopSnapshot, index: number): string {
  return node.inputNames[index] ?? `input ${index}`;
}
