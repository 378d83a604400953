/**
 * Hostile callback returns and throws (issue 11, point 3): whatever a callback returns or throws,
 * the caller gets a Tout error (InvalidArgumentError) or a CallbackError naming the callback and
 * the output, never a bare TypeError or a crash; observers hear exactly one end per invocation;
 * no tensor is left behind.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import {
  CallbackError,
  InvalidArgumentError,
  NdArray,
  addCallbackObserver,
  loadCallbackModel,
  numpyFunction,
  parseTout,
  pyFunction,
  tf,
  type CallbackInvocation,
  type CallbackStart,
} from '../../runtime/index.js';
import { singleNodeModel, tempDir } from '../fixtures/callback-models.js';
import { BACKENDS, useBackend } from '../helpers/backends.js';
import { firstLine } from '../helpers/invocations.js';

type Tensor = tf.Tensor;

type Wrapper = (
  func: (...inputs: never[]) => unknown,
  inp: readonly Tensor[],
  Tout: string | readonly string[],
  options?: { name?: string },
) => Tensor | Tensor[];
const WRAPPERS = { py_function: pyFunction as Wrapper, numpy_function: numpyFunction as Wrapper };

const { dir: root, cleanup } = tempDir('callback-returns-test-');
after(cleanup);

/** Starts and ends seen while `body` runs (awaited), with what it threw. */
async function watch(body: () => unknown): Promise<{ starts: CallbackStart[]; ends: CallbackInvocation[]; error: unknown; threw: boolean }> {
  const starts: CallbackStart[] = [];
  const ends: CallbackInvocation[] = [];
  const stop = addCallbackObserver({ onCallbackStart: (s) => starts.push(s), onCallbackEnd: (e) => ends.push(e) });
  try {
    await body();
    return { starts, ends, error: undefined, threw: false };
  } catch (error) {
    return { starts, ends, error, threw: true };
  } finally {
    stop();
  }
}

/** Every start has exactly one end, with the same id. */
function assertOneEndEach(starts: readonly CallbackStart[], ends: readonly CallbackInvocation[], what: string): void {
  assert.ok(starts.length > 0, `${what}: the callback started`);
  assert.deepEqual(ends.map((e) => e.id).sort(), starts.map((s) => s.id).sort(), `${what}: one end per start`);
}

function circular(): unknown[] {
  const a: unknown[] = [1];
  a.push(a);
  return a;
}

function selfOnly(): unknown[] {
  const a: unknown[] = [];
  a.push(a);
  return a;
}

function deeplyNested(depth: number): unknown {
  let v: unknown = [1];
  for (let i = 0; i < depth; i++) v = [v];
  return v;
}

/** Rows shared by reference: 40 small arrays that describe 2**40 values. */
function sharedRows(depth: number): unknown {
  let v: unknown = [1, 2];
  for (let i = 1; i < depth; i++) v = [v, v];
  return v;
}

function revoked(): unknown {
  const { proxy, revoke } = Proxy.revocable([1], {});
  revoke();
  return proxy;
}

interface BadReturn {
  readonly label: string;
  readonly wrapper: 'py_function' | 'numpy_function';
  readonly Tout: string | string[];
  readonly ret: (x: Tensor) => unknown;
  /** The output the error names (undefined: the return value as a whole). */
  readonly index: number | undefined;
  /** What the message says about the value. */
  readonly says: RegExp;
}

const BAD_RETURNS: readonly BadReturn[] = [
  {
    label: '[t, undefined] for two outputs (py_function)',
    wrapper: 'py_function',
    Tout: ['float32', 'float32'],
    ret: (x) => [x.add(1), undefined],
    index: 1,
    says: /undefined is not a Tensor.*Return a value for every Tout entry/,
  },
  {
    label: '[a, undefined] for two outputs (numpy_function)',
    wrapper: 'numpy_function',
    Tout: ['float32', 'float32'],
    ret: () => [Float32Array.of(1), undefined],
    index: 1,
    says: /undefined is not a Tensor/,
  },
  {
    label: 'null at the last of three outputs',
    wrapper: 'numpy_function',
    Tout: ['float32', 'int32', 'float32'],
    ret: () => [Float32Array.of(1), Int32Array.of(2), null],
    index: 2,
    says: /null is not a Tensor/,
  },
  {
    label: 'a symbol at position 1',
    wrapper: 'py_function',
    Tout: ['float32', 'float32'],
    ret: (x) => [x.add(1), Symbol('s')],
    index: 1,
    says: /symbol is not a Tensor/,
  },
  { label: 'a function at position 0', wrapper: 'numpy_function', Tout: ['float32'], ret: () => [() => 1], index: 0, says: /function is not a Tensor/ },
  {
    label: 'an NdArray whose data is shorter than its shape',
    wrapper: 'numpy_function',
    Tout: 'float32',
    ret: () => new NdArray(new Float32Array(1), [3], 'float32'),
    index: 0,
    says: /its data holds 1 values but its shape \[3\] needs 3/,
  },
  {
    label: 'an NdArray whose shape is not a list',
    wrapper: 'numpy_function',
    Tout: 'float32',
    ret: () => new NdArray(new Float32Array(1), 5 as never, 'float32'),
    index: 0,
    says: /its shape \(a number\) is not a list of at most 64 non-negative integers/,
  },
  {
    label: 'an NdArray with a negative dimension',
    wrapper: 'py_function',
    Tout: 'float32',
    ret: () => new NdArray(new Float32Array(1), [-1], 'float32'),
    index: 0,
    says: /its shape \[-1\] is not a list/,
  },
  {
    label: 'an NdArray with null data',
    wrapper: 'numpy_function',
    Tout: 'float32',
    ret: () => new NdArray(null as never, [1], 'float32'),
    index: 0,
    says: /its dtype is float32 but its data is null/,
  },
  {
    label: 'an NdArray of plain JS numbers',
    wrapper: 'numpy_function',
    Tout: 'float32',
    ret: () => new NdArray([1] as never, [1], 'float32'),
    index: 0,
    says: /its data is a JS array.*Give float32 data as a Float32Array/,
  },
  {
    label: 'a string NdArray with numeric data',
    wrapper: 'numpy_function',
    Tout: 'string',
    ret: () => new NdArray(new Float32Array(1), [1], 'string'),
    index: 0,
    says: /its dtype is string but its data is a Float32Array/,
  },
  {
    label: "an NdArray whose dtype is 'toString'",
    wrapper: 'numpy_function',
    Tout: 'float32',
    ret: () => new NdArray(new Float32Array(1), [1], 'toString' as never),
    index: 0,
    says: /its dtype "toString" is not a TensorFlow dtype/,
  },
  { label: 'ragged nested arrays', wrapper: 'numpy_function', Tout: 'float32', ret: () => [[1, 2], [3]], index: 0, says: /it is ragged/ },
  {
    label: 'a circular array',
    wrapper: 'numpy_function',
    Tout: ['float32'],
    ret: () => [circular()],
    index: 0,
    says: /it contains itself \(a circular array\)/,
  },
  { label: 'an array that is its only element', wrapper: 'numpy_function', Tout: 'float32', ret: selfOnly, index: 0, says: /it contains itself/ },
  {
    label: 'arrays nested 100000 deep',
    wrapper: 'numpy_function',
    Tout: 'float32',
    ret: () => deeplyNested(100_000),
    index: 0,
    says: /it nests deeper than 64 levels/,
  },
  {
    label: 'shared rows describing 2**40 values',
    wrapper: 'py_function',
    Tout: 'float32',
    ret: () => sharedRows(40),
    index: 0,
    says: /holds 1099511627776 values, more than the \d+ nested JS arrays may hold/,
  },
  {
    label: 'a tensor disposed inside the callback',
    wrapper: 'py_function',
    Tout: 'float32',
    ret: (x) => {
      const y = x.add(1);
      y.dispose();
      return y;
    },
    index: 0,
    says: /already disposed/,
  },
  {
    label: 'a tensor disposed by a tidy inside the callback',
    wrapper: 'py_function',
    Tout: 'float32',
    ret: (x) => {
      let y: Tensor | undefined;
      tf.tidy(() => {
        y = x.add(1);
      });
      return y;
    },
    index: 0,
    says: /already disposed/,
  },
  {
    label: 'an array whose elements throw when read',
    wrapper: 'numpy_function',
    Tout: 'float32',
    ret: () =>
      new Proxy([1], {
        get: () => {
          throw new Error('boom');
        },
      }),
    index: undefined,
    says: /cannot be read: reading it threw Error: boom/,
  },
  { label: 'a revoked Proxy', wrapper: 'py_function', Tout: ['float32'], ret: revoked, index: undefined, says: /cannot be read: reading it threw TypeError/ },
  {
    label: 'an NdArray whose data getter throws',
    wrapper: 'numpy_function',
    Tout: ['float32'],
    ret: () => [
      Object.create(NdArray.prototype, {
        dtype: { value: 'float32' },
        shape: { value: [1] },
        data: {
          get: () => {
            throw new RangeError('no data');
          },
        },
      }),
    ],
    index: 0,
    says: /reading it threw RangeError: no data/,
  },
];

/** What integer outputs may not hold: TensorFlow refuses them too (nothing wraps to 0). */
const OUT_OF_INT32: readonly { label: string; ret: () => unknown; says: RegExp; Tout?: string }[] = [
  { label: '[2**40]', ret: () => [2 ** 40], says: /holds 1099511627776 at flat index 0: it is outside int32/ },
  { label: '2**31', ret: () => 2 ** 31, says: /holds 2147483648 at flat index 0: it is outside int32/ },
  { label: '-(2**31) - 1', ret: () => [[-(2 ** 31) - 1]], says: /it is outside int32/ },
  { label: 'a Float64Array holding 2**40', ret: () => Float64Array.of(2 ** 40), says: /./ },
  { label: 'a Float64Array holding NaN', ret: () => Float64Array.of(NaN), says: /./ },
  { label: 'a Float64Array holding Infinity', ret: () => Float64Array.of(Infinity), says: /./ },
  { label: 'NaN', ret: () => NaN, says: /./ },
  { label: '-Infinity', ret: () => -Infinity, says: /./ },
  {
    label: 'an NdArray labelled int32 whose data is a Float64Array holding 2**40',
    ret: () => new NdArray(Float64Array.of(2 ** 40), [1], 'int32'),
    says: /its dtype is int32 but its data is a Float64Array.*\('float64'\)/,
  },
  {
    label: 'an NdArray labelled uint8 whose Int32Array data holds 300',
    ret: () => new NdArray(Int32Array.of(300), [1], 'uint8'),
    says: /holds 300 at flat index 0: it is outside uint8/,
    Tout: 'uint8',
  },
];

for (const backend of BACKENDS) {
  describe(`callback returns (${backend})`, () => {
    useBackend(backend);

    describe('a bad return is a Tout error naming the callback and the output, with one end event and no tensor left', () => {
      for (const c of BAD_RETURNS) {
        it(`${c.wrapper}: ${c.label}`, async () => {
          const x = tf.tensor1d([1, 2, 3]);
          const before = tf.memory().numTensors;
          const wrap = WRAPPERS[c.wrapper];
          const { starts, ends, error, threw } = await watch(() => wrap(() => c.ret(x), [x], c.Tout, { name: 'hostile' }));
          assert.ok(threw, 'the call fails');
          assert.ok(error instanceof InvalidArgumentError, `InvalidArgumentError, not ${error instanceof Error ? error.stack : String(error)}`);
          assert.equal(error.callback, 'hostile');
          assert.equal(error.index, c.index);
          const lead = c.index === undefined ? 'hostile returned a value that cannot be read' : `${c.index}-th value returned by hostile`;
          assert.ok(firstLine(error).startsWith(lead), `names the callback and the output: ${firstLine(error)}`);
          assert.match(error.message.replace(/\n/g, ' '), c.says);
          assertOneEndEach(starts, ends, c.label);
          assert.equal(ends[0]!.toutCheck!.ok, false, 'the end event carries the failed check');
          assert.equal(tf.memory().numTensors, before, 'no tensor is left behind');
          x.dispose();
        });
      }
    });

    describe('integer outputs refuse values their dtype (or int32) cannot hold; in-range floats still truncate', () => {
      for (const c of OUT_OF_INT32) {
        for (const wrapper of ['py_function', 'numpy_function'] as const) {
          it(`${wrapper}: ${c.label}`, () => {
            const wrap = WRAPPERS[wrapper];
            const before = tf.memory().numTensors;
            assert.throws(
              () => wrap(() => c.ret(), [], c.Tout ?? 'int32', { name: 'ints' }),
              (err: Error) => {
                assert.ok(err instanceof InvalidArgumentError, `InvalidArgumentError, not ${err.stack}`);
                assert.equal(err.callback, 'ints');
                assert.equal(err.index, 0);
                assert.match(firstLine(err), /^0-th value returned by ints|^TypeError: Cannot convert .* to EagerTensor of dtype int32/);
                assert.match(err.message.replace(/\n/g, ' '), c.says);
                return true;
              },
            );
            assert.equal(tf.memory().numTensors, before);
          });
        }
      }

      it('py_function: a Float64Array in range converts to int32 by truncation, as convert_to_tensor does', () => {
        const y = pyFunction(() => Float64Array.of(1.7, -2.9, 2 ** 31 - 1), [], 'int32');
        assert.deepEqual(Array.from(y.dataSync()), [1, -2, 2 ** 31 - 1]);
        y.dispose();
      });
    });

    describe('a throw of anything is a CallbackError that keeps what was thrown and says what it was', () => {
      const noPrototype = Object.create(null) as object;
      const cases: readonly [string, unknown, RegExp][] = [
        ['undefined', undefined, /raised: undefined \(a bare `throw undefined`/],
        ['null', null, /raised: null\. It is not an Error/],
        ['a string', 'boom', /raised: the string "boom"\. It is not an Error/],
        ['a number', 42, /raised: the number 42/],
        ['a plain object', { code: 3 }, /raised: an object \{"code":3\}/],
        ['an object with no prototype', noPrototype, /raised: an object \{\}/],
      ];
      for (const [label, value, says] of cases) {
        for (const wrapper of ['py_function', 'numpy_function'] as const) {
          it(`${wrapper}: throw ${label}`, async () => {
            const wrap = WRAPPERS[wrapper];
            const x = tf.scalar(1);
            const { starts, ends, error, threw } = await watch(() =>
              wrap(
                () => {
                  throw value;
                },
                [x],
                'float32',
                { name: 'thrower' },
              ),
            );
            x.dispose();
            assert.ok(threw);
            assert.ok(error instanceof CallbackError, `CallbackError, not ${error instanceof Error ? error.stack : String(error)}`);
            assert.ok(Object.hasOwn(error, 'cause'), 'cause is set');
            assert.ok(Object.is(error.cause, value), 'cause is the very value thrown');
            assert.equal(error.callback, 'thrower');
            assert.match(error.message, new RegExp(`^${wrapper} callback 'thrower' raised: `));
            assert.match(error.message, says);
            assert.match(error.message, /throw an Error/);
            assertOneEndEach(starts, ends, label);
            assert.ok(ends[0]!.error, 'the end event says the call failed');
            assert.match(ends[0]!.error.message, /^threw /);
          });
        }
      }

      it('an Error whose message getter throws is described, not rethrown', async () => {
        const hostile = new Error('x');
        Object.defineProperty(hostile, 'message', {
          get: () => {
            throw new Error('getter');
          },
        });
        const { error, ends } = await watch(() =>
          pyFunction(
            () => {
              throw hostile;
            },
            [],
            'float32',
            { name: 'getter' },
          ),
        );
        assert.ok(error instanceof CallbackError);
        assert.equal(error.cause, hostile);
        assert.match(error.message, /raised: Error: \(its message cannot be read\)/);
        assert.equal(ends.length, 1);
      });
    });
  });
}

describe('a callback that returns [] (a list of no outputs)', () => {
  for (const [wrapper, wrap] of Object.entries(WRAPPERS)) {
    for (const Tout of ['float32', ['float32', 'int32']] as const) {
      it(`${wrapper} with Tout ${JSON.stringify(Tout)}: says it returned an empty array and what Tout expects, not "undefined"`, () => {
        const input = tf.scalar(1);
        try {
          assert.throws(
            () => wrap(() => [], [input], Tout, { name: 'empty' }),
            (err: Error) => {
              assert.ok(err instanceof InvalidArgumentError, String(err));
              const n = typeof Tout === 'string' ? 1 : Tout.length;
              assert.equal(firstLine(err), `empty returns 0 values, but expects to see ${n} values.`);
              const dtypes = typeof Tout === 'string' ? Tout : Tout.join(', ');
              assert.ok(
                err.message.includes(
                  `The callback returned an empty array ([]), a list of no outputs, but Tout ${JSON.stringify(Tout)} expects ${n} (${dtypes}).`,
                ),
                err.message,
              );
              assert.doesNotMatch(err.message, /returned undefined/);
              return true;
            },
          );
        } finally {
          input.dispose();
        }
      });
    }
  }
});

describe('Tout parsing cache', () => {
  it("[['float32']] is rejected after ['float32'] was parsed", () => {
    parseTout(['float32'], 'f');
    assert.throws(() => parseTout([['float32']] as never, 'g'), TypeError);
  });

  it("the string '[float32' is not the list ['float32']", () => {
    parseTout(['float32'], 'f');
    assert.throws(() => parseTout('[float32', 'g'), /Cannot convert the argument `type_value`: '\[float32' to a TensorFlow DType/);
  });

  it("['float32\\u0000int32'] is not ['float32', 'int32']", () => {
    parseTout(['float32', 'int32'], 'f');
    assert.throws(() => parseTout(['float32\u0000int32'], 'g'), TypeError);
  });

  it('a cached Tout cannot be changed by the callback that got it', () => {
    const tout = parseTout(['float32'], 'f');
    assert.throws(() => (tout.dtypes as string[]).push('int32'), TypeError);
    assert.deepEqual(parseTout(['float32'], 'g').dtypes, ['float32']);
  });
});

describe('exactly one end event per invocation, over many failures (sync wrappers and model nodes, execute and executeAsync)', () => {
  const REPEATS = 25;
  const xOf = () => tf.tensor2d([[1, 2, 3]]);

  /** Sync callbacks for a node with Tout [float32]; the numpy ones get an NdArray. */
  const SYNC_FAILURES: readonly [string, (x: never) => unknown][] = [
    [
      'throws an Error',
      () => {
        throw new Error('no');
      },
    ],
    [
      'throws undefined',
      () => {
        throw undefined;
      },
    ],
    ['returns [t, undefined]', (x: Tensor | NdArray) => [x instanceof tf.Tensor ? x.add(1) : x, undefined]],
    ['returns undefined', () => undefined],
    [
      'returns an unreadable Proxy',
      () =>
        new Proxy([1], {
          get: () => {
            throw new Error('boom');
          },
        }),
    ],
    ['returns a circular array', () => [circular()]],
    ['returns a Promise when run synchronously', async () => 1],
  ];
  const ASYNC_FAILURES: readonly [string, (x: never) => Promise<unknown>][] = [
    [
      'rejects',
      async () => {
        await null;
        throw new Error('late');
      },
    ],
    [
      'rejects with undefined',
      async () => {
        await null;
        throw undefined;
      },
    ],
    [
      'resolves to [t, undefined] (t made after the await)',
      async (x: Tensor) => {
        await null;
        return [x.add(1), undefined];
      },
    ],
    [
      'resolves to two tensors for one output',
      async (x: Tensor) => {
        await null;
        return [x.add(1), x.add(2)];
      },
    ],
    [
      'resolves to a disposed tensor',
      async (x: Tensor) => {
        await null;
        const y = x.add(1);
        y.dispose();
        return y;
      },
    ],
  ];

  it(`wrappers: ${REPEATS} calls of each failure end ${REPEATS} times, and leave no tensor`, async () => {
    for (const [label, func] of SYNC_FAILURES) {
      for (const wrap of Object.values(WRAPPERS)) {
        const x = xOf();
        const before = tf.memory().numTensors;
        const { starts, ends } = await watch(async () => {
          for (let i = 0; i < REPEATS; i++)
            assert.throws(
              () => wrap(func, [x], ['float32']),
              (err: Error) => err instanceof InvalidArgumentError || err instanceof CallbackError || err.name === 'AsyncCallbackError',
              label,
            );
        });
        assert.equal(starts.length, REPEATS, label);
        assertOneEndEach(starts, ends, `${wrap.name}: ${label}`);
        assert.equal(tf.memory().numTensors, before, `${label}: no tensor left`);
        x.dispose();
      }
    }
  });

  for (const op of ['EagerPyFunc', 'PyFunc'] as const) {
    it(`model ${op} node, execute(): ${REPEATS} failures of each kind end ${REPEATS} times`, async () => {
      for (const [label, func] of SYNC_FAILURES) {
        const model = await loadCallbackModel(singleNodeModel(root, `sync-${op}-${SYNC_FAILURES.findIndex(([l]) => l === label)}`, 'node', op), {
          callbacks: { node: func as never },
        });
        try {
          const x = xOf();
          const before = tf.memory().numTensors;
          const { starts, ends } = await watch(async () => {
            for (let i = 0; i < REPEATS; i++)
              assert.throws(
                () => model.execute(x),
                (err: Error) => err instanceof InvalidArgumentError || err instanceof CallbackError || err.name === 'AsyncCallbackError',
                label,
              );
          });
          assert.equal(starts.length, REPEATS, label);
          assertOneEndEach(starts, ends, `${op} ${label}`);
          assert.equal(tf.memory().numTensors, before, `${label}: no tensor left`);
          x.dispose();
        } finally {
          model.dispose();
        }
      }
    });
  }

  it(`model EagerPyFunc node, executeAsync(): ${REPEATS} async failures of each kind end ${REPEATS} times, and leave no tensor`, async () => {
    for (const [label, func] of [...ASYNC_FAILURES, ...SYNC_FAILURES.filter(([l]) => !l.includes('Promise'))]) {
      const model = await loadCallbackModel(singleNodeModel(root, `async-${label.replace(/\W+/g, '-')}`, 'node', 'EagerPyFunc'), {
        callbacks: { node: func as never },
      });
      try {
        const x = xOf();
        const before = tf.memory().numTensors;
        const { starts, ends } = await watch(async () => {
          for (let i = 0; i < REPEATS; i++) {
            await assert.rejects(
              () => model.executeAsync(x),
              (err: Error) => err instanceof InvalidArgumentError || err instanceof CallbackError,
              label,
            );
          }
        });
        assert.equal(starts.length, REPEATS, label);
        assertOneEndEach(starts, ends, `async ${label}`);
        assert.equal(tf.memory().numTensors, before, `${label}: no tensor left`);
        x.dispose();
      } finally {
        model.dispose();
      }
    }
  });
});
