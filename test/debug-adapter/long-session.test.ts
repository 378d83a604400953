/**
 * A long session stays flat (issue 26): the remote objects a stop shows are released when the
 * program runs on, and what the adapter keeps does not grow with the stops. Each round of the
 * program stops in a callback and in a plain function, each showing a fresh object that the test
 * expands in Variables, watches, evaluates in the console and hovers; the program holds those
 * objects only through WeakRefs, so after a full GC at its end the ones still alive are those the
 * debugger keeps. The adapter's own keep (its scripts, its memory references) is read from the
 * session's timeline (TFJS_CALLBACKS_TIMELINE), written as each stop is let go. Counts, not times.
 * Real adapter, real debuggee, real TF.js.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import type { TimelineMark } from '../../debug-adapter/debuggee/timeline.js';
import { describeFrames, fixture, firstUserFrame, type Session, THREAD, useDebugAdapter, withSession } from '../helpers/dap.js';
import { lineOf } from '../helpers/markers.js';

useDebugAdapter();

const PROGRAM = fixture('long-session-program.ts');
const ROUNDS = 8;
const T = { timeout: 180_000 };
const dir = mkdtempSync(path.join(os.tmpdir(), 'tfjs-cb-long-session-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** What the adapter kept when it last let a stop go, from the timeline `file`. */
function keptAtLastRelease(file: string): Readonly<Record<string, number>> {
  const marks = readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as TimelineMark);
  const counts = marks.findLast((m) => m.what === 'adapter: stop released')?.counts;
  assert.ok(counts, `no 'adapter: stop released' mark with counts in the timeline: ${marks.map((m) => m.what).join(', ')}`);
  return counts;
}

/** Everything a user looks at in a stop: the cheap scopes expanded, `meta` and its items expanded, watched, evaluated, hovered. */
async function lookAround(s: Session, inCallback: boolean): Promise<void> {
  const frames = await s.stack();
  const frame = firstUserFrame(frames);
  assert.ok(frame, describeFrames(frames));
  for (const scope of await s.scopes(frame.id)) {
    if (scope.expensive) continue;
    const vars = await s.variables(scope.variablesReference);
    for (const v of vars.list) if (v.variablesReference > 0 && v.name !== 'shown') await s.variables(v.variablesReference);
  }
  const locals = await s.scope(frame.id, 'Locals');
  const items = (await s.variables(locals.get('meta').variablesReference)).get('items');
  await s.variables(items.variablesReference);
  for (const context of ['watch', 'repl', 'hover'] as const) {
    const meta = await s.evaluate('meta', frame.id, context);
    assert.ok(meta.variablesReference > 0, `meta (${context}) expands`);
    const children = (await s.dc.variablesRequest({ variablesReference: meta.variablesReference })).body.variables;
    const shownItems = children.find((v) => v.name === 'items');
    assert.ok(shownItems, children.map((v) => v.name).join(', '));
    await s.variables(shownItems.variablesReference);
  }
  if (inCallback) {
    const x = (await s.scope(frame.id, 'Callback')).get('x');
    await s.variables(x.variablesReference);
    const data = await s.dc.customRequest('tensorData', { expression: 'x', frameId: frame.id, start: 0, count: 3 });
    assert.deepEqual(data.body.values, [1, 2, 3]);
  }
}

/** Launches the program and makes its 2 × ROUNDS stops, looking around at each; `afterRound` runs once a round's stops are let go. */
async function runRounds(s: Session, afterRound: () => void = () => {}): Promise<void> {
  const scaleLine = lineOf(PROGRAM, '@scale-body');
  const plainLine = lineOf(PROGRAM, '@plain-body');
  await s.launch({ program: PROGRAM, env: { LONG_SESSION_ROUNDS: String(ROUNDS) } }, (dc) =>
    dc.setBreakpointsRequest({ source: { path: PROGRAM }, breakpoints: [{ line: scaleLine }, { line: plainLine }] }),
  );
  for (let round = 0; round < ROUNDS; round++) {
    for (const [line, inCallback] of [
      [scaleLine, true],
      [plainLine, false],
    ] as const) {
      assert.equal((await s.stopped()).body.reason, 'breakpoint');
      const top = firstUserFrame(await s.stack());
      assert.equal(top?.line, line, `round ${round}`);
      await lookAround(s, inCallback);
      await s.dc.continueRequest({ threadId: THREAD });
    }
    afterRound();
  }
}

describe('a long session', () => {
  test(`objects shown at ${2 * ROUNDS} stops (Variables, watch, console, hover) are not kept alive once the program runs on`, T, () =>
    withSession(async (s) => {
      await runRounds(s);
      await s.terminated();
      const out = s.output('stdout');
      assert.match(out, new RegExp(`alive 0 of ${2 * ROUNDS}\\n`), out);
      const first = /tensors after the first round (\d+)/.exec(out)?.[1];
      const end = /tensors at the end (\d+)/.exec(out)?.[1];
      assert.ok(first !== undefined && end !== undefined, out);
      assert.equal(end, first, 'showing tensors at every stop made none that stay');
    }),
  );

  // Each stop makes V8 parse a dozen scripts (every evaluation, the adapter's calls into the agent
  // among them) and the adapter a memory reference per tensor shown: kept, both grew with the stops.
  test(`what the adapter keeps (scripts, memory references) after ${2 * ROUNDS} stops is what it kept after 4`, T, () => {
    const timeline = path.join(dir, 'timeline.jsonl');
    return withSession(
      async (s) => {
        const kept: Readonly<Record<string, number>>[] = [];
        await runRounds(s, () => kept.push(keptAtLastRelease(timeline)));
        await s.terminated();
        const early = kept[1]!;
        assert.ok(early.scripts! > 0 && early.memoryReferences !== undefined, JSON.stringify(early));
        assert.deepEqual(kept.at(-1), early, `kept after each round: ${JSON.stringify(kept)}`);
      },
      { TFJS_CALLBACKS_TIMELINE: timeline },
    );
  });
});
