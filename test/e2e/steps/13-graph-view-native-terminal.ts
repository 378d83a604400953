/**
 * Steps 13-15: the graph view walked live (node breakpoint, F10 node by node, F11 into the callback,
 * Shift+F11 back), Set Up Native Backend against the test venv's TensorFlow, and the Debug Terminal's
 * program under the debugger with what js-debug offers (completions, Restart Frame, View Binary
 * Data, a data breakpoint on a layer kernel).
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { TF_PYTHON } from '../../helpers/tensorflow-python.js';
import { docPicture } from '../doc-pictures.js';
import { log, sleep, type E2e } from '../harness.js';
import { PARITY_FIRST, PARITY_BREAK, PARITY_RETURN, PARITY_MODEL } from '../programs.js';

export function graphViewNativeTerminalSteps(e: E2e): void {
  const { step, shot, runCommand, quickPickRow, pick, callStackRows, variableRows, inspector, webviewWith, open, breakpointAt, menuItem, topFrame, workspace } =
    e;

  step(
    '13. the graph view, live: a node breakpoint set from the view, F5 stops after the node, F10 node by node, F11 into the callback, Shift+F11 to its node',
    async () => {
      await open('dense-model/model.json');
      await runCommand('TF.js Callbacks: Open Graph View');
      const graph = await webviewWith('svg.graph');
      const box = (node: string) => graph.locator(`g.item[data-node="${node}"]`);
      await box('dense/MatMul').waitFor({ timeout: 30_000 });
      await box('dense/MatMul').click();
      await graph.locator('[data-action="break"]').click();
      const bp = e.page.locator('.debug-breakpoints .monaco-list-row', { hasText: 'dense/MatMul' });
      await bp.first().waitFor({ timeout: 10_000 });
      await shot('graph-view-break-on-node');

      // Step 12 left a launch.json: the model gets a configuration of its own there.
      const launchJson = path.join(workspace, '.vscode', 'launch.json');
      const launch = JSON.parse(readFileSync(launchJson, 'utf8')) as { configurations: object[] };
      launch.configurations.push({
        type: 'tfjs-callbacks',
        request: 'launch',
        name: 'Dense model',
        model: '${workspaceFolder}/dense-model/model.json',
        inputs: '${workspaceFolder}/dense-model/inputs.json',
      });
      writeFileSync(launchJson, JSON.stringify(launch, null, 2));
      await runCommand('Debug: Select and Start Debugging');
      await pick('Dense model');
      const top = () => callStackRows().first();
      await top().filter({ hasText: 'dense-model › dense/MatMul (MatMul)' }).waitFor({ timeout: 60_000 });
      const stack = (await callStackRows().allInnerTexts()).map((r) => r.replace(/\s+/g, ' ').trim());
      log(`  call stack: ${stack.join(' | ')}`);
      const input = variableRows().filter({ hasText: /x \(input 0\) =/ });
      await input.first().waitFor({ timeout: 10_000 });
      const variables = (await variableRows().allInnerTexts()).map((v) => v.replace(/\s+/g, ' ').trim());
      log(`  Node scope: ${variables.slice(0, 6).join(' | ')}`);
      assert.ok(
        variables.some((v) => /^output 0 = Tensor float32\[2,2\] min=-4 max=3/.test(v)),
        variables.join(' | '),
      );
      // The graph view marks the paused node; the inspector shows its tensors.
      await box('dense/MatMul').and(graph.locator('[data-status="paused"]')).waitFor({ timeout: 15_000 });
      const node = await webviewWith('.node-header');
      log(`  inspector: ${(await node.locator('.node-header').innerText()).split('\n').slice(0, 3).join(' | ')}`);
      await shot('graph-view-paused-at-node');
      await docPicture(e.page, 'graph-view-node-stop');

      await e.page.keyboard.press('F10');
      await top().filter({ hasText: 'dense/Relu (Relu)' }).waitFor({ timeout: 15_000 });
      await box('dense/Relu').and(graph.locator('[data-status="paused"]')).waitFor({ timeout: 15_000 });
      assert.equal(await box('dense/MatMul').getAttribute('data-status'), 'ran');
      await shot('graph-view-step-over-node');

      await e.page.keyboard.press('F11');
      await top()
        .filter({ hasText: /scale\s*callbacks\.ts\s*2:/ })
        .waitFor({ timeout: 15_000 });
      await shot('graph-view-step-into-callback');

      await e.page.keyboard.press('Shift+F11');
      await top().filter({ hasText: 'dense-model › scale (EagerPyFunc)' }).waitFor({ timeout: 15_000 });
      await box('scale').and(graph.locator('[data-status="paused"]')).waitFor({ timeout: 15_000 });
      await shot('graph-view-step-out-to-node');
      // Continue to the end: the view shows the whole run, the nodes after the last stop included
      // (they read 'not run' before), inputs and weights as given.
      await e.page.keyboard.press('F5');
      await e.page.locator('.debug-toolbar').waitFor({ state: 'hidden', timeout: 30_000 });
      await graph.locator('g.item[data-status="paused"]').waitFor({ state: 'detached', timeout: 15_000 });
      const statuses = await graph
        .locator('g.item[data-node]')
        .evaluateAll((els) => els.map((el) => `${el.getAttribute('data-node')}:${el.getAttribute('data-status')}`));
      log(`  statuses after the run: ${statuses.join(' ')}`);
      assert.ok(statuses.length > 3, statuses.join(' '));
      assert.deepEqual(
        statuses.filter((st) => !/:(ran|given)$/.test(st)),
        [],
        'every node ran or was given',
      );
      assert.ok(statuses.includes('dense/Relu:ran') && statuses.includes('scale:ran'), statuses.join(' '));
      await shot('graph-view-after-run');
      // The node breakpoint goes, so later steps run as before.
      await runCommand('Remove All Breakpoints');
    },
  );

  step("14. Set Up Native Backend builds tfjs-node against a Python environment's TensorFlow; auto then runs on it", async () => {
    if (!TF_PYTHON) {
      log('  skipped: no TensorFlow venv here (scripts/setup-native-test.sh)');
      return;
    }
    await runCommand('TF.js Callbacks: Set Up Native Backend');
    // Not pick(): the open dialog below is a quick input too, and can show before the pick's
    // widget was ever seen hidden.
    await e.page.locator('.quick-input-list .monaco-list-row').first().waitFor({ timeout: 10_000 });
    await quickPickRow('Another Python…').click();
    // VS Code's own open dialog (a path box in code-server): the test venv's python.
    const input = e.page.locator('.quick-input-widget .quick-input-box input');
    await input.waitFor({ state: 'visible', timeout: 10_000 });
    // The dialog fills in its starting folder after it shows: type the path once that is done,
    // and again if the dialog overwrote it.
    for (let attempt = 0; attempt < 20 && !(await input.inputValue()).startsWith('/'); attempt++) await sleep(250);
    for (let attempt = 0; attempt < 5 && (await input.inputValue()) !== TF_PYTHON; attempt++) {
      await input.fill(TF_PYTHON);
      await sleep(750); // the dialog validates the path as it is typed
    }
    assert.equal(await input.inputValue(), TF_PYTHON, 'the open dialog holds the venv python');
    await e.page.keyboard.press('Enter');
    const ready = e.page.locator('.notification-toast', { hasText: 'native backend ready' });
    await ready.waitFor({ timeout: 110_000 });
    const said = (await ready.innerText()).replace(/\s+/g, ' ').trim();
    log(`  notification: ${said}`);
    assert.match(said, /✓ native backend ready: @tensorflow\/tfjs-node 4\.\d+\.\d+ built against TensorFlow 2\.\d+\.\d+ in \d+ s/);
    await shot('native-setup');
    await runCommand('Notifications: Clear All Notifications');
    await runCommand('TF.js Callbacks: Select Backend');
    await pick('auto');
    await open('cjs-project/main.js');
    await runCommand('TF.js Callbacks: Run Graph');
    const toast = e.page.locator('.notification-toast', { hasText: 'main.js' });
    await toast.waitFor({ timeout: 60_000 });
    assert.match((await toast.innerText()).trim(), /Run Graph ✓ main\.js: .* backend tensorflow/);
    await e.page.locator('.statusbar-item', { hasText: 'TF.js: auto → tensorflow' }).waitFor({ timeout: 10_000 });
    await shot('run-graph-on-tensorflow');
  });

  step(
    '15. the Debug Terminal runs `node parity.ts` under the debugger: completions, Restart Frame, View Binary Data and the byte view, a data breakpoint on a layer kernel during model.fit',
    async () => {
      await open('esm-project/parity.ts');
      await breakpointAt(PARITY_BREAK);
      await breakpointAt(PARITY_MODEL);
      await runCommand('TF.js Callbacks: Create Debug Terminal');
      await e.page.locator('.terminal-wrapper.active .xterm').waitFor({ timeout: 15_000 });
      await sleep(1500); // the shell's prompt
      await e.page.keyboard.type('node esm-project/parity.ts');
      await e.page.keyboard.press('Enter');
      await callStackRows().first().filter({ hasText: 'scale' }).waitFor({ timeout: 60_000 });
      assert.match(await topFrame(), new RegExp(`^scale parity\\.ts ${PARITY_BREAK}:`));
      await shot('debug-terminal-stop');
      // The terminal's program chose its backend as F5 does (the status bar's: cpu from step 1's
      // Select Backend, or auto → tensorflow after step 14's Set Up Native Backend) and said so in
      // the line F5 prints; TF.js's "Hi, looks like you are running TensorFlow.js in Node.js" never shows.
      await runCommand('Terminal: Focus Terminal');
      const terminalText = async () => ((await e.page.locator('.terminal-wrapper .xterm-rows').allTextContents()).join('\n') || '').replace(/\u00a0/g, ' ');
      for (let i = 0; i < 50 && !/\[tfjs-callbacks\] backend:/.test(await terminalText()); i++) await sleep(200);
      const terminal = await terminalText();
      log(`  Debug Terminal: ${terminal.replace(/\s+/g, ' ').trim().slice(0, 300)}`);
      const statusBackend = (await e.page.locator('.statusbar-item', { hasText: 'TF.js:' }).first().innerText())
        .trim()
        .split(/[:→]\s*/)
        .pop();
      assert.match(terminal, new RegExp(`\\[tfjs-callbacks\\] backend: ${statusBackend} \\(`), `status bar: ${statusBackend}; terminal: ${terminal}`);
      assert.doesNotMatch(terminal, /Hi, looks like you are running TensorFlow\.js/, terminal);

      // Completions in the Debug Console: the NdArray's members.
      await runCommand('Debug Console: Focus on Debug Console View');
      await e.page.locator('.repl-input-wrapper').click();
      await e.page.keyboard.type('x.');
      await e.page.keyboard.press('Control+Space');
      const suggestions = e.page.locator('.suggest-widget .monaco-list-row');
      await suggestions.first().waitFor({ timeout: 10_000 });
      // The widget may first show the console's history (a loaded machine's first row came from
      // there) and fill with the adapter's completions when they arrive.
      const wanted = ['data', 'dtype', 'shape'];
      let offered: string[] = [];
      for (let tries = 0; tries < 100; tries++) {
        offered = (await suggestions.allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
        if (wanted.every((member) => offered.includes(member))) break;
        await e.page.waitForTimeout(100);
      }
      log(`  completions for x.: ${offered.join(' | ')}`);
      for (const member of wanted) assert.ok(offered.includes(member), `x. offers ${member}: ${offered.join(' | ')}`);
      await shot('debug-console-completions');
      await e.page.keyboard.press('Escape');
      await e.page.keyboard.press('Control+A');
      await e.page.keyboard.press('Backspace');

      // Restart Frame from the call stack: the callback runs again from its first line.
      await e.page.keyboard.press('F10');
      await callStackRows()
        .first()
        .filter({ hasText: new RegExp(`parity\\.ts\\s*${PARITY_RETURN}:`) })
        .waitFor({ timeout: 15_000 });
      await callStackRows().first().click({ button: 'right' });
      await menuItem('Restart Frame');
      await callStackRows()
        .first()
        .filter({ hasText: new RegExp(`parity\\.ts\\s*${PARITY_FIRST}:`) })
        .waitFor({ timeout: 15_000 });
      log(`  after Restart Frame: ${await topFrame()}`);
      await e.page.locator('.repl .monaco-list-row', { hasText: 'Restarting callback scale on the same inputs' }).first().waitFor({ timeout: 10_000 });
      await shot('restart-frame');

      // View Binary Data on the tensor input: VS Code offers it (memoryReference + readMemory) and
      // opens its Hex Editor, which it installs from the marketplace first (not reachable here).
      await runCommand('Notifications: Clear All Notifications');
      const x = variableRows()
        .filter({ hasText: /^\s*x =/ })
        .first();
      await x.hover();
      const viewMemory = x.locator('.action-label[aria-label="View Binary Data"]');
      await viewMemory.waitFor({ timeout: 5_000 });
      await viewMemory.click();
      const toast = e.page.locator('.notification-toast').first();
      await toast.waitFor({ timeout: 15_000 }).catch(() => undefined);
      log(`  View Binary Data: ${(await e.page.locator('.notification-toast').allInnerTexts()).join(' | ').replace(/\s+/g, ' ') || '(no notification)'}`);
      await shot('view-binary-data');
      await runCommand('Notifications: Clear All Notifications');
      // The same bytes in the inspector's byte view, which needs no extension. The steps above left
      // the Debug Console in front of it in the panel (a step or Restart Frame does not switch).
      await runCommand('TF.js Callbacks: Open Tensor Inspector');
      const insp = await webviewWith('button.show-bytes');
      await insp.locator('button.show-bytes').click();
      const firstRow = insp.locator('table.bytes tbody tr').first();
      await firstRow.waitFor({ timeout: 15_000 });
      const cells = (await firstRow.locator('td').allInnerTexts()).map((t) => t.trim());
      log(`  inspector bytes of x: ${cells.join(' | ')}`);
      assert.deepEqual(cells, ['00000000', '00 00 80 3f  00 00 00 40  00 00 40 40  00 00 80 40', '1  2  3  4']);
      await shot('inspector-bytes');
      await docPicture(e.page, 'inspector-bytes');
      await insp.locator('button.show-bytes').click();

      // A data breakpoint on the dense layer's kernel from the Variables view; model.fit's optimizer step stops.
      for (let i = 0; i < 3 && !(await topFrame()).includes(`parity.ts ${PARITY_MODEL}:`); i++) {
        await e.page.keyboard.press('F5');
        await callStackRows()
          .first()
          .filter({ hasText: /parity\.ts/ })
          .waitFor({ timeout: 15_000 })
          .catch(() => undefined);
        await sleep(500);
      }
      assert.match(await topFrame(), new RegExp(`parity\\.ts ${PARITY_MODEL}:`));
      const kernel = variableRows()
        .filter({ hasText: /^\s*kernel =/ })
        .first();
      await kernel.waitFor({ timeout: 10_000 });
      await kernel.click({ button: 'right' });
      await menuItem('Break on Value Change');
      await e.page.locator('.debug-breakpoints .monaco-list-row', { hasText: "tf.Variable 'dense_Dense1/kernel'" }).waitFor({ timeout: 10_000 });
      await e.page.keyboard.press('F5');
      await e.page.locator('.pane', { hasText: 'Paused on data breakpoint' }).first().waitFor({ timeout: 30_000 });
      // The scope's rows come after the scope itself: wait for them.
      await variableRows()
        .filter({ hasText: /^\s*new value =/ })
        .first()
        .waitFor({ timeout: 15_000 });
      const shown = (await variableRows().allInnerTexts()).map((v) => v.replace(/\s+/g, ' ').trim());
      log(`  data stop: ${await topFrame()} · ${shown.slice(0, 6).join(' | ')}`);
      assert.ok(
        shown.some((v) => /^old value = .*float32\[2,1\] min=1 max=1/.test(v)),
        shown.join(' | '),
      );
      assert.ok(
        shown.some((v) => /^new value = .*float32\[2,1\] min=0\.6/.test(v)),
        shown.join(' | '),
      );
      await inspector().locator('body', { hasText: 'data breakpoint' }).waitFor({ timeout: 15_000 });
      await shot('data-breakpoint-model-fit');
      await e.page.keyboard.press('Shift+F5');
      await e.page.locator('.debug-toolbar').waitFor({ state: 'hidden', timeout: 15_000 });
      await runCommand('Remove All Breakpoints');
    },
  );
}
