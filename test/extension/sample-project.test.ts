/**
 * The walkthrough's sample project (extension/sample-project.ts), written to a fresh folder with
 * nothing installed, under the real adapter as F5 runs it: it stops on the line the walkthrough
 * names, inside scale_rows with its input in the Callback scope, and then runs the model whose
 * EagerPyFunc node calls model/callbacks.ts to the end.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { SAMPLE_BREAK_LINE, SAMPLE_FOLDER, sampleFiles } from '../../extension/sample-project.js';
import { THREAD, useDebugAdapter, withSession } from '../helpers/dap.js';

useDebugAdapter();

describe('the walkthrough’s sample project', () => {
  test('F5 stops on its breakpoint line inside the callback, then the model runs to the end', { timeout: 120_000 }, () =>
    withSession(async (s) => {
      const root = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'tfjs-cb-sample-')), SAMPLE_FOLDER);
      for (const [file, content] of Object.entries(sampleFiles())) {
        fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
        fs.writeFileSync(path.join(root, file), content);
      }
      const program = path.join(root, 'main.ts');
      assert.match(fs.readFileSync(program, 'utf8').split('\n')[SAMPLE_BREAK_LINE - 1]!, /a breakpoint here/);
      await s.launch({ program }, (dc) => dc.setBreakpointsRequest({ source: { path: program }, breakpoints: [{ line: SAMPLE_BREAK_LINE }] }));
      assert.equal((await s.stopped()).body.reason, 'breakpoint');
      const frames = await s.stack();
      assert.equal(frames[0]!.name, 'scale_rows');
      assert.equal(frames[0]!.line, SAMPLE_BREAK_LINE);
      const scope = await s.scope(frames[0]!.id, 'Callback');
      assert.match(scope.get('x').value, /^NdArray float32\[2,3\] min=1 max=6/);
      await s.dc.setBreakpointsRequest({ source: { path: program }, breakpoints: [] });
      await s.dc.continueRequest({ threadId: THREAD });
      await s.waitForOutput('model output:');
      assert.equal((await s.terminated())?.body.exitCode ?? 0, 0);
      assert.doesNotMatch(s.output('stderr'), /Error/);
    }),
  );
});
