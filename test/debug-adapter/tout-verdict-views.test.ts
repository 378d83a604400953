/**
 * One Tout verdict, the same words in its three views: the runtime's error (what the program
 * catches and the CLI prints), the adapter's stop (description, exception details, the Callback
 * scope's `mismatch`) and the Tensor Inspector's rows, for a dtype mismatch and a count mismatch.
 * Real runtime in this process; the same cases under the real adapter and debuggee; the adapter's
 * own `tensorCallback` event rendered by the real webview in Chromium.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { addCallbackObserver, numpyFunction, tf, type CallbackInvocation } from '../../runtime/index.js';
import type { TensorCallbackEvent } from '../../media/src/protocol.js';
import { runToutViewCases, TOUT_VIEW_CASES } from '../fixtures/debug/tout-views-cases.js';
import { fixture, THREAD, useDebugAdapter, withSession } from '../helpers/dap.js';
import { sendInvocation, startHarness, type Harness } from '../webview/harness.js';

useDebugAdapter();

const PROGRAM = fixture('tout-views-program.ts');
const T = { timeout: 120_000 };

/** What the runtime said of each case: its error message, and the verdict its observer event carried. */
interface RuntimeView {
  readonly error: string;
  readonly check: CallbackInvocation['toutCheck'];
}

/** What the adapter showed at each case's stop. */
interface AdapterView {
  readonly description: string;
  readonly details: string;
  readonly mismatch: string;
  readonly event: TensorCallbackEvent;
}

function runtimeViews(): RuntimeView[] {
  const ends: CallbackInvocation[] = [];
  const remove = addCallbackObserver({ onCallbackEnd: (end) => ends.push(end) });
  const input = tf.tensor([1, 2, 3, 4], [2, 2], 'float32');
  try {
    return runToutViewCases(numpyFunction, input).map((error, i) => ({ error, check: ends[i]!.toutCheck }));
  } finally {
    remove();
    input.dispose();
  }
}

async function adapterViews(): Promise<AdapterView[]> {
  return withSession(async (s) => {
    await s.launch({ program: PROGRAM });
    const views: AdapterView[] = [];
    for (const _ of TOUT_VIEW_CASES) {
      const stop = await s.stopped();
      const event = (await s.waitFor('tensorCallback')).body as TensorCallbackEvent;
      const info = (await s.dc.exceptionInfoRequest({ threadId: THREAD })).body;
      const top = (await s.stack())[0]!;
      const scope = await s.scope(top.id, 'Callback');
      const mismatch = (scope.has('mismatch') ? scope.get('mismatch') : scope.get('mismatch[0]')).value;
      views.push({ description: stop.body.description ?? '', details: info.details?.message ?? '', mismatch, event });
      await s.dc.continueRequest({ threadId: THREAD });
    }
    await s.terminated();
    return views;
  });
}

describe('a Tout verdict in its three views', () => {
  let runtime: RuntimeView[];
  let adapter: AdapterView[];
  let h: Harness;

  before(async () => {
    runtime = runtimeViews();
    adapter = await adapterViews();
    h = await startHarness();
  }, T);

  after(async () => {
    await h?.close();
  });

  for (const [i, c] of TOUT_VIEW_CASES.entries()) {
    test(`${c.problem} mismatch (${c.name}): the runtime's words, unchanged in the adapter and the inspector`, T, async () => {
      const { error, check } = runtime[i]!;
      const mismatch = check!.mismatches[0]!;
      const firstLine = mismatch.message.split('\n')[0]!;
      // The runtime: the error the program catches is the verdict's message; its short form is its first line's words without the name.
      assert.equal(check!.ok, false);
      assert.equal(mismatch.problem, c.problem);
      assert.equal(error, mismatch.message);
      assert.ok(firstLine.includes(c.name) && !mismatch.short.includes(c.name), `${firstLine} / ${mismatch.short}`);

      // The adapter: the stop names the callback, then says the runtime's short form; details and Variables its message.
      const view = adapter[i]!;
      assert.equal(view.description, `Tout mismatch in ${c.name}: ${mismatch.short}`);
      assert.equal(view.details, mismatch.message);
      assert.equal(view.mismatch, firstLine);
      assert.deepEqual(
        view.event.invocation.toutCheck?.mismatches.map((m) => [m.message, m.short]),
        check!.mismatches.map((m) => [m.message, m.short]),
        'the tensorCallback event carries the verdict as the runtime judged it',
      );

      // The inspector, given the adapter's own event: the runtime's message where the problem is.
      const page = await h.open();
      await sendInvocation(page, 'views', view.event);
      if (c.problem === 'count') {
        await page.waitForSelector('.count-mismatch .message');
        assert.equal(await page.textContent('.count-mismatch .message'), mismatch.message);
      } else {
        await page.waitForSelector('tr.check-message.dtype .message');
        assert.equal(await page.textContent('tr.check-message.dtype .message'), mismatch.message);
        assert.equal(await page.textContent('tr.tensor-row[data-side="outputs"][data-index="0"] td.check'), '✗ dtype mismatch');
      }
    });
  }
});
