/**
 * js-debug parity, output and exceptions: a logpoint's output links to the logpoint (source, line,
 * column), and a Tout-mismatch stop's exceptionInfo carries the whole message with its fix hint in
 * `description` (what VS Code's exception widget shows), on every run, asked for at once as VS Code
 * asks. Real adapter, real debuggee, real TF.js.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { fixture, sleep, THREAD, useDebugAdapter, withSession } from '../helpers/dap.js';
import { lineOf } from '../helpers/markers.js';

useDebugAdapter();

const PROGRAM = fixture('parity-program.ts');
const T = { timeout: 120_000 };
const HINT = /Return float32 data \(Float32Array\.from\(values\)\) or declare Tout 'float64'\./;

describe('parity: logpoints and exception info', () => {
  test('logpoint output carries the logpoint’s source, line and column, in a plain frame and in a callback', T, () =>
    withSession(async (s) => {
      const helperLine = lineOf(PROGRAM, '@helper-body');
      const scaleLine = lineOf(PROGRAM, '@scale-body');
      await s.launch({ program: PROGRAM }, async (dc) => {
        await dc.setBreakpointsRequest({
          source: { path: PROGRAM },
          breakpoints: [
            { line: helperLine, logMessage: 'n is {n}' },
            { line: scaleLine, logMessage: 'x is {x.shape}' },
          ],
        });
        await dc.setExceptionBreakpointsRequest({ filters: [] });
      });
      await s.terminated();
      const logs = s.all('output').filter((e) => /^(n|x) is /.test(String(e.body.output))) as DebugProtocol.OutputEvent[];
      assert.equal(logs.length, 21, `20 helper calls and one callback: ${logs.map((e) => e.body.output).join('')}`);
      for (const e of logs) {
        assert.equal(e.body.category, 'console');
        assert.equal(e.body.source?.path, PROGRAM, JSON.stringify(e.body));
        assert.equal(e.body.source?.name, 'parity-program.ts');
        const want = String(e.body.output).startsWith('n is') ? helperLine : scaleLine;
        assert.equal(e.body.line, want, JSON.stringify(e.body));
        assert.ok(typeof e.body.column === 'number' && e.body.column >= 1, JSON.stringify(e.body));
      }
      assert.equal(logs[3]!.body.output, 'n is 3\n');
      assert.match(String(logs.at(-1)!.body.output), /^x is \[2,3\]\n$/);
    }),
  );

  for (let run = 1; run <= 4; run++) {
    test(`a Tout mismatch stop gives the whole message and its fix hint, every time (run ${run} of 4)`, T, () =>
      withSession(async (s) => {
        await s.launch({ program: PROGRAM });
        const stop = await s.stopped();
        assert.equal(stop.body.reason, 'exception', 'VS Code shows the exception widget for reason "exception" only');
        assert.equal(stop.body.description, 'Tout mismatch in bad_dtype: 0-th value is double, but expects float');
        assert.match(stop.body.text ?? '', /^Tout mismatch in bad_dtype/);
        // VS Code asks for the exception info and the stack together, as soon as the stop arrives.
        const [info, stack] = await Promise.all([
          s.dc.exceptionInfoRequest({ threadId: THREAD }),
          s.dc.stackTraceRequest({ threadId: THREAD, startFrame: 0, levels: 20 }),
        ]);
        const body = info.body;
        assert.equal(body.exceptionId, 'ToutMismatch');
        assert.match(body.description ?? '', /^Tout mismatch in bad_dtype: 0-th value is double, but expects float\n/);
        assert.match(body.description ?? '', HINT, 'the fix hint is in the description, which the widget shows');
        assert.match(body.details?.message ?? '', /^0-th value returned by \S+ is double, but expects float\n/);
        assert.match(body.details?.message ?? '', HINT);
        // The widget goes on the first frame with a source that is not deemphasized: the return in the program.
        const frames = stack.body.stackFrames;
        const shown = frames.find((f) => f.source?.path && f.source.presentationHint !== 'deemphasize');
        assert.equal(shown?.source?.path, PROGRAM);
        assert.equal(shown?.line, lineOf(PROGRAM, '@bad-return'));
        assert.equal(shown, frames[0], 'and it is the top frame VS Code focuses');
        const runtime = frames.filter((f) => f.presentationHint === 'subtle');
        assert.ok(runtime.length > 0 && runtime.every((f) => f.source?.presentationHint === 'deemphasize'), 'runtime frames are deemphasized on their sources');
        // Nothing makes VS Code drop the stack it just fetched (the widget is tied to those frames).
        await sleep(500);
        const later = s.events.filter((e) => ['stopped', 'continued', 'invalidated'].includes(e.event));
        assert.equal(later.length, 1, s.summary());
        assert.deepEqual((await s.dc.exceptionInfoRequest({ threadId: THREAD })).body, body, 'asked again, the same answer');
      }),
    );
  }
});
