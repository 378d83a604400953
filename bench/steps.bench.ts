/**
 * Steps in training code, against Continue to the same line (`npm run bench steps`): the custom
 * layer of test/fixtures/shapes/layer-steps trained with model.fit, under the real adapter. Each
 * row alternates the step and a Continue that stops where the step stopped (a breakpoint there),
 * timed from the request to the stack of the stop; the ratio is the step's median over Continue's.
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DebugClient } from '@vscode/debugadapter-testsupport';
import type { DebugProtocol } from '@vscode/debugprotocol';

type Print = (line: string) => void;
type Action = 'stepOut' | 'stepIn' | 'next' | 'continue';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ROUNDS = 9;

interface Row {
  readonly label: string;
  /** Where each round starts (a breakpoint there, then Continue). */
  readonly from: string;
  /** The steps, in order; only the last is timed (the ones before bring the program there). */
  readonly steps: readonly Action[];
  /** The line the timed step lands on: Continue's breakpoint. */
  readonly lands: string;
}

const ROWS: readonly Row[] = [
  { label: "Step Out of a custom layer's call() (to the next batch's call())", from: '@call-first', steps: ['stepOut'], lands: '@call-first' },
  { label: 'Step Into on a line of call() that calls TF.js ops', from: '@call-matmul', steps: ['stepIn'], lands: '@call-tidy' },
  { label: 'Step Over at the end of a tf.tidy body (back in call())', from: '@tidy-last', steps: ['next', 'next'], lands: '@tidy-end' },
];

export async function stepBenchmarks(print: Print): Promise<void> {
  // Inside the repository, so the program resolves @tensorflow/tfjs and this package as a project would.
  const dir = path.join(root, '.artifacts', 'bench-steps');
  mkdirSync(dir, { recursive: true });
  const program = path.join(dir, 'train.cjs');
  copyFileSync(path.join(root, 'test', 'fixtures', 'shapes', 'layer-steps', 'train.js'), program);
  const source = (await import('node:fs')).readFileSync(program, 'utf8').split('\n');
  const lineOf = (marker: string) => source.findIndex((l) => l.includes(`// ${marker}`)) + 1;

  print('');
  print('Steps in a custom layer under model.fit (real adapter, cpu): median ms from the request to the stop’s stack, against Continue to the same line');
  for (const row of ROWS) {
    const dc = new DebugClient('node', path.join(root, 'dist', 'debug-adapter', 'main.js'), 'tfjs-callbacks', { cwd: root });
    dc.defaultTimeout = 120_000;
    await dc.start();
    try {
      const stops: DebugProtocol.StoppedEvent[] = [];
      let wake: (() => void) | undefined;
      dc.on('stopped', (e) => {
        stops.push(e as DebugProtocol.StoppedEvent);
        wake?.();
      });
      const nextStop = () =>
        new Promise<void>((resolve) => {
          const check = () => {
            if (stops.length) {
              stops.shift();
              wake = undefined;
              resolve();
            }
          };
          wake = check;
          check();
        });
      const top = async () => (await dc.stackTraceRequest({ threadId: 1 })).body.stackFrames[0]!;
      const breakAt = (marker?: string) => dc.setBreakpointsRequest({ source: { path: program }, breakpoints: marker ? [{ line: lineOf(marker) }] : [] });
      const act = async (action: Action): Promise<number> => {
        const t0 = performance.now();
        if (action === 'stepOut') await dc.stepOutRequest({ threadId: 1 });
        else if (action === 'stepIn') await dc.stepInRequest({ threadId: 1 });
        else if (action === 'next') await dc.nextRequest({ threadId: 1 });
        else await dc.continueRequest({ threadId: 1 });
        await nextStop();
        const frame = await top();
        const ms = performance.now() - t0;
        if (frame.source?.path !== program) throw new Error(`${action} stopped outside the program: ${frame.name} ${frame.source?.path}:${frame.line}`);
        return ms;
      };
      dc.once('initialized', async () => {
        await breakAt(row.from);
        await dc.configurationDoneRequest();
      });
      await dc.launch({ program, cwd: dir, backend: 'cpu', args: ['--epochs', '50', '--batch_size', '2'] });
      await nextStop();
      const steps: number[] = [];
      const continues: number[] = [];
      for (let r = 0; r < ROUNDS + 1; r++) {
        // The step: from `from`, its breakpoint removed so only the step stops.
        await breakAt();
        for (const action of row.steps.slice(0, -1)) await act(action);
        const stepMs = await act(row.steps.at(-1)!);
        if ((await top()).line !== lineOf(row.lands)) throw new Error(`${row.label}: landed on line ${(await top()).line}, not ${row.lands}`);
        // Continue to the same line, from the same place: back to `from`, then a breakpoint on the landing line.
        await breakAt(row.from);
        await act('continue');
        await breakAt();
        for (const action of row.steps.slice(0, -1)) await act(action);
        await breakAt(row.lands);
        const continueMs = await act('continue');
        await breakAt(row.from);
        await act('continue');
        if (r === 0) continue; // warm-up
        steps.push(stepMs);
        continues.push(continueMs);
      }
      const step = median(steps);
      const cont = median(continues);
      print(`  ${row.label}: ${step.toFixed(1)} ms · Continue ${cont.toFixed(1)} ms · ${(step / cont).toFixed(2)}x`);
    } finally {
      await dc.stop().catch(() => {});
    }
  }
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}
