/**
 * readMemory on tensors: tensor variables (Callback scope inputs, locals, evaluate results) carry a
 * memoryReference, and their bytes read back as stored (little-endian), paged and bounded. Real
 * adapter, real debuggee, real TF.js.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { TENSOR_BYTES_REQUEST, type TensorBytesResponseBody, type TensorCallbackEventBody } from '../../debug-adapter/extension-protocol.js';
import { fixture, THREAD, useDebugAdapter, withSession, type Session } from '../helpers/dap.js';
import { lineOf } from '../helpers/markers.js';

useDebugAdapter();

const BYTES = fixture('tensor-bytes-program.ts');
const BIG = fixture('big-tensor-program.ts');
const T = { timeout: 90_000 };

async function stopIn(s: Session, file: string, marker: string): Promise<number> {
  await s.launch({ program: file }, (dc) => dc.setBreakpointsRequest({ source: { path: file }, breakpoints: [{ line: lineOf(file, marker) }] }));
  assert.equal((await s.stopped()).body.reason, 'breakpoint');
  return (await s.stack())[0]!.id;
}

async function read(
  s: Session,
  memoryReference: string,
  offset: number,
  count: number,
): Promise<{ bytes: Buffer; body: DebugProtocol.ReadMemoryResponse['body'] }> {
  const r = (await s.dc.customRequest('readMemory', { memoryReference, offset, count })) as DebugProtocol.ReadMemoryResponse;
  return { bytes: Buffer.from(r.body?.data ?? '', 'base64'), body: r.body };
}

function bytesOf(view: ArrayBufferView): Buffer {
  return Buffer.from(view.buffer, view.byteOffset, view.byteLength);
}

describe('readMemory', () => {
  test('the initialize response announces readMemory', T, () =>
    withSession(async (s) => {
      const init = await s.dc.initializeRequest({
        adapterID: 'tfjs-callbacks',
        linesStartAt1: true,
        columnsStartAt1: true,
        pathFormat: 'path',
        supportsMemoryReferences: true,
      });
      assert.equal(init.body?.supportsReadMemoryRequest, true);
    }),
  );

  test('tensor variables carry a memoryReference to their bytes, as stored', T, () =>
    withSession(async (s) => {
      const frameId = await stopIn(s, BYTES, '@inspect-body');

      const cb = await s.scope(frameId, 'Callback');
      const x = cb.get('x');
      assert.ok(x.memoryReference, `x (${x.value}) should carry a memoryReference`);
      const whole = await read(s, x.memoryReference, 0, 16);
      assert.deepEqual(whole.bytes, bytesOf(new Float32Array([1, -2, 0.1, Number.NaN])));
      assert.equal(whole.body?.address, '0x0');
      assert.equal(whole.body?.unreadableBytes ?? 0, 0);

      // An unaligned page in the middle, and a page past the end: the bytes there, the rest unreadable.
      assert.deepEqual((await read(s, x.memoryReference, 5, 6)).bytes, bytesOf(new Float32Array([1, -2, 0.1, Number.NaN])).subarray(5, 11));
      const past = await read(s, x.memoryReference, 12, 100);
      assert.deepEqual(past.bytes, bytesOf(new Float32Array([Number.NaN])));
      assert.equal(past.body?.address, '0xc');
      assert.equal(past.body?.unreadableBytes, 96);

      // int32, little-endian as stored.
      const ids = cb.get('ids');
      assert.ok(ids.memoryReference);
      assert.equal((await read(s, ids.memoryReference, 0, 12)).bytes.toString('hex'), '01000000' + '00010000' + 'ffffffff');

      // Typed arrays in the callback's locals: int64 and float16 bits.
      const locals = await s.scope(frameId, 'Locals');
      const wide = locals.get('wide');
      assert.ok(wide.memoryReference, `wide (${wide.value}) should carry a memoryReference`);
      assert.deepEqual((await read(s, wide.memoryReference, 0, 64)).bytes, bytesOf(new BigInt64Array([1n, -1n, 9007199254740993n])));
      const halves = locals.get('halves');
      assert.ok(halves.memoryReference);
      assert.equal((await read(s, halves.memoryReference, 0, 4)).bytes.toString('hex'), '003c00c0');

      // An evaluate result that is a tensor.
      const r = await s.dc.evaluateRequest({ expression: "ids.add(1).cast('int32')", frameId, context: 'repl' });
      assert.ok(r.body.memoryReference, `${r.body.result} should carry a memoryReference`);
      assert.equal((await read(s, r.body.memoryReference, 4, 4)).bytes.toString('hex'), '01010000');

      // A string tensor has no byte buffer: an error that says so.
      const names = locals.get('names');
      assert.ok(names.memoryReference);
      await assert.rejects(read(s, names.memoryReference, 0, 8), /string tensor has no byte buffer/);
      await assert.rejects(read(s, 'tensor-999999', 0, 8), /not a memory reference/);

      await s.dc.continueRequest({ threadId: THREAD });
      await s.terminated();
      assert.match(s.output('stdout'), /inspected 2x2/);
    }),
  );

  test('a 10M-element tensor reads from its end, and one answer is capped at 1 MiB', T, () =>
    withSession(async (s) => {
      const frameId = await stopIn(s, BIG, '@total-body');
      const x = (await s.scope(frameId, 'Callback')).get('x');
      assert.ok(x.memoryReference);
      // Its time, as a ratio to the first 8 bytes': bench/test-timings.bench.ts.
      const tail = await read(s, x.memoryReference, 39_999_992, 8);
      assert.deepEqual(tail.bytes, bytesOf(new Float32Array([9_999_998, 9_999_999])));
      const big = await read(s, x.memoryReference, 0, 4 << 20);
      assert.equal(big.bytes.length, 1 << 20, 'at most 1 MiB per answer');
      assert.equal(big.body?.unreadableBytes ?? 0, 0, 'bytes left out by the cap are not unreadable: the client asks again');
      assert.deepEqual(big.bytes.subarray(0, 8), bytesOf(new Float32Array([0, 1])));
    }),
  );
});

describe('tensorBytes (the inspector’s byte view)', () => {
  test("an invocation's inputs by id, side and index: the bytes as stored, the buffer's length and dtype; bad arguments said", T, () =>
    withSession(async (s) => {
      await stopIn(s, BYTES, '@inspect-body');
      const event = (await s.waitFor('tensorCallback')) as DebugProtocol.Event & { body: TensorCallbackEventBody };
      const invocationId = event.body.invocation.id;
      const bytes = (args: object) => s.dc.customRequest(TENSOR_BYTES_REQUEST, args) as Promise<DebugProtocol.Response & { body: TensorBytesResponseBody }>;

      const x = (await bytes({ invocationId, side: 'inputs', index: 0, offset: 0, count: 256 })).body;
      assert.equal(x.byteLength, 16);
      assert.equal(x.dtype, 'float32');
      assert.deepEqual(Buffer.from(x.data, 'base64'), bytesOf(new Float32Array([1, -2, 0.1, Number.NaN])));
      const ids = (await bytes({ invocationId, side: 'inputs', index: 1, offset: 4, count: 4 })).body;
      assert.equal(ids.offset, 4);
      assert.equal(Buffer.from(ids.data, 'base64').toString('hex'), '00010000');
      assert.equal(ids.dtype, 'int32');

      await assert.rejects(bytes({ invocationId, side: 'inputs', index: 7, offset: 0, count: 8 }), /input 7 of invocation \d+ is not there/);
      await assert.rejects(bytes({ invocationId, side: 'inputs', index: 0, offset: -1, count: 8 }), /"offset" must be a whole number ≥ 0, not number -1/);
      await assert.rejects(bytes({ side: 'inputs', index: 0, offset: 0, count: 8 }), /tensorBytes needs invocationId, or graph and node; it got none of them/);
      await s.dc.continueRequest({ threadId: THREAD });
      await s.terminated();
    }),
  );
});
