/**
 * Dtypes TF.js holds narrower than TensorFlow (float64 as float32, int64 as int32, …) and
 * py_function's conversions, against TensorFlow 2.21's behaviour as measured in
 * test/fixtures/tf-ground-truth/py-func-cases.json (section `semantics`):
 * - numpy-style callbacks get their inputs as numpy would: float64 as a Float64Array, int64 as a
 *   BigInt64Array (from a model node's Tin, a typed array in `inp`, or a callback's Tout);
 * - returning what TF.js holds a dtype as (float32 data for Tout float64) passes, reported as
 *   narrowing; values a dtype cannot hold are an error, never wrapped silently;
 * - py_function converts returned arrays and numbers to Tout (flagged), rejects tensors of another
 *   dtype and variables with TensorFlow's texts; numpy_function stays strict.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { loadCallbackModel, type NdArray, numpyFunction, pyFunction, tf } from '../../runtime/index.js';
import { formatInvocation } from '../../runtime/cli/format.js';
import { callbackNode, placeholder, writeGraphModel } from '../../scripts/lib/graph-model-writer.js';
import { tempDir } from '../fixtures/callback-models.js';
import { BACKENDS, useBackend } from '../helpers/backends.js';
import { firstLine, observed, toutError } from '../helpers/invocations.js';

const { dir: root, cleanup } = tempDir('wider-dtypes-');
after(cleanup);

const valuesOf = (t: tf.Tensor) => Array.from(t.dataSync() as ArrayLike<number>);

/** TensorFlow's recorded errors (scripts/tf-ground-truth/py_func_cases.py), by section, returned value and mode. */
const truth = JSON.parse(fs.readFileSync(new URL('../fixtures/tf-ground-truth/py-func-cases.json', import.meta.url), 'utf8')) as {
  semantics: Record<string, Record<string, Record<string, { error?: { keyLine: string } }>>>;
};

for (const backend of BACKENDS) {
  describe(`wider dtypes and conversions on ${backend}`, () => {
    useBackend(backend);
    let startTensors = 0;
    // The tensor count every test of this backend is measured against (checked by the last test).
    before(() => {
      startTensors = tf.memory().numTensors;
    });

    describe('float64', () => {
      it('a Float64Array in inp reaches a numpy callback as float64, and Tout float64 returning it passes, narrowed', () => {
        let got: NdArray | undefined;
        const { result: y, ends } = observed(() => numpyFunction((a: NdArray) => ((got = a), a.map((v) => v * 2)), [new Float64Array([0.1, 1e-9])], 'float64'));
        assert.equal(got!.dtype, 'float64');
        assert.ok(got!.data instanceof Float64Array);
        assert.ok(Math.abs((got!.data as Float64Array)[0]! - 0.1) < 1e-8);
        assert.equal(y.dtype, 'float32', 'TF.js holds it as float32');
        assert.deepEqual(ends[0]!.Tin, ['float64']);
        assert.deepEqual(ends[0]!.toutCheck!.narrowed, [{ index: 0, declared: 'float64', storedAs: 'float32' }]);
        assert.equal(ends[0]!.outputs[0]!.dtype, 'float64');
        assert.equal(ends[0]!.outputs[0]!.heldAs, 'float32');
        y.dispose();
      });

      it("a callback's float64 output feeds the next numpy callback as float64, as in a TensorFlow graph", () => {
        const first = numpyFunction((a: NdArray) => a.map(Math.log1p), [new Float64Array([0, 1])], 'float64');
        let dtype = '';
        let type = '';
        const second = numpyFunction((a: NdArray) => ((dtype = a.dtype), (type = a.data.constructor.name), a), [first], 'float64');
        assert.deepEqual([dtype, type], ['float64', 'Float64Array']);
        tf.dispose([first, second]);
      });

      it('what TF.js can hold for Tout float64 passes: a Float32Array, a float32 tensor, numbers (narrowing reported, never an error)', () => {
        const x = tf.tensor([1, 2]);
        const cases: [string, () => tf.Tensor][] = [
          ['Float32Array', () => numpyFunction((a: NdArray) => Float32Array.from(a.data as Float32Array, (v) => v / 3), [x], 'float64')],
          ['float32 NdArray', () => numpyFunction((a: NdArray) => a.map((v) => v / 3), [x], 'float64')],
          ['float32 tensor', () => pyFunction((t: tf.Tensor) => t.div(3), [x], 'float64')],
          ['numbers', () => numpyFunction(() => [1 / 3, 2 / 3], [x], 'float64')],
        ];
        for (const [what, run] of cases) {
          const { result: y, ends } = observed(run);
          assert.equal(ends[0]!.toutCheck!.ok, true, what);
          assert.deepEqual(ends[0]!.toutCheck!.narrowed, [{ index: 0, declared: 'float64', storedAs: 'float32' }], what);
          assert.ok(Math.abs(valuesOf(y)[1]! - 2 / 3) < 1e-6, what);
          y.dispose();
        }
        x.dispose();
      });

      it('the CLI line says float64 is held as float32 for the input and the output, in the one wording', () => {
        const { result: y, ends } = observed(() => numpyFunction((a: NdArray) => a, [new Float64Array([1])], 'float64', { name: 'ident64' }));
        assert.match(formatInvocation(ends[0]!), /in float64\[1\] → out float64\[1\]/);
        assert.match(formatInvocation(ends[0]!), /⚠ float64 in TensorFlow, held as float32 in TF\.js \(input 0, output 0\)/);
        y.dispose();
      });
    });

    describe('int64', () => {
      it('a BigInt64Array in inp reaches a numpy callback as int64 BigInt64Array; returning int64 data passes, narrowed to int32', () => {
        let got: NdArray | undefined;
        const { result: y, ends } = observed(() => numpyFunction((a: NdArray) => ((got = a), a.map((v) => v + 1)), [new BigInt64Array([1n, -2n])], 'int64'));
        assert.equal(got!.dtype, 'int64');
        assert.ok(got!.data instanceof BigInt64Array);
        assert.deepEqual(Array.from(got!.data as BigInt64Array), [1n, -2n]);
        assert.equal(y.dtype, 'int32');
        assert.deepEqual(valuesOf(y), [2, -1]);
        assert.deepEqual(ends[0]!.toutCheck!.narrowed, [{ index: 0, declared: 'int64', storedAs: 'int32' }]);
        y.dispose();
      });

      it('Int32Array data and integers pass Tout int64', () => {
        for (const run of [() => numpyFunction(() => new Int32Array([7]), [], 'int64'), () => numpyFunction(() => 7, [], 'int64')]) {
          const y = run();
          assert.deepEqual(valuesOf(y), [7]);
          y.dispose();
        }
      });

      it('an int64 value TF.js cannot hold is an error naming it (TensorFlow would keep it; wrapping it to int32 would lose it)', () => {
        const err = toutError(() => numpyFunction(() => new BigInt64Array([2n ** 40n]), [], 'int64', { name: 'big' }));
        assert.equal(
          firstLine(err),
          '0-th value returned by big holds 1099511627776 at flat index 0: TF.js holds int64 as int32 and cannot keep it. Keep the values within [-2147483648, 2147483647].',
        );
        assert.equal(err.problem, 'value');
      });

      it('2**40 for Tout int32 is an error, not the silent 0 TensorFlow gives', () => {
        const err = toutError(() => pyFunction(() => 2 ** 40, [], 'int32', { name: 'wraps' }));
        assert.match(firstLine(err), /^0-th value returned by wraps holds 1099511627776 at flat index 0: it is outside int32/);
      });

      it('a model node with Tin int64 hands its numpy callback a BigInt64Array', async () => {
        const file = writeGraphModel(`${root}/int64-${backend}`, [
          placeholder('ids', [-1], 'DT_INT64'),
          callbackNode('next_id', 'PyFunc', ['ids'], 'pyfunc_ids', ['DT_INT64'], ['DT_INT64']),
        ]);
        let got: NdArray | undefined;
        const model = await loadCallbackModel(file, { callbacks: { next_id: (a: NdArray) => ((got = a), a.map((v) => v + 1)) } });
        const ids = tf.tensor([3, 4], [2], 'int32');
        const y = (await model.run({ ids })) as tf.Tensor;
        assert.equal(got!.dtype, 'int64');
        assert.deepEqual(Array.from(got!.data as BigInt64Array), [3n, 4n]);
        assert.deepEqual(valuesOf(y), [4, 5]);
        tf.dispose([ids, y]);
        model.dispose();
      });
    });

    describe('uint8 and the other dtypes TF.js holds as int32', () => {
      it('int32 data passes Tout uint8, but a value uint8 cannot hold is an error', () => {
        const y = numpyFunction(() => new Int32Array([0, 255]), [], 'uint8');
        assert.deepEqual(valuesOf(y), [0, 255]);
        y.dispose();
        const err = toutError(() => numpyFunction(() => new Int32Array([300]), [], 'uint8', { name: 'pixel' }));
        assert.match(firstLine(err), /^0-th value returned by pixel holds 300 at flat index 0: it is outside uint8/);
      });
    });

    describe('py_function converts what is not a tensor (numpy_function does not)', () => {
      it('a Float64Array for Tout float32 is converted, flagged as a conversion (CLI ⚠), not an error', () => {
        const x = tf.tensor([1, 2]);
        const { result: y, ends } = observed(() =>
          pyFunction((t: tf.Tensor) => Float64Array.from(t.dataSync(), (v) => v / 4), [x], 'float32', { name: 'quarter' }),
        );
        assert.deepEqual(valuesOf(y), [0.25, 0.5]);
        assert.equal(ends[0]!.toutCheck!.ok, true);
        assert.deepEqual(
          ends[0]!.toutCheck!.conversions.map(({ index, from, fromDType, to }) => ({ index, from, fromDType, to })),
          [{ index: 0, from: 'Float64Array', fromDType: 'float64', to: 'float32' }],
        );
        assert.match(
          formatInvocation(ends[0]!),
          /⚠ output 0: py_function converts a Float64Array \(float64\) to float32, as TensorFlow's convert_to_tensor does/,
        );
        tf.dispose([x, y]);
      });

      it('the same Float64Array from numpy_function is the error TensorFlow raises', () => {
        const err = toutError(() => numpyFunction(() => new Float64Array([0.25]), [], 'float32', { name: 'quarter' }));
        assert.equal(firstLine(err), '0-th value returned by quarter is double, but expects float');
      });

      it('plain numbers take Tout without a flag; a Float32Array for Tout int32 is truncated, as TensorFlow does, and flagged', () => {
        const { result: a, ends: numberEnds } = observed(() => pyFunction(() => [1.5, 2.5], [], 'float32'));
        assert.deepEqual(numberEnds[0]!.toutCheck!.conversions, []);
        const { result: b, ends } = observed(() => pyFunction(() => new Float32Array([1.5, -2.5]), [], 'int32'));
        assert.deepEqual(valuesOf(b), [1, -2]);
        assert.match(ends[0]!.toutCheck!.conversions[0]!.message, /converts a Float32Array \(float32\) to int32, truncating fractions/);
        tf.dispose([a, b]);
      });

      it("TensorFlow's refusals, their first lines TensorFlow's recorded ones, the exception class included: 1.5 for int32, 'abc' for float32, a tensor of another dtype, a variable", () => {
        const recorded = (section: 'a_py_function_Tout_float32_returns' | 'b_py_function_Tout_int32_returns', returned: string) =>
          truth.semantics[section]![returned]!['tf.function']!.error!.keyLine;
        assert.equal(firstLine(toutError(() => pyFunction(() => 1.5, [], 'int32'))), recorded('b_py_function_Tout_int32_returns', 'Python float 1.5'));
        assert.equal(firstLine(toutError(() => pyFunction(() => 'abc', [], 'float32'))), recorded('a_py_function_Tout_float32_returns', "Python str 'abc'"));
        const x = tf.tensor([1], [1], 'int32');
        assert.equal(
          firstLine(toutError(() => pyFunction((t: tf.Tensor) => t.clone(), [x], 'float32'))),
          recorded('a_py_function_Tout_float32_returns', 'int32 tf.Tensor [1]'),
        );
        // Named as TensorFlow names an unnamed variable, so its repr reads the same.
        const init = tf.tensor([1.5]);
        const v = tf.variable(init, true, 'Variable');
        const err = toutError(() => pyFunction(() => v, [], 'float32'));
        assert.equal(firstLine(err), recorded('a_py_function_Tout_float32_returns', 'tf.Variable float32 [1.5]'));
        assert.match(err.message, /return tf\.clone\(variable\)/);
        tf.dispose([x, v, init]);
      });

      it('the gradient of a converted output is zeros, as TensorFlow gives for py_function(np.square(x.numpy()))', () => {
        const x = tf.scalar(3);
        const dx = tf.grad((t: tf.Tensor) => pyFunction((u: tf.Tensor) => Float32Array.from(u.dataSync(), (v) => v * v), [t], 'float32'))(x);
        assert.deepEqual(valuesOf(dx), [0]);
        const dTape = tf.grad((t: tf.Tensor) => pyFunction((u: tf.Tensor) => u.mul(u), [t], 'float32'))(x);
        assert.deepEqual(valuesOf(dTape), [6], 'a tape through tensor ops is kept');
        tf.dispose([x, dx, dTape]);
      });
    });

    it('no tensors leak', () => {
      assert.equal(tf.memory().numTensors, startTensors);
    });
  });
}
