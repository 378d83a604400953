/**
 * Stepping inside graph callbacks: next, stepIn and stepOut, with the runtime's and TF.js's frames
 * skipped. Real adapter, real debuggee, real TF.js.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { nativeRoot } from '../../runtime/native/cache.js';
import { BACKENDS, type TestBackend } from '../helpers/backends.js';
import { describeFrames, fixture, THREAD, useDebugAdapter, withSession, type Session } from '../helpers/dap.js';
import { lineOf } from '../helpers/markers.js';

useDebugAdapter();

const NUMPY = fixture('numpy-program.ts');
const MAP = fixture('map-program.ts');
const T = { timeout: 60_000 };
/** numpy-program.ts lines. */
const SCALE_ROWS_BODY = lineOf(NUMPY, '@scale-rows-body');
const SCALE_ROWS_RETURN = lineOf(NUMPY, '@scale-rows-return');
const LOG_HUBER_FIRST = lineOf(NUMPY, '@log-huber-first');
const LOG_HUBER_SECOND = lineOf(NUMPY, '@log-huber-second');
const CALL_LOG_HUBER = lineOf(NUMPY, '@call-log-huber');
const AFTER_LOG_HUBER = lineOf(NUMPY, '@after-log-huber');
/** map-program.ts lines. */
const MAP_CALL = lineOf(MAP, '@map-call');
const MAP_BODY = lineOf(MAP, '@map-body');
const MAP_RETURN = lineOf(MAP, '@map-return');

/** Launch arguments on `backend` (the native build made visible for tensorflow: see spawn.ts). */
function on(backend: TestBackend, args: Record<string, unknown>): Record<string, unknown> {
  return { ...args, backend, ...(backend === 'tensorflow' ? { env: { TFJS_CALLBACKS_NATIVE_DIR: nativeRoot() } } : {}) };
}

async function launchAtLogHuber(s: Session, backend: TestBackend): Promise<void> {
  await s.launch(on(backend, { program: NUMPY }), (dc) => dc.setFunctionBreakpointsRequest({ breakpoints: [{ name: 'log_huber' }] }));
  assert.equal((await s.stopped()).body.reason, 'function breakpoint');
  const top = (await s.stack())[0]!;
  assert.equal(top.line, LOG_HUBER_FIRST);
}

async function step(s: Session, kind: 'next' | 'stepIn' | 'stepOut'): Promise<{ stop: DebugProtocol.StoppedEvent; frames: DebugProtocol.StackFrame[] }> {
  if (kind === 'next') await s.dc.nextRequest({ threadId: THREAD });
  else if (kind === 'stepIn') await s.dc.stepInRequest({ threadId: THREAD });
  else await s.dc.stepOutRequest({ threadId: THREAD });
  const stop = await s.stopped();
  return { stop, frames: await s.stack() };
}

for (const backend of BACKENDS)
  describe(`stepping in a callback on ${backend}`, () => {
    test("next from log_huber's first line stops on the next line with reason 'step'", T, () =>
      withSession(async (s) => {
        await launchAtLogHuber(s, backend);
        const { stop, frames } = await step(s, 'next');
        assert.equal(stop.body.reason, 'step');
        assert.equal(frames[0]!.name, 'log_huber', describeFrames(frames));
        assert.equal(frames[0]!.source?.path, NUMPY);
        assert.equal(frames[0]!.line, LOG_HUBER_SECOND);
        // Still inside the callback: its Callback scope and locals are there.
        const locals = await s.scope(frames[0]!.id, 'Locals');
        assert.equal(locals.get('small').value, '1', 'dataSync()[0] of a bool tensor');
      }),
    );

    test('stepOut from the callback lands in the program code that called it, not in runtime internals', T, () =>
      withSession(async (s) => {
        await launchAtLogHuber(s, backend);
        const { stop, frames } = await step(s, 'stepOut');
        assert.equal(stop.body.reason, 'step');
        const top = frames[0]!;
        assert.notEqual(top.presentationHint, 'subtle', `stepOut stopped in a deemphasized frame:\n  ${describeFrames(frames)}`);
        assert.notEqual(top.presentationHint, 'label', `stepOut stopped under a graph frame:\n  ${describeFrames(frames)}`);
        assert.equal(top.source?.path, NUMPY, describeFrames(frames));
        assert.equal(top.name, '<module>');
        assert.ok(top.line === CALL_LOG_HUBER || top.line === AFTER_LOG_HUBER, `the pyFunction(log_huber, …) statement or the next: line ${top.line}`);
      }),
    );

    test('next past the end of the callback lands in the program code, not in runtime internals', T, () =>
      withSession(async (s) => {
        await launchAtLogHuber(s, backend);
        const lines: number[] = [];
        let frames: DebugProtocol.StackFrame[] = [];
        for (let i = 0; i < 6; i++) {
          ({ frames } = await step(s, 'next'));
          if (frames[0]?.name !== 'log_huber') break;
          lines.push(frames[0].line);
        }
        const top = frames[0]!;
        assert.equal(top.source?.path, NUMPY, `after stepping over lines ${lines.join(', ')}:\n  ${describeFrames(frames)}`);
        assert.equal(top.name, '<module>');
      }),
    );

    test('stepIn enters a program function that runtime code calls (the map callback), skipping the runtime', T, () =>
      withSession(async (s) => {
        await s.launch(on(backend, { program: MAP }), (dc) => dc.setBreakpointsRequest({ source: { path: MAP }, breakpoints: [{ line: MAP_CALL }] }));
        await s.stopped();
        const before = (await s.stack())[0]!;
        assert.equal(before.name, 'double_rows');
        assert.equal(before.line, MAP_CALL);
        const { stop, frames } = await step(s, 'stepIn');
        assert.equal(stop.body.reason, 'step');
        assert.equal(frames[0]!.source?.path, MAP, describeFrames(frames));
        assert.equal(frames[0]!.line, MAP_BODY, 'the first statement of the arrow function (the line above is a comment)');
        assert.equal((await s.evaluate('v', frames[0]!.id)).result, '1');
        // The runtime's NdArray.map sits between, deemphasized.
        const between = frames.slice(
          1,
          frames.findIndex((f) => f.name === 'double_rows'),
        );
        assert.ok(between.length > 0 && between.every((f) => f.presentationHint === 'subtle'), describeFrames(frames));

        // stepOut of the arrow goes back to double_rows (through the runtime's map, not stopping in it).
        const out = await step(s, 'stepOut');
        assert.equal(out.frames[0]!.name, 'double_rows', describeFrames(out.frames));
        assert.equal(out.frames[0]!.source?.path, MAP);
      }),
    );

    test('next onto a `return x;` line stops on it, not on the closing brace (tsx drops the `;` before `}`)', T, () =>
      withSession(async (s) => {
        await s.launch(on(backend, { program: NUMPY }), (dc) =>
          dc.setBreakpointsRequest({ source: { path: NUMPY }, breakpoints: [{ line: SCALE_ROWS_BODY }] }),
        );
        await s.stopped();
        assert.equal((await s.stack())[0]!.line, SCALE_ROWS_BODY);
        const { frames } = await step(s, 'next');
        assert.equal(frames[0]!.name, 'scale_rows', describeFrames(frames));
        assert.equal(frames[0]!.line, SCALE_ROWS_RETURN, 'return scaled;');
      }),
    );

    test('a breakpoint on a `return x;` line stops on that line', T, () =>
      withSession(async (s) => {
        await s.launch(on(backend, { program: MAP }), (dc) => dc.setBreakpointsRequest({ source: { path: MAP }, breakpoints: [{ line: MAP_RETURN }] }));
        assert.equal((await s.stopped()).body.reason, 'breakpoint');
        const top = (await s.stack())[0]!;
        assert.equal(top.source?.path, MAP);
        assert.equal(top.line, MAP_RETURN, 'return doubled;');
      }),
    );

    test('stepIn on a line that only calls TF.js stays in the callback', T, () =>
      withSession(async (s) => {
        await launchAtLogHuber(s, backend);
        const { stop, frames } = await step(s, 'stepIn');
        assert.equal(stop.body.reason, 'step');
        assert.equal(frames[0]!.name, 'log_huber', describeFrames(frames));
        assert.equal(frames[0]!.line, LOG_HUBER_SECOND);
      }),
    );
  });
