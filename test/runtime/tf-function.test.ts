/**
 * tfFunction (tf.function's counterpart): kernel-level traces replayed exactly, retraced per input
 * signature, callbacks as one node run on every call, refusals at the user's line, no leaks. On
 * every real backend; (a)-(e): a pure function replayed, captured tensors and variables, a number
 * operand, composite ops and retracing, tf.tidy and tf.scalar inside.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import {
  type NdArray,
  TRACE_WARNING,
  TraceError,
  addCallbackObserver,
  numpyFunction,
  pyFunction,
  tf,
  tfFunction,
  type CallbackInvocation,
  type CallbackStart,
  type TracedCallbackNode,
} from '../../runtime/index.js';
import { wrapperRecorder } from '../../runtime/invocation/wrapper-hook.js';
import { assertSameValues, values } from '../helpers/same-values.js';
import { BACKENDS, lineAbove, useBackend } from '../helpers/backends.js';

type Tensor = tf.Tensor;

const THIS_FILE = fileURLToPath(import.meta.url);

/** The TraceError `run` throws; its message must name this file and `line`. */
function traceErrorOf(run: () => unknown, line: number): TraceError {
  let thrown: unknown;
  try {
    run();
  } catch (err) {
    thrown = err;
  }
  assert.ok(thrown instanceof TraceError, `expected a TraceError, got ${String(thrown)}`);
  assert.equal(thrown.site?.file, THIS_FILE, thrown.message);
  assert.equal(thrown.site?.line, line, thrown.message);
  assert.match(thrown.message, new RegExp(`tf-function\\.test\\.ts:${line}:`));
  return thrown;
}

/** The engine methods a trace shadows are its prototype's again. */
function assertEngineRestored(): void {
  const own = ['runKernel', 'runKernelFunc', 'makeTensor', 'readSync', 'read'].filter((m) => Object.hasOwn(tf.engine(), m));
  assert.deepEqual(own, [], 'no engine method left shadowed');
  assert.equal(wrapperRecorder, null, 'no wrapper recorder left installed');
}

const input = () =>
  tf.tensor([
    [0.5, -1, 2],
    [3, -0.25, 1.5],
  ]);

for (const backend of BACKENDS) {
  describe(`tfFunction on ${backend}`, () => {
    useBackend(backend);
    after(() => assertEngineRestored());

    it('(a) replays sinh(x)*sinh(x) exactly, with the kernels as the graph', () => {
      const eager = (x: Tensor) => tf.mul(tf.sinh(x), tf.sinh(x));
      const f = tfFunction(eager);
      const x = input();
      assertSameValues(f(x), eager(x), 'trace call');
      const y = tf.tensor([
        [1, 2, 3],
        [-1, -2, -3],
      ]);
      assertSameValues(f(y), eager(y), 'replay');
      assert.equal(f.concreteFunctions.length, 1, 'one signature, one trace');
      const graph = f.graph!;
      assert.deepEqual(
        graph.nodes.map((n) => n.name),
        ['n0_Sinh', 'n1_Sinh', 'n2_Multiply'],
      );
      assert.deepEqual(graph.nodes[2]!.inputs, [
        { key: 'a', ref: { kind: 'node', node: 0, output: 0 } },
        { key: 'b', ref: { kind: 'node', node: 1, output: 0 } },
      ]);
      assert.equal(graph.edges.length, 4);
      assert.deepEqual(graph.nodes[0]!.outputs, [{ dtype: 'float32', shape: [2, 3] }]);
      assert.equal(graph.nodes[0]!.type === 'kernel' && graph.nodes[0].op, 'sinh');
      assertEngineRestored();
    });

    it('(b) captures a tensor as a snapshot and a variable by reference (assign is seen)', () => {
      const W = tf.tensor([
        [1, 2],
        [3, 4],
        [5, 6],
      ]);
      const b = tf.variable(tf.tensor([0.5, -100]), true, `b_${backend}`);
      const eager = (x: Tensor) => tf.relu(tf.add(tf.matMul(x, W), b));
      const f = tfFunction(eager);
      const x = input();
      assertSameValues(f(x), eager(x), 'trace call');
      const expectedAfterAssign = (() => {
        b.assign(tf.tensor([10, 20]));
        return eager(x);
      })();
      W.dispose();
      assertSameValues(f(x), expectedAfterAssign, 'replay after assign and W.dispose');
      assert.deepEqual(
        f.graph!.captures.map((c) => c.kind),
        ['captured', 'variable'],
      );
      f.dispose();
      b.dispose();
    });

    it('says which captured variable was disposed when a replay needs it', () => {
      const v = tf.variable(tf.ones([3]), false, `gone_${backend}`);
      const f = tfFunction((x: Tensor) => tf.mul(x, v));
      f(input());
      v.dispose();
      assert.throws(() => f(input()), new RegExp(`reads variable 'gone_${backend}', which was disposed at .*tf-function\\.test\\.ts:\\d+`));
    });

    it('(c) keeps a number operand as a constant', () => {
      const eager = (x: Tensor) => tf.mean(tf.square(tf.sub(x, 2)));
      const f = tfFunction(eager);
      f(input());
      const y = tf.tensor([
        [7, 8, 9],
        [1, 0, -1],
      ]);
      assertSameValues(f(y), eager(y), 'replay');
      assert.deepEqual(f.graph!.captures, [{ kind: 'const', dtype: 'float32', shape: [] }]);
    });

    it('(d) composite ops: kernels tagged with their ops, and a new shape retraces to the right answer', () => {
      const moments = tfFunction((x: Tensor) => tf.moments(x, -1).variance);
      const mse = tfFunction((x: Tensor, y: Tensor) => tf.losses.meanSquaredError(x, y));
      const x = input();
      moments(x);
      mse(x, tf.onesLike(x));
      assert.ok(
        moments.graph!.nodes.some((n) => n.type === 'kernel' && n.op?.startsWith('moments/')),
        'moments kernels carry the op',
      );
      const big = tf.tensor([
        [1, 2, 3],
        [4, 5, 6],
        [7, 8, 10],
        [0, 0, 1],
      ]);
      assertSameValues(moments(big), tf.moments(big, -1).variance, 'moments on [4,3]');
      assertSameValues(mse(big, tf.onesLike(big)), tf.losses.meanSquaredError(big, tf.onesLike(big)), 'mse on [4,3]');
      assertSameValues(mse(big, tf.zerosLike(big)), tf.losses.meanSquaredError(big, tf.zerosLike(big)), 'mse replay on [4,3]');
      assert.equal(moments.concreteFunctions.length, 2);
      assert.deepEqual(
        mse.concreteFunctions.map((c) => c.inputs.map((s) => s.shape)),
        [
          [
            [2, 3],
            [2, 3],
          ],
          [
            [4, 3],
            [4, 3],
          ],
        ],
      );
    });

    it('(e) a tf.tidy and a tf.scalar inside the function', () => {
      const eager = (x: Tensor) => tf.tidy(() => tf.add(tf.exp(tf.neg(x)), tf.mul(x, tf.scalar(3))));
      const f = tfFunction(eager);
      const x = input();
      assertSameValues(f(x), eager(x), 'trace call');
      const y = tf.tensor([
        [1, 1, 1],
        [2, 2, 2],
      ]);
      assertSameValues(f(y), eager(y), 'replay');
    });

    it('gradients flow through a replay (tf.grad)', () => {
      const body = (x: Tensor) => tf.sum(tf.mul(tf.sinh(x), tf.tanh(x)));
      const f = tfFunction(body);
      const x = input();
      const g = tf.grad((v: Tensor) => f(v));
      const first = g(x);
      const second = g(x);
      assertSameValues(first, tf.grad(body)(x), 'gradient on the trace call');
      assertSameValues(second, tf.grad(body)(x), 'gradient through the replay');
      assert.ok(
        f.concreteFunctions.every((c) => c.underTape),
        'traced under the tape',
      );
    });

    it('a numpyFunction is one node, run on every call with the observer events', () => {
      const double = (a: NdArray) => Float32Array.from(a.data as Float32Array, (v) => v * 2);
      const eager = (x: Tensor) => tf.add(numpyFunction(double, [tf.square(x)], 'float32'), 1);
      const f = tfFunction(eager, { name: 'doubled' });
      const x = input();
      const other = tf.tensor([
        [1, 2, 3],
        [4, 5, 6],
      ]);
      const expected = [eager(x), eager(x), eager(other)];
      const starts: CallbackStart[] = [];
      const ends: CallbackInvocation[] = [];
      const stop = addCallbackObserver({ onCallbackStart: (s) => starts.push(s), onCallbackEnd: (e) => ends.push(e) });
      let calls: Tensor[];
      try {
        calls = [f(x), f(x), f(other)];
      } finally {
        stop();
      }
      assertSameValues(calls[0]!, expected[0]!, 'trace call');
      assertSameValues(calls[1]!, expected[1]!, 'replay');
      assertSameValues(calls[2]!, expected[2]!, 'replay on other values');
      // The callback ran once per call, on its wrapper's path: the observers heard each run.
      assert.equal(starts.length, 3);
      assert.equal(ends.length, 3);
      assert.deepEqual(
        starts.map((s) => s.graph),
        ['doubled', 'doubled', 'doubled'],
      );
      assert.deepEqual(
        ends.map((e) => e.outputs[0]?.shape),
        [[6], [6], [6]],
      );
      const nodes = f.graph!.nodes;
      assert.deepEqual(
        nodes.map((n) => n.type),
        ['kernel', 'callback', 'kernel'],
        'the callback is one node',
      );
      const callback = nodes[1] as TracedCallbackNode;
      assert.equal(callback.token, starts[0]!.callback.token);
      assert.equal(callback.op, 'PyFunc');
      assert.deepEqual(callback.inputs, [{ key: '0', ref: { kind: 'node', node: 0, output: 0 } }]);
    });

    it('a pyFunction callback runs its tf ops on replay, and gradients flow through them', () => {
      const cube = (x: Tensor) => pyFunction((v: Tensor) => tf.mul(v, tf.square(v)), [x], 'float32');
      const f = tfFunction((x: Tensor) => tf.sum(cube(x)));
      const g = tf.grad((x: Tensor) => f(x));
      const x = input();
      const expected = tf.mul(tf.square(x), 3);
      assertSameValues(g(x), expected, 'gradient on the trace call');
      assertSameValues(g(x), expected, 'gradient through the replay');
      assert.deepEqual(
        f.graph!.nodes.map((n) => n.type),
        ['callback', 'kernel'],
        "the callback's inner kernels are not recorded",
      );
    });

    it('refuses a host read of a traced tensor at the line that reads', () => {
      const f = tfFunction((x: Tensor) => {
        const m = x.max().dataSync()[0]!;
        return tf.div(x, m);
      });
      const error = traceErrorOf(() => f(input()), lineAbove() - 2);
      assert.match(error.message, /host read \(dataSync\/arraySync\/bufferSync\) of a traced tensor inside tfFunction/);
      assert.match(error.message, /numpyFunction callback/);
      assert.equal(f.concreteFunctions.length, 0, 'no graph is kept');
      assertEngineRestored();
    });

    it('refuses a host read even when the function catches it', () => {
      const f = tfFunction((x: Tensor) => {
        try {
          return tf.mul(x, x.arraySync() as number[][]);
        } catch {
          return x;
        }
      });
      traceErrorOf(() => f(input()), lineAbove() - 4);
    });

    it('allows reading a captured tensor: its value is fixed anyway', () => {
      const scale = tf.scalar(4);
      const f = tfFunction((x: Tensor) => tf.mul(x, scale.dataSync()[0]!));
      const x = input();
      assertSameValues(f(x), tf.mul(x, 4), 'trace call');
      assertSameValues(f(x), tf.mul(x, 4), 'replay');
    });

    it('refuses a random op at its line', () => {
      const f = tfFunction((x: Tensor) => tf.add(x, tf.randomNormal([2, 3])));
      const error = traceErrorOf(() => f(input()), lineAbove());
      assert.match(error.message, /tf\.randomNormal inside tfFunction .* same numbers on every call/);
      const dropout = tfFunction((x: Tensor) => tf.dropout(x, 0.5));
      assert.match(traceErrorOf(() => dropout(input()), lineAbove()).message, /tf\.randomUniform/);
    });

    it('refuses an async function where it is made, and a returned Promise where it is called', () => {
      traceErrorOf(() => tfFunction(async (x: Tensor) => x), lineAbove() + 1);
      const f = tfFunction((x: Tensor) => Promise.resolve(tf.neg(x)));
      const error = traceErrorOf(() => f(input()), lineAbove() + 1);
      assert.match(error.message, /returned a Promise .* runs synchronously/);
      assertEngineRestored();
    });

    it('refuses a tf.customGrad traced under a tape; warns that a built-in op loses its custom gradient', async () => {
      const straightThrough = tf.customGrad(((x: Tensor) => ({ value: tf.round(x), gradFunc: (dy: Tensor) => dy })) as Parameters<typeof tf.customGrad>[0]);
      const f = tfFunction((x: Tensor) => tf.sum(straightThrough(x) as Tensor));
      const x = input();
      assertSameValues(f(x), tf.sum(tf.round(x)), 'no tape: the forward replays exactly');
      assertSameValues(f(x), tf.sum(tf.round(x)), 'replay');
      traceErrorOf(() => tf.grad((v: Tensor) => f(v))(x), lineAbove() - 3);

      const warnings: Error[] = [];
      const onWarning = (w: Error) => warnings.push(w);
      process.on('warning', onWarning);
      const logSoftmax = tfFunction((v: Tensor) => tf.sum(tf.logSoftmax(v)));
      const g = tf.grad((v: Tensor) => logSoftmax(v));
      g(x);
      await new Promise((resolve) => setImmediate(resolve));
      process.off('warning', onWarning);
      assert.equal(warnings.length, 1);
      assert.equal(warnings[0]!.name, TRACE_WARNING);
      assert.match(warnings[0]!.message, /logSoftmax has a custom gradient that a replay does not keep/);
      assert.match(warnings[0]!.message, new RegExp(`tf-function\\.test\\.ts:${lineAbove() - 7}:`));
      const close = tf.max(tf.abs(tf.sub(g(x), tf.grad((v: Tensor) => tf.sum(tf.logSoftmax(v)))(x)))).dataSync()[0]!;
      assert.ok(close < 1e-5, `gradient through the replayed kernels is close: ${close}`);
    });

    it('checks an inputSignature, and retraces per shape within it', () => {
      const f = tfFunction((x: Tensor) => tf.sum(x, -1), { inputSignature: [{ shape: [null, 3] }], name: 'rows' });
      assertSameValues(f(input()), tf.sum(input(), -1), 'first shape');
      const big = tf.ones([5, 3]);
      assertSameValues(f(big), tf.sum(big, -1), 'second shape');
      assert.equal(f.concreteFunctions.length, 2);
      assert.throws(
        () => f(tf.ones([2, 4])),
        /tfFunction 'rows': argument 0 is float32\[2,4\], incompatible with its inputSignature float32\[None,3\] \(called at .*tf-function\.test\.ts:\d+/,
      );
      assert.throws(() => f(tf.ones([2, 3], 'int32')), /argument 0 is int32\[2,3\], incompatible/);
      assert.throws(
        () => (f as (...a: unknown[]) => unknown)(tf.ones([2, 3]), tf.ones([2, 3])),
        /takes 1 tensor argument\(s\) by its inputSignature, but got 2/,
      );
    });

    it('retraces on a new dtype and on a new number argument, not on new values', () => {
      const f = tfFunction((x: Tensor, k: number) => tf.mul(x, k));
      f(input(), 2);
      f(
        tf.tensor([
          [9, 9, 9],
          [1, 1, 1],
        ]),
        2,
      );
      assert.equal(f.concreteFunctions.length, 1);
      assertSameValues(f(input(), 3), tf.mul(input(), 3), 'k = 3');
      assertSameValues(f(tf.tensor([1, 2], [2], 'int32'), 3), tf.mul(tf.tensor([1, 2], [2], 'int32'), 3), 'int32');
      assert.equal(f.concreteFunctions.length, 3);
      const same = tfFunction((a: Tensor, b: Tensor) => tf.sub(a, b));
      const x = input();
      same(x, x);
      assertSameValues(same(x, tf.onesLike(x)), tf.sub(x, tf.onesLike(x)), 'two tensors after one passed twice');
    });

    it('leaks no tensor over many calls, and dispose() frees the captures', () => {
      const W = tf.tensor([
        [1, 2],
        [3, 4],
        [5, 6],
      ]);
      const f = tfFunction((x: Tensor) =>
        tf.add(
          numpyFunction((a) => a.data as Float32Array, [tf.matMul(x, W)], 'float32'),
          tf.scalar(1),
        ),
      );
      const x = input();
      tf.dispose(f(x));
      const before = tf.memory().numTensors;
      for (let i = 0; i < 20; i++) tf.dispose(f(x));
      assert.equal(tf.memory().numTensors, before, 'replays leave nothing behind');
      f.dispose();
      assert.equal(tf.memory().numTensors, before - 2, 'the snapshot of W and the constant 1 are freed');
      assert.throws(() => f(x), /tfFunction 'tf_function' \(defined at .*\) was disposed/);
    });

    it('a failing trace frees what it captured and restores the engine', () => {
      const W = tf.ones([3, 3]);
      const x = input();
      const before = tf.memory().numTensors;
      const f = tfFunction((x: Tensor) => {
        const y = tf.matMul(x, W);
        throw new Error(`boom ${y.shape}`);
      });
      assert.throws(() => f(x), /boom 2,3/);
      assert.equal(tf.memory().numTensors, before);
      assertEngineRestored();
    });

    it('inlines a tfFunction called inside another one, its nodes in a name scope of its name', () => {
      const inner = tfFunction((x: Tensor) => tf.exp(x));
      const outer = tfFunction((x: Tensor) => tf.add(inner(x), 1));
      const x = input();
      assertSameValues(outer(x), tf.add(tf.exp(x), 1), 'trace call');
      assertSameValues(outer(x), tf.add(tf.exp(x), 1), 'replay');
      assert.deepEqual(
        outer.graph!.nodes.map((n) => n.name),
        ['tf_function/n0_Exp', 'n1_Add'],
      );
      assert.equal(inner.concreteFunctions.length, 0);
    });
  });
}

describe('tfFunction outside a trace', () => {
  it('leaves the wrappers with no recorder: their path is the untraced one', () => {
    assert.equal(wrapperRecorder, null);
    const y = numpyFunction((a) => a.data as Float32Array, [tf.tensor([1, 2])], 'float32');
    assert.deepEqual(values(y), [1, 2]);
  });
});
