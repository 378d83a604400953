/**
 * js-debug parity, stepping: Step Into Target (`stepInTargets`, then `stepIn` with a targetId)
 * lists the calls on the paused line by their callees' names and columns, and steps into the one
 * chosen, not into whatever the line calls first. Real adapter, real debuggee, real TF.js.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, test } from 'node:test';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { describeFrames, fixture, type Session, THREAD, useDebugAdapter, withSession } from '../helpers/dap.js';
import { lineOf } from '../helpers/markers.js';

useDebugAdapter();

const PROGRAM = fixture('parity-program.ts');
const T = { timeout: 90_000 };

function columnOf(line: number, text: string): number {
  const source = fs.readFileSync(PROGRAM, 'utf8').split('\n')[line - 1]!;
  return source.indexOf(text) + 1;
}

async function stopAt(s: Session, marker: string): Promise<DebugProtocol.StackFrame[]> {
  const line = lineOf(PROGRAM, marker);
  await s.launch({ program: PROGRAM }, (dc) => dc.setBreakpointsRequest({ source: { path: PROGRAM }, breakpoints: [{ line }] }));
  assert.equal((await s.stopped()).body.reason, 'breakpoint');
  const frames = await s.stack();
  assert.equal(frames[0]!.line, line, describeFrames(frames));
  return frames;
}

async function targets(s: Session, frameId: number): Promise<DebugProtocol.StepInTarget[]> {
  return ((await s.dc.send('stepInTargets', { frameId })) as DebugProtocol.StepInTargetsResponse).body.targets;
}

describe('parity: step into target', () => {
  for (const [callee, marker] of [
    ['triple', '@triple-body'],
    ['combine', '@combine-body'],
    ['double', '@double-body'],
  ] as const) {
    test(`the calls on the line, by name and column; stepping into ${callee} stops in ${callee}`, T, () =>
      withSession(async (s) => {
        const frames = await stopAt(s, '@calls');
        const line = lineOf(PROGRAM, '@calls');
        const list = await targets(s, frames[0]!.id);
        assert.deepEqual(
          list.map((t) => [t.label, t.line, t.column]),
          ['combine', 'double', 'triple'].map((name) => [name, line, columnOf(line, `${name}(`)]),
        );
        const chosen = list.find((t) => t.label === callee)!;
        await s.dc.stepInRequest({ threadId: THREAD, targetId: chosen.id });
        const stop = await s.stopped();
        assert.equal(stop.body.reason, 'step');
        const inside = await s.stack();
        assert.equal(inside[0]!.name, callee, describeFrames(inside));
        assert.equal(inside[0]!.line, lineOf(PROGRAM, marker));
        // Nothing was left behind: the program goes on to its next stop (the Tout mismatch), not into a callee again.
        await s.dc.continueRequest({ threadId: THREAD });
        const next = await s.nextStop();
        assert.equal(next?.body.reason, 'exception', s.summary());
      }),
    );
  }

  test('in a callback frame: the calls from the paused position on; a target of an earlier stop steps in as usual', T, () =>
    withSession(async (s) => {
      const frames = await stopAt(s, '@scale-body');
      const list = await targets(s, frames[0]!.id);
      const labels = list.map((t) => t.label);
      assert.ok(labels.includes('x.map'), labels.join(', '));
      const graph = frames.find((f) => f.presentationHint === 'label')!;
      assert.deepEqual(
        (await targets(s, graph.id)).map((t) => t.label),
        labels,
        'the graph frame lists its running callback’s calls',
      );
      await s.dc.stepInRequest({ threadId: THREAD, targetId: 999_999 });
      assert.equal((await s.stopped()).body.reason, 'step');
    }),
  );
});

describe('parity: restart frame', () => {
  test('a callback’s frame restarts on its inputs as they came: what it wrote in place is put back', T, () =>
    withSession(async (s) => {
      const frames = await stopAt(s, '@bump-return');
      const top = frames[0]!;
      assert.equal(top.name, 'bump');
      assert.equal((await s.evaluate('x.data[0]', top.id)).result, '101', 'the callback wrote its input');
      await s.dc.restartFrameRequest({ frameId: top.id });
      const stop = await s.stopped();
      assert.equal(stop.body.reason, 'restart');
      const again = await s.stack();
      assert.equal(again[0]!.name, 'bump', describeFrames(again));
      assert.equal(again[0]!.line, lineOf(PROGRAM, '@bump-write'), 'at the callback’s first line');
      assert.equal((await s.evaluate('x.data[0]', again[0]!.id)).result, '1', 'its input as it came');
      assert.match(s.output('console'), /Restarting callback bump on the same inputs; 1 of them put back as they came/);
      await s.dc.continueRequest({ threadId: THREAD });
      const second = await s.stopped();
      assert.equal(second.body.reason, 'breakpoint');
      const frames2 = await s.stack();
      assert.equal((await s.evaluate('x.data[0]', frames2[0]!.id)).result, '101', 'written once, not twice');
      await s.dc.setExceptionBreakpointsRequest({ filters: [] });
      await s.dc.continueRequest({ threadId: THREAD });
      await s.terminated();
      assert.match(s.output('stdout'), /bumped 101,2\n/, 'the program saw one write');
    }),
  );

  test('a plain JS frame restarts through V8; the outermost frame and a returned callback are refused, saying why', T, () =>
    withSession(async (s) => {
      const line = lineOf(PROGRAM, '@helper-return');
      await s.launch({ program: PROGRAM }, (dc) => dc.setBreakpointsRequest({ source: { path: PROGRAM }, breakpoints: [{ line, hitCondition: '= 4' }] }));
      await s.stopped();
      const frames = await s.stack();
      assert.equal(frames[0]!.name, 'helper', describeFrames(frames));
      assert.equal((await s.evaluate('local', frames[0]!.id)).result, '9', 'n is 3 at the 4th call');
      const bottom = frames.at(-1)!;
      await assert.rejects(s.dc.restartFrameRequest({ frameId: bottom.id }), /outermost frame/);
      await s.dc.restartFrameRequest({ frameId: frames[0]!.id });
      assert.equal((await s.stopped()).body.reason, 'restart');
      const again = await s.stack();
      assert.equal(again[0]!.name, 'helper');
      assert.equal(again[0]!.line, lineOf(PROGRAM, '@helper-body'));
      assert.notEqual((await s.evaluate('local', again[0]!.id).catch(() => ({ result: 'unset' }))).result, '9', 'local is not assigned again yet');
      assert.equal((await s.evaluate('n', again[0]!.id)).result, '3', 'the same argument');
      // The restarted call runs its body again. The step lands on the breakpoint, whose hit count
      // (the 4th) says no: still a step's stop.
      await s.dc.nextRequest({ threadId: THREAD });
      assert.equal((await s.stopped()).body.reason, 'step');
      const returning = await s.stack();
      assert.equal(returning[0]!.line, line, describeFrames(returning));
      assert.equal((await s.evaluate('n', returning[0]!.id)).result, '3', 'the restarted call, not the next one');
      assert.equal((await s.evaluate('local', returning[0]!.id)).result, '9', 'its first line ran again');
      // Run on to the Tout mismatch: the callback returned, its graph frame cannot be restarted.
      await s.dc.continueRequest({ threadId: THREAD });
      assert.equal((await s.stopped()).body.reason, 'exception');
      const graph = (await s.stack())[0]!;
      assert.equal(graph.presentationHint, 'label');
      await assert.rejects(s.dc.restartFrameRequest({ frameId: graph.id }), /has returned: its frame is gone/);
    }),
  );
});
