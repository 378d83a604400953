/**
 * What a launch and a stop do first, read from the session's timeline (TFJS_CALLBACKS_TIMELINE,
 * debug-adapter/debuggee/timeline.ts): the V8 debugger comes on only once the preloads (tsx, the
 * runtime, TF.js) have run, and a stop's extras (the inspector's event and the summaries it needs)
 * go after the client has its stack. Real adapter, real debuggee, real TF.js.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import type { TimelineMark } from '../../debug-adapter/debuggee/timeline.js';
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
  test('the tensorCallback event comes after the stackTrace answer, not before it', T, () => {
    const tl = timeline();
    return withSession(async (s) => {
      const line = lineOf(NUMPY, '@scale-rows-body');
      await s.launch({ program: NUMPY }, (dc) => dc.setBreakpointsRequest({ source: { path: NUMPY }, breakpoints: [{ line }] }));
      await s.stopped();
      const stack = await s.dc.stackTraceRequest({ threadId: THREAD });
      assert.equal(stack.body.stackFrames[0]!.line, line);
      assert.equal(s.all('tensorCallback').length, 0, `the inspector event came before the stack was answered: ${tl.names().join(', ')}`);
      const event = await s.waitFor('tensorCallback');
      assert.equal((event.body as { invocation: { callback: { functionName?: string } } }).invocation.callback.functionName, 'scale_rows');
      assert.ok(tl.at('adapter: stackTrace answered') < tl.at('adapter: tensorCallback sent'));
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
