/**
 * Pinned expressions (values/pins.ts): `setPins`, then a `pinnedValues` event after every stop
 * with each pin's summary and first values, `unresolved` where the frame does not see a name, the
 * error of one that throws, all from ONE evaluateOnCallFrame per stop (counted in the CDP log).
 * Real adapter, real debuggee, real TF.js.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import type { DebugProtocol } from '@vscode/debugprotocol';
import type { PinnedValue, PinnedValuesEventBody } from '../../debug-adapter/extension-protocol.js';
import { fixture, THREAD, useDebugAdapter, withSession } from '../helpers/dap.js';
import { lineOf } from '../helpers/markers.js';

useDebugAdapter();

const PROGRAM = fixture('pins-program.ts');
const T = { timeout: 90_000 };
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tfjs-cb-pins-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

const PINS = ['tf.memory().numTensors', 'w', 'local', 'w.nope.deeper', 'w +* 1'];

function pin(body: PinnedValuesEventBody, expression: string): PinnedValue {
  const found = body.pins.find((p) => p.expression === expression);
  assert.ok(found, `pin ${expression} should be in ${JSON.stringify(body)}`);
  return found;
}

describe('pinned expressions', () => {
  test('6 stops, 5 pins: values, unresolved in the other frame, errors, one evaluateOnCallFrame per stop', T, async () => {
    const log = path.join(dir, 'cdp.log');
    const bodies: PinnedValuesEventBody[] = [];
    await withSession(
      async (s) => {
        await s.launch({ program: PROGRAM }, async (dc) => {
          await dc.customRequest('setPins', { expressions: PINS });
          await dc.setBreakpointsRequest({
            source: { path: PROGRAM },
            breakpoints: [{ line: lineOf(PROGRAM, '@loop') }, { line: lineOf(PROGRAM, '@helper') }],
          });
        });
        for (let i = 0; i < 6; i++) {
          const stop = await s.nextStop();
          assert.ok(stop, `stop ${i + 1} should come`);
          await s.stack();
          const event = await s.waitFor('pinnedValues');
          bodies.push((event as DebugProtocol.Event & { body: PinnedValuesEventBody }).body);
          await s.dc.continueRequest({ threadId: THREAD });
        }
        assert.equal((await s.terminated())?.body.exitCode, 0, s.output());
        assert.match(s.output('stdout'), /last NaN,3,4,5/);
      },
      { TFJS_CALLBACKS_CDP_LOG: log },
    );
    assert.deepEqual(
      bodies.map((b) => b.stop),
      [1, 2, 3, 4, 5, 6],
    );
    for (const b of bodies) assert.equal(b.valueLimit, 1024);
    // Stops 1, 3, 5 at @loop (w before this pass's add), 2, 4, 6 in helper.
    const loop = [bodies[0]!, bodies[2]!, bodies[4]!];
    const expected = [
      [1, 2, 3, 4],
      [2, 3, 4, 5],
      [Number.NaN, 3, 4, 5],
    ];
    loop.forEach((b, i) => {
      const w = pin(b, 'w');
      assert.equal(w.status, 'value', JSON.stringify(w));
      if (w.status !== 'value') return;
      const values = w.values.map((v) => (typeof v === 'object' ? Number(v.nonFinite) : v));
      assert.deepEqual(values, expected[i]);
      assert.equal(w.info.dtype, 'float32');
      assert.deepEqual(w.info.shape, [4]);
      assert.equal(w.info.nanCount, i === 2 ? 1 : 0);
      assert.equal(w.info.max, i === 0 ? 4 : 5);
      assert.equal(pin(b, 'local').status, 'unresolved');
      // Evaluated before w's summary at each stop: the last stop's summaries and slices disposed what they made.
      const live = pin(b, 'tf.memory().numTensors');
      assert.deepEqual(live.status === 'value' ? live.values : live, [3]);
      const thrown = pin(b, 'w.nope.deeper');
      assert.equal(thrown.status, 'error');
      if (thrown.status === 'error') assert.match(thrown.error, /^TypeError: Cannot read properties of undefined/);
    });
    [bodies[1]!, bodies[3]!, bodies[5]!].forEach((b, i) => {
      assert.equal(pin(b, 'w').status, 'unresolved', 'w is no name in helper');
      const local = pin(b, 'local');
      assert.equal(local.status, 'value');
      if (local.status === 'value') {
        assert.deepEqual(local.values, [i * 10]);
        assert.equal(local.info.kind, 'number');
      }
      assert.equal(pin(b, 'w.nope.deeper').status, 'unresolved');
    });
    for (const b of bodies) {
      const bad = pin(b, 'w +* 1');
      assert.equal(bad.status, 'error');
      if (bad.status === 'error') assert.match(bad.error, /^SyntaxError/);
    }
    const sent = fs
      .readFileSync(log, 'utf8')
      .split('\n')
      .filter((l) => / > /.test(l) && l.includes('"Debugger.evaluateOnCallFrame"'));
    assert.equal(sent.filter((l) => l.includes('tfjs-callbacks pins')).length, 6, 'one evaluation per stop for all pins');
  });

  test('setPins with something other than a list of expressions is an error response that says what it needs', T, () =>
    withSession(async (s) => {
      await s.launch({ program: PROGRAM });
      await assert.rejects(s.dc.customRequest('setPins', { expressions: 'w' }), /setPins needs \{ expressions: \[<expression>, …\] \}/);
      await s.terminated();
    }),
  );
});
