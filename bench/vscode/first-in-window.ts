/**
 * Once a run, first thing in the fresh window, what a user meets first (issue 27 point 7):
 * reviews.js (a project of its own with tfjs installed, programs.ts) opened from Quick Open, which
 * activates the extension (its language server starts, as VS Code's TypeScript servers do for the
 * file), to its Tout diagnostic's squiggle; then ours' first stop, which makes the inspector's view,
 * from the click on the configuration to the paused line and to the stop drawn in the inspector.
 */
import path from 'node:path';
import { STARS_CALL_LINE } from '../../test/fixtures/lsp/fresh-project.js';
import { arm, type Condition } from './probes.js';
import { CONFIG_OURS, type Programs } from './programs.js';
import { fmt, ratio, stat } from './report.js';
import type { StepDriver } from './steps.js';

/** Issue 27 point 7's target for the inspector: the stop drawn in it within 1.2x the paused line's time. */
export const INSPECTOR_TARGET = 1.2;
/** And for the language server: the Tout diagnostic of an opened file within 2 s. */
const DIAGNOSTIC_TARGET_MS = 2000;
const T = 120_000;

export interface FirstSamples {
  /** Enter on reviews.js in Quick Open → its Tout diagnostic's squiggle. */
  diagnostic: number[];
  /** The click that starts ours' first session → its paused line, → the stop in the inspector. */
  stop: { paused: number[]; inspector: number[] };
}

export function emptyFirstSamples(): FirstSamples {
  return { diagnostic: [], stop: { paused: [], inspector: [] } };
}

/** What of the bench's driver this uses. */
export interface FirstDriver extends StepDriver {
  collectAll(conditions: Condition[], what: string, timeoutMs: number): Promise<number[]>;
}

export interface FirstProgram {
  /** The interactive program's breakpoint line and callback name. */
  readonly breakLine: number;
  readonly callback: string;
  readonly log: (message: string) => void;
  /** Keeps the timeline's marks since the last press as one sample of the figure. */
  readonly record?: (figure: string) => void;
}

export async function firstInWindow(d: FirstDriver, p: Programs, samples: FirstSamples, o: FirstProgram): Promise<void> {
  const page = d.page;
  await page.keyboard.press('Control+P');
  const input = page.locator('.quick-input-widget .quick-input-box input');
  await input.waitFor({ state: 'visible', timeout: 10_000 });
  await input.fill(path.basename(p.reviews));
  await page
    .locator('.quick-input-widget .monaco-list-row', { hasText: path.basename(p.reviews) })
    .first()
    .waitFor({ timeout: 10_000 });
  const [diagnostic] = await d.measure({ kind: 'key', key: 'Enter' }, [{ kind: 'errorOnLine', line: STARS_CALL_LINE }], T);
  samples.diagnostic.push(diagnostic!);
  o.record?.('first in the window: reviews.js opened → its Tout diagnostic drawn');
  o.log(`  reviews.js opened → its Tout diagnostic drawn: ${diagnostic!.toFixed(0)} ms`);
  await d.shot('first-diagnostic');
  // Its tab would push the others' under the debug toolbar, which then takes the bench's clicks on them.
  await d.runCommand('View: Close All Editors');

  await d.open(p.interactive);
  await d.removeAllBreakpoints();
  await d.setBreakpoint(p.interactive, o.breakLine);
  await d.runCommand('Debug: Select and Start Debugging');
  const row = page
    .locator('.quick-input-list .monaco-list-row')
    .filter({ has: page.locator('.label-name', { hasText: new RegExp(`^\\s*${CONFIG_OURS}\\s*$`) }) })
    .first();
  await row.waitFor({ timeout: 10_000 });
  const conditions: Condition[] = [
    { kind: 'pausedLine', line: o.breakLine },
    { kind: 'inspectorStop', name: o.callback },
  ];
  await arm(page, { kind: 'mouse' }, conditions, T);
  await row.click();
  const [paused, drawn] = await d.collectAll(conditions, `the click on "${CONFIG_OURS}"`, T);
  samples.stop.paused.push(paused!);
  samples.stop.inspector.push(drawn!);
  o.log(`  ours' first stop: paused line ${paused!.toFixed(0)} ms, drawn in the inspector ${drawn!.toFixed(0)} ms`);
  await d.shot('first-stop');
  await page.keyboard.press('Shift+F5');
  await page.locator('.debug-toolbar').waitFor({ state: 'hidden', timeout: 30_000 });
}

/** The results' lines for what a user meets first: the opened file's diagnostic, ours' first stop. */
export function firstResults(samples: FirstSamples, lines: string[], stats: Record<string, unknown>): void {
  const diagnostic = stat(samples.diagnostic);
  const paused = stat(samples.stop.paused);
  const drawn = stat(samples.stop.inspector);
  stats.firstDiagnostic = diagnostic;
  stats.firstStop = { paused, inspector: drawn };
  const met = (ok: boolean) => (ok ? 'met' : 'MISSED');
  lines.push(
    `First in the fresh window: reviews.js (issue 27's tf.data pipeline, a project with tfjs installed) opened from Quick Open (Enter) → its Tout diagnostic drawn: ${fmt(diagnostic)}` +
      (diagnostic ? `, target ≤ ${DIAGNOSTIC_TARGET_MS} ms: ${met(diagnostic.median <= DIAGNOSTIC_TARGET_MS)}` : '') +
      `. Ours' first stop (the inspector's view made at it), click on the configuration → paused line ${fmt(paused)}, → the stop drawn in the Tensor Inspector ${fmt(drawn)}: ${ratio(drawn, paused)}` +
      (drawn && paused ? `, target ≤ ${INSPECTOR_TARGET}x: ${met(drawn.median / paused.median <= INSPECTOR_TARGET)}` : '') +
      '.',
    '',
  );
}
