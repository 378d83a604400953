/**
 * Steps in training code, ours against js-debug in the same VS Code (issue 26): a custom layer
 * trained with model.fit (programs.ts LAYER_STEPS), breakpoints at its call()'s first line and at
 * the end of a tf.tidy body. Each figure is a key press to the next paused line shown (wherever it
 * is: js-debug with its default skipFiles stops in TF.js, and where it landed is reported beside).
 * js-debug runs twice: with its default skipFiles (Node's internals) and with node_modules added.
 */
import type { Page } from 'playwright-core';
import { type Condition, pausedWhere, type Trigger } from './probes.js';
import { CONFIG_JS, CONFIG_JS_SKIP, CONFIG_OURS, LAYER_STEPS, lineOf, type Programs } from './programs.js';

export type StepVariant = 'ours' | 'js-debug' | 'js-debug-skip';
export const STEP_VARIANTS: readonly StepVariant[] = ['ours', 'js-debug', 'js-debug-skip'];
export const STEP_VARIANT_LABELS: Record<StepVariant, string> = {
  ours: 'ours',
  'js-debug': 'js-debug (default skipFiles)',
  'js-debug-skip': 'js-debug (+ node_modules skipped)',
};
const CONFIG: Record<StepVariant, string> = { ours: CONFIG_OURS, 'js-debug': CONFIG_JS, 'js-debug-skip': CONFIG_JS_SKIP };

export const STEP_FIGURES = {
  stepIn: 'Step Into (F11) on a line of call() that calls TF.js ops',
  stepOverTidy: 'Step Over (F10) at the end of a tf.tidy body',
  stepOut: "Step Out (Shift+F11) of call(), breakpoints off (ours: the next batch's call())",
  continue: "Continue (F5) from the tf.tidy body to the next batch's call()",
} as const;
export type StepFigure = keyof typeof STEP_FIGURES;

export interface StepSamples {
  ms: Record<StepVariant, Record<StepFigure, number[]>>;
  /** Where each step stopped ("file:line"), as many times as it did. */
  landed: Record<StepVariant, Record<StepFigure, string[]>>;
}

export function emptyStepSamples(): StepSamples {
  const figures = <T>(make: () => T) => Object.fromEntries(Object.keys(STEP_FIGURES).map((k) => [k, make()])) as Record<StepFigure, T>;
  return {
    ms: { ours: figures(() => []), 'js-debug': figures(() => []), 'js-debug-skip': figures(() => []) },
    landed: { ours: figures(() => []), 'js-debug': figures(() => []), 'js-debug-skip': figures(() => []) },
  };
}

/** What of the bench's workbench driver the step sessions use. */
export interface StepDriver {
  readonly page: Page;
  open(file: string): Promise<void>;
  focusEditor(file: string): Promise<void>;
  removeAllBreakpoints(): Promise<void>;
  setBreakpoint(file: string, line: number): Promise<void>;
  runCommand(...titles: string[]): Promise<void>;
  measure(trigger: Trigger & { kind: 'key' }, conditions: Condition[], timeoutMs: number): Promise<number[]>;
  shot(name: string): Promise<void>;
}

const CALL_FIRST = lineOf(LAYER_STEPS, '@call-first');
const CALL_MATMUL = lineOf(LAYER_STEPS, '@call-matmul');
const TIDY_LAST = lineOf(LAYER_STEPS, '@tidy-last');
const T = 120_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One session of `variant` on the layer program: every step figure once. */
export async function stepSession(d: StepDriver, variant: StepVariant, p: Programs, samples: StepSamples, shots: string | undefined): Promise<void> {
  const page = d.page;
  const file = p.layer;
  const name = file.split('/').pop()!;
  await d.open(file);
  await d.removeAllBreakpoints();
  await d.setBreakpoint(file, CALL_FIRST);
  await d.setBreakpoint(file, TIDY_LAST);
  await d.runCommand('Debug: Select and Start Debugging');
  await page.locator('.quick-input-list .monaco-list-row').first().waitFor({ timeout: 10_000 });
  await page
    .locator('.quick-input-list .monaco-list-row')
    .filter({ has: page.locator('.label-name', { hasText: new RegExp(`^\\s*${CONFIG[variant].replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`) }) })
    .first()
    .click();
  await page.locator('.monaco-editor .codicon-debug-stackframe, .monaco-editor .debug-top-stack-frame-line').first().waitFor({ timeout: 90_000 });
  await expectAt(d, name, CALL_FIRST, 'the session start');

  const press = async (key: string, shift = false): Promise<number> => {
    await d.focusEditor(file).catch(() => undefined);
    const [ms] = await d.measure({ kind: 'key', key, ...(shift ? { shift: true } : {}) }, [{ kind: 'pausedAgain' }], T);
    await sleep(300);
    return ms!;
  };
  const record = async (figure: StepFigure, ms: number) => {
    samples.ms[variant][figure].push(ms);
    const at = await pausedWhere(page);
    samples.landed[variant][figure].push(at ? `${at.file}:${at.line}` : '?');
    if (shots) await d.shot(`${shots}-steps-${figure}`);
  };
  /** Continues (F5, untimed) until paused on `line` of the program; js-debug's steps may have left it in TF.js. */
  const goTo = async (line: number) => {
    for (let i = 0; i < 6; i++) {
      const at = await pausedWhere(page);
      if (at?.file === name && at.line === line) return;
      await d.focusEditor(file).catch(() => undefined);
      await d.measure({ kind: 'key', key: 'F5' }, [{ kind: 'pausedAgain' }], T);
      await sleep(300);
    }
    await expectAt(d, name, line, 'Continue');
  };

  await press('F10');
  await expectAt(d, name, CALL_MATMUL, 'F10 from the first line of call()');
  await record('stepIn', await press('F11'));

  await goTo(TIDY_LAST);
  await press('F10');
  await record('stepOverTidy', await press('F10'));

  await goTo(TIDY_LAST);
  await record('continue', await press('F5'));

  await goTo(CALL_FIRST);
  await d.runCommand('Debug: Disable All Breakpoints', 'Disable All Breakpoints');
  await sleep(500);
  try {
    await record('stepOut', await press('F11', true));
  } finally {
    await d.runCommand('Debug: Enable All Breakpoints', 'Enable All Breakpoints');
  }
  await d.focusEditor(file).catch(() => undefined);
  await page.keyboard.press('Shift+F5');
  await page.locator('.debug-toolbar').waitFor({ state: 'hidden', timeout: 30_000 });
  await sleep(1000);
}

async function expectAt(d: StepDriver, file: string, line: number, after: string): Promise<void> {
  const at = await pausedWhere(d.page);
  if (at?.file !== file || at.line !== line)
    throw new Error(`after ${after}: paused at ${at ? `${at.file}:${at.line}` : 'no line shown'}, not ${file}:${line}`);
}
