/**
 * `tensorCallback` event bodies (debug-adapter/PROTOCOL.md) and tensor values for the inspector's
 * browser tests and benchmark.
 */
import type { TensorCallbackEvent, TensorInfo } from '../../media/src/protocol.js';
import { fixtureKey, type Fixtures } from './harness.js';

export const SESSION = 'session-1';

const callback = (name: string, kind = 'numpy_function') => ({ name, token: 'pyfunc_2', kind, stateful: true, functionName: name });

function info(dtype: string, shape: number[], extra: Partial<TensorInfo> = {}): TensorInfo {
  return { kind: 'Tensor', dtype, shape, size: shape.reduce((a, b) => a * b, 1), disposed: false, ...extra };
}

/** numpy's float64 mistake: a Float64Array returned where Tout says float32 (TensorFlow's message). */
export const DTYPE_MESSAGE =
  "0-th value returned by normalize is double, but expects float\n  the value is a Float64Array of shape [2,2] and dtype float64. This is numpy's float64 mistake in JavaScript: a Float64Array is double precision. Return float32 data (Float32Array.from(values)) or declare Tout 'float32'.";

export const mismatchEvent: TensorCallbackEvent = {
  reason: 'exception',
  description: 'Tout mismatch in normalize: 0-th value is double, but expects float',
  invocation: {
    id: 3,
    callback: callback('normalize'),
    op: 'PyFunc',
    graph: 'standardize',
    node: 'standardize/normalize',
    Tout: ['float32'],
    parameterNames: ['pixels'],
    callSite: { file: '/abs/model.json', line: 72, column: 1 },
    phase: 'returned',
    toutCheck: {
      ok: false,
      mismatches: [{ message: DTYPE_MESSAGE, short: '0-th value is double, but expects float', index: 0, problem: 'dtype' }],
      narrowed: [],
    },
  },
  inputs: [
    info('float32', [2, 2], { min: 0, max: 255, mean: 111.75, nanCount: 0, infCount: 0, zeroCount: 1, exact: true, counted: 4, preview: [0, 64, 128, 255] }),
  ],
  outputs: [{ kind: 'Float64Array', dtype: 'Float64Array', shape: [2, 2], size: 4, disposed: false }],
};

export const mismatchFixtures: Fixtures = {
  [fixtureKey(SESSION, 3, 'inputs', 0)]: { info: mismatchEvent.inputs[0]!, values: [0, 64, 128, 255] },
  [fixtureKey(SESSION, 3, 'outputs', 0)]: { info: mismatchEvent.outputs[0]!, values: [-1, -0.498039, 0.003922, 1] },
};

/** Tout float64 and int64: TF.js holds them as float32 and int32 (narrowing, not an error). */
export const narrowingEvent: TensorCallbackEvent = {
  reason: 'breakpoint',
  description: 'Paused on breakpoint in scale',
  invocation: {
    id: 4,
    callback: callback('scale', 'py_function'),
    op: 'EagerPyFunc',
    graph: 'model',
    node: 'model/scale',
    Tout: ['float64', 'int32'],
    parameterNames: ['x', 'factor'],
    phase: 'returned',
    toutCheck: { ok: true, mismatches: [], narrowed: [{ index: 0, declared: 'float64', storedAs: 'float32' }] },
  },
  inputs: [
    info('float32', [3], { min: 1, max: 3, mean: 2, nanCount: 0, infCount: 0, zeroCount: 0, exact: true, counted: 3, preview: [1, 2, 3] }),
    info('int32', [], { min: 2, max: 2, mean: 2, nanCount: 0, infCount: 0, zeroCount: 0, exact: true, counted: 1, preview: [2] }),
  ],
  outputs: [
    info('float32', [3], { min: 2, max: 6, mean: 4, nanCount: 0, infCount: 0, zeroCount: 0, exact: true, counted: 3, preview: [2, 4, 6] }),
    info('int32', [1], { min: 3, max: 3, mean: 3, nanCount: 0, infCount: 0, zeroCount: 0, exact: true, counted: 1, preview: [3] }),
  ],
};

/**
 * A py_function over a DT_DOUBLE input (Tin float64, a float32 tensor in TF.js) that returned a
 * Float64Array for Tout float32: converted, as TensorFlow does, and flagged.
 */
export const CONVERSION_MESSAGE =
  "output 0: py_function converts a Float64Array (float64) to float32, as TensorFlow's convert_to_tensor does. Return float32 data to skip the conversion.";
export const conversionEvent: TensorCallbackEvent = {
  reason: 'breakpoint',
  description: 'Paused on breakpoint in cube_plus',
  invocation: {
    id: 6,
    callback: callback('cube_plus', 'py_function'),
    op: 'EagerPyFunc',
    graph: 'float64',
    node: 'StatefulPartitionedCall/cube_plus',
    Tout: ['float32'],
    Tin: ['float64'],
    parameterNames: ['a'],
    callSite: { file: '/abs/float64/model.json', line: 1, column: 1265 },
    phase: 'returned',
    toutCheck: {
      ok: true,
      mismatches: [],
      narrowed: [],
      conversions: [{ index: 0, from: 'Float64Array', fromDType: 'float64', to: 'float32', message: CONVERSION_MESSAGE }],
    },
  },
  inputs: [
    info('float32', [4], {
      min: 0,
      max: 1.386,
      mean: 0.62,
      nanCount: 0,
      infCount: 0,
      zeroCount: 1,
      exact: true,
      counted: 4,
      preview: [0, 0.405, 0.693, 1.386],
    }),
  ],
  outputs: [
    info('float32', [4], {
      min: 0.5,
      max: 3.164,
      mean: 1.27,
      nanCount: 0,
      infCount: 0,
      zeroCount: 0,
      exact: true,
      counted: 4,
      preview: [0.5, 0.567, 0.833, 3.164],
    }),
  ],
};

/** The callback returned two values where Tout declares one. */
export const countEvent: TensorCallbackEvent = {
  reason: 'exception',
  description: 'Tout mismatch in split: returns 2 values, but expects to see 1 values.',
  invocation: {
    id: 5,
    callback: callback('split'),
    op: 'PyFunc',
    graph: 'model',
    Tout: ['float32'],
    parameterNames: ['x'],
    phase: 'returned',
    toutCheck: {
      ok: false,
      mismatches: [
        {
          message: 'split returns 2 values, but expects to see 1 values.\n  The callback returned 2 values; Tout "float32" declares 1.',
          short: 'returns 2 values, but expects to see 1 values.',
          problem: 'count',
        },
      ],
      narrowed: [],
    },
  },
  inputs: [info('float32', [4], { min: 0, max: 3, mean: 1.5, preview: [0, 1, 2, 3] })],
  outputs: [info('float32', [2], { preview: [0, 1] }), info('float32', [2], { preview: [2, 3] })],
};

export const XSS = '<img src=x onerror=alert(1)>';

/** Attacker-controlled text everywhere: names, description, error, dtype and string values. */
export const maliciousEvent: TensorCallbackEvent = {
  reason: 'exception',
  description: `Error in ${XSS}`,
  invocation: {
    id: 6,
    callback: { name: XSS, token: 'pyfunc_9', kind: 'py_function', stateful: false, functionName: '<script>alert(2)</script>' },
    op: 'PyFunc',
    graph: '<svg onload=alert(3)>',
    Tout: ['string'],
    parameterNames: [XSS],
    phase: 'returned',
    error: { name: 'Error', message: `bad input ${XSS}` },
  },
  inputs: [
    {
      kind: 'Tensor',
      dtype: 'string',
      shape: [2, 2],
      size: 4,
      disposed: false,
      preview: [XSS, '<b>bold</b>', 'x" onmouseover="alert(4)', "'); alert(5); //"],
    },
  ],
  outputs: [{ kind: 'Tensor', dtype: '<i>evil-dtype</i>', shape: [1], size: 1, disposed: false }],
};

export const maliciousFixtures: Fixtures = {
  [fixtureKey(SESSION, 6, 'outputs', 0)]: { info: maliciousEvent.outputs[0]!, values: [XSS] },
};

/** A 1000×1000 float32 tensor (1M values), value = its flat index. */
export function bigEvent(id = 7, rows = 1000, cols = 1000): TensorCallbackEvent {
  const size = rows * cols;
  return {
    reason: 'breakpoint',
    description: 'Paused on breakpoint in matmul_check',
    invocation: {
      id,
      callback: callback('matmul_check'),
      op: 'PyFunc',
      graph: 'big',
      node: 'big/check',
      Tout: ['float32'],
      parameterNames: ['m'],
      phase: 'running',
    },
    inputs: [
      info('float32', [rows, cols], {
        min: 0,
        max: size - 1,
        mean: (size - 1) / 2,
        nanCount: 0,
        infCount: 0,
        zeroCount: 1,
        exact: size <= 1 << 20,
        counted: size,
        preview: Array.from({ length: Math.min(size, 16) }, (_, i) => i),
      }),
    ],
    outputs: [],
  };
}

export function bigFixtures(id = 7, rows = 1000, cols = 1000): Fixtures {
  return { [fixtureKey(SESSION, id, 'inputs', 0)]: { info: bigEvent(id, rows, cols).inputs[0]!, affine: { scale: 1, offset: 0 } } };
}

/** A [2, 3, 4] int32 tensor, value = flat index, for slicing along chosen axes. */
export const cubeEvent: TensorCallbackEvent = {
  reason: 'step',
  description: 'Paused after step',
  invocation: {
    id: 8,
    callback: callback('cube'),
    op: 'PyFunc',
    Tout: ['int32'],
    parameterNames: ['t'],
    phase: 'running',
  },
  inputs: [info('int32', [2, 3, 4], { min: 0, max: 23, mean: 11.5, nanCount: 0, infCount: 0, zeroCount: 1, exact: true, counted: 24, preview: [0, 1, 2, 3] })],
  outputs: [],
};

export const cubeFixtures: Fixtures = {
  [fixtureKey(SESSION, 8, 'inputs', 0)]: { info: cubeEvent.inputs[0]!, values: Array.from({ length: 24 }, (_, i) => i) },
};
