/**
 * The graph view: takes the panel's messages (the graph, node statuses), keeps which scopes are
 * expanded, lays out and draws what is visible, and posts clicks back. The paused node is drawn
 * (its scopes expanded), highlighted, and brought to the middle. At most MAX_BOXES boxes are drawn
 * (visible.ts): past that the least recently expanded scopes close, and a line says so. A graph
 * that cannot be drawn says why in the panel, never a blank one.
 */
import { button, h, replaceChildren } from '../dom.js';
import { GIVEN_OPS, type GraphData, type GraphHostMessage, type GraphNode, type NodeStatus, type NodeStatusUpdate } from '../graph-protocol.js';
import { renderDetails } from './details.js';
import type { GraphHost } from './host.js';
import { layoutGraph, type Layout } from './layout.js';
import { PanZoom } from './pan-zoom.js';
import { renderLayout, setStatus } from './render.js';
import { ancestorsOf, buildScopes, nodeId, type Scope, type ScopeTree, scopeId, scopeStatus } from './scopes.js';
import { svg } from '../svg.js';
import { initialExpansion, MAX_BOXES, openScopes, type VisibleGraph, visibleGraph } from './visible.js';

/** What survives the panel being hidden and shown again (the panel re-sends the graph and statuses). */
interface SavedState {
  readonly title: string;
  /** The graph's node count: the saved scopes are indices into its scope tree. */
  readonly size?: number;
  readonly expanded: readonly number[];
  readonly selected?: string;
}

interface Shown {
  readonly graph: GraphData;
  readonly tree: ScopeTree;
  readonly nodes: ReadonlyMap<string, GraphNode>;
  /** In the order they were expanded: the most recent are kept open when not all fit. */
  expanded: Set<Scope>;
  visible?: VisibleGraph;
  layout?: Layout;
  elements: Map<string, SVGGElement>;
}

/** Warnings listed above the graph; the rest are counted. */
const MAX_WARNINGS = 20;

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
  /** One line from the view itself: scopes it left collapsed to stay within MAX_BOXES. */
  private readonly limit = h('p', { className: 'limit', attrs: { role: 'status' } });
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
    this.limit.hidden = true;
    replaceChildren(this.root, toolbar, this.warnings, this.notice, this.limit, this.canvas, this.details);
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
    this.shown = undefined;
    this.statuses.clear();
    this.paused = undefined;
    this.title.textContent = graph.title;
    this.limit.hidden = true;
    const notes = graph.warnings.slice(0, MAX_WARNINGS);
    if (graph.warnings.length > MAX_WARNINGS) notes.push(`… and ${graph.warnings.length - MAX_WARNINGS} more warnings like these.`);
    if (graph.functions > 0) notes.push(`${graph.functions} graph function(s) in library.function are not drawn: this is the top graph.`);
    replaceChildren(this.warnings, ...notes.map((w) => h('p', { className: 'warn' }, w)));
    let tree: ScopeTree;
    try {
      tree = buildScopes(graph);
    } catch (err) {
      this.cannotDraw(graph, err);
      return;
    }
    const saved = this.host.getState() as SavedState | undefined;
    const same = saved?.title === graph.title && saved.size === graph.nodes.length && Array.isArray(saved.expanded);
    const expanded = same ? saved.expanded.flatMap((i) => tree.scopes[i] ?? []) : initialExpansion(tree);
    this.selected = same ? saved.selected : undefined;
    this.shown = { graph, tree, nodes: new Map(graph.nodes.map((n) => [n.name, n])), expanded: new Set(expanded), elements: new Map() };
    this.draw();
    this.fit();
  }

  /** Lays out and draws what the expanded scopes make visible; times both for the benchmark. */
  private draw(): void {
    const shown = this.shown;
    if (!shown) return;
    try {
      this.drawShown(shown);
    } catch (err) {
      if (shown.expanded.size === 0) {
        this.cannotDraw(shown.graph, err);
        return;
      }
      // What the expanded scopes show could not be laid out: the top level alone, and why.
      shown.expanded.clear();
      try {
        this.drawShown(shown);
      } catch (again) {
        this.cannotDraw(shown.graph, again);
        return;
      }
      this.limit.textContent = `Every scope was collapsed: the expanded view could not be drawn (${(err as Error).message}).`;
      this.limit.hidden = false;
    }
  }

  private drawShown(shown: Shown): void {
    const start = performance.now();
    const { open, heldBack } = openScopes(shown.tree, shown.expanded);
    for (const scope of heldBack) shown.expanded.delete(scope);
    const visible = visibleGraph(shown.graph, shown.tree, open);
    const layout = layoutGraph(visible);
    const laidOut = performance.now();
    shown.elements = renderLayout(this.viewport, layout);
    shown.visible = visible;
    shown.layout = layout;
    this.restyle();
    const done = performance.now();
    const boxes = visible.items.length;
    this.counts.textContent = `${shown.graph.nodes.length} nodes · ${boxes === shown.graph.nodes.length ? 'all shown' : `${boxes} boxes`}`;
    this.limit.textContent =
      heldBack.length > 0 ? `${heldBack.length} expanded scope(s) closed again: the view draws at most ${MAX_BOXES} boxes. Collapse some to open others.` : '';
    this.limit.hidden = heldBack.length === 0;
    this.root.dataset.state = 'ready';
    this.root.dataset.boxes = String(boxes);
    this.root.dataset.renders = String(++this.renders);
    this.root.dataset.layoutMs = (laidOut - start).toFixed(1);
    this.root.dataset.renderMs = (done - start).toFixed(1);
    this.save();
  }

  /** The panel says why instead of staying blank. */
  private cannotDraw(graph: GraphData, err: unknown): void {
    this.shown = undefined;
    this.viewport.replaceChildren();
    this.counts.textContent = `${graph.nodes.length} nodes`;
    const why = err instanceof Error ? err.message : String(err);
    const message = `This graph cannot be drawn (${why}). Its ${graph.nodes.length} nodes are in the model.json; node breakpoints by name or op work without the view.`;
    this.warnings.appendChild(h('p', { className: 'error', attrs: { role: 'alert' } }, message));
    this.root.dataset.state = 'error';
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
    const actions = {
      breakOn: (name: string) => this.host.post({ type: 'breakOnNode', node: name }),
      breakOnOp: (op: string) => this.host.post({ type: 'breakOnOp', op }),
      collapse: (scope: Scope) => {
        shown.expanded.delete(scope);
        this.draw();
      },
    };
    renderDetails(this.details, node, node ? statusOf(node.name) : 'not-run', actions, node && shown.tree.holder.get(node.name));
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
      // The paused node is followed: its scopes open (the most recently expanded), and it comes to the middle.
      const ancestors = ancestorsOf(shown.tree, paused);
      const closed = ancestors.filter((s) => !shown.expanded.has(s)).length;
      for (const s of ancestors) {
        shown.expanded.delete(s);
        shown.expanded.add(s);
      }
      if (closed > 0) this.draw();
      else this.restyle();
      const id = shown.visible?.itemOf.get(paused);
      const box = id === undefined ? undefined : shown.layout?.boxes.get(id);
      if (box) this.panZoom.centerOn(box.x, box.y);
      if (id !== undefined && id !== nodeId(paused) && box) {
        this.limit.textContent = `The paused node is inside ${box.item.kind === 'scope' ? `'${box.item.scope.label}'` : 'a scope'}, drawn collapsed: its ${ancestors.length} enclosing scopes would draw more than ${MAX_BOXES} boxes.`;
        this.limit.hidden = false;
      }
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
      const scope = box.item.scope;
      shown.expanded.delete(scope);
      shown.expanded.add(scope);
      this.draw();
      // The scope's first item where the box was, so the expanded part is where the user looked.
      const firstNode = scope.nodes[0];
      const firstScope = scope.scopes[0];
      const first = shown.layout?.boxes.get(firstNode ? nodeId(firstNode.name) : firstScope ? scopeId(firstScope) : '');
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
    this.shown.expanded = new Set(initialExpansion(this.shown.tree));
    this.draw();
    this.fit();
  }

  private save(): void {
    if (!this.shown) return;
    const { graph, expanded } = this.shown;
    const state: SavedState = {
      title: graph.title,
      size: graph.nodes.length,
      expanded: Array.from(expanded, (s) => s.index),
      ...(this.selected ? { selected: this.selected } : {}),
    };
    this.host.setState(state);
  }
}

function arrowHead(): SVGPathElement {
  return svg('path', { d: 'M0 0 L10 5 L0 10 z', class: 'arrow-head' });
}
