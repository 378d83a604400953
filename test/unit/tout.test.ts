/**
 * Tout: parsing (at wrap time, before func runs) and the check of what func returned, with
 * TensorFlow's error texts.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { NdArray, compat, displayName, numpyFunction, parseDType, parseTout, pyFunction, tf } from '../../runtime/index.js';
import { BACKENDS, useBackend } from '../helpers/backends.js';
import { firstLine, observed, toutError } from '../helpers/invocations.js';

type Tensor = tf.Tensor;

function valuesOf(t: Tensor): number[] {
  return Array.from(t.dataSync() as ArrayLike<number>);
}

describe('parseTout', () => {
  it('accepts TensorFlow names, DataTypeString names and DT_* enum names', () => {
    for (const spelling of ['float32', 'float', 'DT_FLOAT']) assert.deepEqual(parseTout(spelling, 'f'), { dtypes: ['float32'], single: true });
    for (const spelling of ['float64', 'double', 'DT_DOUBLE']) assert.deepEqual(parseTout(spelling, 'f').dtypes, ['float64']);
    for (const spelling of ['float16', 'half', 'DT_HALF']) assert.deepEqual(parseTout(spelling, 'f').dtypes, ['float16']);
    assert.deepEqual(parseTout('int64', 'f').dtypes, ['int64']);
    assert.deepEqual(parseTout('DT_STRING', 'f').dtypes, ['string']);
    assert.deepEqual(parseTout('bool', 'f').dtypes, ['bool']);
  });

  it('a dtype is single; a list (even of one) is not; [] declares no outputs', () => {
    assert.deepEqual(parseTout('int32', 'f'), { dtypes: ['int32'], single: true });
    assert.deepEqual(parseTout(['int32'], 'f'), { dtypes: ['int32'], single: false });
    assert.deepEqual(parseTout(['float', 'DT_INT32', 'string'], 'f'), { dtypes: ['float32', 'int32', 'string'], single: false });
    assert.deepEqual(parseTout([], 'f'), { dtypes: [], single: false });
  });

  it("'flaot32' is a TypeError naming the callback and the spelling", () => {
    assert.throws(
      () => parseTout('flaot32', 'my_cb'),
      (err: unknown) =>
        err instanceof TypeError && /my_cb/.test(err.message) && /Tout is "flaot32"/.test(err.message) && /not a TensorFlow dtype/.test(err.message),
    );
  });

  it("{} and other non-dtype values are TypeErrors with TensorFlow's first line; a missing Tout says so", () => {
    for (const [bad, repr] of [
      [{}, '{}'],
      [42, '42'],
      [null, 'None'],
      [true, 'true'],
      [[['float32']], '["float32"]'],
    ] as const) {
      assert.throws(
        () => parseTout(bad as unknown as string, 'my_cb'),
        (err: unknown) =>
          err instanceof TypeError &&
          err.message.startsWith(`Cannot convert the argument \`type_value\`: ${repr} to a TensorFlow DType.\n`) &&
          /Invalid Tout for 'my_cb'/.test(err.message),
        `Tout ${JSON.stringify(bad)} should be rejected`,
      );
    }
    parseTout(['float32'], 'my_cb'); // cached by spelling: a nested list must still fail after it
    assert.throws(() => parseTout([['float32']] as unknown as string[], 'my_cb'), /Tout\[0\] is \["float32"\]/);
    assert.throws(
      () => parseTout(undefined as unknown as string, 'my_cb'),
      (err: unknown) => err instanceof TypeError && err.message.startsWith("Missing required argument: 'Tout'\n"),
    );
  });

  it("['float32', 'nope'] is a TypeError that points at Tout[1]", () => {
    assert.throws(
      () => parseTout(['float32', 'nope'], 'my_cb'),
      (err: unknown) => err instanceof TypeError && /Tout\[1\] is "nope"/.test(err.message),
    );
    assert.throws(() => parseTout(['float32', 7 as unknown as string], 'my_cb'), TypeError);
  });

  it('parseDType and displayName use TensorFlow spellings', () => {
    assert.equal(parseDType('double'), 'float64');
    assert.equal(parseDType('flaot32'), undefined);
    assert.equal(parseDType(3), undefined);
    assert.equal(displayName('float32'), 'float');
    assert.equal(displayName('float64'), 'double');
    assert.equal(displayName('float16'), 'half');
    assert.equal(displayName('int64'), 'int64');
  });
});

for (const backend of BACKENDS) {
  describe(`Tout checks on ${backend}`, () => {
    useBackend(backend);

    describe('invalid Tout fails before func runs', () => {
      const invalid: { label: string; Tout: unknown }[] = [
        { label: "'flaot32'", Tout: 'flaot32' },
        { label: '{}', Tout: {} },
        { label: "['float32', 'nope']", Tout: ['float32', 'nope'] },
      ];
      for (const { label, Tout } of invalid) {
        it(`Tout ${label}: TypeError from pyFunction, numpyFunction and compat.v1.pyFunc; func never called`, () => {
          const x = tf.scalar(1);
          let calls = 0;
          const spec = Tout as string;
          assert.throws(
            () =>
              pyFunction(
                (t: Tensor) => {
                  calls++;
                  return t;
                },
                [x],
                spec,
              ),
            TypeError,
          );
          assert.throws(
            () =>
              numpyFunction(
                (a: NdArray) => {
                  calls++;
                  return a;
                },
                [x],
                spec,
              ),
            TypeError,
          );
          assert.throws(
            () =>
              compat.v1.pyFunc(
                (a: NdArray) => {
                  calls++;
                  return a;
                },
                [x],
                spec,
              ),
            TypeError,
          );
          assert.equal(calls, 0);
          x.dispose();
        });
      }
    });

    describe('count', () => {
      it('`<name> returns 2 values, but expects to see 1 values.`', () => {
        const x = tf.scalar(1);
        const err = toutError(() => pyFunction((t: Tensor) => [t.add(1), t.add(2)], [x], 'float32', { name: 'two_outputs' }));
        assert.equal(firstLine(err), 'two_outputs returns 2 values, but expects to see 1 values.');
        assert.equal(err.callback, 'two_outputs');
        assert.equal(err.problem, 'count');
        assert.equal(err.index, undefined);
        x.dispose();
      });

      it('returning nothing for one output, and one value for two', () => {
        const x = tf.scalar(1);
        const none = toutError(() =>
          numpyFunction(
            (a: NdArray) => {
              void a;
              return undefined;
            },
            [x],
            'float32',
            { name: 'returns_nothing' },
          ),
        );
        assert.equal(firstLine(none), 'returns_nothing returns 0 values, but expects to see 1 values.');
        assert.match(none.message, /undefined/);
        const one = toutError(() => numpyFunction((a: NdArray) => a, [x], ['float32', 'float32'], { name: 'returns_one' }));
        assert.equal(firstLine(one), 'returns_one returns 1 values, but expects to see 2 values.');
        assert.equal(one.problem, 'count');
        x.dispose();
      });
    });

    describe('dtype', () => {
      it('a Float64Array for Tout float32: `0-th value returned by <name> is double, but expects float`', () => {
        const x = tf.tensor([1, 2, 3]);
        const err = toutError(() =>
          numpyFunction((a: NdArray) => Float64Array.from(a.data as Float32Array, (v) => v * 2), [x], 'float32', { name: 'f64_result' }),
        );
        const lines = err.message.split('\n');
        assert.equal(lines[0], '0-th value returned by f64_result is double, but expects float');
        const rest = lines.slice(1).join('\n');
        assert.match(rest, /Float64Array/);
        assert.match(rest, /\[3\]/);
        assert.match(rest, /float64/);
        assert.equal(err.callback, 'f64_result');
        assert.equal(err.problem, 'dtype');
        assert.equal(err.index, 0);
        x.dispose();
      });

      it('the index of the offending output is in the message and on the error', () => {
        const x = tf.tensor([1, 2]);
        const err = toutError(() =>
          numpyFunction((a: NdArray) => [Float32Array.from(a.data as Float32Array), Float64Array.from(a.data as Float32Array)], [x], ['float32', 'float32'], {
            name: 'second_bad',
          }),
        );
        assert.equal(firstLine(err), '1-th value returned by second_bad is double, but expects float');
        assert.equal(err.index, 1);
        x.dispose();
      });

      it('an int32 tensor from numpyFunction for Tout float32: `is int32, but expects float`', () => {
        const x = tf.tensor([1.5, 2.5]);
        const err = toutError(() =>
          numpyFunction((a: NdArray) => new NdArray(Int32Array.from(a.data as Float32Array, Math.trunc), a.shape, 'int32'), [x], 'float32', { name: 'to_int' }),
        );
        assert.equal(firstLine(err), '0-th value returned by to_int is int32, but expects float');
        assert.equal(err.problem, 'dtype');
        assert.equal(err.index, 0);
        x.dispose();
      });

      // py_function converts arrays to Tout but never a tensor (TensorFlow 2.21, measured:
      // test/fixtures/tf-ground-truth/py-func-cases.json, semantics a and b).
      it("an int32 tensor from pyFunction for Tout float32: TensorFlow's `ValueError: Tensor conversion requested dtype float32 for Tensor with dtype int32`", () => {
        const x = tf.tensor([1.5, 2.5]);
        const err = toutError(() => pyFunction((t: Tensor) => t.toInt(), [x], 'float32', { name: 'to_int' }));
        assert.equal(
          firstLine(err),
          'ValueError: Tensor conversion requested dtype float32 for Tensor with dtype int32: <tf.Tensor: shape=(2,), dtype=int32, numpy=array([1, 2], dtype=int32)>',
        );
        assert.match(err.message, /cast\('float32'\)/);
        assert.equal(err.problem, 'dtype');
        assert.equal(err.index, 0);
        x.dispose();
      });

      it('a float32 tensor for Tout int32 and a bool tensor for Tout float32 (pyFunction)', () => {
        const x = tf.tensor([1, 2]);
        assert.match(
          firstLine(toutError(() => pyFunction((t: Tensor) => t.add(1), [x], 'int32', { name: 'float_for_int' }))),
          /^ValueError: Tensor conversion requested dtype int32 for Tensor with dtype float32: /,
        );
        assert.match(
          firstLine(toutError(() => pyFunction((t: Tensor) => t.greater(1), [x], 'float32', { name: 'bool_for_float' }))),
          /^ValueError: Tensor conversion requested dtype float32 for Tensor with dtype bool: /,
        );
        x.dispose();
      });

      it('non-integer numbers for Tout int32 and a string for Tout float32', () => {
        const x = tf.scalar(1);
        const fractional = toutError(() =>
          numpyFunction(
            (a: NdArray) => {
              void a;
              return [0.5, 1];
            },
            [x],
            'int32',
            { name: 'fractional' },
          ),
        );
        assert.equal(firstLine(fractional), '0-th value returned by fractional is double, but expects int32');
        assert.match(fractional.message, /not all integers/);
        const text = toutError(() =>
          numpyFunction(
            (a: NdArray) => {
              void a;
              return 'one';
            },
            [x],
            'float32',
            { name: 'text' },
          ),
        );
        assert.equal(firstLine(text), '0-th value returned by text is string, but expects float');
        x.dispose();
      });

      it('values that are no tensor at all are problem "value"', () => {
        const x = tf.scalar(1);
        const object = toutError(() =>
          numpyFunction(
            (a: NdArray) => {
              void a;
              return { not: 'an array' } as unknown as number;
            },
            [x],
            'float32',
            { name: 'an_object' },
          ),
        );
        assert.match(firstLine(object), /^0-th value returned by an_object is not a tensor: /);
        assert.equal(object.problem, 'value');
        assert.equal(object.index, 0);
        const ragged = toutError(() =>
          numpyFunction(
            (a: NdArray) => {
              void a;
              return [[1, 2], [3]];
            },
            [x],
            'float32',
            { name: 'ragged' },
          ),
        );
        assert.equal(ragged.problem, 'value');
        assert.match(ragged.message, /ragged/);
        x.dispose();
      });

      it('matching dtypes pass: nested literals take Tout, typed arrays their own dtype', () => {
        const x = tf.scalar(1);
        const u8 = numpyFunction(
          (a: NdArray) => {
            void a;
            return Uint8Array.of(1, 2, 250);
          },
          [x],
          'uint8',
        );
        assert.equal(u8.dtype, 'int32');
        assert.deepEqual(valuesOf(u8), [1, 2, 250]);
        const literal = numpyFunction(
          (a: NdArray) => {
            void a;
            return [1, 2];
          },
          [x],
          'float64',
        );
        assert.equal(literal.dtype, 'float32');
        assert.deepEqual(valuesOf(literal), [1, 2]);
        tf.dispose([x, u8, literal]);
      });
    });

    describe('narrowing: TF.js holds some dtypes in narrower storage, and says so', () => {
      it("Tout 'float64' with a Float64Array returns float32, narrowed {index:0, declared:'float64', storedAs:'float32'}", () => {
        const x = tf.tensor([0.25, 0.5]);
        const { result: y, ends } = observed(() => numpyFunction((a: NdArray) => Float64Array.from(a.data as Float32Array, (v) => v * 4), [x], 'float64'));
        assert.equal(y.dtype, 'float32');
        assert.deepEqual(valuesOf(y), [1, 2]);
        assert.equal(ends.length, 1);
        assert.equal(ends[0]!.toutCheck!.ok, true);
        assert.deepEqual(ends[0]!.toutCheck!.narrowed, [{ index: 0, declared: 'float64', storedAs: 'float32' }]);
        tf.dispose([x, y]);
      });

      it("Tout 'int64' with a BigInt64Array or integer literals returns int32, narrowed to int32", () => {
        const x = tf.scalar(1);
        const { result: big, ends } = observed(() =>
          numpyFunction(
            (a: NdArray) => {
              void a;
              return BigInt64Array.of(5n, -7n);
            },
            [x],
            'int64',
          ),
        );
        assert.equal(big.dtype, 'int32');
        assert.deepEqual(valuesOf(big), [5, -7]);
        assert.deepEqual(ends[0]!.toutCheck!.narrowed, [{ index: 0, declared: 'int64', storedAs: 'int32' }]);
        const { result: literal, ends: ends2 } = observed(() =>
          numpyFunction(
            (a: NdArray) => {
              void a;
              return [
                [1, 2],
                [3, 4],
              ];
            },
            [x],
            'int64',
          ),
        );
        assert.equal(literal.dtype, 'int32');
        assert.deepEqual(literal.shape, [2, 2]);
        assert.deepEqual(ends2[0]!.toutCheck!.narrowed, [{ index: 0, declared: 'int64', storedAs: 'int32' }]);
        tf.dispose([x, big, literal]);
      });

      it('pyFunction: a float32 tensor for Tout float64 is accepted, and only that output is listed as narrowed', () => {
        const x = tf.tensor([1, 2]);
        const { result: outs, ends } = observed(() => pyFunction((t: Tensor) => [t.add(1), t.mul(2)], [x], ['float32', 'float64']));
        assert.deepEqual(
          outs.map((t) => t.dtype),
          ['float32', 'float32'],
        );
        assert.deepEqual(ends[0]!.toutCheck!.narrowed, [{ index: 1, declared: 'float64', storedAs: 'float32' }]);
        tf.dispose([x, ...outs]);
      });

      it('no narrowing is reported for dtypes TF.js holds exactly', () => {
        const x = tf.tensor([1, 2]);
        const { result: y, ends } = observed(() => pyFunction((t: Tensor) => t.square(), [x], 'float32'));
        assert.deepEqual(ends[0]!.toutCheck, { ok: true, mismatches: [], narrowed: [], conversions: [] });
        tf.dispose([x, y]);
      });
    });
  });
}
