/** What the selected tensor's view is given to show, and where its controls' changes go. */
import type { TensorStats } from './format.js';
import type { ViewState } from './state.js';
import type { TensorSource } from './tensor-data.js';

export interface TensorViewModel {
  /** Identifies the tensor (entry key, side, index): a new one clears what is shown. */
  readonly id: string;
  readonly name: string;
  readonly info: TensorStats;
  readonly source: TensorSource;
  readonly view: ViewState;
  readonly pageRows: number;
  readonly pageCols: number;
}

export interface TensorViewHandlers {
  readonly onView: (view: ViewState) => void;
  readonly onPageSize: (rows: number, cols: number) => void;
  readonly onCopy: (text: string, format?: string) => void;
}
