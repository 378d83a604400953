/**
 * Where each of ours' figures spends its time: the extension, the adapter and the debuggee's
 * bridge mark their milestones into one file (debug-adapter/debuggee/timeline.ts, switched on by
 * TFJS_CALLBACKS_TIMELINE in code-server's environment); after each measured press the bench reads
 * the marks that came after it, as milliseconds from the press, and the report gives each mark's
 * median per figure, in the order they came.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import type { TimelineMark } from '../../debug-adapter/debuggee/timeline.js';
import { stat } from './report.js';

/** mark → milliseconds after the press of each sample (the first such mark after it). */
export type Phases = Record<string, number[]>;

export class TimelineRecorder {
  /** figure → its phases over the samples. */
  readonly figures = new Map<string, Phases>();

  constructor(readonly file: string) {
    writeFileSync(file, '');
  }

  /** Forgets what earlier presses marked. */
  reset(): void {
    writeFileSync(this.file, '');
  }

  /** Records the marks that came after the press at `pressEpoch` (ms) as one sample of `figure`; extra phases (from outside the file) join them. */
  record(figure: string, pressEpoch: number, extra: Record<string, number> = {}): void {
    let marks: TimelineMark[] = [];
    try {
      marks = readFileSync(this.file, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as TimelineMark);
    } catch {
      return;
    }
    const phases = this.figures.get(figure) ?? {};
    const seen = new Set<string>();
    for (const m of marks) {
      if (m.at < pressEpoch || seen.has(m.what)) continue;
      seen.add(m.what);
      (phases[m.what] ??= []).push(m.at - pressEpoch);
    }
    for (const [what, ms] of Object.entries(extra)) (phases[what] ??= []).push(ms);
    this.figures.set(figure, phases);
    this.reset();
  }

  /** One Markdown table per figure: each mark's median ms after the press, in time order. */
  markdown(): string {
    const out: string[] = [];
    for (const [figure, phases] of this.figures) {
      const rows = Object.entries(phases)
        .map(([what, ms]) => ({ what, s: stat(ms)! }))
        .sort((a, b) => a.s.median - b.s.median);
      out.push(`**${figure}**: ms after the press (medians, n)`, '', '| mark | ms | n |', '|---|---|---|');
      for (const r of rows) out.push(`| ${r.what} | ${r.s.median.toFixed(1)} | ${r.s.n} |`);
      out.push('');
    }
    return out.join('\n');
  }
}
