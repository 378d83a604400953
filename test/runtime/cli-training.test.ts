/**
 * `tfjs-callbacks run` on a program that calls model.fit (issue 44): the summary's `training:` line
 * says the last batch's and epoch's values and the NaN batches, and `--trace` writes the same
 * curve (`training.fits`: each batch's and epoch's logs as the program's own callbacks saw them,
 * NaN as "NaN"). The program's own output is unchanged.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';
import type { TraceFile } from '../../runtime/cli/trace.js';
import { tempDir } from '../fixtures/callback-models.js';
import { repoRoot, runCli } from '../fixtures/spawn.js';

const { dir, cleanup } = tempDir('cli-training-');
after(cleanup);

const PROGRAM = path.join(repoRoot, 'test', 'fixtures', 'training', 'fit-program.ts');

test('a model.fit program: the training line before the summary, and the curve in the trace', () => {
  const traceFile = path.join(dir, 'trace.json');
  const run = runCli(['run', PROGRAM, '--backend', 'cpu', '--trace', traceFile], { cwd: repoRoot });
  assert.equal(run.status, 0, `${run.stdout}\n${run.stderr}`);
  const printed = JSON.parse(/^batch losses (.*)$/m.exec(run.stdout)?.[1] ?? 'null') as string[];
  const epochs = JSON.parse(/^epoch logs (.*)$/m.exec(run.stdout)?.[1] ?? 'null') as Record<string, number>[];
  assert.equal(printed.length, 6, run.stdout);
  assert.equal(printed[2], 'NaN', 'the fixture’s loss is NaN at the second epoch’s first batch');

  const trace = JSON.parse(fs.readFileSync(traceFile, 'utf8')) as TraceFile;
  const fits = trace.training?.fits ?? [];
  assert.equal(fits.length, 1);
  const fit = fits[0]!;
  assert.deepEqual({ ...fit.info }, { id: 1, epochs: 3, initialEpoch: 0, batchesPerEpoch: 2, metrics: ['loss', 'acc', 'val_loss', 'val_acc'] });
  assert.equal(fit.thinned, 1);
  const batchPoints = fit.points.filter((p) => p.batch !== null);
  assert.deepEqual(
    batchPoints.map((p) => [p.epoch, p.batch, p.step, String(p.logs.loss)]),
    printed.map((loss, i) => [Math.floor(i / 2), i % 2, i, loss]),
  );
  const epochPoints = fit.points.filter((p) => p.batch === null);
  assert.deepEqual(
    epochPoints.map((p) => Object.fromEntries(Object.entries(p.logs).map(([k, v]) => [k, typeof v === 'number' ? v : Number(v)]))),
    epochs.map((e) => Object.fromEntries(Object.entries(e).map(([k, v]) => [k, v === null ? Number.NaN : v]))),
  );

  const lines = run.stdout.split('\n');
  const training = lines.findIndex((l) => l.startsWith('training: '));
  const summary = lines.findIndex((l) => /^[✓✗⚠] \d+ callback invocations? of /.test(l));
  assert.ok(training >= 0 && training < summary, run.stdout);
  const last = batchPoints.at(-1)!;
  const lastEpoch = epochPoints.at(-1)!;
  const n = (v: unknown) => Number(Number(v).toPrecision(4));
  // NaN from the second epoch's first batch on: its gradient made the weights NaN.
  const nanBatches = printed.filter((l) => l === 'NaN').length;
  assert.deepEqual(printed.slice(0, 2).map(Number).map(Number.isFinite), [true, true]);
  assert.equal(
    lines[training],
    `training: 1 fit · epoch 3/3 · batch 2/2 · loss ${n(last.logs.loss)} · acc ${n(last.logs.acc)} · epoch 3: ` +
      `loss ${n(lastEpoch.logs.loss)} · acc ${n(lastEpoch.logs.acc)} · val_loss ${n(lastEpoch.logs.val_loss)} · val_acc ${n(lastEpoch.logs.val_acc)} · ⚠ NaN/Inf in ${nanBatches} batches`,
  );
});
