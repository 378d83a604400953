/**
 * `--find-nan`: the op watch's births of NaN/Inf (runtime/op-watch/) as the CLI tells them: the
 * first few printed as they happen (the first with its inputs and outputs), all counted, the first
 * BIRTHS_KEPT written into the trace as `opBirths`, and one line after the run's summary.
 */
import { formatCallSite } from '../callsite.js';
import type { OpBirth, OpBirthObserver } from '../hook-types.js';
import { nonFiniteText, nonFiniteWord } from '../non-finite-text.js';
import { shortNumber } from '../non-finite-facts.js';
import { signature } from '../signature.js';
import { summarizeTensor, type TensorSummary } from '../summary.js';

/** Births printed as they happen; the rest are counted. */
const BIRTHS_PRINTED = 5;
/** Births written into the trace. */
const BIRTHS_KEPT = 100;

/** A birth as the trace keeps it: the runtime's facts, its tensors as summaries. */
export type BirthRecord = Omit<OpBirth, 'inputs' | 'outputs' | 'attrs' | 'first'> & {
  readonly inputs: (TensorSummary | null)[];
  readonly outputs: TensorSummary[];
  readonly first?: { readonly output: number; readonly index: number; readonly coords: readonly number[]; readonly value: string };
};

export class BirthReport implements OpBirthObserver {
  readonly records: BirthRecord[] = [];
  private count = 0;

  constructor(private readonly print: (line: string) => void) {}

  onBirth(birth: OpBirth): void {
    this.count++;
    if (this.records.length >= BIRTHS_KEPT && this.count > BIRTHS_PRINTED) return;
    const record = recordOf(birth);
    if (this.records.length < BIRTHS_KEPT) this.records.push(record);
    if (this.count === 1) this.print(firstBirthText(record));
    else if (this.count <= BIRTHS_PRINTED) this.print(`✗ ${record.message}`);
  }

  /** A birth another process or thread of the program recorded (process-share.ts): counted and kept, not printed. */
  addShared(record: BirthRecord): void {
    this.count++;
    if (this.records.length < BIRTHS_KEPT) this.records.push(record);
  }

  /** The line after the run's summary. */
  summaryLine(): string {
    if (this.count === 0) return 'NaN/Inf: none made by any op or taken from data (--find-nan)';
    const later = this.count - 1;
    return `NaN/Inf: ${this.records[0]!.message}${later > 0 ? ` (and ${later} later birth${later === 1 ? '' : 's'}: ops that made NaN/Inf from finite inputs)` : ''}`;
  }
}

export function recordOf(b: OpBirth): BirthRecord {
  const { inputs, outputs, attrs: _attrs, first, ...facts } = b;
  return {
    ...facts,
    inputs: inputs.map((t) => (t && !t.isDisposed ? summarizeTensor(t) : null)),
    outputs: outputs.map((t) => summarizeTensor(t)),
    ...(first ? { first: { output: first.output, index: first.index, coords: first.coords, value: nonFiniteWord(first.value) ?? String(first.value) } } : {}),
  };
}

/** The first birth, with what went in and what came out. */
function firstBirthText(r: BirthRecord): string {
  const lines = [`✗ ${r.message}`];
  r.inputs.forEach((s, i) => {
    const name = r.inputNames[i] !== undefined && r.inputNames[i] !== String(i) ? ` ${r.inputNames[i]}` : '';
    lines.push(`    input ${i}${name}: ${s ? tensorText(s) : '(none)'}`);
  });
  r.outputs.forEach((s, i) => {
    const at = r.first?.output === i ? `, first ${r.first.value} at [${r.first.coords.join(', ')}]` : '';
    lines.push(`    output ${i}: ${tensorText(s)}${at}`);
  });
  if (r.gradientOf?.site) lines.push(`    its forward op \`${r.gradientOf.op}\` ran at ${formatCallSite(r.gradientOf.site)}`);
  return lines.join('\n');
}

function tensorText(s: TensorSummary): string {
  const range = s.min !== undefined && s.max !== undefined ? ` min=${shortNumber(s.min)} max=${shortNumber(s.max)}` : '';
  const zeros = s.zeroCount > 0 ? ` ${s.zeroCount} zero${s.zeroCount === 1 ? '' : 's'}` : '';
  const bad = nonFiniteText(s);
  return `${signature(s)}${range}${zeros}${bad ? ` (${bad})` : ''}`;
}
