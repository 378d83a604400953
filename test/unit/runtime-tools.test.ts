/**
 * What the runtime's shared state lends a debugger's agent (runtime/hooks.ts `tools`): the agent
 * has no import of the runtime, so it reads these through the global state symbol.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import '../../runtime/index.js';
import type { RuntimeTools } from '../../runtime/hooks.js';

const STATE = Symbol.for('tfjs-callback-debugger.runtime.state');
const tools = (globalThis as unknown as Record<symbol, { tools?: RuntimeTools }>)[STATE]?.tools;

describe('runtime tools for the agent', () => {
  it('dtypeOfArray gives the runtime’s own dtype of each typed array, undefined for other views', () => {
    assert.ok(tools, 'the runtime puts tools on its shared state when it loads');
    const cases: [ArrayBufferView, string][] = [
      [new Float32Array(1), 'float32'],
      [new Float64Array(1), 'float64'],
      [new Int32Array(1), 'int32'],
      [new Int16Array(1), 'int16'],
      [new Int8Array(1), 'int8'],
      [new Uint8Array(1), 'uint8'],
      [new Uint8ClampedArray(1), 'uint8'],
      [new Uint16Array(1), 'uint16'],
      [new Uint32Array(1), 'uint32'],
      [new BigInt64Array(1), 'int64'],
      [new BigUint64Array(1), 'uint64'],
    ];
    for (const [view, dtype] of cases) assert.equal(tools.dtypeOfArray(view), dtype, view.constructor.name);
    assert.equal(tools.dtypeOfArray(new DataView(new ArrayBuffer(4))), undefined);
  });

  it('summarizeTensor and summarizeValues are there', () => {
    assert.ok(tools);
    assert.equal(tools.summarizeValues({ dtype: 'float64', shape: [2], flat: [1, 3] }).dtype, 'float64');
    assert.equal(typeof tools.summarizeTensor, 'function');
  });
});
