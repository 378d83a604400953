/**
 * Positions for what is drawn, by dagre (@dagrejs/dagre, layered layout, top to bottom as data
 * flows). Box sizes come from their label lengths; dagre routes each edge as a polyline.
 *
 * dagre recurses (its acyclic and initial-order passes, network simplex: one call per node along a
 * path, about 0.5 KB of stack each: a chain of a few thousand boxes overflows the stack), so it
 * is only ever given what visible.ts bounds: at most MAX_BOXES boxes.
 */
import { graphlib, layout } from '@dagrejs/dagre';
import type { Item, VisibleEdge, VisibleGraph } from './visible.js';

export interface Box {
  readonly item: Item;
  /** Centre, as dagre gives it. */
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

export interface Route {
  readonly edge: VisibleEdge;
  readonly points: readonly { readonly x: number; readonly y: number }[];
}

export interface Layout {
  readonly boxes: ReadonlyMap<string, Box>;
  readonly routes: readonly Route[];
  readonly width: number;
  readonly height: number;
}

/** Average glyph width of the view's font at 12 px; boxes are sized from it, not measured (no reflow per node). */
const CHAR_WIDTH = 7;
const MAX_LABEL = 34;

/** The two lines of an item's box: what it is, then its name within its scope. */
export function labelsOf(item: Item): { readonly title: string; readonly subtitle: string } {
  if (item.kind === 'scope') {
    const { total, callbacks, levels } = item.scope;
    const nodes = `${total} node${total === 1 ? '' : 's'}`;
    const counts = [nodes, ...(callbacks > 0 ? [`${callbacks} callback`] : []), ...(levels > 1 ? [`${levels} levels`] : [])];
    return { title: `▸ ${shortenMiddle(item.scope.label)}`, subtitle: counts.join(' · ') };
  }
  return { title: shorten(item.node.op), subtitle: shorten(lastPart(item.node.name)) };
}

export function layoutGraph(visible: VisibleGraph): Layout {
  const g = new graphlib.Graph({ multigraph: false });
  g.setGraph({ rankdir: 'TB', nodesep: 18, ranksep: 34, edgesep: 8, marginx: 16, marginy: 16 });
  g.setDefaultEdgeLabel(() => ({}));
  for (const item of visible.items) {
    const { title, subtitle } = labelsOf(item);
    const chars = Math.max(title.length, subtitle.length);
    g.setNode(item.id, { width: Math.max(64, chars * CHAR_WIDTH + 20), height: item.kind === 'scope' ? 44 : 38 });
  }
  for (const edge of visible.edges) g.setEdge(edge.from, edge.to, { weight: edge.control ? 1 : 2 });
  layout(g);
  const boxes = new Map<string, Box>();
  for (const item of visible.items) {
    const n = g.node(item.id);
    boxes.set(item.id, { item, x: n.x, y: n.y, width: n.width, height: n.height });
  }
  const routes = visible.edges.map((edge) => ({ edge, points: g.edge(edge.from, edge.to).points ?? [] }));
  const size = g.graph();
  return { boxes, routes, width: size.width ?? 0, height: size.height ?? 0 };
}

function lastPart(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1) || path;
}

function shorten(text: string): string {
  return text.length <= MAX_LABEL ? text : `${text.slice(0, MAX_LABEL - 1)}…`;
}

/** A scope's label keeps both ends: `s0/s1/s2/s…/s9998/s9999`. */
export function shortenMiddle(text: string, max = MAX_LABEL): string {
  if (text.length <= max) return text;
  const head = Math.floor((max - 1) / 2);
  return `${text.slice(0, head)}…${text.slice(text.length - (max - 1 - head))}`;
}
