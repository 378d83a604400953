/**
 * The "Errors thrown in callbacks" (on by default), "Uncaught exceptions" and "Caught exceptions"
 * filters with callbacks that throw: the stop is at the throw in the user's callback, as js-debug
 * stops at an uncaught throw, although the runtime catches every callback's error (to raise
 * CallbackError); never in the runtime's, the loader's, tsx's or Node's internals. And what the
 * default costs a program whose callbacks do not throw: the exception pauses the adapter resumed,
 * counted from the session's timeline. Real adapter, real debuggee, real TF.js.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { capabilities } from '../../debug-adapter/capabilities.js';
import { SAMPLE_BREAK_LINE, SAMPLE_FOLDER, sampleFiles } from '../../extension/sample-project.js';
import { describeFrames, fixture, root, type Session, THREAD, useDebugAdapter, withSession } from '../helpers/dap.js';
import { lineOf } from '../helpers/markers.js';

useDebugAdapter();

const THROW = fixture('throw-program.ts');
const CATCH = fixture('callback-catch-program.ts');
const DATASET = fixture('dataset-throw-program.ts');
const T = { timeout: 60_000 };
/** What VS Code sends at a session's start: the filters whose box is checked by default. */
const DEFAULT_FILTERS = capabilities()
  .exceptionBreakpointFilters!.filter((f) => f.default)
  .map((f) => f.filter);

describe('Errors thrown in callbacks (on by default)', () => {
  test('the filter is listed checked, and says where it stops', () => {
    const filter = capabilities().exceptionBreakpointFilters!.find((f) => f.filter === 'callbackErrors');
    assert.equal(filter?.label, 'Errors thrown in callbacks');
    assert.equal(filter?.default, true);
    assert.match(filter?.description ?? '', /throw inside a callback .*before the runtime raises CallbackError/);
    assert.deepEqual(DEFAULT_FILTERS, ['toutMismatch', 'callbackErrors']);
  });

  const stopsAtTheThrow = async (s: Session) => {
    const stop = await s.stopped();
    assert.equal(stop.body.reason, 'exception');
    assert.equal(stop.body.description, 'Paused on exception escaping callback parse_row: RangeError: parse_row: negative reading -5');
    const frames = await s.stack();
    assert.deepEqual([frames[0]!.name, frames[0]!.source?.path, frames[0]!.line], ['parse_row', DATASET, lineOf(DATASET, '@throw')], describeFrames(frames));
    const info = (await s.dc.exceptionInfoRequest({ threadId: THREAD })).body;
    assert.equal(info.exceptionId, 'RangeError');
    assert.equal(info.description, 'RangeError: parse_row: negative reading -5');
    const cb = await s.scope(frames[0]!.id, 'Callback');
    assert.match(cb.get('row').value, /^NdArray float32\[2\] min=-5 max=6/);
    assert.match(s.output('stdout'), /row 0\.1,0\.2\nrow 0\.3,0\.4\n/, 'the rows before it went through');
    // Once let go, the runtime's CallbackError ends the run as it would without the debugger.
    await s.dc.continueRequest({ threadId: THREAD });
    assert.equal(await s.nextStop(), undefined, `no second stop: ${s.summary()}`);
    assert.equal(s.all('exited')[0]?.body.exitCode, 1);
    assert.match(s.output('stderr'), /CallbackError: numpy_function callback 'pyfunc_0' raised: RangeError: parse_row: negative reading -5/);
  };

  test('with the filters VS Code sends by default, a numpy callback in a tf.data map stops at its throw', T, () =>
    withSession(async (s) => {
      await s.launch({ program: DATASET }, (dc) => dc.setExceptionBreakpointsRequest({ filters: DEFAULT_FILTERS }));
      await stopsAtTheThrow(s);
    }),
  );

  test('a client that never sets the filters gets the same stop (the defaults)', T, () =>
    withSession(async (s) => {
      await s.launch({ program: DATASET });
      await stopsAtTheThrow(s);
    }),
  );

  test('unchecked, the run ends with CallbackError, exit code 1, and no stop', T, () =>
    withSession(async (s) => {
      const filters = DEFAULT_FILTERS.filter((f) => f !== 'callbackErrors');
      await s.launch({ program: DATASET }, (dc) => dc.setExceptionBreakpointsRequest({ filters }));
      assert.equal(await s.nextStop(), undefined, s.summary());
      assert.equal(s.all('exited')[0]?.body.exitCode, 1);
      assert.match(s.output('stderr'), /CallbackError: numpy_function callback 'pyfunc_0' raised: RangeError: parse_row: negative reading -5/);
    }),
  );

  test('an error the callback catches itself does not stop; one that leaves it does, though the program catches the CallbackError', T, () =>
    withSession(async (s) => {
      await s.launch({ program: CATCH, args: ['escape'] }, (dc) => dc.setExceptionBreakpointsRequest({ filters: DEFAULT_FILTERS }));
      const stop = await s.stopped();
      assert.equal(stop.body.description, 'Paused on exception escaping callback strict_log: RangeError: strict_log: not positive');
      assert.match(s.output('stdout'), /safe_log recovered: safe_log: not positive/, 'safe_log threw and caught before, without a stop');
      await s.dc.continueRequest({ threadId: THREAD });
      assert.equal(await s.nextStop(), undefined, s.summary());
      assert.equal(s.all('exited')[0]?.body.exitCode, 0);
    }),
  );
});

/** Exception pauses V8 made, read from the session's timeline (in a run whose stops are all breakpoints', all resumed at once). */
function exceptionPauses(timeline: string): number {
  const marks = fs.existsSync(timeline) ? fs.readFileSync(timeline, 'utf8').split('\n').filter(Boolean) : [];
  return marks.filter((l) => /"what":"adapter: paused \((exception|promiseRejection)\)"/.test(l)).length;
}

/** A fresh folder with the walkthrough's sample project in it; its main.ts. */
function writeSample(): string {
  const root = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'tfjs-cb-sample-')), SAMPLE_FOLDER);
  for (const [file, content] of Object.entries(sampleFiles())) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), content);
  }
  return path.join(root, 'main.ts');
}

/**
 * What the default costs a program whose callbacks do not throw. V8 pauses on every exception once
 * the debugger is on (the adapter decides each); the debugger comes on at the first callback, or at
 * the start when a breakpoint is set. Each pause the adapter resumes is a round trip to the program.
 */
describe('Errors thrown in callbacks: the pauses the default costs', () => {
  const counted = async (
    label: string,
    program: string,
    options: { cwd?: string; env?: Record<string, string>; breakpointLine?: number },
    t: { diagnostic(message: string): void },
  ): Promise<number> => {
    const timeline = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'tfjs-cb-timeline-')), 'timeline.jsonl');
    return withSession(
      async (s) => {
        await s.launch({ program, ...(options.cwd ? { cwd: options.cwd } : {}), ...(options.env ? { env: options.env } : {}) }, async (dc) => {
          if (options.breakpointLine) await dc.setBreakpointsRequest({ source: { path: program }, breakpoints: [{ line: options.breakpointLine }] });
          await dc.setExceptionBreakpointsRequest({ filters: DEFAULT_FILTERS });
        });
        for (let stop = await s.nextStop(); stop; stop = await s.nextStop()) {
          assert.equal(stop.body.reason, 'breakpoint', `only the breakpoint stops: ${stop.body.description}`);
          await s.dc.continueRequest({ threadId: THREAD });
        }
        assert.equal(s.all('exited')[0]?.body.exitCode ?? 0, 0, s.output('stderr'));
        const resumed = exceptionPauses(timeline);
        t.diagnostic(`${label}: ${resumed} exception pauses resumed at once`);
        fs.rmSync(path.dirname(timeline), { recursive: true, force: true });
        return resumed;
      },
      { TFJS_CALLBACKS_TIMELINE: timeline },
    );
  };

  test('the sample project: none without a breakpoint, none with its breakpoint set', { timeout: 120_000 }, async (t) => {
    const program = writeSample();
    try {
      assert.equal(await counted('sample project, no breakpoint', program, {}, t), 0);
      assert.equal(await counted('sample project, its breakpoint set', program, { breakpointLine: SAMPLE_BREAK_LINE }, t), 0);
    } finally {
      fs.rmSync(path.dirname(path.dirname(program)), { recursive: true, force: true });
    }
  });

  test('the benchmark’s 10,000 callbacks: none', { timeout: 120_000 }, async (t) => {
    assert.equal(await counted('bench/programs/busy.ts, 10,000 callbacks', path.join(root, 'bench', 'programs', 'busy.ts'), {}, t), 0);
  });

  test('a CommonJS program tsx compiles with a cold cache: none before its first callback', { timeout: 120_000 }, async (t) => {
    // A folder with no package.json: tsx runs the program as CommonJS, and with an empty cache
    // (TMPDIR) its loader reads cache files that are not there (ENOENT, caught in Node's fs).
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tfjs-cb-exc-'));
    const program = path.join(dir, 'program.ts');
    fs.writeFileSync(program, fs.readFileSync(fixture('cjs-throw-program.ts'), 'utf8').replace('[-1, 4]', '[1, 4]'));
    const freshTmp = () => {
      const tmp = fs.mkdtempSync(path.join(dir, 'tmp-'));
      return { TMPDIR: tmp };
    };
    try {
      assert.equal(await counted('CommonJS tsx program, cold cache, no breakpoint', program, { cwd: dir, env: freshTmp() }, t), 0);
      // With a breakpoint the debugger is on from the start: tsx's reads of its cache pause (and are resumed).
      const withBreakpoint = await counted(
        'CommonJS tsx program, cold cache, a breakpoint set',
        program,
        { cwd: dir, env: freshTmp(), breakpointLine: lineOf(program, '@throw') },
        t,
      );
      // (So the 0 above is the debugger coming on at the first callback, after the loading.)
      assert.ok(withBreakpoint > 0 && withBreakpoint <= 10, `${withBreakpoint} pauses`);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

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
