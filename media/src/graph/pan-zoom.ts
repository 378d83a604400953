/**
 * Pan (drag the background) and zoom (wheel, about the pointer) of the graph's SVG, by one
 * transform on its viewport group. `centerOn` brings a box to the middle (the paused node).
 */
export interface View {
  x: number;
  y: number;
  k: number;
}

const MIN_ZOOM = 0.05;
const MAX_ZOOM = 3;

export class PanZoom {
  view: View = { x: 0, y: 0, k: 1 };

  constructor(
    private readonly svg: SVGSVGElement,
    private readonly viewport: SVGGElement,
  ) {
    svg.addEventListener('wheel', (e) => this.wheel(e), { passive: false });
    svg.addEventListener('pointerdown', (e) => this.drag(e));
  }

  set(view: View): void {
    this.view = { x: view.x, y: view.y, k: Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, view.k)) };
    this.viewport.setAttribute('transform', `translate(${this.view.x} ${this.view.y}) scale(${this.view.k})`);
  }

  /** The whole graph in view, never magnified past 1. */
  fit(width: number, height: number): void {
    const { clientWidth: w, clientHeight: h } = this.svg;
    const k = Math.min(1, w / Math.max(width, 1), h / Math.max(height, 1));
    this.set({ k, x: (w - width * k) / 2, y: Math.max(0, (h - height * k) / 2) });
  }

  /** Puts graph point (x, y) in the middle, zoomed in to at least `minZoom`. */
  centerOn(x: number, y: number, minZoom = 0.8): void {
    const k = Math.max(this.view.k, minZoom);
    this.set({ k, x: this.svg.clientWidth / 2 - x * k, y: this.svg.clientHeight / 2 - y * k });
  }

  zoomBy(factor: number, cx = this.svg.clientWidth / 2, cy = this.svg.clientHeight / 2): void {
    const { x, y, k } = this.view;
    const next = Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, k * factor));
    this.set({ k: next, x: cx - ((cx - x) * next) / k, y: cy - ((cy - y) * next) / k });
  }

  private wheel(e: WheelEvent): void {
    e.preventDefault();
    const rect = this.svg.getBoundingClientRect();
    this.zoomBy(Math.exp(-e.deltaY / 500), e.clientX - rect.left, e.clientY - rect.top);
  }

  private drag(e: PointerEvent): void {
    // A press on a node is a click on it; only the background pans.
    if (e.button !== 0 || (e.target as Element).closest('.item')) return;
    const start = { px: e.clientX, py: e.clientY, ...this.view };
    this.svg.setPointerCapture(e.pointerId);
    this.svg.classList.add('panning');
    const move = (m: PointerEvent) => this.set({ k: start.k, x: start.x + m.clientX - start.px, y: start.y + m.clientY - start.py });
    const end = () => {
      this.svg.removeEventListener('pointermove', move);
      this.svg.removeEventListener('pointerup', end);
      this.svg.removeEventListener('pointercancel', end);
      this.svg.classList.remove('panning');
    };
    this.svg.addEventListener('pointermove', move);
    this.svg.addEventListener('pointerup', end);
    this.svg.addEventListener('pointercancel', end);
  }
}
