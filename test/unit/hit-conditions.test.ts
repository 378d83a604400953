/**
 * Hit conditions of source and function breakpoints: what parses (js-debug's operators, a bare
 * count meaning "from the nth hit on"), which hits stop, and what is refused with a message instead
 * of being read as "stop on every hit". BreakpointManager before a debuggee connects: a refused
 * breakpoint is unverified with that message and never stops. No debuggee.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import vm from 'node:vm';
import { BreakpointManager, hitConditionMet, parseHitCondition } from '../../debug-adapter/breakpoints/source.js';
import { installHitCounts } from '../../debug-adapter/debuggee/agent/hit-counts.js';
import { Sources } from '../../debug-adapter/sources/sources.js';

/** A program's global scope with the counter the agent defines as it installs. */
function programContext(globals: Record<string, unknown> = {}): vm.Context {
  const program = vm.createContext(globals);
  installHitCounts(vm.runInContext('globalThis', program) as typeof globalThis);
  return program;
}

/** The hits among 1..12 on which `condition` stops. */
function stopsOn(condition: string | undefined): number[] {
  const parsed = parseHitCondition(condition);
  assert.ok(parsed.ok, `${JSON.stringify(condition)} should parse: ${parsed.ok ? '' : parsed.message}`);
  return Array.from({ length: 12 }, (_, i) => i + 1).filter((hits) => parsed.met(hits));
}

describe('parseHitCondition', () => {
  test('no condition, or only spaces: every hit stops', () => {
    for (const condition of [undefined, '', '   ']) assert.deepEqual(stopsOn(condition), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
  });

  test('a bare count and >= stop from that hit on', () => {
    assert.deepEqual(stopsOn('10'), [10, 11, 12]);
    assert.deepEqual(stopsOn('>= 10'), [10, 11, 12]);
    assert.deepEqual(stopsOn('>=10'), [10, 11, 12]);
  });

  test('=, == and === stop on that hit only', () => {
    for (const condition of ['= 4', '==4', '=== 4', ' == 4 ']) assert.deepEqual(stopsOn(condition), [4], condition);
  });

  test('>, < and <= compare the hit count', () => {
    assert.deepEqual(stopsOn('> 10'), [11, 12]);
    assert.deepEqual(stopsOn('< 3'), [1, 2]);
    assert.deepEqual(stopsOn('<= 3'), [1, 2, 3]);
  });

  test('% n stops on every nth hit', () => {
    assert.deepEqual(stopsOn('% 4'), [4, 8, 12]);
    assert.deepEqual(stopsOn('%1'), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
  });

  test('what js-debug refuses is refused, with the text given and the forms accepted', () => {
    for (const condition of ['abc', '>=', '3x', '>= 3 extra', '==', '=> 3', '!= 3', '-1', '2.5', 'x > 3', '>> 3', '0x10', '1e3', '５']) {
      const parsed = parseHitCondition(condition);
      assert.equal(parsed.ok, false, `${JSON.stringify(condition)} should be refused`);
      if (parsed.ok) continue;
      assert.ok(parsed.message.includes(JSON.stringify(condition)), `the message names the condition: ${parsed.message}`);
      assert.match(parsed.message, /not understood, so this breakpoint is not set/);
      assert.match(parsed.message, /">= 5" \(from the 5th hit on\).*"% 5" \(every 5th hit\)/);
    }
  });

  test('% 0 is refused: it would never stop', () => {
    const parsed = parseHitCondition('% 0');
    assert.equal(parsed.ok, false);
    assert.match(parsed.ok ? '' : parsed.message, /"% 0" would never stop \(every 0th hit\)/);
  });
});

describe('hitConditionMet (function breakpoints)', () => {
  test('counts as parseHitCondition does', () => {
    assert.equal(hitConditionMet(undefined, 1), true);
    assert.equal(hitConditionMet('3', 2), false);
    assert.equal(hitConditionMet('3', 3), true);
    assert.equal(hitConditionMet('% 2', 4), true);
  });

  test('a condition that cannot be read never stops (it used to stop on every hit)', () => {
    for (let hits = 1; hits <= 5; hits++) assert.equal(hitConditionMet('sometimes', hits), false);
  });
});

describe('BreakpointManager before the debuggee connects', () => {
  const manager = () =>
    new BreakpointManager(
      () => undefined,
      new Sources(),
      () => {},
    );

  test('a breakpoint with a bad hit condition is unverified, says why, never stops and needs no debugger', async () => {
    const bps = manager();
    const [bad] = await bps.set('/tmp/program.ts', [{ line: 3, hitCondition: 'every other' }]);
    assert.equal(bad!.verified, false);
    assert.match(bad!.message ?? '', /^Hit condition "every other" is not understood, so this breakpoint is not set\. Use "5" or ">= 5"/);
    assert.equal(bad!.line, 3);
    assert.equal(bad!.v8Condition, undefined);
    assert.equal(bps.hasAny(), false, 'nothing to bind: the debugger need not be turned on for it');
  });

  test('beside it, a good one is kept; V8 counts its hits and stops as its condition says', async () => {
    const bps = manager();
    const [bad, good] = await bps.set('/tmp/program.ts', [
      { line: 3, hitCondition: '>' },
      { line: 4, hitCondition: '% 2' },
    ]);
    assert.equal(bad!.verified, false);
    assert.equal(good!.message, undefined);
    assert.equal(bps.hasAny(), true);
    // The condition V8 gets, evaluated as V8 would at each hit (in the program's global scope).
    const program = programContext();
    assert.deepEqual(
      [1, 2, 3, 4].map(() => vm.runInContext(good!.v8Condition!, program)),
      [false, true, false, true],
    );
    assert.notEqual(bad!.id, good!.id);
  });

  test("a hit counts only where the user's condition holds, and each breakpoint counts its own", async () => {
    const bps = manager();
    const [even, third] = await bps.set('/tmp/program.ts', [
      { line: 5, condition: 'i % 2 === 0 // even i only', hitCondition: '== 3' },
      { line: 6, hitCondition: '3' },
    ]);
    const program = programContext({ i: 0 });
    const stops: number[] = [];
    for (let i = 0; i < 8; i++) {
      program.i = i;
      if (vm.runInContext(even!.v8Condition!, program)) stops.push(i);
    }
    assert.deepEqual(stops, [4], 'the third even i');
    assert.deepEqual(
      [1, 2, 3, 4].map(() => vm.runInContext(third!.v8Condition!, program)),
      [false, false, true, true],
    );
    // No hit condition: the user's condition as written, nothing counted.
    const [plain] = await bps.set('/tmp/other.ts', [{ line: 1, condition: 'x > 1' }]);
    assert.equal(plain!.v8Condition, 'x > 1');
  });
});
