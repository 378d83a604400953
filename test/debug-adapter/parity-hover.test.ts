/**
 * js-debug parity, hovers: a hover (`evaluate`, context 'hover') on a local answers with its value
 * at every stop of a long run, in a callback's frame (and its graph frame) and in a plain frame,
 * also when the hover names no frame the adapter knows (none, or one of an earlier stop): it then
 * means the program's own innermost frame, never the global scope, where no local is found and
 * VS Code falls back to TypeScript's type. Real adapter, real debuggee, real TF.js.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { describeFrames, fixture, type Session, THREAD, useDebugAdapter, withSession } from '../helpers/dap.js';
import { lineOf } from '../helpers/markers.js';

useDebugAdapter();

const PROGRAM = fixture('parity-long-program.ts');
const ROUNDS = 400;
const T = { timeout: 180_000 };

/** A hover's answer (its time is bench/test-timings.bench.ts's, as a ratio to a console evaluate). */
async function hover(s: Session, expression: string, frameId?: number): Promise<string> {
  const r = await s.dc
    .evaluateRequest({ expression, context: 'hover', ...(frameId !== undefined ? { frameId } : {}) })
    .catch((err: Error) => assert.fail(`hover ${expression} (frame ${frameId}): ${err.message}`));
  return r.body.result;
}

describe('parity: hovers', () => {
  test('a hover on a local answers with its value at every stop of a long run, in a callback and in a plain frame', T, () =>
    withSession(async (s) => {
      const scaleLine = lineOf(PROGRAM, '@long-scale-body');
      const plainLine = lineOf(PROGRAM, '@long-plain-body');
      await s.launch({ program: PROGRAM, env: { PARITY_ROUNDS: String(ROUNDS) } }, (dc) =>
        dc.setBreakpointsRequest({
          source: { path: PROGRAM },
          breakpoints: [
            { line: scaleLine, hitCondition: `>= ${ROUNDS - 6}` },
            { line: plainLine, hitCondition: `>= ${ROUNDS - 6}` },
          ],
        }),
      );
      let stops = 0;
      let lastIds: number[] = [];
      for (;;) {
        const stop = await s.nextStop();
        if (!stop) break;
        stops++;
        const frames = await s.stack();
        const top = frames[0]!;
        const inCallback = top.line === scaleLine;
        assert.ok(inCallback || top.line === plainLine, describeFrames(frames));
        const want = inCallback ? '2' : '3';
        assert.equal(await hover(s, 'factor', top.id), want, `stop ${stops}: ${describeFrames(frames)}`);
        if (inCallback) {
          assert.match(await hover(s, 'x', top.id), /^NdArray float32\[3\] min=1 max=3 /);
          assert.equal(await hover(s, 'round', top.id), String(ROUNDS - 8 + Math.ceil(stops / 2)));
          const graph = frames.find((f) => f.presentationHint === 'label')!;
          assert.equal(await hover(s, 'factor', graph.id), '2', 'the graph frame evaluates in the running callback');
        }
        // A hover with no frame, or a frame of an earlier stop, means the code in view.
        assert.equal(await hover(s, 'factor'), want, 'no frameId');
        const stale = Math.max(...lastIds, ...frames.map((f) => f.id)) + 500;
        assert.equal(await hover(s, 'factor', stale), want, `an unknown frameId (${stale})`);
        lastIds = frames.map((f) => f.id);
        await s.dc.continueRequest({ threadId: THREAD });
      }
      assert.equal(stops, 14, 'seven rounds, two stops each');
      assert.match(s.output('stdout'), /sum /);
    }),
  );
});
