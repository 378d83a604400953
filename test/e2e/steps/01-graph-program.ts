/**
 * Steps 1-5: the palette and Select Backend, Run Graph with its summary and Problems, a breakpoint in a
 * numpyFunction callback hit by Debug Graph (graph frame, tensor variables, debug console, step over),
 * the Tout-mismatch stop with the inspector in the panel, and no process left after stopping.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { docPicture } from '../doc-pictures.js';
import { log, sleep, processesMentioning, type E2e } from '../harness.js';
import { BREAK_LINE, NEXT_LINE, MISMATCH_LINE, COMMANDS } from '../programs.js';

export function graphProgramSteps(e: E2e): void {
  const { step, shot, runCommand, openPalette, quickPickRow, paletteLabels, pick, callStackRows, variableRows, inspector, breakpointAt, program } = e;

  step('1. the palette lists the commands; Select Backend → cpu shows in the status bar', async () => {
    let labels: string[] = [];
    for (let attempt = 1; attempt <= 15; attempt++) {
      await openPalette('TF.js Callbacks');
      labels = await paletteLabels();
      if (COMMANDS.every((c) => labels.includes(c))) break;
      await e.page.keyboard.press('Escape');
      await sleep(1000);
    }
    log(`  palette: ${labels.join(' | ')}`);
    for (const c of COMMANDS) assert.ok(labels.includes(c), `the palette lists "${c}" (it lists: ${labels.join(' | ')})`);
    await shot('palette');

    const status = e.page.locator('.statusbar-item', { hasText: 'TF.js:' });
    assert.match(await status.innerText(), /TF\.js: auto/);
    await quickPickRow('TF.js Callbacks: Select Backend').click();
    const backends = e.page.locator('.quick-input-list .monaco-list-row .label-name');
    await backends.first().waitFor();
    assert.deepEqual(
      (await backends.allInnerTexts()).map((s) => s.trim()),
      ['auto', 'tensorflow', 'wasm', 'cpu'],
    );
    await shot('select-backend');
    await pick('cpu');
    await e.page.locator('.statusbar-item', { hasText: 'TF.js: cpu' }).waitFor({ timeout: 10_000 });
    log(`  status bar: ${(await status.innerText()).trim()}`);
    await shot('status-bar-cpu');
  });

  step('2. Run Graph runs the program: trace summary, output channel, the Tout mismatch in Problems', async () => {
    await runCommand('TF.js Callbacks: Run Graph');
    const toast = e.page.locator('.notification-toast', { hasText: 'Run Graph' });
    await toast.waitFor({ timeout: 90_000 });
    const summary = (await toast.innerText()).trim();
    log(`  notification: ${summary}`);
    assert.match(summary, /Run Graph ✗ graph\.ts: 3 callback invocations of 3 callbacks · 1 Tout mismatch · 0 errors · .* · backend cpu/);
    // A failed run is an error notification (its icon), not a warning.
    assert.equal(await toast.locator('.notification-list-item-icon.codicon-error').count(), 1, 'the ✗ toast has the error icon');
    // The "TF.js Callbacks" output channel shows the trace.
    const output = e.page.locator('.part.panel .view-lines', { hasText: 'callback invocations' });
    await output.waitFor({ timeout: 10_000 });
    const trace = (await output.innerText()).replace(/\u00a0/g, ' '); // the editor renders spaces as nbsp
    assert.match(trace, /backend: cpu/);
    assert.match(trace, /✓ pyfunc_0 \(scale_rows\) \[PyFunc\] in float32\[2,3\] → out float32\[2,3\]/);
    assert.match(trace, new RegExp(`✗ pyfunc_2 \\(bad_dtype\\) \\[PyFunc\\].*graph\\.ts:${MISMATCH_LINE}`));
    assert.match(trace, /0-th value returned by pyfunc_2 is double, but expects float/);
    await shot('run-graph');

    await e.page.keyboard.press('Control+Shift+M'); // View: Problems
    // graph.ts is open, so the language server reports the last run's mismatch (source 'tfjs-callbacks (last run)').
    const problem = e.page.locator('.markers-panel .monaco-list-row', { hasText: '0-th value returned by pyfunc_2' });
    await problem.first().waitFor({ timeout: 15_000 });
    const text = (await problem.first().innerText()).replace(/\u00a0/g, ' ');
    log(`  problem: ${text.split('\n').slice(0, 4).join(' | ')}`);
    assert.match(text, /0-th value returned by pyfunc_2 is double, but expects float/);
    assert.match(text, /tfjs-callbacks/);
    assert.match(text, new RegExp(`\\[Ln ${MISMATCH_LINE}, Col \\d+\\]`));
    // The extension's TypeScript server plugin gives VS Code's TypeScript the runtime's types: the
    // workspace does not install tfjs-callback-debugger, yet its import is no ts(2307).
    const allProblems = (await e.page.locator('.markers-panel').innerText()).replace(/\u00a0/g, ' ');
    assert.doesNotMatch(allProblems, /Cannot find module 'tfjs-callback-debugger\/runtime'/);
    await shot('problems');
    await docPicture(e.page, 'tout-diagnostics');
    await runCommand('Notifications: Clear All Notifications');
  });

  step('3. a breakpoint in the numpyFunction callback: Debug Graph stops there with the graph frame, the tensor, the debug console and step over', async () => {
    await breakpointAt(BREAK_LINE);

    await runCommand('TF.js Callbacks: Debug Graph');
    const graphFrame = callStackRows().filter({ hasText: '(PyFunc)' });
    await graphFrame.first().waitFor({ timeout: 60_000 });
    const breakpoint = (await e.page.locator('.debug-breakpoints .monaco-list-row', { hasText: 'graph.ts' }).innerText()).replace(/\s+/g, ' ').trim();
    assert.equal(breakpoint, `graph.ts ${BREAK_LINE}`, 'the Breakpoints view lists the breakpoint');
    const stack = (await callStackRows().allInnerTexts()).map((s) => s.replace(/\s+/g, ' ').trim());
    log(`  call stack: ${stack.join(' | ')}`);
    assert.match(stack[0] ?? '', new RegExp(`^scale_rows graph\\.ts ${BREAK_LINE}:`), 'the top frame is the callback at the breakpoint');
    assert.ok(
      stack.some((s) => s.includes('›') && s.includes('(PyFunc)') && s.includes('scale_rows')),
      `a graph frame "… › scale_rows (PyFunc)": ${stack.join(' | ')}`,
    );

    const x = variableRows().filter({ hasText: /^\s*x =/ });
    await x.first().waitFor({ timeout: 10_000 });
    const variables = (await variableRows().allInnerTexts()).map((s) => s.replace(/\s+/g, ' ').trim());
    log(`  variables: ${variables.join(' | ')}`);
    assert.ok(
      variables.some((v) => /^x = NdArray float32\[2,3\] min=1 max=6 mean=3\.5/.test(v)),
      `x is shown as NdArray float32[2,3]: ${variables.join(' | ')}`,
    );
    assert.ok(
      variables.some((v) => v === 'Tout = [float32]'),
      'Tout is shown',
    );
    await shot('stopped-at-breakpoint');
    await docPicture(e.page, 'callback-stop');

    // The debug console: evaluate on the tensor in the stopped frame.
    await runCommand('Debug Console: Focus on Debug Console View');
    const replInput = e.page.locator('.repl-input-wrapper textarea');
    await replInput.waitFor({ state: 'visible' });
    await e.page.locator('.repl-input-wrapper').click();
    await e.page.keyboard.type("x.shape.join('x') + ':' + x.get(1, 2) * factor");
    await e.page.keyboard.press('Enter');
    const result = e.page.locator('.repl .monaco-list-row', { hasText: '2x3:12' });
    await result.first().waitFor({ timeout: 10_000 });
    log(`  debug console: ${(await result.first().innerText()).trim()}`);
    const consoleText = await e.page.locator('.repl').innerText();
    assert.match(consoleText, /backend: cpu/, 'the debuggee runs on the backend selected in step 1');
    await shot('debug-console');

    // Step over: one line down, still in the callback.
    await e.page.keyboard.press('F10');
    await callStackRows()
      .first()
      .filter({ hasText: new RegExp(`graph\\.ts\\s*${NEXT_LINE}:`) })
      .waitFor({ timeout: 15_000 });
    const top = (await callStackRows().first().innerText()).replace(/\s+/g, ' ').trim();
    log(`  after step over: ${top}`);
    assert.match(top, new RegExp(`^scale_rows graph\\.ts ${NEXT_LINE}:`));
    const currentLine = e.page.locator('.editor-group-container .monaco-editor .margin .codicon-debug-stackframe');
    await currentLine.first().waitFor({ timeout: 5_000 });
    await e.page.locator('.statusbar-item', { hasText: `Ln ${NEXT_LINE},` }).waitFor({ timeout: 5_000 }); // the editor's cursor follows the current line
    await shot('step-over');
  });

  step(
    '4. continue stops on the Tout mismatch; the tensor inspector, in the panel, shows the flagged output with 20+ lines of code in view at 1440×900',
    async () => {
      // The window size of the report (issue 27 point 9): a 1440×900 laptop screen.
      await e.page.setViewportSize({ width: 1440, height: 900 });
      await e.page.keyboard.press('F5');
      await callStackRows().filter({ hasText: 'bad_dtype' }).first().waitFor({ timeout: 30_000 });
      const stack = (await callStackRows().allInnerTexts()).map((s) => s.replace(/\s+/g, ' ').trim());
      log(`  call stack: ${stack.join(' | ')}`);
      assert.ok(
        stack.some((s) => /› bad_dtype \(PyFunc\)/.test(s)),
        `a graph frame for bad_dtype: ${stack.join(' | ')}`,
      );
      const reason = await e.page.locator('.debug-call-stack, .pane', { hasText: 'Tout mismatch in bad_dtype' }).first().innerText();
      assert.match(reason, /Tout mismatch in bad_dtype: 0-th value is double, but expects float/);
      await variableRows()
        .filter({ hasText: /^\s*returned =/ })
        .first()
        .waitFor({ timeout: 10_000 });
      const variables = (await variableRows().allInnerTexts()).map((s) => s.replace(/\s+/g, ' ').trim());
      log(`  variables: ${variables.join(' | ')}`);
      assert.ok(
        variables.some((v) => v.startsWith('returned = Float64Array float64[6] min=1 max=6')),
        `what the callback returned is shown: ${variables.join(' | ')}`,
      );
      assert.ok(
        variables.some((v) => v.startsWith('mismatch[0] = 0-th value returned by pyfunc_2 is double, but expects float')),
        'the mismatch is shown',
      );

      const body = inspector().locator('body');
      await inspector().locator('body', { hasText: '0-th value returned by' }).waitFor({ timeout: 30_000 });
      await inspector().locator('body', { hasText: 'bad_dtype' }).waitFor({ timeout: 10_000 });
      const text = await body.innerText();
      log(`  inspector: ${text.split('\n').filter(Boolean).slice(0, 6).join(' | ')}`);
      assert.match(text, /0-th value returned by pyfunc_2 is double, but expects float/);
      assert.match(text, /Float64Array/);
      const flagged = await body.textContent();
      assert.match(flagged ?? '', /dtype mismatch/, 'the output row is flagged as a dtype mismatch');
      // The inspector is a view in the panel (inspectorLocation: panel): the code keeps the editor area.
      // VS Code draws webviews in a layer of their own, placed over their view: the inspector's lies within the panel.
      const panelBox = await e.page.locator('.part.panel').boundingBox();
      const frames = await e.page.locator('iframe.webview.ready').evaluateAll((els) =>
        els.map((el) => {
          const r = el.getBoundingClientRect();
          return { x: r.x, y: r.y, width: r.width, height: r.height };
        }),
      );
      const frame = frames.find((f) => panelBox && f.height > 0 && f.y >= panelBox.y - 1 && f.y + f.height <= panelBox.y + panelBox.height + 1);
      log(`  panel ${JSON.stringify(panelBox)}, webviews ${JSON.stringify(frames)}`);
      assert.ok(frame, 'the inspector is in the panel');
      assert.equal(await e.page.locator('.editor-group-container').count(), 1, 'no editor group was made for it');
      const codeLines = await e.page
        .locator('.editor-group-container .monaco-editor')
        .first()
        .evaluate((editor) => {
          const line = editor.querySelector('.view-line');
          const area = editor.querySelector('.lines-content')?.parentElement ?? editor;
          return line ? Math.floor(area.getBoundingClientRect().height / line.getBoundingClientRect().height) : 0;
        });
      log(`  code lines in view: ${codeLines}`);
      assert.ok(codeLines >= 20, `at least 20 lines of code in view, not ${codeLines}`);
      // The flagged row is within the inspector's visible area, no scrolling.
      const row = inspector().locator('tr', { hasText: 'dtype mismatch' }).first();
      const flaggedBox = await row.boundingBox();
      log(`  inspector frame ${JSON.stringify(frame)}, flagged row ${JSON.stringify(flaggedBox)}`);
      assert.ok(flaggedBox, 'the flagged row is drawn');
      assert.ok(flaggedBox.y + flaggedBox.height <= frame.y + frame.height + 1, 'the flagged row is in view without scrolling');
      // Its check cell too: not cut off at the right edge of the table's scroll box.
      const check = await row.locator('td.check').boundingBox();
      const scrollBox = await inspector().locator('.table-scroll', { has: row }).first().boundingBox();
      log(`  check cell ${JSON.stringify(check)}, table box ${JSON.stringify(scrollBox)}`);
      assert.ok(check && scrollBox && check.x + check.width <= scrollBox.x + scrollBox.width + 1, 'the check cell is in view');
      await shot('tout-mismatch-inspector');
      await docPicture(e.page, 'tout-mismatch-stop');
      await e.page.setViewportSize({ width: 1600, height: 1000 });
    },
  );

  step('5. stopping the session leaves no debuggee process', async () => {
    const running = processesMentioning(program);
    for (const pid of running) log(`  debuggee before stopping: ${pid} ${readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').slice(0, 300)}`);
    assert.ok(running.length > 0, `a process runs ${program} while stopped`);
    await e.page.keyboard.press('Shift+F5');
    await e.page.locator('.debug-toolbar').waitFor({ state: 'hidden', timeout: 15_000 });
    let left = processesMentioning(program);
    for (let i = 0; i < 50 && left.length > 0; i++) {
      await sleep(100);
      left = processesMentioning(program);
    }
    assert.deepEqual(
      left,
      [],
      `processes still run ${program}: ${left.map((pid) => `${pid}: ${readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ')}`).join('\n')}`,
    );
    log('  no debuggee process left');
    await shot('session-stopped');
  });
}
