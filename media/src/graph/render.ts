/**
 * Draws a layout as SVG: one group per node or collapsed scope (a rounded box, its op and name,
 * a full-name tooltip), and one path per edge (dashed for control dependencies). Statuses are CSS
 * classes, so a status update restyles the boxes without a new layout.
 */
import type { NodeStatus } from '../graph-protocol.js';
import { labelsOf, shortenMiddle, type Box, type Layout } from './layout.js';
import type { Scope } from './scopes.js';
import { svg } from '../svg.js';

export const STATUS_CLASSES: readonly string[] = ['status-not-run', 'status-given', 'status-ran', 'status-nan', 'status-paused'];

export function renderLayout(target: SVGGElement, layout: Layout): Map<string, SVGGElement> {
  const edges = svg('g', { class: 'edges' });
  for (const route of layout.routes) {
    const d = route.points.map((p, i) => `${i === 0 ? 'M' : 'L'}${p.x.toFixed(1)} ${p.y.toFixed(1)}`).join(' ');
    const path = svg('path', { d, class: route.edge.control ? 'edge control' : 'edge', 'marker-end': 'url(#arrow)' });
    path.dataset.from = route.edge.from;
    path.dataset.to = route.edge.to;
    edges.appendChild(path);
  }
  const boxes = svg('g', { class: 'boxes' });
  const byId = new Map<string, SVGGElement>();
  for (const box of layout.boxes.values()) {
    const el = renderBox(box);
    byId.set(box.item.id, el);
    boxes.appendChild(el);
  }
  target.replaceChildren(edges, boxes);
  return byId;
}

function renderBox(box: Box): SVGGElement {
  const { item, width: w, height: h } = box;
  const { title, subtitle } = labelsOf(item);
  const callback = item.kind === 'node' ? item.node.callback : item.scope.callbacks > 0;
  const classes = ['item', item.kind, callback ? 'callback' : ''].filter(Boolean).join(' ');
  const tooltip = item.kind === 'node' ? `${item.node.name} (${item.node.op})${callback ? ' · callback' : ''}` : scopeTooltip(item.scope);
  const g = svg(
    'g',
    { class: classes, transform: `translate(${(box.x - w / 2).toFixed(1)} ${(box.y - h / 2).toFixed(1)})`, tabindex: 0, role: 'button', 'aria-label': tooltip },
    svg('title', {}, tooltip),
    svg('rect', { class: 'frame', width: w, height: h, rx: item.kind === 'scope' ? 2 : 6 }),
    svg('text', { class: 'title', x: w / 2, y: 16 }, title),
    svg('text', { class: 'subtitle', x: w / 2, y: h - 9 }, subtitle),
  );
  if (callback && item.kind === 'node') {
    g.appendChild(svg('rect', { class: 'badge', x: w - 52, y: -8, width: 56, height: 14, rx: 7 }));
    g.appendChild(svg('text', { class: 'badge-text', x: w - 24, y: 3 }, 'callback'));
  }
  g.dataset.id = item.id;
  if (item.kind === 'node') {
    g.dataset.node = item.node.name;
    g.dataset.op = item.node.op;
  } else {
    const { group } = item.scope;
    if (group) g.dataset.group = `${group.first}-${group.last}`;
    else g.dataset.scope = item.scope.path;
    g.dataset.count = String(item.scope.total);
  }
  return g;
}

/** What a scope box says on hover: its path (both ends of a very long one), what a group holds. */
function scopeTooltip(scope: Scope): string {
  const path = shortenMiddle(scope.path, 400);
  if (scope.group) return `${path ? `${path}/ · ` : ''}items ${scope.group.first}–${scope.group.last} of ${scope.group.of} · click to expand`;
  return `${path}/${scope.levels > 1 ? ` (${scope.levels} levels)` : ''} · click to expand`;
}

export function setStatus(el: SVGGElement, status: NodeStatus): void {
  el.classList.remove(...STATUS_CLASSES);
  el.classList.add(`status-${status}`);
  el.dataset.status = status;
}
