/**
 * The inspector's byte view in a real Chromium: Bytes shows the selected tensor's buffer as stored
 * (offset, hex grouped by element, decoded values), pages by 256 bytes, and Values goes back to
 * the grid; the bytes come from a `tensorBytes` request. The decoding of every dtype is checked
 * in Node (byteRows), from buffers made by typed arrays.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { byteRows, half } from '../../media/src/byte-view.js';
import { cubeEvent, cubeFixtures, SESSION } from './fixtures.js';
import { assertClean, fixtureKey, posted, screenshot, sendInvocation, startHarness, waitForTensor, type Harness } from './harness.js';

const b64 = (view: ArrayBufferView) => Buffer.from(view.buffer, view.byteOffset, view.byteLength).toString('base64');

describe('byte rows, decoded by dtype', () => {
  test('float32, int64, float16 and bool as stored; offsets in hex; an element split by the page edge is not decoded', () => {
    const f32 = byteRows({ offset: 0, byteLength: 8, dtype: 'float32', data: b64(new Float32Array([1, -2])) });
    assert.deepEqual(f32, [{ offset: '00000000', hex: '00 00 80 3f  00 00 00 c0', values: '1  -2' }]);
    const i64 = byteRows({ offset: 16, byteLength: 24, dtype: 'int64', data: b64(new BigInt64Array([-1n])) });
    assert.deepEqual(i64, [{ offset: '00000010', hex: 'ff ff ff ff ff ff ff ff', values: '-1' }]);
    const f16 = byteRows({ offset: 0, byteLength: 4, dtype: 'float16', data: b64(new Uint16Array([0x3c00, 0xc000])) });
    assert.equal(f16[0]!.values, '1  -2');
    assert.equal(half(0x7c00), Number.POSITIVE_INFINITY);
    assert.ok(Number.isNaN(half(0x7e00)));
    const bools = byteRows({ offset: 0, byteLength: 2, dtype: 'bool', data: b64(new Uint8Array([1, 0])) });
    assert.equal(bools[0]!.values, 'true  false');
    const split = byteRows({ offset: 2, byteLength: 8, dtype: 'float32', data: b64(new Uint8Array([0, 0, 0, 0, 0x80, 0x3f])) });
    assert.equal(split[0]!.hex, '00 00  00 00 80 3f', 'the element boundary at offset 4 is kept');
    assert.equal(split[0]!.values, '1', 'the half element before it is not decoded');
    assert.equal(byteRows({ offset: 0, byteLength: 40, dtype: 'int32', data: b64(new Int32Array(10)) }).length, 3, '16 bytes a row');
  });
});

describe('the byte view in the inspector', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(async () => {
    await h?.close();
  });

  test('Bytes shows the int32 cube as stored, from a tensorBytes request; Values goes back', async () => {
    const page = await h.open(cubeFixtures);
    await sendInvocation(page, SESSION, cubeEvent);
    await waitForTensor(page);
    await page.click('button.show-bytes');
    await page.waitForSelector('table.bytes tbody tr');
    const rows = await page.$$eval('table.bytes tbody tr', (trs) => trs.map((tr) => Array.from(tr.children, (td) => td.textContent)));
    assert.equal(rows.length, 6, '96 bytes, 16 a row');
    assert.deepEqual(rows[0], ['00000000', '00 00 00 00  01 00 00 00  02 00 00 00  03 00 00 00', '0  1  2  3']);
    assert.deepEqual(rows[5], ['00000050', '14 00 00 00  15 00 00 00  16 00 00 00  17 00 00 00', '20  21  22  23']);
    assert.match((await page.textContent('.byte-range')) ?? '', /bytes 0–95 of 96 · int32, little-endian as stored/);
    assert.equal(await page.isDisabled('button.byte-next'), true);
    const asked = (await posted(page)).filter((m) => m.type === 'tensorBytes');
    assert.equal(asked.length, 1);
    assert.deepEqual(
      { ...asked[0], requestId: 0 },
      { type: 'tensorBytes', requestId: 0, sessionId: SESSION, invocationId: 8, side: 'inputs', index: 0, offset: 0, count: 256 },
    );
    await screenshot(page, 'byte-view.png');
    await page.click('button.show-bytes');
    await page.waitForSelector('table.bytes', { state: 'detached' });
    assert.ok(await page.$('.grid-scroll'), 'the value grid is back');
    await assertClean(h, page);
  });

  test('a buffer of 2,000 float32 pages by 256 bytes; a tensor without one says why', async () => {
    const info = { ...cubeEvent.inputs[0]!, dtype: 'float32', shape: [2000], size: 2000 };
    const event = { ...cubeEvent, inputs: [info] };
    const fixtures = { [fixtureKey(SESSION, 8, 'inputs', 0)]: { info, affine: { scale: 0.5, offset: 0 } } };
    const page = await h.open(fixtures);
    await sendInvocation(page, SESSION, event);
    await waitForTensor(page);
    await page.click('button.show-bytes');
    await page.waitForSelector('table.bytes tbody tr');
    assert.equal(await page.isDisabled('button.byte-prev'), true);
    await page.click('button.byte-next');
    await page.waitForFunction(() => document.querySelector('table.bytes td.byte-offset')?.textContent === '00000100');
    assert.match((await page.textContent('table.bytes tbody tr td.byte-values')) ?? '', /^32 {2}32\.5 {2}33 {2}33\.5$/);
    assert.match((await page.textContent('.byte-range')) ?? '', /bytes 256–511 of 8,000/);

    const strings = { ...cubeEvent.inputs[0]!, dtype: 'string' };
    const other = await h.open({ [fixtureKey(SESSION, 8, 'inputs', 0)]: { info: strings, values: Array.from({ length: 24 }, () => 'a') } });
    await sendInvocation(other, SESSION, { ...cubeEvent, inputs: [strings] });
    await waitForTensor(other);
    await other.click('button.show-bytes');
    await other.waitForFunction(() => /a string tensor has no byte buffer/.test(document.querySelector('.problem')?.textContent ?? ''));
    await assertClean(h, page);
  });
});
