/**
 * V8 compiles a breakpoint's condition again at each hit and reports each compile as a new script.
 * On a hot line those are not relayed by the bridge nor registered by the adapter
 * (cdp/condition-scripts.ts): counted in the CDP log of a launch whose line is hit 2,000 times.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { fixture, THREAD, useDebugAdapter, withSession } from '../helpers/dap.js';
import { lineOf } from '../helpers/markers.js';

useDebugAdapter();

const PROGRAM = fixture('condition-hot-program.mjs');
const HOT = lineOf(PROGRAM, '@hot-line');
const T = { timeout: 90_000 };
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tfjs-cb-condition-scripts-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The scripts with no URL the adapter was told of (conditions' compiles, evaluations), and the program's stdout. */
async function runWith(name: string, breakpoint: { condition?: string; logMessage?: string }): Promise<{ unnamed: number; stdout: string; stops: number }> {
  const log = path.join(dir, `${name}.log`);
  let stdout = '';
  let stops = 0;
  await withSession(
    async (s) => {
      await s.launch({ program: PROGRAM }, (dc) => dc.setBreakpointsRequest({ source: { path: PROGRAM }, breakpoints: [{ line: HOT, ...breakpoint }] }));
      s.dc.on('stopped', () => {
        stops++;
        void s.dc.continueRequest({ threadId: THREAD }).catch(() => {});
      });
      assert.equal((await s.terminated())?.body.exitCode, 0, s.output());
      stdout = s.output('stdout');
    },
    { TFJS_CALLBACKS_CDP_LOG: log },
  );
  const received = fs
    .readFileSync(log, 'utf8')
    .split('\n')
    .filter((l) => / < /.test(l) && l.includes('"method":"Debugger.scriptParsed"'));
  return { unnamed: received.filter((l) => l.includes('"url":""')).length, stdout, stops };
}

describe("a hot line's condition", () => {
  test('2,000 hits of a condition that never holds: no script per hit reaches the adapter, no stop', T, async () => {
    const run = await runWith('never', { condition: 'row[0] > 100' });
    assert.match(run.stdout, /^total /m);
    assert.equal(run.stops, 0);
    assert.ok(run.unnamed < 50, `${run.unnamed} scripts with no URL reached the adapter (2,000 hits)`);
  });

  test('a logpoint with a condition, 2,000 hits: its lines written, no script per hit', T, async () => {
    const run = await runWith('logpoint', { condition: 'row[0] === 3', logMessage: 'row {row[0]}' });
    assert.equal(run.stops, 0);
    assert.ok(run.unnamed < 50, `${run.unnamed} scripts with no URL reached the adapter (2,000 hits)`);
  });
});
