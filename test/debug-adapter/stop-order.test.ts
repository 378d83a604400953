/**
 * What a launch and a stop do first, read from the session's timeline (TFJS_CALLBACKS_TIMELINE,
 * debug-adapter/debuggee/timeline.ts): the V8 debugger comes on only once the preloads (tsx, the
 * runtime, TF.js) have run; a stop's inspector event goes with it, the graph view's after the client
 * has its stack. Real adapter, real debuggee, real TF.js.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import type { TimelineMark } from '../../debug-adapter/debuggee/timeline.js';
import { writeDenseModel } from '../fixtures/dense-model.js';
import { fixture, THREAD, useDebugAdapter, withSession } from '../helpers/dap.js';
import { lineOf } from '../helpers/markers.js';

useDebugAdapter();

const NUMPY = fixture('numpy-program.ts');
const T = { timeout: 90_000 };
const dir = mkdtempSync(path.join(os.tmpdir(), 'tfjs-cb-timeline-'));
after(() => rmSync(dir, { recursive: true, force: true }));

let runs = 0;
/** A fresh timeline file for one session, and its marks read back by name (the first of each). */
function timeline(): { env: Record<string, string>; at(what: string): number; names(): string[] } {
  const file = path.join(dir, `timeline-${++runs}.jsonl`);
  const marks = (): TimelineMark[] =>
    readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as TimelineMark);
  return {
    env: { TFJS_CALLBACKS_TIMELINE: file },
    at(what) {
      const found = marks().find((m) => m.what === what);
      assert.ok(
        found,
        `no "${what}" in the timeline: ${marks()
          .map((m) => m.what)
          .join(', ')}`,
      );
      return found.at;
    },
    names: () => marks().map((m) => m.what),
  };
}

describe('a launch with a source breakpoint', () => {
  test('turns the V8 debugger on after the preloads have run, then lets the program go', T, () => {
    const tl = timeline();
    return withSession(async (s) => {
      const line = lineOf(NUMPY, '@scale-rows-body');
      await s.launch({ program: NUMPY }, (dc) => dc.setBreakpointsRequest({ source: { path: NUMPY }, breakpoints: [{ line }] }));
      await s.stopped();
      // Connected early, while the debuggee was still loading TF.js ...
      assert.ok(tl.at('adapter: bridge connected') < tl.at('debuggee: held'), tl.names().join(', '));
      // ... but the debugger (which hashes and reports every script parsed while it is on) only after.
      assert.ok(tl.at('debuggee: held') <= tl.at('adapter: Debugger.enable'), tl.names().join(', '));
      assert.ok(tl.at('adapter: Debugger enabled') <= tl.at('adapter: go'));
      assert.ok(tl.at('adapter: go') <= tl.at('debuggee: released'));
      assert.equal((await s.stack())[0]!.line, line);
    }, tl.env);
  });
});

describe("a stop's extras", () => {
  test("the inspector's event goes with the stop; the graph view's wait for the client's stack", T, () =>
    withSession(async (s) => {
      // A callback node's stop in a watched model: a client that has not asked for the stack yet
      // has the inspector's event (it was held behind the stack and the graph's run before).
      const dense = writeDenseModel(dir);
      await s.launch({ model: dense.model, callbacks: dense.callbacks, inputs: dense.inputs }, async (dc) => {
        await dc.setFunctionBreakpointsRequest({ breakpoints: [{ name: 'scale' }] });
        await dc.customRequest('graphWatch', { on: true });
      });
      await s.stopped();
      const event = await s.waitFor('tensorCallback');
      assert.equal((event.body as { invocation: { callback: { functionName?: string } } }).invocation.callback.functionName, 'scale');
      await s.waitFor('graphRun');
      const order = s.events.map((e) => e.event).filter((e) => e === 'tensorCallback' || e === 'graphRun');
      assert.deepEqual(order, ['tensorCallback', 'graphRun'], s.summary());
      await s.dc.continueRequest({ threadId: THREAD });
      await s.terminated();
    }),
  );

  test('the stack is answered whatever the inspector is sent, and the backend the preloads chose comes once before the first line', T, () => {
    const tl = timeline();
    return withSession(async (s) => {
      const line = lineOf(NUMPY, '@scale-rows-body');
      await s.launch({ program: NUMPY }, (dc) => dc.setBreakpointsRequest({ source: { path: NUMPY }, breakpoints: [{ line }] }));
      await s.stopped();
      const stack = await s.dc.stackTraceRequest({ threadId: THREAD });
      assert.equal(stack.body.stackFrames[0]!.line, line);
      await s.waitFor('tensorCallback');
      assert.ok(tl.at('adapter: stopped sent') < tl.at('adapter: tensorCallback sent'));
      // The backend the preloads chose came once, before the first line (the extension's status bar).
      assert.equal(s.all('tfjsBackend').length, 1, s.summary());
      assert.match((s.all('tfjsBackend')[0]!.body as { backend: string }).backend, /^(tensorflow|wasm|cpu)$/);
    }, tl.env);
  });

  test('a client that never asks for the stack still gets them', T, () =>
    withSession(async (s) => {
      const line = lineOf(NUMPY, '@scale-rows-body');
      await s.launch({ program: NUMPY }, (dc) => dc.setBreakpointsRequest({ source: { path: NUMPY }, breakpoints: [{ line }] }));
      await s.stopped();
      const event = await s.waitFor('tensorCallback', undefined, 5_000);
      assert.equal((event.body as { invocation: { callback: { functionName?: string } } }).invocation.callback.functionName, 'scale_rows');
    }),
  );
});
