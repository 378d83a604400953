/**
 * The graph view: takes the panel's messages (the graph, node statuses), keeps which scopes are
 * expanded, lays out and draws what is visible, and posts clicks back. The paused node is always
 * drawn (its scopes expanded), highlighted, and brought to the middle.
 */
import { button, h, replaceChildren } from '../dom.js';
import { GIVEN_OPS, type GraphData, type GraphHostMessage, type GraphNode, type NodeStatus, type NodeStatusUpdate } from '../graph-protocol.js';
import { renderDetails } from './details.js';
import type { GraphHost } from './host.js';
import { layoutGraph, type Layout } from './layout.js';
import { PanZoom } from './pan-zoom.js';
import { renderLayout, setStatus } from './render.js';
import { ancestorsOf, buildScopes, initialExpansion, nodeId, scopeStatus, visibleGraph, type Scope } from './scopes.js';
import { svg } from './svg.js';

/** What survives the panel being hidden and shown again (the panel re-sends the graph and statuses). */
interface SavedState {
  readonly title: string;
  readonly expanded: readonly string[];
  readonly selected?: string;
}

interface Shown {
  readonly graph: GraphData;
  readonly root: Scope;
  readonly nodes: ReadonlyMap<string, GraphNode>;
  expanded: Set<string>;
  layout?: Layout;
  elements: Map<string, SVGGElement>;
}

export class GraphApp {
  private shown: Shown | undefined;
  private readonly statuses = new Map<string, NodeStatus>();
  private paused: string | undefined;
  private selected: string | undefined;
  private renders = 0;
  private readonly title = h('h1', null, 'Graph');
  private readonly counts = h('span', { className: 'counts' });
  private readonly warnings = h('div', { className: 'warnings' });
  /** One line from the panel about the debugger (session ended, paused elsewhere, why no tensors). */
  private readonly notice = h('p', { className: 'notice', attrs: { role: 'status' } });
  private readonly viewport = svg('g', { class: 'viewport' });
  private readonly canvas = svg(
    'svg',
    { class: 'graph', role: 'img', 'aria-label': 'Model graph' },
    svg('defs', {}, svg('marker', { id: 'arrow', viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto' }, arrowHead())),
    this.viewport,
  );
  private readonly details = h('footer', { className: 'details' });
  private readonly panZoom = new PanZoom(this.canvas, this.viewport);

  constructor(
    private readonly root: HTMLElement,
    private readonly host: GraphHost,
  ) {}

  start(): void {
    const toolbar = h(
      'header',
      { className: 'toolbar' },
      this.title,
      this.counts,
      button('Fit', () => this.fit(), { attrs: { 'data-action': 'fit' } }),
      button('+', () => this.panZoom.zoomBy(1.25), { title: 'Zoom in' }),
      button('−', () => this.panZoom.zoomBy(0.8), { title: 'Zoom out' }),
      button('Collapse to scopes', () => this.collapseAll(), { attrs: { 'data-action': 'collapse-all' } }),
    );
    this.notice.hidden = true;
    replaceChildren(this.root, toolbar, this.warnings, this.notice, this.canvas, this.details);
    this.root.dataset.state = 'waiting';
    this.canvas.addEventListener('click', (e) => this.clicked(e));
    this.canvas.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' || e.key === ' ') this.clicked(e);
    });
    window.addEventListener('message', (e: MessageEvent<GraphHostMessage>) => this.receive(e.data));
    this.host.post({ type: 'ready' });
  }

  private receive(message: GraphHostMessage): void {
    switch (message.type) {
      case 'graph': {
        const received = performance.now();
        this.show(message.graph);
        // Time to the frame after the first draw (the 1,000-node benchmark reads it).
        requestAnimationFrame(() => {
          this.root.dataset.shownMs = (performance.now() - received).toFixed(1);
        });
        return;
      }
      case 'status':
        this.applyStatus(message.updates, message.reset === true);
        return;
      case 'error':
        this.root.dataset.state = 'error';
        replaceChildren(this.warnings, h('p', { className: 'error' }, message.message));
        return;
      case 'notice':
        this.notice.textContent = message.text;
        this.notice.hidden = message.text === '';
        return;
    }
  }

  private show(graph: GraphData): void {
    const root = buildScopes(graph);
    const saved = this.host.getState() as SavedState | undefined;
    const expanded = saved?.title === graph.title ? new Set(saved.expanded) : initialExpansion(root);
    this.selected = saved?.title === graph.title ? saved.selected : undefined;
    this.statuses.clear();
    this.paused = undefined;
    this.shown = { graph, root, nodes: new Map(graph.nodes.map((n) => [n.name, n])), expanded, elements: new Map() };
    this.title.textContent = graph.title;
    const notes = [...graph.warnings];
    if (graph.functions > 0) notes.push(`${graph.functions} graph function(s) in library.function are not drawn: this is the top graph.`);
    replaceChildren(this.warnings, ...notes.map((w) => h('p', { className: 'warn' }, w)));
    this.draw();
    this.fit();
  }

  /** Lays out and draws what the expanded scopes make visible; times both for the benchmark. */
  private draw(): void {
    const shown = this.shown;
    if (!shown) return;
    const start = performance.now();
    const visible = visibleGraph(shown.graph, shown.root, shown.expanded);
    shown.layout = layoutGraph(visible);
    const laidOut = performance.now();
    shown.elements = renderLayout(this.viewport, shown.layout);
    this.restyle();
    const done = performance.now();
    const boxes = visible.items.length;
    this.counts.textContent = `${shown.graph.nodes.length} nodes · ${boxes === shown.graph.nodes.length ? 'all shown' : `${boxes} boxes`}`;
    this.root.dataset.state = 'ready';
    this.root.dataset.renders = String(++this.renders);
    this.root.dataset.layoutMs = (laidOut - start).toFixed(1);
    this.root.dataset.renderMs = (done - start).toFixed(1);
    this.save();
  }

  private restyle(): void {
    const shown = this.shown;
    if (!shown?.layout) return;
    // Inputs, weights and constants are given to a run, never run: "not run" said the wrong thing.
    const statusOf = (name: string): NodeStatus => this.statuses.get(name) ?? (GIVEN_OPS.has(shown.nodes.get(name)?.op ?? '') ? 'given' : 'not-run');
    for (const box of shown.layout.boxes.values()) {
      const el = shown.elements.get(box.item.id)!;
      setStatus(el, box.item.kind === 'node' ? statusOf(box.item.node.name) : scopeStatus(box.item.scope, statusOf));
      el.classList.toggle('selected', box.item.kind === 'node' && box.item.node.name === this.selected);
    }
    const node = this.selected === undefined ? undefined : shown.nodes.get(this.selected);
    renderDetails(this.details, node, node ? statusOf(node.name) : 'not-run', {
      breakOn: (name) => this.host.post({ type: 'breakOnNode', node: name }),
      breakOnOp: (op) => this.host.post({ type: 'breakOnOp', op }),
      collapse: (scope) => {
        shown.expanded.delete(scope);
        this.draw();
      },
    });
  }

  private applyStatus(updates: readonly NodeStatusUpdate[], reset: boolean): void {
    const shown = this.shown;
    if (reset) {
      this.statuses.clear();
      this.paused = undefined;
    }
    for (const { node, status } of updates) {
      if (!shown?.nodes.has(node)) continue;
      if (status === 'paused' && this.paused !== undefined && this.paused !== node) this.statuses.set(this.paused, 'ran');
      if (status === 'paused') this.paused = node;
      else if (this.paused === node) this.paused = undefined;
      this.statuses.set(node, status);
    }
    if (!shown) return;
    const paused = this.paused;
    if (paused !== undefined) {
      // The paused node is followed: its scopes open, and it comes to the middle.
      const closed = ancestorsOf(paused).filter((s) => !shown.expanded.has(s));
      for (const s of closed) shown.expanded.add(s);
      if (closed.length > 0) this.draw();
      else this.restyle();
      const box = shown.layout?.boxes.get(nodeId(paused));
      if (box) this.panZoom.centerOn(box.x, box.y);
    } else {
      this.restyle();
    }
    this.root.dataset.paused = paused ?? '';
  }

  private clicked(e: Event): void {
    const shown = this.shown;
    const el = (e.target as Element).closest<SVGGElement>('.item');
    if (!shown?.layout || !el) return;
    const box = shown.layout.boxes.get(el.dataset.id ?? '');
    if (!box) return;
    if (box.item.kind === 'scope') {
      shown.expanded.add(box.item.scope.path);
      this.draw();
      // The scope's first node where the box was, so the expanded part is where the user looked.
      const prefix = `${box.item.scope.path}/`;
      const first = [...(shown.layout?.boxes.values() ?? [])].find((b) => b.item.kind === 'node' && b.item.node.name.startsWith(prefix));
      if (first) this.panZoom.centerOn(first.x, first.y, this.panZoom.view.k);
      return;
    }
    this.selected = box.item.node.name;
    this.restyle();
    this.save();
    this.host.post({ type: 'nodeClicked', node: box.item.node.name });
  }

  private fit(): void {
    if (this.shown?.layout) this.panZoom.fit(this.shown.layout.width, this.shown.layout.height);
  }

  private collapseAll(): void {
    if (!this.shown) return;
    this.shown.expanded = initialExpansion(this.shown.root);
    this.draw();
    this.fit();
  }

  private save(): void {
    if (!this.shown) return;
    const state: SavedState = { title: this.shown.graph.title, expanded: [...this.shown.expanded], ...(this.selected ? { selected: this.selected } : {}) };
    this.host.setState(state);
  }
}

function arrowHead(): SVGPathElement {
  return svg('path', { d: 'M0 0 L10 5 L0 10 z', class: 'arrow-head' });
}
