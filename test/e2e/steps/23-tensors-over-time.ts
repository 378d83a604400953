/**
 * Step 23: tensors over time (issue 44) in a model.fit program paused in its custom layer's
 * pyFunction callback: a weight pinned from the palette, charted over five stops; the training curve
 * of the batches so far with the stopped batch highlighted; the model's layers; the last stop
 * compared with the one before.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { docPicture } from '../doc-pictures.js';
import { log, type E2e } from '../harness.js';
import { FIT_CENTER, FIT_PROGRAM } from '../programs.js';

/** The weight the step pins: the custom layer's factor, as Show tf.Variables names it. */
const PINNED = '$tfVariables["scale/factor"]';
const STOPS = 5;

export function tensorsOverTimeSteps(e: E2e): void {
  const { step, shot, runCommand, callStackRows, webviewWith, open, breakpointAt, esmProgram } = e;

  step(
    '23. model.fit paused in a custom layer’s callback: a pinned weight over 5 stops, the training curve, the model, the last two invocations compared',
    async () => {
      writeFileSync(path.join(path.dirname(esmProgram), 'fit.ts'), FIT_PROGRAM);
      await open('esm-project/fit.ts');
      await breakpointAt(FIT_CENTER);
      // The pin is the workspace's: each session evaluates it at every stop.
      await runCommand('TF.js Callbacks: Pin in Tensor Inspector');
      const input = e.page.locator('.quick-input-widget .quick-input-box input');
      await input.waitFor({ state: 'visible', timeout: 10_000 });
      await input.fill(PINNED);
      await e.page.keyboard.press('Enter');
      await e.page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 10_000 });
      const inspector = await webviewWith('.history');
      await inspector.locator('.pin .pin-expression', { hasText: PINNED }).waitFor({ timeout: 15_000 });
      // The inspector came to the front with the pin: the keyboard goes back to the code (F1 in a webview is the page's).
      await e.page.locator('.tab', { hasText: 'fit.ts' }).first().click();
      // The history keeps earlier sessions' stops: this session's are counted from here.
      const before = Number(/History \((\d+)\)/.exec(await inspector.locator('.history h2').innerText())?.[1] ?? 0);

      await runCommand('TF.js Callbacks: Debug Graph');
      const atCenter = callStackRows()
        .first()
        .filter({ hasText: new RegExp(`fit\\.ts\\s*${FIT_CENTER}:`) });
      await atCenter.waitFor({ timeout: 60_000 });
      for (let stop = 1; stop <= STOPS; stop++) {
        await inspector.locator('.history h2', { hasText: `History (${before + stop})` }).waitFor({ timeout: 30_000 });
        // The toolbar's Continue: a key press can land in the inspector, which has the keyboard after it redraws.
        if (stop < STOPS) await e.page.locator('.debug-toolbar .codicon-debug-continue').click();
      }
      log(`  ${STOPS} stops in center_batch`);

      // The pinned weight: its latest summary and a point per stop on its chart.
      const pin = inspector.locator('.pin').filter({ has: inspector.locator('.pin-expression', { hasText: PINNED }) });
      await pin.locator('.pin-latest', { hasText: 'Variable float32[4]' }).waitFor({ timeout: 15_000 });
      await pin.locator(`svg.line-chart path.series[data-points="${STOPS}"]`).first().waitFor({ timeout: 15_000 });
      const latest = (await pin.locator('.pin-latest').innerText()).replace(/\s+/g, ' ');
      log(`  pinned: ${latest}`);
      assert.match(latest, /Variable float32\[4\]/);
      await shot('pinned-weight');
      // The panel maximized for the inspector's pictures (the code comes back at the end).
      await runCommand('View: Toggle Maximized Panel');
      // Below the panel's title bar, where the debug toolbar floats.
      const panel = async () => {
        const box = await e.page.locator('.part.panel').boundingBox();
        return box ? { x: box.x, y: box.y + 36, width: box.width, height: box.height - 36 } : undefined;
      };

      // The training curve: the 4 batches of epoch 1 logged so far (64 samples, batches of 16); the
      // 5th stop is in the forward pass of epoch 2's first batch, step 4, highlighted.
      const training = inspector.locator('section.training');
      await training.locator('.training-status', { hasText: 'stopped in this batch (step 4)' }).waitFor({ timeout: 15_000 });
      const status = (await training.locator('.training-status').innerText()).trim();
      log(`  training: ${status} | ${(await training.locator('.training-last').innerText()).trim()}`);
      assert.match(status, /^fit \d+ · epoch 2\/3 · batch 1\/4 · stopped in this batch \(step 4\)$/);
      const lossChart = training.locator('figure.training-chart[data-metric="loss"][data-kind="batch"] svg.line-chart');
      assert.equal(await lossChart.locator('path.series').first().getAttribute('data-points'), '4', 'a point per logged batch');
      assert.equal(await lossChart.locator('line.highlight').getAttribute('data-x'), '4', 'the stopped batch is marked');
      await training.scrollIntoViewIfNeeded();
      await shot('training-curve');
      const section = await training.boundingBox();
      await docPicture(
        e.page,
        'training-curve',
        section ? { x: section.x - 8, y: section.y - 8, width: section.width + 16, height: section.height + 16 } : undefined,
      );

      // The model at the stop: its 3 layers, their parameters, and the weights' statistics.
      const model = inspector.locator('details.model-view');
      await model.locator('summary').click();
      await model.locator('tr.layer').nth(2).waitFor({ timeout: 15_000 });
      const layers = await model
        .locator('tr.layer')
        .evaluateAll((rows) => rows.map((r) => [r.getAttribute('data-layer'), r.querySelector('td.params')?.textContent?.trim()]));
      log(`  model: ${JSON.stringify(layers)}`);
      assert.deepEqual(layers, [
        ['hidden', '16'],
        ['scale', '4'],
        ['out', '5'],
      ]);
      assert.equal(await model.locator('tr.weight[data-weight="scale/factor"]').count(), 1);
      await shot('model-view');

      // The last stop against the one before: the input x changed (another batch).
      await inspector.locator('button.compare-with', { hasText: `Compare with the previous stop` }).click();
      const row = inspector.locator('.compare-view tr.compare-row[data-side="inputs"][data-index="0"]');
      await row.locator('td.verdict:not(:has-text("comparing"))').waitFor({ timeout: 15_000 });
      const verdict = (await row.locator('td.verdict').innerText()).trim();
      log(`  compare x: ${verdict}`);
      // x is the hidden layer's [16,4] ReLU output for another batch: most of its 64 values differ.
      const changed = /^(\d+) of 64 changed · max \|Δ\| /.exec(verdict);
      assert.ok(changed && Number(changed[1]) > 0, verdict);
      const stats = await inspector.locator('.compare-view td.stat').allInnerTexts();
      assert.ok(stats.length >= 4, `both stops' statistics side by side: ${stats.join(' | ')}`);
      await shot('compare-invocations');
      await docPicture(e.page, 'compare-invocations', await panel());
      // The keyboard out of the webview (the code's tabs are hidden, the debug toolbar floats over the panel's): the top frame.
      await callStackRows().first().click();
      await runCommand('View: Toggle Maximized Panel');

      await e.page.keyboard.press('Shift+F5');
      await e.page.locator('.debug-toolbar').waitFor({ state: 'hidden', timeout: 30_000 });
    },
  );
}
