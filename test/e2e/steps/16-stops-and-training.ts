/**
 * Steps 16-22: the Tout-mismatch exception widget in 5 of 5 runs, tf.Variables and Break on Value
 * Change in model.fit, a failing tf.data map, the walkthrough, the stop where NaN/Inf is born, a
 * model.json's binding warning following files changed outside the editor, F5 on the Graph View.
 */
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { docPicture } from '../doc-pictures.js';
import { log, root, type E2e } from '../harness.js';
import { TRAINING_CALL, NAN_LOG_LINE } from '../programs.js';

export function stopsAndTrainingSteps(e: E2e): void {
  const { step, shot, runCommand, quickPickRow, paletteLabels, pick, callStackRows, variableRows, webviewWith, open, breakpointAt, workspace } = e;

  step('16. the exception widget at a Tout mismatch carries the whole message and the fix hint, in 5 of 5 runs', async () => {
    await open('esm-project/main.ts');
    for (let run = 1; run <= 5; run++) {
      await runCommand('TF.js Callbacks: Debug Graph');
      const widget = e.page.locator('.exception-widget');
      await widget.waitFor({ timeout: 60_000 });
      const text = (await widget.innerText()).replace(/\s+/g, ' ');
      log(`  run ${run}: ${text.slice(0, 160)}`);
      assert.match(text, /Tout mismatch in widen/);
      assert.match(text, /Return float32 data \(.*\) or declare Tout 'float64'\./);
      if (run === 1) await shot('exception-widget-hint');
      await e.page.keyboard.press('Shift+F5');
      await e.page.locator('.debug-toolbar').waitFor({ state: 'hidden', timeout: 15_000 });
    }
  });

  step(
    '17. paused in a custom layer’s call() during an ESM model.fit: the tf.Variables scope, then Show tf.Variables → Break on Value Change stops at the optimizer’s assign',
    async () => {
      await open('esm-project/training.ts');
      await breakpointAt(TRAINING_CALL);
      await runCommand('TF.js Callbacks: Debug Graph');
      await callStackRows()
        .first()
        .filter({ hasText: new RegExp(`training\\.ts\\s*${TRAINING_CALL}:`) })
        .waitFor({ timeout: 60_000 });
      // The program's weights, though no frame sees `model`: expand the scope.
      const scopeRow = variableRows()
        .filter({ hasText: /^\s*tf\.Variables\s*$/ })
        .first();
      await scopeRow.waitFor({ timeout: 15_000 });
      await scopeRow.click();
      await variableRows()
        .filter({ hasText: /^\s*hidden\/kernel =/ })
        .first()
        .waitFor({ timeout: 15_000 });
      const listed = (await variableRows().allInnerTexts()).map((v) => v.replace(/\s+/g, ' ').trim());
      log(`  tf.Variables scope: ${listed.filter((v) => /^(hidden|scale)\//.test(v)).join(' | ')}`);
      assert.ok(
        listed.some((v) => /^hidden\/kernel = Variable float32\[2,3\] min=1 max=1/.test(v)),
        listed.join(' | '),
      );
      await shot('tf-variables-scope');

      await runCommand('TF.js Callbacks: Show tf.Variables');
      await quickPickRow('hidden/kernel').waitFor({ timeout: 15_000 });
      // Each row: the name, then its values in short (a detail line of its own).
      const offered = await paletteLabels();
      assert.deepEqual(offered, ['hidden/kernel', 'min 1 · max 1 · mean 1', 'hidden/bias', 'min 0 · max 0 · mean 0', 'scale/factor', 'min 1 · max 1 · mean 1']);
      await shot('show-tf-variables');
      await quickPickRow('hidden/kernel').click();
      await quickPickRow('Break on Value Change').waitFor({ timeout: 10_000 });
      await pick('Break on Value Change');
      await e.page.locator('.debug-breakpoints .monaco-list-row', { hasText: 'tf.Variable hidden/kernel' }).waitFor({ timeout: 10_000 });

      // Continue: the optimizer's step after this batch's forward pass assigns the kernel.
      await e.page.keyboard.press('F5');
      await e.page.locator('.pane', { hasText: 'Paused on data breakpoint' }).first().waitFor({ timeout: 30_000 });
      await variableRows()
        .filter({ hasText: /^\s*new value =/ })
        .first()
        .waitFor({ timeout: 15_000 });
      const shown = (await variableRows().allInnerTexts()).map((v) => v.replace(/\s+/g, ' ').trim());
      log(`  data stop: ${shown.slice(0, 4).join(' | ')}`);
      assert.ok(
        shown.some((v) => /^variable = tf\.Variable 'hidden\/kernel' float32\[2,3\]/.test(v)),
        shown.join(' | '),
      );
      await shot('tf-variable-break-on-change');
      await e.page.keyboard.press('Shift+F5');
      await e.page.locator('.debug-toolbar').waitFor({ state: 'hidden', timeout: 15_000 });
      await runCommand('Remove All Breakpoints');
    },
  );

  step('18. a tf.data map whose callback fails (CommonJS, un-awaited main): after the stop, Continue ends with one clear error and exit code 1', async () => {
    await open('cjs-project/pipeline.js');
    await runCommand('TF.js Callbacks: Debug Graph');
    const widget = e.page.locator('.exception-widget');
    await widget.waitFor({ timeout: 60_000 });
    assert.match((await widget.innerText()).replace(/\s+/g, ' '), /Tout mismatch in to_pixels/);
    await e.page.keyboard.press('F5');
    await e.page.locator('.debug-toolbar').waitFor({ state: 'hidden', timeout: 30_000 });
    await runCommand('Debug Console: Focus on Debug Console View');
    const lines = (await e.page.locator('.repl .monaco-list-row').allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
    log(`  Debug Console: ${lines.slice(-8).join(' | ')}`);
    const text = lines.join('\n');
    // TensorFlow's words, the callback and the fix, as a plain run prints them.
    assert.match(text, /InvalidArgumentError: 0-th value returned by to_pixels is int32, but expects float/);
    assert.match(text, /Return float data or change Tout to 'int32'\./);
    assert.match(text, /Program exited with code 1/);
    assert.doesNotMatch(text, /throw ex|tfjs-data\/src|tfjs-core\/src|This is a bug in tfjs-callbacks/);
    await shot('tf-data-failure-ends');
  });

  step(
    '19. the walkthrough: Create Sample Project into the workspace, a breakpoint on its line, Debug Graph stops in the callback; each step is checked off by the real event',
    async () => {
      await runCommand('Welcome: Open Walkthrough...');
      await pick('Debug a TF.js Callback');
      const stepDone = (id: string) => e.page.locator(`[data-done-step-id$="#${id}"]`).first();
      await stepDone('createSample').waitFor({ state: 'attached', timeout: 15_000 });
      await shot('walkthrough');
      for (const id of ['createSample', 'debug', 'graph']) assert.notEqual(await stepDone(id).getAttribute('aria-checked'), 'true', `${id} is not done yet`);

      await runCommand('TF.js Callbacks: Create Sample Project');
      // VS Code's own folder dialog, at the workspace folder: accept it.
      const accept = e.page.locator('.quick-input-widget .monaco-button', { hasText: 'Create the sample here' });
      await accept.waitFor({ timeout: 10_000 });
      await accept.click();
      await e.page.locator('.tab.active', { hasText: 'main.ts' }).waitFor({ timeout: 15_000 });
      for (const file of ['main.ts', 'package.json', 'model/model.json', 'model/callbacks.ts', 'model/group1-shard1of1.bin'])
        assert.ok(existsSync(path.join(workspace, 'tfjs-callbacks-sample', file)), `the sample has ${file}`);
      await breakpointAt(10);
      await runCommand('TF.js Callbacks: Debug Graph');
      await callStackRows()
        .first()
        .filter({ hasText: /scale_rows\s*main\.ts\s*10:/ })
        .waitFor({ timeout: 60_000 });
      await shot('walkthrough-sample-stop');
      await e.page.keyboard.press('Shift+F5');
      await e.page.locator('.debug-toolbar').waitFor({ state: 'hidden', timeout: 15_000 });
      await runCommand('Remove All Breakpoints');

      await runCommand('Welcome: Open Walkthrough...');
      await pick('Debug a TF.js Callback');
      // Every step done by its event, the two bound to context keys (a breakpoint set, a stop in a
      // callback) included, though the earlier steps of this suite raised those events before the
      // walkthrough was first opened (the keys are pulses: walkthrough.ts says why).
      for (const id of ['createSample', 'breakpoint', 'debug', 'inspector']) {
        await e.page.locator(`[data-done-step-id$="#${id}"][aria-checked="true"]`).first().waitFor({ state: 'attached', timeout: 10_000 });
      }
      await shot('walkthrough-progress');
    },
  );

  step(
    '20. Debug, Stopping Where NaN/Inf Is Born on model.fit with a custom loss in another module: the stop at its log, the Op scope, the inspector marking the -Inf cells',
    async () => {
      // The earlier steps' editors (the graph view among them) closed: the picture shows this stop.
      await runCommand('View: Close All Editors');
      await open('esm-project/nan-train.ts');
      // The status bar offers it for the next run, as the palette does.
      await e.page.locator('.statusbar-item', { hasText: 'NaN/Inf' }).first().waitFor({ timeout: 15_000 });
      await runCommand('TF.js Callbacks: Debug, Stopping Where NaN/Inf Is Born');
      // The op's frame, at the loss's line, below TF.js's collapsed frames.
      await callStackRows()
        .filter({ hasText: new RegExp(`Log \\(forward\\)\\s*loss\\.ts\\s*${NAN_LOG_LINE}:`) })
        .first()
        .waitFor({ timeout: 60_000 });
      const widget = e.page.locator('.exception-widget');
      await widget.waitFor({ timeout: 15_000 });
      const said = (await widget.innerText()).replace(/\s+/g, ' ');
      log(`  exception widget: ${said}`);
      assert.match(said, /first Inf: op `Log` \(forward, epoch 1 batch 1\) at (esm-project\/)?loss\.ts:\d+:\d+, input 0 has 2 zeros/);
      assert.match(said, /op `Log`: output 0 has 2 −Inf of 4 elements/, 'how many, in which output, out of how many');
      await variableRows()
        .filter({ hasText: /pass\s*=\s*forward/ })
        .first()
        .waitFor({ timeout: 15_000 });
      const rows = (await variableRows().allInnerTexts()).map((v) => v.replace(/\s+/g, ' ').trim());
      log(`  Op scope: ${rows.slice(0, 8).join(' | ')}`);
      assert.ok(
        rows.some((v) => /^output 0 = Tensor float32\[4,1\] .*2 −Inf/.test(v)),
        rows.join(' | '),
      );
      assert.ok(
        rows.some((v) => /^first non-finite = −Inf at output 0\[1, 0\]/.test(v)),
        rows.join(' | '),
      );
      // The inspector shows the op as a node: its output's grid marks the two -Inf cells.
      const node = await webviewWith('.node-header');
      assert.match(await node.locator('.node-header').innerText(), /Log/);
      await node.locator('tr.tensor-row', { hasText: 'output 0' }).first().click();
      await node.locator('table.grid td.inf').first().waitFor({ timeout: 15_000 });
      assert.equal(await node.locator('table.grid td.inf').count(), 2);
      await node.locator('table.grid td.inf').first().scrollIntoViewIfNeeded();
      await shot('op-nan-stop');
      await docPicture(e.page, 'op-nan-stop');
      await e.page.keyboard.press('Shift+F5');
      await e.page.locator('.debug-toolbar').waitFor({ state: 'hidden', timeout: 15_000 });
    },
  );

  step(
    '21. a model.json\'s "no binding" warning goes when callbacks.js is written from outside the editor, comes back when it is renamed away, goes when renamed back',
    async () => {
      // Written by the test process as a shell or a generator would: the editor never opens it.
      const dir = path.join(workspace, 'outside-made');
      mkdirSync(dir, { recursive: true });
      cpSync(path.join(root, 'test', 'fixtures', 'lsp', 'models', 'none', 'model.json'), path.join(dir, 'model.json'));
      await runCommand('View: Close All Editors');
      await open('outside-made/model.json');
      await e.page.keyboard.press('Control+Shift+M');
      const warnings = e.page.locator('.markers-panel .monaco-list-row', { hasText: "Callback node 'lonely'" });
      await warnings.first().waitFor({ timeout: 30_000 });
      await shot('no-binding-before-callbacks-js');
      const callbacks = path.join(dir, 'callbacks.js');
      const cleared = async (what: string) => {
        await warnings
          .first()
          .waitFor({ state: 'detached', timeout: 20_000 })
          .catch(() => assert.fail(`the "no binding" warning stayed after ${what}`));
      };
      writeFileSync(callbacks, 'exports.lonely = (x) => x;\n');
      await cleared('callbacks.js was created');
      await shot('no-binding-cleared-by-outside-file');
      const aside = path.join(dir, 'callbacks-old.js');
      renameSync(callbacks, aside);
      await warnings.first().waitFor({ timeout: 20_000 });
      renameSync(aside, callbacks);
      await cleared('callbacks.js was renamed back');
      rmSync(callbacks);
      await warnings.first().waitFor({ timeout: 20_000 });
      await shot('no-binding-back-after-delete');
    },
  );

  step('22. F5 with the Graph View focused and no launch.json for its model: no debugger picker, a session on the model it shows', async () => {
    await runCommand('View: Close All Editors');
    await open('dense-model/model.json');
    await runCommand('TF.js Callbacks: Open Graph View');
    const graph = await webviewWith('svg.graph');
    await graph.locator('g.item[data-node="dense/MatMul"]').waitFor({ timeout: 30_000 });
    // Step 13's launch.json names this model: a launch.json without it, so F5 has only the view to go by.
    const launchJson = path.join(workspace, '.vscode', 'launch.json');
    const kept = existsSync(launchJson) ? readFileSync(launchJson, 'utf8') : undefined;
    if (kept !== undefined) rmSync(launchJson);
    // VS Code reads launch.json again when its watcher says so: F5 waits until the Run view offers to create one.
    await runCommand('View: Show Run and Debug');
    await e.page.locator('.welcome-view-content', { hasText: 'create a launch.json file' }).first().waitFor({ timeout: 30_000 });
    // Focus inside the view, as a click on it gives: VS Code then has no active text editor.
    await graph.locator('svg.graph').click({ position: { x: 5, y: 5 } });
    await e.page.keyboard.press('F5');
    await runCommand('Debug Console: Focus on Debug Console View');
    const ran = e.page.locator('.repl .monaco-list-row', { hasText: 'dense-model › scale' });
    await ran.first().waitFor({ timeout: 60_000 });
    assert.equal(await e.page.locator('.quick-input-widget .quick-input-title', { hasText: /Select debugger/i }).count(), 0, 'no debugger picker');
    const refusal = e.page.locator('.notification-toast', { hasText: 'Open a TS/JS graph program or a model.json' });
    assert.equal(await refusal.count(), 0, 'no "Open a TS/JS graph program" refusal');
    await shot('f5-on-graph-view');
    await e.page.locator('.debug-toolbar').waitFor({ state: 'hidden', timeout: 30_000 });
    if (kept !== undefined) writeFileSync(launchJson, kept); // for the steps after this one
  });
}
