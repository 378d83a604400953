/**
 * Issue 42, L3, H2 and the logpoint risk row: logpoint messages are read as JavaScript (inner
 * braces, block bodies, braces in strings), a logpoint expression over the conditions' time limit
 * says so and is skipped after (one that never returns cannot be stopped inside V8's condition
 * evaluation: docs/limits.md), a huge logpoint value is cut as an
 * evaluate result is, and hit counts survive a program that freezes or tampers with globalThis.
 * Real adapter, real DAP client, small plain programs.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { HIT_COUNTS_GLOBAL } from '../../debug-adapter/debuggee/agent-protocol.js';
import { MAX_RESULT_CHARS } from '../../debug-adapter/evaluate-requests.js';
import { type Session, THREAD, useDebugAdapter, withSession } from '../helpers/dap.js';

useDebugAdapter();

const T = { timeout: 90_000 };

/** Runs `source` (an ES module, `// @here` marking the breakpoint line) with logpoint `logMessage` there; its logpoint lines. */
async function logpointLines(source: string, logMessage: string, check?: (s: Session) => void): Promise<string[]> {
  const dir = mkdtempSync(path.join(tmpdir(), 'tfjs-cb-logpoint-'));
  const program = path.join(dir, 'program.mjs');
  writeFileSync(program, source);
  const line = source.split('\n').findIndex((l) => l.includes('// @here')) + 1;
  try {
    return await withSession(async (s) => {
      await s.launch({ program }, (dc) => dc.setBreakpointsRequest({ source: { path: program }, breakpoints: [{ line, logMessage }] }));
      await s.terminated();
      assert.equal(s.all('stopped').length, 0, `a logpoint does not stop: ${s.summary()}`);
      assert.match(s.output('stdout'), /done/, 'the program went on to its end');
      check?.(s);
      return s
        .all('output')
        .filter((e) => e.body.category === 'console' && e.body.source?.path === program)
        .map((e) => String(e.body.output));
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const LOOP = 'for (let i = 0; i < 2; i++) {\n  const s = "a" + i; // @here\n}\nconsole.log("done");\n';

describe('logpoint messages read as JavaScript', () => {
  test('an object literal inside an expression: {JSON.stringify({a: 1})}', T, async () => {
    assert.deepEqual(await logpointLines(LOOP, 'v={JSON.stringify({a: i})}'), ['v={"a":0}\n', 'v={"a":1}\n']);
  });

  test('an arrow with a block body, and braces in strings', T, async () => {
    assert.deepEqual(await logpointLines(LOOP, '{[1, 2].map((x) => { return x * (i + 1); })} {"}" + i + \'{\'}'), ['[1,2] }0{\n', '[2,4] }1{\n']);
  });

  test('a message left open says where and what, instead of a wrong split', T, async () => {
    const [first] = await logpointLines(LOOP, 'i={i} obj={{a: i}');
    assert.equal(first, "i=0 obj={Logpoint message: the '{' at character 11 has no matching '}'. A '{' meant as text is written {'{'}}\n");
  });
});

describe('logpoint expressions that take too long or give too much', () => {
  test('one that takes over 1 s says so and is skipped at later hits: the program loses one second, not one per hit', T, async () => {
    const started = Date.now();
    const slow = '(() => { const end = Date.now() + 1500; while (Date.now() < end) {} return 1; })()';
    const lines = await logpointLines('for (let i = 0; i < 3; i++) {\n  const s = i; // @here\n}\nconsole.log("done");\n', `i={i} {${slow}}`);
    assert.deepEqual(lines, [
      `i=0 {${slow} ran over 1 s: a logpoint's expression runs each time its line runs, keep it short; this logpoint skips it from now on}\n`,
      `i=1 {${slow} skipped: it ran over 1 s at an earlier hit}\n`,
      `i=2 {${slow} skipped: it ran over 1 s at an earlier hit}\n`,
    ]);
    assert.ok(Date.now() - started < 30_000);
  });

  test('a 20 MB value is cut as an evaluate result is, with the same note', T, async () => {
    const lines = await logpointLines("const big = 'x'.repeat(20_000_000);\nconst n = big.length; // @here\nconsole.log('done');\n", '{big}|{big}|{big}');
    assert.equal(lines.length, 1);
    const parts = lines[0]!.split('|');
    assert.equal(parts.length, 3);
    for (const part of parts) {
      assert.ok(part.length < MAX_RESULT_CHARS + 200, `cut near ${MAX_RESULT_CHARS}: ${part.length}`);
      assert.match(part, /… \(cut: the first 100,000 of 20,000,000 characters; evaluate \(big\)\.slice\(100000, 200000\) for the next\)\n?$/);
    }
  });
});

/** Runs `prelude` then a loop of 6 with a breakpoint of `hitCondition` in it; `i` at each stop. */
async function stopsAt(prelude: string, hitCondition: string): Promise<{ stops: number[]; console: string }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'tfjs-cb-hits-'));
  const program = path.join(dir, 'program.mjs');
  writeFileSync(program, `${prelude}\nlet sum = 0;\nfor (let i = 0; i < 6; i++) {\n  sum += i;\n}\nconsole.log('done', sum);\n`);
  const line = prelude.split('\n').length + 3;
  try {
    return await withSession(async (s) => {
      await s.launch({ program }, (dc) => dc.setBreakpointsRequest({ source: { path: program }, breakpoints: [{ line, hitCondition }] }));
      const stops: number[] = [];
      for (let stop = await s.nextStop(); stop; stop = await s.nextStop()) {
        const frame = (await s.stack())[0]!;
        stops.push(Number((await s.evaluate('i', frame.id)).result));
        await s.dc.continueRequest({ threadId: THREAD });
      }
      assert.match(s.output('stdout'), /done 15/);
      return { stops, console: s.output('console') };
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('hit counts the program cannot silence', () => {
  test('Object.freeze(globalThis) at the first line: "== 3" stops once, at the 3rd iteration', T, async () => {
    const { stops, console } = await stopsAt('Object.freeze(globalThis);', '== 3');
    assert.deepEqual(stops, [2]);
    assert.doesNotMatch(console, /Hit counts are kept by the debugger/);
  });

  test('"3" (from the 3rd hit on) after the program froze globalThis', T, async () => {
    assert.deepEqual((await stopsAt('Object.freeze(globalThis);', '3')).stops, [2, 3, 4, 5]);
  });

  test('a program that deletes or overwrites the counter and replaces globalThis still stops at the hit count', T, async () => {
    const name = JSON.stringify(HIT_COUNTS_GLOBAL);
    const prelude = [
      `try { delete globalThis[${name}]; } catch {}`,
      `try { globalThis[${name}] = () => 0; } catch {}`,
      "Object.defineProperty(globalThis, 'globalThis', { value: Object.freeze({}) });",
    ].join('\n');
    assert.deepEqual((await stopsAt(prelude, '== 2')).stops, [1]);
  });
});
