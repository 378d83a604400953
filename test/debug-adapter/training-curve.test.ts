/**
 * The training curve under the real adapter (issue 44): a program's model.fit stopped in its own
 * onBatchEnd sends `trainingCurve` with every batch so far (the one stopped in included) and that
 * batch as `current`; after Continue, the rest comes while it runs (at the fit's end), and every
 * batch's loss is the one the program's own callback saw. Real adapter, debuggee, TF.js.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { TRAINING_CURVE_EVENT, type TrainingCurveEventBody } from '../../debug-adapter/extension-protocol.js';
import { fixture, THREAD, useDebugAdapter, withSession } from '../helpers/dap.js';
import { lineOf } from '../helpers/markers.js';

useDebugAdapter();

const PROGRAM = fixture('training-curve-program.ts');
const T = { timeout: 120_000 };

const bodies = (events: readonly DebugProtocol.Event[]) => events.filter((e) => e.event === TRAINING_CURVE_EVENT).map((e) => e.body as TrainingCurveEventBody);

describe('the training curve while debugging', () => {
  test('stopped in onBatchEnd: the batches so far and the current one; the rest after Continue, equal to what the program saw', T, () =>
    withSession(async (s) => {
      const line = lineOf(PROGRAM, '@stop');
      await s.launch({ program: PROGRAM, backend: 'cpu' }, (dc) => dc.setBreakpointsRequest({ source: { path: PROGRAM }, breakpoints: [{ line }] }));
      assert.equal((await s.stopped()).body.reason, 'breakpoint');
      await s.waitFor(TRAINING_CURVE_EVENT, (e) => (e.body as TrainingCurveEventBody).paused);
      const atStop = bodies(s.events);
      const paused = atStop.at(-1)!;
      assert.deepEqual(paused.current, { fit: 1, epoch: 1, batch: 1, step: 4 });
      assert.deepEqual(
        paused.fits.map((f) => [f.id, f.epochs, f.batchesPerEpoch, f.metrics]),
        [[1, 2, 3, ['loss']]],
      );
      // Every point once, in order: `from` continues where the last event ended.
      let next = 0;
      for (const b of atStop) {
        assert.equal(b.from, next);
        assert.equal(b.dropped, 0);
        next += b.points.length;
      }
      const soFar = atStop.flatMap((b) => b.points);
      assert.deepEqual(
        soFar.map((p) => [p.epoch, p.batch, p.step]),
        [
          [0, 0, 0],
          [0, 1, 1],
          [0, 2, 2],
          [0, null, 0],
          [1, 0, 3],
          [1, 1, 4],
        ],
      );

      await s.dc.continueRequest({ threadId: THREAD });
      await s.terminated();
      const after = bodies(s.events).slice(atStop.length);
      assert.ok(after.length > 0 && after.every((b) => !b.paused), 'the rest came while it ran');
      const all = bodies(s.events).flatMap((b) => b.points);
      const printed = /losses (\[.*\])/.exec(s.output('stdout'))?.[1];
      assert.ok(printed, s.output('stdout'));
      assert.deepEqual(
        all.filter((p) => p.batch !== null).map((p) => p.logs.loss),
        JSON.parse(printed) as number[],
      );
      assert.deepEqual(
        all.filter((p) => p.batch === null).map((p) => p.epoch),
        [0, 1],
      );
    }),
  );
});
