/**
 * The "Uncaught exceptions" and "Caught exceptions" filters with callbacks that throw: the stop is
 * at the throw in the user's callback, as js-debug stops at an uncaught throw, although the runtime
 * catches every callback's error (to raise CallbackError); never in the runtime's, the loader's,
 * tsx's or Node's internals. Real adapter, real debuggee, real TF.js.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { describeFrames, fixture, THREAD, useDebugAdapter, withSession } from '../helpers/dap.js';
import { lineOf } from '../helpers/markers.js';

useDebugAdapter();

const THROW = fixture('throw-program.ts');
const CATCH = fixture('callback-catch-program.ts');
const T = { timeout: 60_000 };

describe('Uncaught exceptions', () => {
  test('a callback error nothing in the program catches stops at the throw in the callback, with the exception shown', T, () =>
    withSession(async (s) => {
      await s.launch({ program: THROW }, (dc) => dc.setExceptionBreakpointsRequest({ filters: ['uncaught'] }));
      const stop = await s.stopped();
      assert.equal(stop.body.reason, 'exception');
      assert.equal(stop.body.description, 'Paused on exception escaping callback checked_log: RangeError: checked_log: input 1 is below 100');
      const frames = await s.stack();
      assert.equal(frames[0]!.name, 'checked_log', describeFrames(frames));
      assert.equal(frames[0]!.source?.path, THROW);
      assert.equal(frames[0]!.line, lineOf(THROW, '@throw'), 'the throw statement');
      const info = (await s.dc.exceptionInfoRequest({ threadId: THREAD })).body;
      assert.equal(info.exceptionId, 'RangeError');
      assert.equal(info.description, 'RangeError: checked_log: input 1 is below 100');
      assert.equal(info.breakMode, 'unhandled');
      assert.match(info.details?.message ?? '', /at checked_log|checked_log/);
      // The widget shows the description and the stack: the message once, the frames under it.
      assert.match(info.details?.stackTrace ?? '', /^\s+at (Object\.)?checked_log /, info.details?.stackTrace);
      assert.doesNotMatch(info.details?.stackTrace ?? '', /input 1 is below 100/);
      // The callback's inputs are there too.
      const cb = await s.scope(frames[0]!.id, 'Callback');
      assert.match(cb.get('x').value, /^NdArray float32\[3\] /);

      // The runtime's CallbackError and Node's own handling of it do not stop again.
      await s.dc.continueRequest({ threadId: THREAD });
      assert.equal(await s.nextStop(), undefined, `no second stop: ${s.summary()}`);
      assert.equal(s.all('exited')[0]?.body.exitCode, 1);
      assert.match(s.output('stderr'), /CallbackError: numpy_function callback 'pyfunc_0' raised: RangeError/);
    }),
  );

  test('an error a callback catches itself does not stop; one that leaves the callback does, though the program catches it', T, () =>
    withSession(async (s) => {
      await s.launch({ program: CATCH, args: ['escape'] }, (dc) => dc.setExceptionBreakpointsRequest({ filters: ['uncaught'] }));
      const stop = await s.stopped();
      assert.equal(stop.body.description, 'Paused on exception escaping callback strict_log: RangeError: strict_log: not positive');
      const frames = await s.stack();
      const throwLine = lineOf(CATCH, '@strict-log-throw');
      assert.deepEqual([frames[0]!.name, frames[0]!.source?.path, frames[0]!.line], ['strict_log', CATCH, throwLine], describeFrames(frames));
      assert.match(s.output('stdout'), /safe_log recovered: safe_log: not positive/, 'safe_log threw and caught before, without a stop');
      await s.dc.continueRequest({ threadId: THREAD });
      assert.equal(await s.nextStop(), undefined, s.summary());
      assert.equal(s.all('exited')[0]?.body.exitCode, 0);
      assert.match(s.output('stdout'), /program caught: numpy_function callback 'pyfunc_1' raised: RangeError: strict_log: not positive\n[\s\S]*done/);
    }),
  );

  test('with only a callback that catches its own error: no stop at all', T, () =>
    withSession(async (s) => {
      await s.launch({ program: CATCH }, (dc) => dc.setExceptionBreakpointsRequest({ filters: ['uncaught'] }));
      await s.terminated();
      assert.equal(s.all('stopped').length, 0, s.summary());
      assert.match(s.output('stdout'), /safe_log recovered[\s\S]*done/);
    }),
  );
});

describe('Caught exceptions', () => {
  test('a callback that throws and catches internally stops at its throw', T, () =>
    withSession(async (s) => {
      await s.launch({ program: CATCH }, (dc) => dc.setExceptionBreakpointsRequest({ filters: ['caught'] }));
      const stop = await s.stopped();
      assert.equal(stop.body.reason, 'exception');
      assert.equal(stop.body.description, 'Paused on exception: RangeError: safe_log: not positive');
      const frames = await s.stack();
      const throwLine = lineOf(CATCH, '@safe-log-throw');
      assert.deepEqual([frames[0]!.name, frames[0]!.source?.path, frames[0]!.line], ['safe_log', CATCH, throwLine], describeFrames(frames));
      assert.equal((await s.dc.exceptionInfoRequest({ threadId: THREAD })).body.breakMode, 'always');
      await s.dc.continueRequest({ threadId: THREAD });
      assert.equal(await s.nextStop(), undefined, s.summary());
      assert.match(s.output('stdout'), /done/);
    }),
  );

  test('the first stop is in the user’s code, not in tsx’s, the loader’s or Node’s caught errors (a CommonJS program, tsx’s cache cold)', T, () =>
    withSession(async (s) => {
      // A folder with no package.json: tsx runs the program as CommonJS, and with an empty cache
      // (TMPDIR) its CommonJS loader reads cache files that are not there (ENOENT, caught).
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tfjs-cb-exc-'));
      const program = path.join(dir, 'program.ts');
      fs.copyFileSync(fixture('cjs-throw-program.ts'), program);
      fs.mkdirSync(path.join(dir, 'tmp'));
      try {
        await s.launch({ program, cwd: dir, env: { TMPDIR: path.join(dir, 'tmp') } }, (dc) => dc.setExceptionBreakpointsRequest({ filters: ['caught'] }));
        const stop = await s.stopped();
        const frames = await s.stack();
        const throwLine = lineOf(program, '@throw');
        const where = `${stop.body.description}\n  ${describeFrames(frames)}`;
        assert.deepEqual([frames[0]!.name, frames[0]!.source?.path, frames[0]!.line], ['checked_sqrt', program, throwLine], where);
        assert.equal(stop.body.description, 'Paused on exception: RangeError: checked_sqrt: negative input');
        await s.dc.continueRequest({ threadId: THREAD });
        // Node starts a CommonJS program itself (no --import of the debugger's sends it through the ES
        // module loader, whose promise counted as a catcher): the CallbackError it dies of is uncaught.
        const uncaught = await s.nextStop();
        assert.match(uncaught?.body.description ?? s.summary(), /^Paused on uncaught exception: CallbackError: numpy_function callback 'pyfunc_0' raised/);
        await s.dc.continueRequest({ threadId: THREAD });
        assert.equal(await s.nextStop(), undefined, s.summary());
        assert.equal(s.all('exited')[0]?.body.exitCode, 1);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    }),
  );
});
