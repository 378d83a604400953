/**
 * runtime/tensor-formats.ts: the texts "copy" gives (JSON, NumPy literal, CSV), its refusals and its cap.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { copyRefusal, formatTensor, MAX_COPY_VALUES, shortestFloat32, type CopyFormat, type CopySource } from '../../runtime/tensor-formats.js';

function text(format: CopyFormat, source: CopySource, name?: string): string {
  const r = formatTensor(format, source, name);
  assert.ok(r.ok, r.ok ? '' : r.message);
  return r.text;
}

describe('NumPy literal', () => {
  test('float32 [1, 2]: floats print as floats, with the dtype', () => {
    assert.equal(text('numpy', { dtype: 'float32', shape: [1, 2], values: [1, 2] }), 'np.array([[1.0, 2.0]], dtype=np.float32)');
  });
  test('float32 values print as the shortest decimal that reads back the same float32', () => {
    const tenth = Math.fround(0.1);
    assert.equal(text('numpy', { dtype: 'float32', shape: [2], values: [tenth, Math.fround(1 / 3)] }), 'np.array([0.1, 0.33333334], dtype=np.float32)');
    assert.equal(shortestFloat32(Math.fround(0.1)), '0.1');
    // float64 keeps every digit.
    assert.equal(text('numpy', { dtype: 'float64', shape: [1], values: [tenth] }), `np.array([${tenth}], dtype=np.float64)`);
  });
  test('NaN, ±Infinity (exact as strings, or null from JSON), -0', () => {
    assert.equal(
      text('numpy', { dtype: 'float32', shape: [5], values: ['NaN', 'Infinity', '-Infinity', null, -0] }),
      'np.array([np.nan, np.inf, -np.inf, np.nan, -0.0], dtype=np.float32)',
    );
  });
  test('ints, int64 as bigints beyond 2^53, bools, strings, scalars', () => {
    assert.equal(text('numpy', { dtype: 'int32', shape: [2, 2], values: [1, -2, 3, 4] }), 'np.array([[1, -2], [3, 4]], dtype=np.int32)');
    assert.equal(text('numpy', { dtype: 'int64', shape: [1], values: [9007199254740993n] }), 'np.array([9007199254740993], dtype=np.int64)');
    assert.equal(text('numpy', { dtype: 'bool', shape: [2], values: [true, false] }), 'np.array([True, False], dtype=np.bool_)');
    // As TF.js stores them (0/1), too.
    assert.equal(text('numpy', { dtype: 'bool', shape: [2], values: [1, 0] }), 'np.array([True, False], dtype=np.bool_)');
    assert.equal(text('json', { dtype: 'bool', shape: [2], values: [1, 0] }), '[true,false]');
    assert.equal(text('numpy', { dtype: 'string', shape: [2], values: ["it's", 'a\nb'] }), "np.array([\"it's\", 'a\\nb'], dtype=object)");
    assert.equal(text('numpy', { dtype: 'float32', shape: [], values: [2.5] }), 'np.array(2.5, dtype=np.float32)');
  });
  test('complex64: re, im pairs', () => {
    assert.equal(text('numpy', { dtype: 'complex64', shape: [2], values: [1, 2, 3, -4] }), 'np.array([(1.0+2.0j), (3.0-4.0j)], dtype=np.complex64)');
  });
});

describe('JSON', () => {
  test('nested by shape; NaN and ±Infinity are null (JSON has none)', () => {
    assert.equal(text('json', { dtype: 'float32', shape: [2, 2], values: [1, 2.5, 'NaN', 'Infinity'] }), '[[1,2.5],[null,null]]');
    assert.deepEqual(JSON.parse(text('json', { dtype: 'int32', shape: [2, 1, 2], values: [1, 2, 3, 4] })), [[[1, 2]], [[3, 4]]]);
    assert.equal(text('json', { dtype: 'float32', shape: [], values: [3] }), '3');
    assert.equal(text('json', { dtype: 'string', shape: [1], values: ['"q"'] }), '["\\"q\\""]');
  });
});

describe('CSV', () => {
  test('2-D: a row per line; 1-D: a value per line; nan/inf as numpy.loadtxt reads them', () => {
    assert.equal(text('csv', { dtype: 'float32', shape: [2, 3], values: [1, 2, 3, 4, 'NaN', '-Infinity'] }), '1.0,2.0,3.0\n4.0,nan,-inf\n');
    assert.equal(text('csv', { dtype: 'int32', shape: [3], values: [7, 8, 9] }), '7\n8\n9\n');
    assert.equal(text('csv', { dtype: 'string', shape: [1, 2], values: ['a,b', 'say "hi"'] }), '"a,b","say ""hi"""\n');
  });
  test('refuses more than 2-D, saying what to do instead', () => {
    const r = formatTensor('csv', { dtype: 'float32', shape: [2, 2, 2], values: [1, 2, 3, 4, 5, 6, 7, 8] }, 'x');
    assert.equal(r.ok, false);
    assert.match(r.ok ? '' : r.message, /CSV holds 1-D or 2-D tensors; x is 3-D \(shape \[2, 2, 2\]\): copy it as JSON or NumPy/);
  });
});

describe('limits', () => {
  test(`more than ${MAX_COPY_VALUES} values is refused up front, before any value is read`, () => {
    const message = copyRefusal('numpy', 'float32', [10_000, 1_000], 'w');
    assert.match(message ?? '', /w has 10,000,000 values; a copy as NumPy takes at most 1,000,000: copy a slice of it/);
    assert.equal(copyRefusal('json', 'float32', [1000, 1000]), undefined);
  });
  test('values that do not fit the shape are an error, not a wrong literal', () => {
    const r = formatTensor('numpy', { dtype: 'float32', shape: [2, 2], values: [1, 2, 3] });
    assert.equal(r.ok, false);
  });
  test('a million float32 values format as NumPy, every one of them (its time: bench/test-timings.bench.ts, as a ratio to 100,000)', () => {
    const values = Array.from({ length: MAX_COPY_VALUES }, (_, i) => Math.fround(i / 7));
    const r = formatTensor('numpy', { dtype: 'float32', shape: [1000, 1000], values });
    assert.ok(r.ok);
    assert.equal(r.text.match(/-?\d[\d.e+-]*/g)?.length, MAX_COPY_VALUES + 1, 'each value, and the 32 of np.float32');
  });
});
