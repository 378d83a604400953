/**
 * Debug hooks: addCallbackObserver events, tensor summaries and call sites.
 */
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import {
  CallbackError,
  InvalidArgumentError,
  type NdArray,
  SUMMARY_SAMPLE_LIMIT,
  addCallbackObserver,
  compat,
  graphFunction,
  numpyFunction,
  pyFunction,
  summarizeTensor,
  tf,
  type CallbackInvocation,
  type CallbackObserver,
  type CallbackStart,
} from '../../runtime/index.js';
import { BACKENDS, assertClose, lineAbove, useBackend } from '../helpers/backends.js';

type Tensor = tf.Tensor;

const THIS_FILE = fileURLToPath(import.meta.url);

interface Recorder {
  readonly starts: CallbackStart[];
  readonly ends: CallbackInvocation[];
  /** 'start:<id>' / 'end:<id>' and whatever the test adds, in order. */
  readonly log: string[];
  stop(): void;
}

const active: (() => void)[] = [];

/** An observer recording every event; removed after each test even when the test fails. */
function record(): Recorder {
  const starts: CallbackStart[] = [];
  const ends: CallbackInvocation[] = [];
  const log: string[] = [];
  const stop = addCallbackObserver({
    onCallbackStart(s) {
      starts.push(s);
      log.push(`start:${s.id}`);
    },
    onCallbackEnd(e) {
      ends.push(e);
      log.push(`end:${e.id}`);
    },
  });
  active.push(stop);
  return { starts, ends, log, stop };
}

afterEach(() => {
  for (const stop of active.splice(0)) stop();
});

/** Spins for `ms` on the clock durationMs is read from, so the callback surely runs at least that long. */
function spin(ms: number): void {
  const t0 = performance.now();
  while (performance.now() - t0 < ms);
}

/** `body`'s result and the wall time around it: an invocation's durationMs cannot exceed it. */
function timed<T>(body: () => T): { result: T; wallMs: number } {
  const t0 = performance.now();
  const result = body();
  return { result, wallMs: performance.now() - t0 };
}

const SPIN_MS = 20;
/** SPIN_MS less a rounding margin: performance.now() differences are floats. */
const AT_LEAST_SPIN_MS = SPIN_MS - 1;

const PAUSED_STATE = Symbol.for('tfjs-callback-debugger.runtime.state');
const pausedState = (globalThis as unknown as Record<symbol, { pausedMs?: number }>)[PAUSED_STATE]!;

for (const backend of BACKENDS) {
  describe(`observer on ${backend}`, () => {
    useBackend(backend);

    describe('events', () => {
      it('pyFunction: start then end, with identity, op EagerPyFunc, Tout, summaries and duration', () => {
        const rec = record();
        const xs = tf.tensor([1, 2, 3]);
        const ms = tf.scalar(2);
        let startsSeenInside = -1;
        // (Parameter names must not shadow outer variables here: esbuild would rename them.)
        const { result: y, wallMs } = timed(() =>
          pyFunction(
            function scaled(x: Tensor, m: Tensor) {
              startsSeenInside = rec.starts.length;
              spin(SPIN_MS);
              return x.mul(m);
            },
            [xs, ms],
            'float32',
            { name: 'scale_by_m' },
          ),
        );
        assert.equal(startsSeenInside, 1, 'the start event arrives before func runs');
        assert.equal(rec.starts.length, 1);
        assert.equal(rec.ends.length, 1);
        const [start] = rec.starts;
        const [end] = rec.ends;
        assert.equal(end!.id, start!.id);
        assert.deepEqual(rec.log, [`start:${start!.id}`, `end:${start!.id}`]);
        assert.equal(end!.callback.name, 'scale_by_m');
        assert.match(end!.callback.token, /^pyfunc_\d+$/);
        assert.equal(end!.callback.kind, 'py_function');
        assert.equal(end!.callback.stateful, true);
        assert.equal(end!.callback.functionName, 'scaled');
        assert.equal(end!.op, 'EagerPyFunc');
        assert.deepEqual(end!.Tout, ['float32']);
        assert.deepEqual(end!.parameterNames, ['x', 'm']);
        assert.equal(end!.graph, undefined, 'an eager call has no graph');
        assert.deepEqual(
          end!.inputs.map((s) => [s.dtype, s.shape]),
          [
            ['float32', [3]],
            ['float32', []],
          ],
        );
        assert.equal(end!.inputs[0]!.mean, 2);
        assert.equal(end!.outputs.length, 1);
        assert.deepEqual(end!.outputs[0]!.shape, [3]);
        assert.equal(end!.outputs[0]!.min, 2);
        assert.equal(end!.outputs[0]!.max, 6);
        // The callback spun SPIN_MS inside the call: durationMs is at least that, at most the call's wall time.
        assert.ok(end!.durationMs >= AT_LEAST_SPIN_MS && end!.durationMs <= wallMs, `durationMs ${end!.durationMs}, call ${wallMs} ms`);
        assert.deepEqual(end!.toutCheck, { ok: true, mismatches: [], narrowed: [], conversions: [] });
        assert.equal(end!.memoized, false);
        assert.equal(end!.error, undefined);
        assert.deepEqual(valuesOf(y), [2, 4, 6]);
        tf.dispose([xs, ms, y]);
      });

      it('numpyFunction and compat.v1.pyFunc: kinds and ops PyFunc / PyFuncStateless', () => {
        const rec = record();
        const x = tf.tensor([1, 2]);
        const identity = (a: NdArray) => a;
        const outs = [
          numpyFunction(identity, [x], 'float32'),
          numpyFunction(identity, [x], 'float32', { stateful: false }),
          compat.v1.pyFunc(identity, [x], 'float32'),
          compat.v1.pyFunc(identity, [x], 'float32', false),
        ];
        assert.deepEqual(
          rec.ends.map((e) => [e.callback.kind, e.op, e.callback.stateful]),
          [
            ['numpy_function', 'PyFunc', true],
            ['numpy_function', 'PyFuncStateless', false],
            ['py_func', 'PyFunc', true],
            ['py_func', 'PyFuncStateless', false],
          ],
        );
        for (const e of rec.ends) assert.equal(e.callback.name, e.callback.token, 'no name given: the token is the name');
        tf.dispose([x, ...outs]);
      });

      it('default tokens: two different functions get consecutive tokens; a name does not replace the token', () => {
        const rec = record();
        const x = tf.scalar(1);
        const outs = [
          pyFunction((t: Tensor) => t.add(10), [x], 'float32'),
          pyFunction((t: Tensor) => t.sub(10), [x], 'float32'),
          pyFunction((t: Tensor) => t.mul(10), [x], 'float32', { name: 'named_one' }),
        ];
        const numbers = rec.ends.map((e) => Number(/^pyfunc_(\d+)$/.exec(e.callback.token)?.[1]));
        assert.ok(numbers.every(Number.isInteger), `tokens: ${rec.ends.map((e) => e.callback.token)}`);
        assert.equal(numbers[1], numbers[0]! + 1);
        assert.equal(rec.ends[2]!.callback.name, 'named_one');
        assert.notEqual(rec.ends[2]!.callback.token, 'named_one');
        tf.dispose([x, ...outs]);
      });

      it('input and output summaries count NaN, Inf and zeros; min/max/mean are over finite values', () => {
        const rec = record();
        const x = tf.tensor([NaN, Infinity, -Infinity, 0, 0, 1, 2, 3]);
        const y = pyFunction((t: Tensor) => t.mul(2), [x], 'float32');
        const input = rec.ends[0]!.inputs[0]!;
        assert.equal(input.dtype, 'float32');
        assert.deepEqual(input.shape, [8]);
        assert.equal(input.size, 8);
        assert.equal(input.nanCount, 1);
        assert.equal(input.infCount, 2);
        assert.equal(input.zeroCount, 2);
        assert.equal(input.min, 0);
        assert.equal(input.max, 3);
        assertClose(input.mean!, 6 / 5, 1e-12, 'mean');
        assert.equal(input.exact, true);
        assert.equal(input.counted, 8);
        assert.equal(input.preview.length, 8);
        const output = rec.ends[0]!.outputs[0]!;
        assert.equal(output.nanCount, 1);
        assert.equal(output.infCount, 2);
        assert.equal(output.zeroCount, 2);
        assert.equal(output.max, 6);
        assertClose(output.mean!, 12 / 5, 1e-12, 'output mean');
        tf.dispose([x, y]);
      });

      it('summaries of int32, bool and string tensors', () => {
        const rec = record();
        const ints = tf.tensor1d([-3, 0, 5], 'int32');
        const flags = tf.tensor1d([true, false, true, true], 'bool');
        const words = tf.tensor1d(['a', 'bc'], 'string');
        const y = numpyFunction(
          (a: NdArray, b: NdArray, c: NdArray) => {
            void [a, b, c];
            return null;
          },
          [ints, flags, words],
          [],
        );
        assert.deepEqual(y, []);
        const [si, sb, ss] = rec.ends[0]!.inputs;
        assert.deepEqual([si!.dtype, si!.min, si!.max, si!.zeroCount], ['int32', -3, 5, 1]);
        assert.deepEqual([sb!.dtype, sb!.size, sb!.zeroCount, sb!.max], ['bool', 4, 1, 1]);
        assert.equal(ss!.dtype, 'string');
        assert.equal(ss!.min, undefined);
        assert.deepEqual(ss!.preview, ['a', 'bc']);
        assert.deepEqual(rec.ends[0]!.outputs, []);
        tf.dispose([ints, flags, words]);
      });

      it('a Tout mismatch: the event arrives before the error is thrown, with the returned value summarised', () => {
        const rec = record();
        const x = tf.tensor([1, 2, 3]);
        assert.throws(
          () => numpyFunction((a: NdArray) => Float64Array.from(a.data as Float32Array, (v) => v * 10), [x], 'float32', { name: 'too_wide' }),
          (err: unknown) => {
            rec.log.push('thrown');
            return err instanceof InvalidArgumentError;
          },
        );
        assert.equal(rec.ends.length, 1);
        const end = rec.ends[0]!;
        assert.deepEqual(rec.log, [`start:${end.id}`, `end:${end.id}`, 'thrown']);
        assert.equal(end.toutCheck!.ok, false);
        assert.equal(end.toutCheck!.mismatches.length, 1);
        const mismatch = end.toutCheck!.mismatches[0]!;
        assert.equal(mismatch.problem, 'dtype');
        assert.equal(mismatch.index, 0);
        assert.equal(mismatch.expected, 'float32');
        assert.equal(mismatch.actual, 'float64');
        assert.equal(mismatch.message.split('\n')[0], '0-th value returned by too_wide is double, but expects float');
        assert.equal(end.outputs.length, 1);
        assert.equal(end.outputs[0]!.dtype, 'float64');
        assert.deepEqual(end.outputs[0]!.shape, [3]);
        assert.equal(end.outputs[0]!.min, 10);
        assert.equal(end.outputs[0]!.max, 30);
        x.dispose();
      });

      it('a count mismatch event lists the count problem and summarises each returned value', () => {
        const rec = record();
        const x = tf.tensor([1, 2]);
        assert.throws(() => pyFunction((t: Tensor) => [t.add(1), t.toInt()], [x], 'float32', { name: 'too_many' }), InvalidArgumentError);
        const end = rec.ends[0]!;
        assert.equal(end.toutCheck!.ok, false);
        assert.equal(end.toutCheck!.mismatches[0]!.problem, 'count');
        assert.equal(end.toutCheck!.mismatches[0]!.message.split('\n')[0], 'too_many returns 2 values, but expects to see 1 values.');
        assert.deepEqual(
          end.outputs.map((s) => s.dtype),
          ['float32', 'int32'],
        );
        assert.deepEqual(end.outputs[0]!.preview, [2, 3]);
        x.dispose();
      });

      it('a throwing callback: the end event carries the error, before the CallbackError reaches the caller', () => {
        const rec = record();
        const x = tf.scalar(1);
        const t0 = performance.now();
        assert.throws(
          () =>
            pyFunction(
              (t: Tensor) => {
                void t;
                spin(SPIN_MS);
                throw new RangeError('out of range in callback');
              },
              [x],
              'float32',
              { name: 'thrower' },
            ),
          (err: unknown) => {
            rec.log.push('thrown');
            return err instanceof CallbackError;
          },
        );
        const end = rec.ends[0]!;
        assert.deepEqual(rec.log, [`start:${end.id}`, `end:${end.id}`, 'thrown']);
        assert.equal(end.error?.name, 'RangeError');
        assert.equal(end.error?.message, 'out of range in callback');
        assert.match(end.error?.stack ?? '', /out of range in callback/);
        const wallMs = performance.now() - t0;
        assert.deepEqual(end.outputs, []);
        assert.equal(end.toutCheck, undefined, 'nothing was returned: no Tout verdict, not an ok one');
        // A failed call is timed too: at least the SPIN_MS it ran before throwing.
        assert.ok(end.durationMs >= AT_LEAST_SPIN_MS && end.durationMs <= wallMs, `durationMs ${end.durationMs}, call ${wallMs} ms`);
        x.dispose();
      });

      it('time a debugger held the callback paused is left out of durationMs, the rest is counted', () => {
        const rec = record();
        const x = tf.scalar(1);
        const { result: y, wallMs } = timed(() =>
          numpyFunction(
            (a: NdArray) => {
              spin(2 * SPIN_MS);
              // What the debugger's agent does after a stop of SPIN_MS inside the callback.
              pausedState.pausedMs = (pausedState.pausedMs ?? 0) + SPIN_MS;
              return a;
            },
            [x],
            'float32',
          ),
        );
        const { durationMs } = rec.ends[0]!;
        assert.ok(durationMs <= wallMs - SPIN_MS, `durationMs ${durationMs} leaves out the ${SPIN_MS} ms paused of a ${wallMs} ms call`);
        assert.ok(durationMs >= AT_LEAST_SPIN_MS, `durationMs ${durationMs} still counts the ${SPIN_MS} ms not paused`);
        tf.dispose([x, y]);
      });

      it('a callback returning a Promise: the end event carries the error', () => {
        const rec = record();
        const x = tf.scalar(1);
        assert.throws(() => numpyFunction((async (a: NdArray) => a) as unknown as (a: NdArray) => NdArray, [x], 'float32'));
        assert.equal(rec.ends.length, 1);
        assert.match(rec.ends[0]!.error?.message ?? '', /executeAsync/);
        x.dispose();
      });

      it('graphFunction: events name the graph; a stateless repeat is memoized and says so', () => {
        const rec = record();
        let calls = 0;
        const cube = (a: NdArray) => {
          calls++;
          return (a.data as Float32Array).map((v) => v * v * v);
        };
        const step = graphFunction(
          () => {
            const x = tf.tensor([1, 2]);
            const a = numpyFunction(cube, [x], 'float32', { stateful: false });
            const b = numpyFunction(cube, [x], 'float32', { stateful: false });
            tf.dispose([x, a, b]);
          },
          { name: 'my_graph' },
        );
        step();
        assert.equal(calls, 1);
        assert.equal(rec.ends.length, 2);
        assert.deepEqual(
          rec.ends.map((e) => e.graph),
          ['my_graph', 'my_graph'],
        );
        assert.deepEqual(
          rec.ends.map((e) => e.memoized),
          [false, true],
        );
        assert.equal(rec.starts.length, 2);
        assert.deepEqual(
          rec.ends[1]!.outputs.map((s) => s.preview),
          [[1, 8]],
        );
        assert.equal(rec.ends[1]!.callback.token, rec.ends[0]!.callback.token);
        // The reused result ran nothing: no time is counted for it.
        assert.equal(rec.ends[1]!.durationMs, 0);
      });

      it("graphFunction's default graph name is the function's name", () => {
        const rec = record();
        const train_step = graphFunction(function train_step(x: Tensor) {
          const y = pyFunction((t: Tensor) => t.add(1), [x], 'float32');
          y.dispose();
        });
        const x = tf.scalar(1);
        train_step(x);
        assert.equal(rec.ends[0]!.graph, 'train_step');
        x.dispose();
      });

      it('unsubscribing stops the events', () => {
        const rec = record();
        const x = tf.scalar(1);
        const a = pyFunction((t: Tensor) => t.neg(), [x], 'float32');
        assert.equal(rec.ends.length, 1);
        rec.stop();
        const b = pyFunction((t: Tensor) => t.neg(), [x], 'float32');
        const c = numpyFunction((t: NdArray) => t, [x], 'float32');
        assert.equal(rec.starts.length, 1);
        assert.equal(rec.ends.length, 1);
        tf.dispose([x, a, b, c]);
      });

      it('an observer that throws does not break the call nor the other observers', async () => {
        const warnings: Error[] = [];
        const onWarning = (w: Error) => warnings.push(w);
        process.on('warning', onWarning);
        try {
          const broken: CallbackObserver = {
            onCallbackStart() {
              throw new Error('observer start failure');
            },
            onCallbackEnd() {
              throw new Error('observer end failure');
            },
          };
          const stopBroken = addCallbackObserver(broken);
          active.push(stopBroken);
          const rec = record();
          const x = tf.tensor([1, 2]);
          const y = pyFunction((t: Tensor) => t.add(1), [x], 'float32');
          const z = numpyFunction((a: NdArray) => a, [x], 'float32');
          assert.deepEqual(valuesOf(y), [2, 3]);
          assert.deepEqual(valuesOf(z), [1, 2]);
          assert.equal(rec.starts.length, 2);
          assert.equal(rec.ends.length, 2);
          stopBroken();
          tf.dispose([x, y, z]);
          await new Promise((resolve) => setImmediate(resolve));
          const ours = warnings.filter((w) => w.name === 'TfjsCallbackObserverWarning');
          assert.equal(ours.length, 4, 'one warning per failed notification');
          assert.match(ours[0]!.message, /observer start failure/);
        } finally {
          process.off('warning', onWarning);
        }
      });
    });

    describe('call sites', () => {
      it('callSite is this file and the line of the pyFunction call', () => {
        const rec = record();
        const x = tf.scalar(1);
        const y = pyFunction((t: Tensor) => t.add(2), [x], 'float32');
        const line = lineAbove();
        const site = rec.ends[0]!.callSite;
        assert.ok(site, 'an eager wrapper call has a call site');
        assert.equal(site.file, THIS_FILE);
        assert.equal(site.line, line);
        assert.equal(rec.starts[0]!.callSite?.line, line);
        tf.dispose([x, y]);
      });

      it('callSite of numpyFunction and compat.v1.pyFunc calls, in a graphFunction and under tf.grad', () => {
        const rec = record();
        const x = tf.scalar(3);
        const expected: number[] = [];
        const a = numpyFunction((v: NdArray) => v, [x], 'float32');
        expected.push(lineAbove());
        const b = compat.v1.pyFunc((v: NdArray) => v, [x], 'float32');
        expected.push(lineAbove());
        const graph = graphFunction((input: Tensor) => {
          const out = pyFunction((t: Tensor) => t.mul(3), [input], 'float32');
          expected.push(lineAbove());
          return out;
        });
        const c = graph(x);
        const g = tf.grad((t: Tensor) => pyFunction((u: Tensor) => u.square(), [t], 'float32'))(x);
        expected.push(lineAbove());
        assert.deepEqual(
          rec.ends.map((e) => e.callSite?.file),
          [THIS_FILE, THIS_FILE, THIS_FILE, THIS_FILE],
        );
        assert.deepEqual(
          rec.ends.map((e) => e.callSite?.line),
          expected,
        );
        assert.equal(scalarOf(g), 6);
        tf.dispose([x, a, b, c, g]);
      });
    });

    describe('summaries of huge tensors', () => {
      it(`more than ${SUMMARY_SAMPLE_LIMIT} elements: a sample (exact false, counted <= limit), true dtype/shape/size`, () => {
        const size = SUMMARY_SAMPLE_LIMIT + 3;
        const big = tf.range(0, size, 1, 'float32');
        const s = summarizeTensor(big);
        assert.equal(SUMMARY_SAMPLE_LIMIT, 1 << 20);
        assert.equal(s.exact, false);
        assert.ok(s.counted <= SUMMARY_SAMPLE_LIMIT, `counted ${s.counted}`);
        assert.ok(s.counted > 0);
        assert.equal(s.dtype, 'float32');
        assert.deepEqual(s.shape, [size]);
        assert.equal(s.size, size);
        assert.equal(s.min, 0);
        assert.ok(s.max! <= size - 1 && s.max! >= size - 1 - 2 * Math.ceil(size / SUMMARY_SAMPLE_LIMIT));
        assert.equal(s.nanCount, 0);
        big.dispose();
      });

      it('a huge input in an event is sampled too; a tensor at the limit is exact', () => {
        const rec = record();
        const big = tf.ones([1024, 1025]);
        const atLimit = tf.zeros([SUMMARY_SAMPLE_LIMIT]);
        const y = pyFunction((a: Tensor, b: Tensor) => a.sum().add(b.sum()), [big, atLimit], 'float32');
        const [sBig, sLimit] = rec.ends[0]!.inputs;
        assert.equal(sBig!.exact, false);
        assert.ok(sBig!.counted <= SUMMARY_SAMPLE_LIMIT);
        assert.deepEqual(sBig!.shape, [1024, 1025]);
        assert.equal(sBig!.size, 1024 * 1025);
        assert.equal(sBig!.mean, 1);
        assert.equal(sLimit!.exact, true);
        assert.equal(sLimit!.counted, SUMMARY_SAMPLE_LIMIT);
        assert.equal(sLimit!.zeroCount, SUMMARY_SAMPLE_LIMIT);
        assert.equal(scalarOf(y), 1024 * 1025);
        tf.dispose([big, atLimit, y]);
      });
    });
  });
}

function scalarOf(t: Tensor): number {
  return t.dataSync()[0] as number;
}

function valuesOf(t: Tensor): number[] {
  return Array.from(t.dataSync() as ArrayLike<number>);
}
