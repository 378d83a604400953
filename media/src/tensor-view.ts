/**
 * The selected tensor: slicing (which axes are rows and columns, indices for the others),
 * paging, the value grid, the line chart (line-view.ts), the heatmap and histogram, and "Copy as JSON". Controls are rebuilt at
 * once; the grid and charts are swapped in when the page's values have arrived, so paging does
 * not flash.
 */
import { BYTES_PER_PAGE, renderBytes } from './byte-view.js';
import { tensorAsJson, tensorAsText } from './copy.js';
import { button, h, replaceChildren } from './dom.js';
import { formatCount, formatShape } from './format.js';
import { renderGrid } from './grid.js';
import { renderHeatmap } from './heatmap.js';
import { renderHistogram } from './histogram.js';
import { channelData, gridAt, imageControls, imageLayout, MAX_IMAGE_VALUES, renderImage, type ImageLayout } from './image.js';
import { fetchLine, type LineChoice, lineChoiceFor, renderLine } from './line-view.js';
import { matrixOf, pageRegion, regionSize, type Region } from './slicing.js';
import { pagingControls, slicingControls, withFocus } from './slice-controls.js';
import type { TensorViewHandlers, TensorViewModel } from './tensor-view-model.js';
import type { TensorData } from './tensor-data.js';

/** A 2-D slice up to this many values is drawn whole in the heatmap (with the page outlined). */
const WHOLE_HEATMAP_MAX = 65_536;

export class TensorView {
  readonly element = h('section', { className: 'tensor-view', attrs: { 'aria-label': 'selected tensor' } });
  private readonly title = h('h2', { className: 'tensor-title' });
  private readonly controls = h('div', { className: 'controls' });
  private readonly problem = h('p', { className: 'problem', attrs: { role: 'status' } });
  private readonly dataArea = h('div', { className: 'data-area' });
  private shownId: string | undefined;
  private token = 0;
  /** Renders with values (or a final error), counted for tests and benchmarks: data-renders. */
  private renders = 0;
  private copyStatus = h('span', { className: 'copy-status', attrs: { role: 'status' } });
  /** The byte offset shown when the selected tensor is shown as bytes (the Bytes toggle). */
  private bytesAt: number | undefined;
  private lastModel: TensorViewModel | undefined;
  /** Which row or column the line chart draws (line-view.ts); reset with a new tensor. */
  private lineChoice: LineChoice | undefined;

  constructor(
    private readonly data: TensorData,
    private readonly handlers: TensorViewHandlers,
  ) {
    this.element.append(this.title, this.controls, this.problem, this.dataArea);
  }

  show(model: TensorViewModel | undefined): void {
    const token = ++this.token;
    if (!model) {
      this.shownId = undefined;
      this.element.hidden = true;
      this.element.dataset.state = 'empty';
      return;
    }
    this.element.hidden = false;
    this.lastModel = model;
    if (model.id !== this.shownId) {
      this.dataArea.replaceChildren(h('p', { className: 'note loading' }, 'Loading values…'));
      this.copyStatus = h('span', { className: 'copy-status', attrs: { role: 'status' } });
      this.shownId = model.id;
      this.bytesAt = undefined;
      this.lineChoice = undefined;
    }
    const { info, view } = model;
    this.showTitle(model);
    this.element.dataset.state = 'loading';
    this.problem.textContent = '';
    if (this.bytesAt !== undefined) {
      this.element.dataset.display = 'bytes';
      this.showBytes(model, this.bytesAt, token);
      return;
    }
    // An image-shaped tensor opens as an image; its grid is a toggle away.
    const image = info.size > 0 && !info.disposed ? imageLayout(info.shape, info.dtype) : undefined;
    const tooLarge = image && image.size > MAX_IMAGE_VALUES ? `Too large to draw as an image (${formatCount(image.size)} values)` : undefined;
    this.element.dataset.display = image && !tooLarge && view.display !== 'grid' ? 'image' : 'grid';
    if (image && !tooLarge && view.display !== 'grid') {
      this.showImage(model, image, token);
      return;
    }
    this.showGrid(model, image, tooLarge, token);
  }

  /** The tensor's name, signature and copy buttons. */
  private showTitle(model: TensorViewModel): void {
    const { info } = model;
    replaceChildren(
      this.title,
      h('span', { className: 'tensor-name' }, model.name),
      ' ',
      h('span', { className: 'tensor-sig' }, `${info.kind} ${info.dtype} ${formatShape(info.shape)} · ${formatCount(info.size)} values`),
      ' ',
      button('Copy as JSON', () => void this.copy(model), { className: 'copy', dataset: { focusId: 'copy' }, disabled: info.size === 0 }),
      button('NumPy', () => void this.copyAs(model, 'numpy'), {
        className: 'copy-as copy-numpy',
        dataset: { focusId: 'copy-numpy' },
        disabled: info.size === 0,
      }),
      button('CSV', () => void this.copyAs(model, 'csv'), { className: 'copy-as copy-csv', dataset: { focusId: 'copy-csv' }, disabled: info.size === 0 }),
      button(this.bytesAt === undefined ? 'Bytes' : 'Values', () => this.toggleBytes(), {
        className: 'show-bytes',
        dataset: { focusId: 'show-bytes' },
        disabled: info.size === 0 || info.disposed,
      }),
      this.copyStatus,
    );
  }

  /** The grid with its slicing and paging controls, then the heatmap and histogram once the values arrive. */
  private showGrid(model: TensorViewModel, image: ImageLayout | undefined, tooLarge: string | undefined, token: number): void {
    const { info, view, pageRows, pageCols } = model;
    const m = matrixOf(info.shape, view, pageCols);
    const page = pageRegion(m, view, pageRows, pageCols);
    const whole: Region = { r0: 0, r1: m.rows, c0: 0, c1: m.cols };
    const heatRegion = regionSize(whole) <= WHOLE_HEATMAP_MAX ? whole : page;
    replaceChildren(
      this.controls,
      image ? imageControls(view, image, 'grid', this.handlers.onView, withFocus, tooLarge) : null,
      slicingControls(model, m, this.handlers),
      pagingControls(model, m, page, this.handlers),
    );
    if (info.disposed) {
      this.dataArea.replaceChildren(
        h(
          'p',
          { className: 'note disposed' },
          `Disposed: this ${info.kind.toLowerCase()} was disposed before the stop, so its values are gone (its dtype and shape are above).`,
        ),
      );
      this.done('ready');
      return;
    }
    if (info.size === 0) {
      this.dataArea.replaceChildren(h('p', { className: 'note' }, 'Empty tensor: no values.'));
      this.done('ready');
      return;
    }
    const started = performance.now();
    const choice = info.dtype === 'string' ? undefined : lineChoiceFor(info.shape, m, this.lineChoice);
    Promise.all([this.data.region(model.source, m, heatRegion), choice && fetchLine(this.data, model.source, m, choice)]).then(
      ([region, line]) => {
        if (token !== this.token) return;
        const onLine = (next: LineChoice) => {
          this.lineChoice = next;
          if (this.lastModel) this.show(this.lastModel);
        };
        const onPick = heatRegion === page ? undefined : (r: number, c: number) => this.handlers.onView({ ...view, rowOffset: r, colOffset: c });
        const grid = h('div', { className: 'grid-scroll' }, renderGrid(m, page, region));
        const charts = h(
          'div',
          { className: 'charts' },
          h('h3', null, heatRegion === page ? 'This page' : `Whole slice ${m.description}`),
          renderHeatmap(m, region, { page, onPick }),
          renderHistogram(region),
          line && choice ? renderLine(line, choice, m, info.shape.length, onLine) : null,
        );
        this.shown(started, region.problem ?? line?.problem, grid, charts);
      },
      (err: unknown) => this.failed(token, err),
    );
  }

  private toggleBytes(): void {
    this.bytesAt = this.bytesAt === undefined ? 0 : undefined;
    if (this.lastModel) this.show(this.lastModel);
  }

  /** A page of the tensor's bytes as stored, from `offset`. */
  private showBytes(model: TensorViewModel, offset: number, token: number): void {
    this.controls.replaceChildren();
    const started = performance.now();
    this.data.bytes(model.source, offset, BYTES_PER_PAGE).then(
      (page) => {
        if (token !== this.token) return;
        this.shown(
          started,
          undefined,
          renderBytes(page, (next) => {
            this.bytesAt = next;
            this.show(model);
          }),
        );
      },
      (err: unknown) => this.failed(token, err),
    );
  }

  /** The image (or one channel) of the selected image in the batch, with its histogram. */
  private showImage(model: TensorViewModel, layout: ImageLayout, token: number): void {
    const { info, view } = model;
    replaceChildren(this.controls, imageControls(view, layout, 'image', this.handlers.onView, withFocus));
    const batch = layout.batchAxis === undefined ? 0 : (view.fixed[layout.batchAxis] ?? 0);
    const started = performance.now();
    this.data.block(model.source, batch * layout.size, layout.size).then(
      (data) => {
        if (token !== this.token) return;
        const figure = renderImage(layout, data, {
          dtype: info.dtype,
          channel: view.channel,
          onPick: (y, x) => this.handlers.onView(gridAt(view, layout, y, x)),
        });
        const shown = view.channel === undefined ? data : channelData(layout, data, view.channel);
        const which = layout.batchAxis === undefined ? '' : ` of image ${batch}`;
        const charts = h(
          'div',
          { className: 'charts' },
          h('h3', null, `${view.channel === undefined ? 'All channels' : `Channel ${'RGBA'[view.channel]}`}${which}`),
          renderHistogram(shown),
        );
        this.shown(started, data.problem, figure, charts);
      },
      (err: unknown) => this.failed(token, err),
    );
  }

  /** The fetched values drawn: what was drawn, what could not be fetched, how long it took. */
  private shown(started: number, problem: string | undefined, ...children: HTMLElement[]): void {
    this.dataArea.replaceChildren(...children);
    this.problem.textContent = problem ? `Values not available: ${problem}` : '';
    this.element.dataset.renderMs = (performance.now() - started).toFixed(1);
    this.done('ready');
  }

  /** A fetch failed: said in place of the values, unless a newer view replaced this one. */
  private failed(token: number, err: unknown): void {
    if (token !== this.token) return;
    this.problem.textContent = `Values not available: ${(err as Error).message}`;
    this.done('error');
  }

  private done(state: 'ready' | 'error'): void {
    this.element.dataset.state = state;
    this.element.dataset.renders = String(++this.renders);
    performance.mark('tensor-inspector:rendered');
  }

  /** "NumPy" / "CSV": the whole tensor in that form, or why not (too large, CSV of more than 2-D). */
  private async copyAs(model: TensorViewModel, format: 'numpy' | 'csv'): Promise<void> {
    const status = this.copyStatus;
    status.textContent = 'Fetching values…';
    status.className = 'copy-status';
    try {
      const result = await tensorAsText(this.data, model.source, model.name, format);
      this.handlers.onCopy(result.text, COPY_LABELS[format]);
      status.textContent = `Copied ${formatCount(result.count)} values as ${COPY_LABELS[format]}`;
    } catch (err) {
      status.textContent = `Copy failed: ${(err as Error).message}`;
      status.className = 'copy-status error';
    }
  }

  private async copy(model: TensorViewModel): Promise<void> {
    const status = this.copyStatus;
    status.textContent = 'Fetching values…';
    status.className = 'copy-status';
    try {
      const result = await tensorAsJson(this.data, model.source, model.name);
      this.handlers.onCopy(result.text);
      status.textContent = result.truncated
        ? `Copied the first ${formatCount(result.count)} of ${formatCount(model.info.size)} values`
        : `Copied ${formatCount(result.count)} values`;
    } catch (err) {
      status.textContent = `Copy failed: ${(err as Error).message}`;
      status.className = 'copy-status error';
    }
  }
}

/** The copy formats besides JSON, by their button's label. */
const COPY_LABELS = { numpy: 'NumPy', csv: 'CSV' } as const;
