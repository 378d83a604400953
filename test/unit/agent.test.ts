/**
 * The debuggee-side agent in process (no adapter): its typed-array dtype table against the
 * runtime's (runtime/dtypes.ts), and the summaries (`details`, `valueInfo`), pages (`page`,
 * `slice`) and descriptions it gives for every value a callback can take or return, at a stop
 * inside the real runtime (its `callbackBreak` replaced by a recorder).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { installAgent } from '../../debug-adapter/debuggee/agent/index.js';
import { dtypeOfArray } from '../../runtime/dtypes.js';
import { nonFiniteText } from '../../runtime/non-finite-text.js';
import { NdArray, numpyFunction, pyFunction, selectBackend, tf } from '../../runtime/index.js';
import { summarizeTensor, summarizeValues } from '../../runtime/summary.js';

/* eslint-disable @typescript-eslint/no-explicit-any */

/** Every typed-array constructor this JS engine has (Float16Array too, where there is one). */
const TYPED_ARRAYS = Object.getOwnPropertyNames(globalThis)
  .filter((name) => /Array$/.test(name))
  .map((name) => (globalThis as any)[name])
  .filter((C) => typeof C === 'function' && C.prototype instanceof Object.getPrototypeOf(Int8Array));

/** An agent on a global of its own, with the runtime's summaries. */
function freshAgent(): any {
  const g: any = {
    [Symbol.for('tfjs-callback-debugger.runtime.state')]: {
      observers: [],
      nextToken: 0,
      nextInvocation: 1,
      tools: { summarizeTensor, summarizeValues, dtypeOfArray },
    },
  };
  return installAgent(g);
}

describe('the agent’s typed-array dtypes', () => {
  test('are runtime/dtypes.ts dtypeOfArray’s, for every typed array the engine has', () => {
    const agent = freshAgent();
    assert.ok(TYPED_ARRAYS.length >= 11, `found ${TYPED_ARRAYS.map((C) => C.name).join(', ')}`);
    for (const C of TYPED_ARRAYS) {
      const value = new C(3);
      const runtime = dtypeOfArray(value);
      const info = agent.info(value);
      assert.equal(info?.dtype, runtime, `${C.name}: the agent says ${info?.dtype}, the runtime ${runtime}`);
      if (info) assert.equal(info.kind, C.name);
    }
  });

  test('hold for subclasses, and a DataView is no tensor value', () => {
    const agent = freshAgent();
    class Pixels extends Uint8ClampedArray {}
    assert.equal(agent.info(new Pixels(2)).dtype, 'uint8');
    assert.equal(agent.info(new DataView(new ArrayBuffer(4))), undefined);
    assert.deepEqual(agent.valueInfo(new DataView(new ArrayBuffer(4))), { kind: 'DataView', dtype: '', shape: [], size: 0, disposed: false, opaque: true });
  });
});

describe('valueInfo, slice and describe', () => {
  before(async () => {
    await selectBackend({ backend: 'cpu', quiet: true });
  });

  test('typed arrays: TensorFlow dtype, statistics, bigints paged as numbers', () => {
    const agent = freshAgent();
    const f64 = Float64Array.from([1, 2, 3, 4, 5, 6]);
    const info = agent.valueInfo(f64, 'float32');
    assert.deepEqual(
      [info.kind, info.dtype, info.shape, info.size, info.min, info.max, info.mean, info.nanCount],
      ['Float64Array', 'float64', [6], 6, 1, 6, 3.5, 0],
    );
    assert.equal(agent.describe(f64), 'Float64Array float64[6] min=1 max=6 mean=3.5');
    const words = tf.tensor(['a', 'NaN']);
    assert.equal(agent.describe(words), 'Tensor string[2]', 'strings: no NaN to count');
    words.dispose();
    // NaN and ±Inf after the statistics, in the words of every other view (runtime/non-finite-text.ts).
    const bad = Float32Array.from([1, Number.NaN, -Infinity, -Infinity, Infinity, 3]);
    const badInfo = agent.valueInfo(bad);
    assert.equal(
      agent.describe(bad),
      `Float32Array float32[6] min=1 max=3 mean=2 (${nonFiniteText({ ...badInfo, infCount: badInfo.infCount ?? 0, nanCount: badInfo.nanCount ?? 0 })})`,
    );
    assert.match(agent.describe(bad), /\(1 NaN, 2 −Inf, 1 \+Inf\)$/);
    const big = BigInt64Array.from([-(2n ** 40n), 0n, 7n]);
    const bigInfo = agent.valueInfo(big);
    assert.deepEqual([bigInfo.kind, bigInfo.dtype, bigInfo.min, bigInfo.max, bigInfo.zeroCount], ['BigInt64Array', 'int64', -(2 ** 40), 7, 1]);
    assert.deepEqual(agent.slice(big, 1, 5), [0, 7]);
    assert.equal(agent.valueInfo(new Uint8ClampedArray(2)).dtype, 'uint8');
    assert.equal(agent.valueInfo(new BigUint64Array(2)).dtype, 'uint64');
  });

  test('nested arrays: shape from the nesting, values row-major, the dtype they take for Tout', () => {
    const agent = freshAgent();
    const nested = [
      [
        [1.5, 2],
        [3, 4],
      ],
      [
        [5, 6],
        [7, NaN],
      ],
    ];
    const info = agent.valueInfo(nested, 'float32');
    assert.deepEqual([info.kind, info.dtype, info.shape, info.size, info.min, info.max, info.nanCount], ['Array', 'float32', [2, 2, 2], 8, 1.5, 7, 1]);
    assert.deepEqual(agent.slice(nested, 2, 3), [3, 4, 5]);
    assert.equal(agent.valueInfo(nested, 'int32').dtype, 'float64', 'non-integers for an integer Tout are double (the mismatch)');
    assert.equal(agent.valueInfo(nested).dtype, 'float64');
    assert.equal(
      agent.valueInfo(
        [
          [1, 2],
          [3, 4],
        ],
        'int64',
      ).dtype,
      'int64',
    );
    assert.equal(
      agent.valueInfo(
        [
          [1, 2],
          [3, 4],
        ],
        'string',
      ).dtype,
      'int32',
    );
    assert.equal(agent.valueInfo([true, false], 'float32').dtype, 'bool');
    const strings = agent.valueInfo([['a', 'b']], 'string');
    assert.deepEqual([strings.kind, strings.dtype, strings.shape, strings.min, strings.preview], ['Array', 'string', [1, 2], undefined, ['a', 'b']]);
    assert.deepEqual(agent.slice([['a', 'b']], 0, 10), ['a', 'b']);
    assert.equal(agent.describe(nested), undefined, 'the Variables view shows JS arrays as arrays');
  });

  test('scalars: numbers, booleans and strings', () => {
    const agent = freshAgent();
    const n = agent.valueInfo(2.5, 'float32');
    assert.deepEqual([n.kind, n.dtype, n.shape, n.size, n.min, n.mean], ['number', 'float32', [], 1, 2.5, 2.5]);
    assert.deepEqual(agent.slice(2.5, 0, 10), [2.5]);
    assert.deepEqual(agent.slice(2.5, 1, 10), []);
    assert.equal(agent.valueInfo(3, 'int32').dtype, 'int32');
    assert.equal(agent.valueInfo(1.5, 'int32').dtype, 'float64');
    assert.deepEqual([agent.valueInfo(true).kind, agent.valueInfo(true).dtype], ['boolean', 'bool']);
    assert.deepEqual([agent.valueInfo('abc', 'float32').kind, agent.valueInfo('abc', 'float32').dtype], ['string', 'string']);
    assert.equal(agent.describe(3), undefined, 'logpoints print numbers as numbers');
  });

  test('tensors, string tensors, disposed tensors and NdArrays', () => {
    const agent = freshAgent();
    const t = tf.tensor2d([
      [1, 2],
      [3, 4],
    ]);
    assert.deepEqual(agent.slice(t, 1, 2), [2, 3]);
    assert.equal(agent.valueInfo(t).max, 4);
    const s = tf.tensor1d(['x', 'y'], 'string');
    assert.deepEqual([agent.valueInfo(s).dtype, agent.slice(s, 0, 5)], ['string', ['x', 'y']]);
    t.dispose();
    s.dispose();
    assert.deepEqual(agent.valueInfo(t), { kind: 'Tensor', dtype: 'float32', shape: [2, 2], size: 4, disposed: true });
    assert.deepEqual(agent.slice(t, 0, 4), []);
    const nd = new NdArray(BigInt64Array.from([1n, 2n, 3n, 4n]), [2, 2], 'int64');
    assert.deepEqual([agent.valueInfo(nd).kind, agent.valueInfo(nd).dtype, agent.valueInfo(nd).shape], ['NdArray', 'int64', [2, 2]]);
    assert.deepEqual(agent.slice(nd, 0, 4), [1, 2, 3, 4]);
  });

  test('what is no tensor value says what it is', () => {
    const agent = freshAgent();
    const promise = Promise.resolve(1);
    const kinds = [promise, { a: 1 }, null, undefined, 5n, [[1, 2], [3]], [1, 'a'], new Map(), () => 1].map((v) => agent.valueInfo(v));
    assert.deepEqual(
      kinds.map((i) => i.kind),
      ['Promise', 'Object', 'null', 'undefined', 'bigint', 'Array', 'Array', 'Map', 'function'],
    );
    for (const i of kinds) assert.equal(i.opaque, true);
    assert.deepEqual(agent.slice({ a: 1 }, 0, 1), []);
  });
});

describe('details and page at a stop in the runtime', () => {
  const agent = installAgent(globalThis);
  const saved = { ...agent.config };
  let seen: { details: any; pages: any[] }[] = [];

  before(async () => {
    await selectBackend({ backend: 'cpu', quiet: true });
    agent.configure({ breakOnCallbacks: [], breakOnToutMismatch: true, breakOnNonFinite: false });
    agent.callbackBreak = () => {
      const id = agent.lastBreak!.id;
      const details = agent.details(id)!;
      const pages = details.outputs.map((_: unknown, i: number) => agent.page(id, 'outputs', i, 0, 100));
      seen.push({ details, pages });
    };
  });
  after(() => {
    agent.callbackBreak = () => {};
    agent.configure(saved);
  });

  const stopOn = (run: () => unknown) => {
    seen = [];
    assert.throws(run);
    assert.equal(seen.length, 1, 'one stop, on the Tout mismatch');
    return seen[0]!;
  };
  const x = () => tf.tensor1d([1, 2, 3, 4, 5, 6]);

  test('a Float64Array for float32', () => {
    const { details, pages } = stopOn(() => numpyFunction(() => Float64Array.from([1, 2, 3, 4, 5, 6]), [x()], 'float32'));
    assert.deepEqual(
      [details.outputs[0].kind, details.outputs[0].dtype, details.outputs[0].shape, details.outputs[0].mean],
      ['Float64Array', 'float64', [6], 3.5],
    );
    assert.deepEqual(pages[0].values, [1, 2, 3, 4, 5, 6]);
    assert.equal(details.inputs[0].kind, 'NdArray');
  });

  test('a nested array for a single int32 Tout is one output; for a list Tout, the list of outputs', () => {
    let r = stopOn(() =>
      numpyFunction(
        () => [
          [0.5, 1],
          [2, 3],
        ],
        [x()],
        'int32',
      ),
    );
    assert.equal(r.details.outputs.length, 1);
    assert.deepEqual([r.details.outputs[0].kind, r.details.outputs[0].dtype, r.details.outputs[0].shape], ['Array', 'float64', [2, 2]]);
    assert.deepEqual(r.pages[0].values, [0.5, 1, 2, 3]);
    r = stopOn(() => numpyFunction(() => [1.5, 'a'], [x()], ['int32', 'float32']));
    assert.deepEqual(
      r.details.outputs.map((o: any) => [o.kind, o.dtype, o.shape]),
      [
        ['number', 'float64', []],
        ['string', 'string', []],
      ],
    );
    assert.deepEqual(
      r.pages.map((p: any) => p.values),
      [[1.5], ['a']],
    );
  });

  test('a BigInt64Array for float32, and an object', () => {
    let r = stopOn(() => numpyFunction(() => BigInt64Array.from([1n, 2n]), [x()], 'float32'));
    assert.deepEqual([r.details.outputs[0].dtype, r.pages[0].values], ['int64', [1, 2]]);
    r = stopOn(() => pyFunction(() => new Map() as never, [x()], 'float32'));
    assert.deepEqual([r.details.outputs[0].kind, r.details.outputs[0].opaque], ['Map', true]);
    assert.match(r.pages[0].error, /output 0 of invocation \d+ is a Map, not a tensor value/);
  });
});

describe('a data breakpoint’s why', () => {
  const agent = installAgent(globalThis);
  let whys: string[] = [];

  before(async () => {
    await selectBackend({ backend: 'cpu', quiet: true });
    agent.callbackBreak = () => whys.push(agent.lastBreak!.data!.why);
  });
  after(() => {
    agent.callbackBreak = () => {};
    agent.watchVariables([]);
  });

  test('tells NaN and ±Inf in runtime/non-finite-text.ts’s words (the agent keeps a copy of them)', () => {
    const w = tf.variable(tf.zeros([4]), true, 'agent_test_weights');
    agent.watchVariables([{ id: 1, variable: 'agent_test_weights', condition: { kind: 'nonFinite' } }]);
    const cases = [
      [Number.NaN, 1, 2, 3],
      [-Infinity, -Infinity, 0, 0],
      [Infinity, 1, 2, 3],
      [Infinity, Number.NaN, -Infinity, 1],
      [Number.NaN, Number.NaN, Infinity, Infinity],
    ];
    for (const values of cases) {
      whys = [];
      w.assign(tf.tensor1d(values));
      const words = nonFiniteText(summarizeValues({ dtype: 'float32', shape: [4], flat: values }));
      assert.deepEqual(whys, [`became non-finite (${words})`], values.join(', '));
      // Back to finite values (no stop): the next case becomes non-finite again.
      w.assign(tf.zeros([4]));
      assert.equal(whys.length, 1);
    }
    w.dispose();
  });
});
