/**
 * A source breakpoint whose hit condition cannot be read is answered unverified, saying what was
 * wrong and what is accepted, and never stops (it used to stop on every hit). Real adapter, real
 * debuggee, real TF.js. The parsing itself: test/unit/hit-conditions.test.ts.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { fixture, THREAD, useDebugAdapter, withSession } from '../helpers/dap.js';
import { lineOf } from '../helpers/markers.js';

useDebugAdapter();

const MAP = fixture('map-program.ts');
const MAP_BODY = lineOf(MAP, '@map-body');
const MAP_RETURN = lineOf(MAP, '@map-return');

test('a bad hit condition: unverified with why, no stop; the good breakpoint beside it still stops', { timeout: 60_000 }, () =>
  withSession(async (s) => {
    let answer: DebugProtocol.Breakpoint[] = [];
    await s.launch({ program: MAP }, async (dc) => {
      const breakpoints = [
        { line: MAP_BODY, hitCondition: 'every other' },
        { line: MAP_RETURN, hitCondition: '% 3' },
      ];
      answer = (await dc.setBreakpointsRequest({ source: { path: MAP }, breakpoints })).body.breakpoints;
    });
    assert.equal(answer.length, 2);
    assert.equal(answer[0]!.verified, false);
    assert.match(answer[0]!.message ?? '', /Hit condition "every other" is not understood, so this breakpoint is not set\. Use "5" or ">= 5"/);
    assert.doesNotMatch(answer[1]!.message ?? '', /Hit condition/);
    // Only the good one stops: on every 3rd hit of `return doubled;` (v = 3, then v = 6).
    const seen: string[] = [];
    for (let stop = await s.nextStop(); stop; stop = await s.nextStop()) {
      const [top] = await s.stack();
      assert.equal(top?.line, MAP_RETURN, `only the good breakpoint stops: ${s.summary()}`);
      seen.push((await s.evaluate('v', top!.id)).result);
      await s.dc.continueRequest({ threadId: THREAD });
    }
    assert.deepEqual(seen, ['3', '6']);
    assert.match(s.output('stdout'), /doubled 2,4,6,8,10,12/);
    const ids = s
      .all('breakpoint')
      .filter((e) => e.body.breakpoint.verified)
      .map((e) => e.body.breakpoint.id);
    assert.ok(!ids.includes(answer[0]!.id), 'the bad one is never verified later either');
  }),
);

test('a function breakpoint with a bad hit condition: unverified with why, and it never stops', { timeout: 60_000 }, () =>
  withSession(async (s) => {
    let answer: DebugProtocol.Breakpoint[] = [];
    await s.launch({ program: MAP }, async (dc) => {
      answer = (await dc.setFunctionBreakpointsRequest({ breakpoints: [{ name: 'double_rows', hitCondition: 'twice' }] })).body.breakpoints;
    });
    assert.equal(answer[0]!.verified, false);
    assert.match(answer[0]!.message ?? '', /Hit condition "twice" is not understood/);
    assert.equal(await s.nextStop(), undefined, `no stop: ${s.summary()}`);
    assert.match(s.output('stdout'), /doubled 2,4,6,8,10,12/);
  }),
);
