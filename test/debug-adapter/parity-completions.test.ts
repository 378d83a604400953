/**
 * js-debug parity, Debug Console completions: `x.` + Ctrl+Space lists the value's properties (own
 * and up the prototype chain: an NdArray's members, an array's methods), a bare prefix the Callback
 * scope's names and the frame's variables, in a callback frame and in a plain JS frame. Real
 * adapter, real debuggee, real TF.js.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { describeFrames, fixture, type Session, useDebugAdapter, withSession } from '../helpers/dap.js';
import { lineOf } from '../helpers/markers.js';

useDebugAdapter();

const PROGRAM = fixture('parity-program.ts');
const T = { timeout: 90_000 };

async function stopAt(s: Session, marker: string): Promise<DebugProtocol.StackFrame> {
  const line = lineOf(PROGRAM, marker);
  await s.launch({ program: PROGRAM }, (dc) => dc.setBreakpointsRequest({ source: { path: PROGRAM }, breakpoints: [{ line }] }));
  assert.equal((await s.stopped()).body.reason, 'breakpoint');
  const frames = await s.stack();
  assert.equal(frames[0]!.line, line, describeFrames(frames));
  return frames[0]!;
}

/** The completion targets for `text` with the cursor at its end (DAP columns from 1, as DebugClient says). */
async function complete(s: Session, text: string, frameId?: number): Promise<DebugProtocol.CompletionItem[]> {
  const r = await s.dc.completionsRequest({ text, column: text.length + 1, ...(frameId !== undefined ? { frameId } : {}) });
  return r.body.targets;
}

function labels(items: DebugProtocol.CompletionItem[]): string[] {
  return items.map((i) => i.label);
}

describe('parity: completions', () => {
  test('the initialize response announces the js-debug capabilities this adapter has', T, () =>
    withSession(async (s) => {
      const init = await s.dc.initializeRequest({ adapterID: 'tfjs-callbacks', linesStartAt1: true, columnsStartAt1: true, pathFormat: 'path' });
      for (const capability of [
        'supportsCompletionsRequest',
        'supportsBreakpointLocationsRequest',
        'supportsLoadedSourcesRequest',
        'supportsStepInTargetsRequest',
      ] as const)
        assert.equal(init.body?.[capability], true, capability);
    }),
  );

  test('in a callback frame: members of an NdArray, an array, an object, a typed array; Callback names and locals for a bare prefix', T, () =>
    withSession(async (s) => {
      const top = await stopAt(s, '@scale-return');
      const x = labels(await complete(s, 'x.', top.id));
      for (const name of ['data', 'shape', 'dtype', 'size', 'rank', 'get', 'map', 'constructor', 'hasOwnProperty', 'toString'])
        assert.ok(x.includes(name), `x. offers ${name}: ${x.join(', ')}`);
      // Own properties first, then the prototype's, then Object.prototype's.
      assert.ok(x.indexOf('data') < x.indexOf('map') && x.indexOf('map') < x.indexOf('hasOwnProperty'), x.join(', '));

      const shape = await complete(s, 'x.sh', top.id);
      assert.deepEqual(labels(shape), ['shape']);
      assert.equal(shape[0]!.start, 3, 'replaces the typed prefix, which starts at column 3');
      assert.equal(shape[0]!.length, 2);

      const arrayMembers = labels(await complete(s, 'x.shape.', top.id));
      for (const name of ['length', 'map', 'join', 'at']) assert.ok(arrayMembers.includes(name), arrayMembers.join(', '));
      assert.ok(!arrayMembers.includes('0'), 'no indexes');

      const typed = labels(await complete(s, 'typed.', top.id));
      for (const name of ['length', 'subarray', 'buffer']) assert.ok(typed.includes(name), typed.join(', '));
      assert.ok(!typed.includes('0'));

      const obj = labels(await complete(s, 'obj.', top.id));
      assert.deepEqual(obj.slice(0, 2), ['a', 'b']);
      assert.deepEqual(labels(await complete(s, 'nested["inner"].d', top.id)), ['deep']);
      const tensor = labels(await complete(s, 'weights.data', top.id));
      for (const name of ['data', 'dataSync', 'dataId']) assert.ok(tensor.includes(name), `a tensor's ${name}: ${tensor.join(', ')}`);

      const bare = labels(await complete(s, '', top.id));
      for (const name of ['x', 'Tout', 'Tin', 'nodeAttrs', 'factor', 'arr', 'typed', 'obj', 'weights', 'console', 'Math'])
        assert.ok(bare.includes(name), `a bare prefix offers ${name}`);
      assert.deepEqual(labels(await complete(s, 'fac', top.id)), ['factor']);
      assert.ok(labels(await complete(s, 'To', top.id)).includes('Tout'));
      assert.ok(labels(await complete(s, 'console.log(fa', top.id)).includes('factor'), 'inside a call');
    }),
  );

  test('in a plain JS frame: locals, a number’s methods, globals; on the graph frame too', T, () =>
    withSession(async (s) => {
      const top = await stopAt(s, '@helper-body');
      assert.deepEqual(labels(await complete(s, 'lo', top.id)), ['local']);
      assert.ok(labels(await complete(s, 'n', top.id)).includes('n'));
      const num = labels(await complete(s, 'n.', top.id));
      for (const name of ['toFixed', 'toString', 'valueOf']) assert.ok(num.includes(name), num.join(', '));
      assert.ok(labels(await complete(s, 'Ma', top.id)).includes('Math'));
      assert.ok(labels(await complete(s, 'Math.fl', top.id)).includes('floor'));
      assert.deepEqual(labels(await complete(s, 'wei', top.id)), ['weights'], 'a module-level name the module’s functions use');
      assert.ok(!labels(await complete(s, '', top.id)).includes('Tout'), 'no Callback names outside a callback');
      assert.deepEqual(await complete(s, 'nope.', top.id), [], 'an expression that fails gives nothing');
    }),
  );
});
