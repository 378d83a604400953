/**
 * Pinned expressions without a debuggee: the extension's list rules (extension/pin-list.ts), the
 * webview's pins slice (media/src/pins-state.ts: a series per pin, a new session's stops start it
 * afresh, the PIN_STOP_CAP halving) and the one script per stop (debug-adapter/values/pins.ts).
 */
import assert from 'node:assert/strict';
import vm from 'node:vm';
import { describe, test } from 'node:test';
import { MAX_PINS, pinTarget, withoutPin, withPin } from '../../extension/pin-list.js';
import { asPinsMessage, initialPins, PIN_STOP_CAP, reducePins, restorePins } from '../../media/src/pins-state.js';
import type { PinnedValuesEvent } from '../../media/src/protocol.js';
import { pinsScript, PINS_SCRIPT_MARK } from '../../debug-adapter/values/pins.js';

const info = (min: number, max: number, nanCount = 0) => ({
  kind: 'Tensor',
  dtype: 'float32',
  shape: [2],
  size: 2,
  disposed: false,
  min,
  max,
  mean: (min + max) / 2,
  nanCount,
  infCount: 0,
});
const event = (stop: number, min: number): PinnedValuesEvent => ({
  stop,
  valueLimit: 1024,
  pins: [
    { expression: 'w', status: 'value', info: info(min, min + 1), values: [min, min + 1] },
    { expression: 'x', status: 'unresolved' },
  ],
});

describe('the extension: what a menu pins, the list', () => {
  test("a Variables row's evaluateName, a watch's expression, nothing for a row without one", () => {
    assert.equal(pinTarget({ variable: { name: 'kernel', evaluateName: 'this.kernel' } }), 'this.kernel');
    assert.equal(pinTarget({ name: ' loss ' }), 'loss');
    assert.equal(pinTarget({ variable: { name: '[0]' } }), undefined);
    assert.equal(pinTarget(undefined), undefined);
  });

  test('pinned once, trimmed; at most MAX_PINS, said so; unpinned', () => {
    assert.deepEqual(withPin(['a'], ' b '), { list: ['a', 'b'] });
    assert.deepEqual(withPin(['a'], 'a'), { list: ['a'] });
    assert.match(JSON.stringify(withPin([], '  ')), /needs an expression/);
    const full = Array.from({ length: MAX_PINS }, (_, i) => `p${i}`);
    assert.match(JSON.stringify(withPin(full, 'more')), /At most 50 expressions can be pinned/);
    assert.deepEqual(withoutPin(['a', 'b'], 'a'), ['b']);
  });
});

describe("the webview's pins slice", () => {
  test('a series per pin with a value, the latest status of each, a new session starts afresh', () => {
    let s = reducePins(initialPins(), { type: 'pins', expressions: ['w', 'x'] });
    s = reducePins(s, { type: 'pinned', sessionId: 's1', event: event(1, 0) });
    s = reducePins(s, { type: 'pinned', sessionId: 's1', event: event(2, 1.23456789) });
    assert.deepEqual(s.series.w?.stop, [1, 2]);
    assert.deepEqual(s.series.w?.min, [0, 1.23457]);
    assert.equal(s.series.x, undefined);
    assert.deepEqual(s.latest.x, { stop: 2, status: 'unresolved' });
    assert.equal(s.lastStop, 2);
    s = reducePins(s, { type: 'pinned', sessionId: 's2', event: event(1, 5) });
    assert.deepEqual(s.series.w?.stop, [1]);
    assert.deepEqual(restorePins(JSON.parse(JSON.stringify(s))), JSON.parse(JSON.stringify(s)), 'the saved slice restores as it was');
    s = reducePins(s, { type: 'pins', expressions: ['x'] });
    assert.equal(s.series.w, undefined);
  });

  test(`past ${PIN_STOP_CAP} stops every other one is dropped, the newest kept`, () => {
    let s = reducePins(initialPins(), { type: 'pins', expressions: ['w'] });
    for (let stop = 1; stop <= PIN_STOP_CAP + 1; stop++) s = reducePins(s, { type: 'pinned', sessionId: 's', event: event(stop, stop) });
    const w = s.series.w!;
    assert.equal(w.thinned, 1);
    assert.equal(w.stop.length, Math.ceil((PIN_STOP_CAP + 1) / 2));
    assert.equal(w.stop.at(-1), PIN_STOP_CAP + 1);
    assert.equal(w.stop[0], 1 + ((PIN_STOP_CAP + 1) % 2 === 0 ? 1 : 0));
  });

  test('a malformed message is no pins message', () => {
    assert.equal(asPinsMessage({ type: 'pins', expressions: [1] }), undefined);
    assert.equal(asPinsMessage({ type: 'pinned', sessionId: 's', event: { stop: 1, pins: [{ expression: 'w', status: 'value' }] } }), undefined);
    assert.ok(asPinsMessage({ type: 'pinned', sessionId: 's', event: event(1, 0) }));
  });
});

describe("the adapter's one script per stop", () => {
  test('each pin in its own try/catch, a pin with a line comment included; it compiles', () => {
    const script = pinsScript(['a // note', 'b.c']);
    assert.ok(script.startsWith(PINS_SCRIPT_MARK));
    assert.doesNotThrow(() => new vm.Script(script));
    assert.equal(script.match(/try \{/g)?.length, 2);
  });
});
