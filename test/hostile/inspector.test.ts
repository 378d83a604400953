/**
 * Issue 11, the tensor inspector webview against malformed events, in Chromium from the panel's
 * real HTML (strict CSP with a nonce) and the real built script: an event whose summary has
 * missing fields, wrong types, NaN, huge strings or null stats renders what is valid, says what
 * could not be shown and why, and a reload (the saved state) does not come back blank.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import type { TensorCallbackEvent } from '../../media/src/protocol.js';
import { checkEvent, MAX_TEXT } from '../../media/src/event-check.js';
import { mismatchEvent, mismatchFixtures, SESSION, XSS } from '../webview/fixtures.js';
import { assertClean, sendHost, sendInvocation, startHarness, type Harness } from '../webview/harness.js';

let h: Harness;
before(async () => {
  h = await startHarness();
});
after(async () => {
  await h?.close();
});

const HUGE = `${XSS}${'x'.repeat(2_000_000)}`;

/** A summary an agent bug or a hostile debuggee could send: every field a wrong kind of thing. */
function malformedEvent(id: number): unknown {
  return {
    reason: 'exception',
    description: HUGE,
    invocation: {
      id,
      callback: { name: XSS, token: 42, kind: null, stateful: 'yes' },
      op: 'PyFunc',
      Tout: 'float32',
      Tin: [null, 3],
      parameterNames: { 0: 'a' },
      callSite: { file: 7, line: 'x' },
      phase: 'exploded',
      toutCheck: { ok: false, mismatches: 'many', narrowed: null },
      error: 'not an object',
    },
    inputs: [
      {
        kind: 'Tensor',
        dtype: 'float32',
        shape: [2, 2],
        size: 4,
        disposed: false,
        min: Number.NaN,
        max: '9',
        mean: null,
        nanCount: -1,
        infCount: 0.5,
        zeroCount: 1,
      },
      { kind: 'Tensor', dtype: 'float32', shape: 'two by two', size: 4, disposed: false },
      { kind: 'Tensor', dtype: 'float32', shape: [2, -1], size: Number.NaN, disposed: false },
      7,
      null,
    ],
    outputs: { 0: 'nope' },
  };
}

async function mainText(page: Page): Promise<string> {
  return (await page.textContent('.invocation')) ?? '';
}

test('checkEvent: what is valid is kept, the rest replaced, and each problem says where and why', () => {
  const { event, problems } = checkEvent(malformedEvent(5));
  assert.equal(event.invocation.id, 5);
  assert.equal(event.invocation.callback.name, XSS);
  assert.equal(event.description.length, MAX_TEXT, 'cut, with an ellipsis');
  assert.deepEqual(checkEvent(event).problems, [], 'the repaired event passes: a reload does not report it again');
  assert.deepEqual(event.invocation.Tout, []);
  assert.deepEqual(event.outputs, []);
  assert.equal(event.inputs[0]!.min, undefined, 'NaN is not a min');
  assert.equal(event.inputs[0]!.zeroCount, 1);
  assert.equal(event.inputs[1]!.opaque, true);
  assert.equal(event.inputs[4], null);
  for (const expected of [
    /^description: 2,000,028 characters long, cut to 4,000$/,
    /^callback token: this value could not be shown: expected text, got the number 42$/,
    /^Tout: this value could not be shown: expected a list of text, got "float32"$/,
    /^parameter names: this value could not be shown: expected a list of text, got an object$/,
    /^phase: this value could not be shown: expected "running" or "returned", got "exploded"; shown as returned$/,
    /^inputs\[0\]\.min: this value could not be shown: expected a number, got NaN$/,
    /^inputs\[0\]\.max: this value could not be shown: expected a number, got "9"$/,
    /^inputs\[0\]\.nanCount: this value could not be shown: expected a count, got the number -1$/,
    /^inputs\[1\]\.shape: this value could not be shown: expected a list of sizes, got "two by two"$/,
    /^inputs\[2\]\.shape: this value could not be shown: expected sizes \(whole numbers ≥ 0\), got \[the number 2, the number -1\]$/,
    /^inputs\[3\]: this value could not be shown: expected an object, got the number 7$/,
    /^outputs: this value could not be shown: expected a list, got an object$/,
  ]) {
    assert.ok(
      problems.some((p) => expected.test(p)),
      `${expected} in:\n${problems.join('\n')}`,
    );
  }
  assert.ok(
    problems.every((p) => p.length < 300),
    'no problem line repeats a huge value',
  );
});

test('a malformed event renders what is valid and says what could not be shown; a reload is not blank', async () => {
  const page = await h.open(mismatchFixtures);
  await sendHost(page, { type: 'invocation', sessionId: SESSION, event: malformedEvent(9) as TensorCallbackEvent, live: true });
  await page.waitForSelector('.event-problems');
  const text = await mainText(page);
  assert.match(text, /inputs\[1\]\.shape: this value could not be shown: expected a list of sizes/);
  assert.match(text, /description: 2,000,028 characters long, cut to 4,000/);
  assert.ok(text.includes(XSS), 'the callback name, as text');
  assert.equal(await page.locator('img').count(), 0, 'no markup from the event');
  const rows = await page.$$eval('table.summary tr.tensor-row', (trs) => trs.map((tr) => tr.textContent ?? ''));
  assert.equal(rows.length, 5, rows.join('\n'));
  assert.match(rows[0]!, /float32\[2, 2\]/);
  assert.match(rows[1]!, /its summary could not be shown/);

  await page.reload();
  await page.waitForFunction(() => (window as unknown as { __posted: { type: string }[] }).__posted.some((m) => m.type === 'ready'));
  await page.waitForSelector('.event-problems');
  assert.match(await mainText(page), /inputs\[1\]\.shape: this value could not be shown/);
  await assertClean(h, page);
});

test('a saved state holding a malformed event (an older version, or saved before the check) restores, not blank', async () => {
  const page = await h.open(mismatchFixtures);
  await sendInvocation(page, SESSION, mismatchEvent);
  await page.waitForSelector('table.summary');
  // Corrupt what was saved, as a state from before this check could be.
  await page.evaluate(
    (bad) => {
      const saved = JSON.parse(sessionStorage.getItem('vscode-state')!);
      saved.history.push({ key: 'session-1#77', sessionId: 'session-1', event: bad, live: false, ended: false, receivedAt: 0, view: { fixed: 3 } });
      saved.currentKey = 'session-1#77';
      sessionStorage.setItem('vscode-state', JSON.stringify(saved));
    },
    { ...(malformedEvent(77) as object), description: 'short' } as Record<string, unknown>,
  );
  await page.reload();
  await page.waitForFunction(() => (window as unknown as { __posted: { type: string }[] }).__posted.some((m) => m.type === 'ready'));
  await page.waitForSelector('.event-problems');
  assert.match(await mainText(page), /Tout: this value could not be shown/);
  assert.equal(await page.locator('.history-item').count(), 2, 'the good stop is still in the history');
  await page.click('.history-item:nth-child(2)');
  await page.waitForFunction(() => document.querySelector('header h1')?.textContent?.includes('normalize'));
  await assertClean(h, page);
});
