/**
 * The selected tensor as a line (line-chart.ts): a 1-D tensor whole, or one row or column of the
 * 2-D slice the grid shows (of a 2-D tensor, or of an N-D one at the fixed indices). Up to
 * LINE_EXACT_MAX values are fetched and drawn exactly; a longer line is a strided sample of about
 * LINE_EXACT_MAX points, and the view says so. NaN and ±Inf are marked by the chart.
 */
import { button, h, numberInput, select } from './dom.js';
import { formatCount } from './format.js';
import { type ChartPoint, lineChart } from './line-chart.js';
import type { Matrix } from './slicing.js';
import type { TensorData, TensorSource } from './tensor-data.js';

/** A line this long or shorter is drawn value by value. */
export const LINE_EXACT_MAX = 100_000;
/** Values further apart than this in memory are fetched one by one: such a line draws at most SPARSE_MAX. */
const SPARSE_GAP = 2048;
const SPARSE_MAX = 1_000;

/** Which line of a 2-D slice is drawn: row `index` (along the columns) or column `index` (along the rows). */
export interface LineChoice {
  readonly along: 'row' | 'col';
  readonly index: number;
}

/** The values a line view draws, fetched. */
export interface LineData {
  readonly points: readonly ChartPoint[];
  /** Values on the line (the tensor's length, or the row's or column's). */
  readonly length: number;
  /** 1 when every value is drawn; else every `stride`-th. */
  readonly stride: number;
  readonly title: string;
  readonly xLabel: string;
  /** Strings: nothing to draw as a line. */
  readonly numeric: boolean;
  readonly problem?: string;
}

/** What the line of this shape can be: a 1-D tensor's whole, a row or column of a slice, or none (a scalar). */
export function lineChoiceFor(shape: readonly number[], m: Matrix, asked: LineChoice | undefined): LineChoice | undefined {
  if (shape.length === 0 || m.rows === 0 || m.cols === 0) return undefined;
  if (shape.length === 1) return { along: 'row', index: 0 };
  const along = asked?.along ?? 'row';
  const last = (along === 'row' ? m.rows : m.cols) - 1;
  return { along, index: Math.min(last, Math.max(0, Math.trunc(asked?.index ?? 0))) };
}

/** Fetches the line's values (exactly, or a strided sample of a long one). */
export async function fetchLine(data: TensorData, source: TensorSource, m: Matrix, choice: LineChoice): Promise<LineData> {
  const shape = source.info.shape;
  const flat = shape.length === 1;
  const length = flat ? (shape[0] ?? 0) : choice.along === 'row' ? m.cols : m.rows;
  const at = (k: number): number => (flat ? k : choice.along === 'row' ? m.flatIndex(choice.index, k) : m.flatIndex(k, choice.index));
  // Values far apart in memory (a column of a wide slice) cost a request each: fewer of them.
  const most = length > 1 && Math.abs(at(1) - at(0)) > SPARSE_GAP ? SPARSE_MAX : LINE_EXACT_MAX;
  const stride = length <= most ? 1 : Math.ceil(length / most);
  const n = Math.ceil(length / stride);
  const line: Matrix = {
    rows: 1,
    cols: n,
    flatIndex: (_r, c) => at(c * stride),
    rowLabel: () => '',
    colLabel: (c) => String(c * stride),
    description: m.description,
  };
  const region = await data.region(source, line, { r0: 0, r1: 1, c0: 0, c1: n });
  const points: ChartPoint[] = [];
  for (let k = 0; k < n; k++) if (region.values[k] !== undefined) points.push({ x: k * stride, y: region.numeric[k]! });
  const title = flat ? 'Line' : choice.along === 'row' ? `Line: row ${choice.index}` : `Line: column ${choice.index}`;
  const xLabel = flat ? 'index' : choice.along === 'row' ? 'column' : 'row';
  return { points, length, stride, title, xLabel, numeric: region.isNumeric, problem: region.problem };
}

/** The line chart with its row/column choice (rank ≥ 2) and what was drawn. */
export function renderLine(line: LineData, choice: LineChoice, m: Matrix, rank: number, onChoice: (choice: LineChoice) => void): HTMLElement {
  const section = h('section', { className: 'line-view', attrs: { 'aria-label': 'line chart' } }, h('h3', null, line.title));
  if (rank >= 2) section.append(lineControls(choice, m, onChoice));
  if (!line.numeric) {
    section.append(h('p', { className: 'note' }, 'Not numbers: nothing to draw as a line.'));
    return section;
  }
  const shown =
    line.stride === 1
      ? `${formatCount(line.length)} values, all drawn`
      : `${formatCount(line.length)} values: a sample of 1 in every ${formatCount(line.stride)} (${formatCount(line.points.length)} points) is drawn`;
  section.append(
    lineChart([{ name: line.title, points: line.points }], {
      label: `${line.title} (${shown})`,
      xLabel: line.xLabel,
      yLabel: 'value',
      width: 480,
      height: 180,
    }),
    h('p', { className: line.stride === 1 ? 'note line-extent' : 'note line-extent sampled', attrs: { role: 'status' } }, shown),
  );
  return section;
}

/** Row or column, which one, and a step to the previous or next. */
function lineControls(choice: LineChoice, m: Matrix, onChoice: (choice: LineChoice) => void): HTMLElement {
  const count = choice.along === 'row' ? m.rows : m.cols;
  const go = (index: number) => onChoice({ ...choice, index: Math.min(count - 1, Math.max(0, index)) });
  return h(
    'div',
    { className: 'line-controls' },
    select(
      [
        { value: 'row', label: 'a row' },
        { value: 'col', label: 'a column' },
      ],
      choice.along,
      (v) => onChoice({ along: v === 'col' ? 'col' : 'row', index: 0 }),
      'line along',
    ),
    ' ',
    numberInput(choice.index, 0, count - 1, go, choice.along === 'row' ? 'line row' : 'line column'),
    h('span', { className: 'note' }, ` / ${formatCount(count)} `),
    button('‹', () => go(choice.index - 1), { attrs: { 'aria-label': 'previous line' }, disabled: choice.index <= 0 }),
    button('›', () => go(choice.index + 1), { attrs: { 'aria-label': 'next line' }, disabled: choice.index >= count - 1 }),
  );
}
