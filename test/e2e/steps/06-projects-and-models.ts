/**
 * Steps 6-12: a converted model.json's Problems, F5 on a model.json, fresh TS ES-module and CommonJS
 * projects with their own tfjs (F5, Run Graph, a TypeScript callbacks module), the 'Errors thrown in
 * callbacks' filter, and a misspelled breakOnCallbacks name.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { log, type E2e } from '../harness.js';
import { THROW_LINE, SECOND_ENGINE } from '../programs.js';

export function projectSteps(e: E2e): void {
  const { step, shot, runCommand, pick, callStackRows, inspector, open, f5OnTypeScript, workspace, converted } = e;

  step('6. a converted model.json (one line): Problems name each unbound callback node at its own column', async () => {
    await e.page.keyboard.press('Control+P');
    const input = e.page.locator('.quick-input-widget .quick-input-box input');
    await input.waitFor({ state: 'visible' });
    await input.fill('converted/model.json');
    await e.page.locator('.quick-input-widget .monaco-list-row', { hasText: 'model.json' }).first().waitFor({ timeout: 10_000 });
    await e.page.keyboard.press('Enter');
    await e.page.keyboard.press('Control+Shift+M');
    const text = readFileSync(converted, 'utf8');
    const expected = ['StatefulPartitionedCall/log1p64', 'StatefulPartitionedCall/cube_plus'].map((node) => ({
      node,
      column: text.indexOf(JSON.stringify(node)) + 1,
    }));
    const rows = e.page.locator('.markers-panel .monaco-list-row', { hasText: 'has no binding' });
    await rows.nth(1).waitFor({ timeout: 20_000 });
    const shown = (await rows.allInnerTexts()).map((r) => r.replace(/\u00a0/g, ' '));
    log(`  problems: ${shown.map((r) => r.split('\n').slice(0, 3).join(' | ')).join(' || ')}`);
    for (const { node, column } of expected) {
      const row = shown.find((r) => r.includes(`Callback node '${node}'`));
      assert.ok(row, `a problem for ${node}: ${shown.join(' || ')}`);
      assert.match(row, new RegExp(`\\[Ln 1, Col ${column}\\]`), `${node} at its column ${column}`);
      assert.match(row, new RegExp(`export a function named '${node.split('/').at(-1)}' \\(its name in TensorFlow\\)`));
    }
    await shot('converted-model-problems');
  });

  step('7. F5 on an open model.json with no launch.json debugs the model with its callbacks.ts', async () => {
    // A folder name no other model.json fuzzy-matches in Quick Open ('cond' matched 'converted').
    await open('cond-model/model.json');
    await runCommand('View: Focus Active Editor Group');
    await e.page.keyboard.press('F5');
    // The session runs the model to its end: its trace reaches the Debug Console.
    await runCommand('Debug Console: Focus on Debug Console View');
    const line = e.page.locator('.repl .monaco-list-row', { hasText: 'StatefulPartitionedCall/cond/then' });
    await line.first().waitFor({ timeout: 60_000 });
    const consoleText = (await e.page.locator('.repl').innerText()).replace(/\u00a0/g, ' ');
    log(
      `  debug console: ${consoleText
        .split('\n')
        .filter((l) => /cond-model ›|backend/.test(l))
        .slice(0, 3)
        .join(' | ')}`,
    );
    assert.match(consoleText, /✓ cond-model › StatefulPartitionedCall\/cond\/then\/_3\/cond\/double_np \(double_np\) \[PyFunc\]/);
    const refusal = e.page.locator('.notification-toast', { hasText: "You don't have an extension for debugging" });
    assert.equal(await refusal.count(), 0, 'no "no extension for debugging JSON" notification');
    await e.page.locator('.debug-toolbar').waitFor({ state: 'hidden', timeout: 30_000 });
    await shot('f5-on-model-json');
  });

  step('8. a fresh TS ES-module project with its own tfjs: F5 stops on the float64 mistake, one engine, the inspector shows the Float64Array', async () => {
    await open('esm-project/main.ts');
    await runCommand('View: Focus Active Editor Group');
    await f5OnTypeScript();
    await callStackRows().filter({ hasText: '(PyFunc)' }).first().waitFor({ timeout: 60_000 });
    const stack = (await callStackRows().allInnerTexts()).map((r) => r.replace(/\s+/g, ' ').trim());
    log(`  call stack: ${stack.slice(0, 3).join(' | ')}`);
    assert.ok(
      stack.some((r) => /› widen \(PyFunc\)/.test(r)),
      stack.join(' | '),
    );
    const body = inspector().locator('body');
    await body.locator('tr.tensor-row', { hasText: 'output 0' }).waitFor({ timeout: 20_000 });
    const row = (await body.locator('tr.tensor-row', { hasText: 'output 0' }).innerText()).replace(/\s+/g, ' ');
    log(`  inspector output 0: ${row}`);
    assert.match(row, /Float64Array/);
    assert.match(row, /float64/);
    assert.match(row, /dtype mismatch/);
    await runCommand('Debug Console: Focus on Debug Console View');
    await e.page.locator('.repl .monaco-list-row', { hasText: 'one engine:' }).first().waitFor({ timeout: 10_000 });
    const consoleText = (await e.page.locator('.repl').innerText()).replace(/\u00a0/g, ' ');
    assert.match(consoleText, /one engine: true/);
    assert.deepEqual(
      consoleText.split('\n').filter((l) => SECOND_ENGINE.test(l)),
      [],
      'no second TF.js in the Debug Console',
    );
    await shot('esm-project-float64-stop');
    await e.page.keyboard.press('Shift+F5');
    await e.page.locator('.debug-toolbar').waitFor({ state: 'hidden', timeout: 15_000 });
  });

  step('9. a fresh CommonJS JS project (npm init -y) with its own tfjs: Run Graph runs it on one engine', async () => {
    await open('cjs-project/main.js');
    await runCommand('TF.js Callbacks: Run Graph');
    const toast = e.page.locator('.notification-toast', { hasText: 'main.js' });
    await toast.waitFor({ timeout: 90_000 });
    const summary = (await toast.innerText()).trim();
    log(`  notification: ${summary}`);
    assert.match(
      summary,
      /Run Graph ✓ main\.js: 1 callback invocation of 1 callback · 0 Tout mismatches · 0 errors · 0 reused · 0 with NaN\/Inf outputs · .* · backend cpu/,
    );
    const output = e.page.locator('.part.panel .view-lines', { hasText: 'one engine' });
    await output.waitFor({ timeout: 10_000 });
    const trace = (await output.innerText()).replace(/\u00a0/g, ' ');
    assert.match(trace, /one engine: true 2,4,6/);
    assert.deepEqual(
      trace.split('\n').filter((l) => SECOND_ENGINE.test(l)),
      [],
    );
    await shot('cjs-project-run-graph');
    await runCommand('Notifications: Clear All Notifications');
  });

  step('10. Run Graph on a model.json whose callbacks module is TypeScript, in that CommonJS project', async () => {
    await open('cjs-project/model/model.json');
    await runCommand('TF.js Callbacks: Run Graph');
    const toast = e.page.locator('.notification-toast', { hasText: 'model.json' });
    await toast.waitFor({ timeout: 90_000 });
    const summary = (await toast.innerText()).trim();
    log(`  notification: ${summary}`);
    assert.match(summary, /Run Graph ✓ model\.json: 1 callback invocation of 1 callback · 0 Tout mismatches · 0 errors/);
    await shot('cjs-project-model-run-graph');
    await runCommand('Notifications: Clear All Notifications');
  });

  step("11. 'Errors thrown in callbacks', checked by default, stops at the throw inside the callback, not in the runtime", async () => {
    await runCommand('View: Show Run and Debug');
    const filter = e.page.locator('.debug-breakpoints .monaco-list-row', { hasText: 'Errors thrown in callbacks' });
    await filter.waitFor({ timeout: 10_000 });
    assert.equal(await filter.locator('input[type=checkbox]').isChecked(), true, 'the box is checked by default');
    const uncaught = e.page.locator('.debug-breakpoints .monaco-list-row', { hasText: 'Uncaught exceptions' }).locator('input[type=checkbox]');
    assert.equal(await uncaught.isChecked(), false, 'Uncaught exceptions is not what stops here');
    await shot('callback-errors-filter');
    await open('esm-project/throws.ts');
    await runCommand('View: Focus Active Editor Group');
    await f5OnTypeScript();
    const top = callStackRows().first();
    await top.filter({ hasText: 'checked_log' }).waitFor({ timeout: 60_000 });
    const text = (await top.innerText()).replace(/\s+/g, ' ').trim();
    log(`  top frame: ${text}`);
    assert.match(text, new RegExp(`^checked_log throws\\.ts ${THROW_LINE}:`));
    const widget = e.page.locator('.exception-widget');
    await widget.waitFor({ timeout: 10_000 });
    assert.match((await widget.innerText()).replace(/\s+/g, ' '), /RangeError: checked_log: input below 100/);
    await shot('callback-error-stop');
    await e.page.keyboard.press('Shift+F5');
    await e.page.locator('.debug-toolbar').waitFor({ state: 'hidden', timeout: 15_000 });
  });

  step('12. a misspelled breakOnCallbacks name is said in the Debug Console, with the callback it likely meant', async () => {
    mkdirSync(path.join(workspace, '.vscode'), { recursive: true });
    writeFileSync(
      path.join(workspace, '.vscode', 'launch.json'),
      JSON.stringify(
        {
          version: '0.2.0',
          configurations: [
            {
              type: 'tfjs-callbacks',
              request: 'launch',
              name: 'Typo',
              program: '${workspaceFolder}/esm-project/main.ts',
              breakOnCallbacks: ['widdenn'],
              breakOnToutMismatch: false,
            },
          ],
        },
        null,
        2,
      ),
    );
    await runCommand('Debug: Select and Start Debugging');
    await pick('Typo');
    await runCommand('Debug Console: Focus on Debug Console View');
    const warning = e.page.locator('.repl .monaco-list-row', { hasText: "'widdenn' matches no callback" });
    await warning.first().waitFor({ timeout: 60_000 });
    const said = (await warning.first().innerText()).replace(/\u00a0/g, ' ').replace(/\s+/g, ' ');
    log(`  debug console: ${said}`);
    assert.match(said, /Did you mean 'widen'\?/);
    await e.page.locator('.debug-toolbar').waitFor({ state: 'hidden', timeout: 30_000 });
    await shot('typo-breakOnCallbacks');
  });
}
