/**
 * Models made by real TensorFlow 2.21 and converted by tensorflowjs_converter 4.22
 * (test/fixtures/tf-converted/, see its README), run on wasm and cpu against TensorFlow's own
 * outputs for the same inputs (reference.json). Each model's callbacks are the JS side of the
 * Python functions in callbacks-in-tensorflow.py, in a callbacks.ts next to its model.json.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  addCallbackObserver,
  DynamicGraphError,
  loadCallbackModel,
  type NdArray,
  tf,
  type CallbackBindings,
  type CallbackInvocation,
  type CallbackModel,
} from '../../runtime/index.js';
import { BACKENDS, useBackend } from '../helpers/backends.js';

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'tf-converted');

interface TensorJson {
  readonly dtype: string;
  readonly shape: number[];
  readonly data: number[];
  readonly node?: string;
}
interface Reference {
  readonly dir: string;
  readonly callbackNodes: { node: string; op: string; token: string; Tin: string[]; Tout: string[]; inputs: string[] }[];
  readonly runs: { inputs: Record<string, TensorJson>; outputs: Record<string, TensorJson> }[];
  readonly gradients?: { x: number; m: number; y: number; dy_dx: number }[];
}
const reference = JSON.parse(fs.readFileSync(path.join(fixtures, 'reference.json'), 'utf8')) as { models: Record<string, Reference> };
const MODELS = Object.keys(reference.models);

const modelFile = (name: string) => path.join(fixtures, reference.models[name]!.dir, 'model.json');

/** The callbacks.ts next to a model, as the CLI reads it: named exports, or a default object. */
async function callbacksOf(name: string): Promise<CallbackBindings> {
  const mod = (await import(pathToFileURL(path.join(fixtures, reference.models[name]!.dir, 'callbacks.ts')).href)) as Record<string, unknown>;
  const source = (mod.default && typeof mod.default === 'object' ? mod.default : mod) as Record<string, unknown>;
  return Object.fromEntries(Object.entries(source).filter(([, v]) => typeof v === 'function')) as CallbackBindings;
}

/** The same functions, bound by each node's token instead. */
async function byToken(name: string): Promise<CallbackBindings> {
  const callbacks = await callbacksOf(name);
  const bindings: Record<string, Function> = {};
  for (const node of reference.models[name]!.callbackNodes) {
    const key = Object.keys(callbacks).find((k) => k === node.node || k === node.token || k === node.node.split('/').at(-1));
    assert.ok(key, `callbacks.ts of ${name} binds ${node.node}`);
    bindings[node.token] = callbacks[key]!;
  }
  return bindings;
}

/** TF.js holds float64 as float32: the inputs TensorFlow got in float64 are fed as float32. */
function inputsOf(run: Reference['runs'][number]): tf.NamedTensorMap {
  return Object.fromEntries(
    Object.entries(run.inputs).map(([k, v]) => [k, tf.tensor(v.data, v.shape, v.dtype === 'float64' ? 'float32' : (v.dtype as tf.DataType))]),
  );
}

function assertCloseTo(actual: tf.Tensor, expected: TensorJson, what: string): void {
  assert.deepEqual(actual.shape, expected.shape, `${what}: shape`);
  const values = Array.from(actual.dataSync() as ArrayLike<number>);
  expected.data.forEach((e, i) => {
    const a = values[i]!;
    assert.ok(Math.abs(a - e) <= 1e-5 * Math.max(1, Math.abs(e)), `${what}[${i}]: ${a} vs TensorFlow's ${e}`);
  });
}

async function observed<T>(body: () => Promise<T>): Promise<{ result: T; ends: CallbackInvocation[] }> {
  const ends: CallbackInvocation[] = [];
  const stop = addCallbackObserver({ onCallbackEnd: (e) => ends.push(e) });
  try {
    return { result: await body(), ends };
  } finally {
    stop();
  }
}

/** Runs each reference run through `model.run`, asking for TensorFlow's output nodes by name. */
async function checkRuns(name: string, model: CallbackModel): Promise<void> {
  for (const [r, run] of reference.models[name]!.runs.entries()) {
    const outputs = Object.entries(run.outputs);
    const inputs = inputsOf(run);
    const result = await model.run(
      inputs,
      outputs.map(([, o]) => o.node!),
    );
    const tensors = Array.isArray(result) ? result : [result];
    outputs.forEach(([key, expected], i) => assertCloseTo(tensors[i]!, expected, `${name} run ${r} output ${key}`));
    tf.dispose([...tensors, ...Object.values(inputs)]);
  }
}

for (const backend of BACKENDS) {
  describe(`models converted from TensorFlow 2.21, on ${backend}`, () => {
    useBackend(backend);
    let startTensors = 0;
    // The tensor count every test of this backend is measured against (checked by the last test).
    before(() => {
      startTensors = tf.memory().numTensors;
    });

    for (const name of MODELS) {
      describe(name, () => {
        it('callbackNodes are what the converter wrote: node names, ops, tokens, Tin/Tout in TensorFlow dtype names, inputs', async () => {
          const model = await loadCallbackModel(modelFile(name));
          try {
            const got = model.callbackNodes.map(({ node, op, token, Tin, Tout, inputs }) => ({ node, op, token, Tin, Tout, inputs }));
            const want = reference.models[name]!.callbackNodes.map(({ node, op, token, Tin, Tout, inputs }) => ({ node, op, token, Tin, Tout, inputs }));
            assert.deepEqual(got, want);
          } finally {
            model.dispose();
          }
        });

        it("each node's location is its name in the one-line model.json (line 1, its own column)", async () => {
          const text = fs.readFileSync(modelFile(name), 'utf8');
          assert.equal(text.trimEnd().split('\n').length, 1, 'the converter writes one line');
          const model = await loadCallbackModel(modelFile(name));
          try {
            for (const node of model.callbackNodes) {
              const at = node.location!;
              assert.equal(at.line, 1);
              assert.equal(text.slice(at.column - 1, at.endColumn - 1), JSON.stringify(node.node), `${node.node} at column ${at.column}`);
              assert.match(text.slice(0, at.column - 1), /"name":\s*$/);
            }
          } finally {
            model.dispose();
          }
        });

        it("outputs equal TensorFlow's for every reference run (bound by the callbacks module's keys)", async () => {
          const model = await loadCallbackModel(modelFile(name), { callbacks: await callbacksOf(name) });
          try {
            await checkRuns(name, model);
          } finally {
            model.dispose();
          }
        });

        it("outputs equal TensorFlow's with the callbacks bound by token", async () => {
          const model = await loadCallbackModel(modelFile(name), { callbacks: await byToken(name) });
          try {
            await checkRuns(name, model);
          } finally {
            model.dispose();
          }
        });
      });
    }

    it("log_huber: the gradient through the EagerPyFunc node equals TensorFlow's (tf.grad over model.execute)", async () => {
      const model = await loadCallbackModel(modelFile('log_huber'), { callbacks: await callbacksOf('log_huber') });
      try {
        for (const g of reference.models.log_huber!.gradients!) {
          const m = tf.scalar(g.m);
          const x = tf.scalar(g.x);
          const y = model.execute({ x, m }) as tf.Tensor;
          const dydx = tf.grad((xv: tf.Tensor) => model.execute({ x: xv, m }) as tf.Tensor)(x);
          assert.ok(Math.abs(y.dataSync()[0]! - g.y) < 1e-5, `y(${g.x}) = ${y.dataSync()[0]} vs ${g.y}`);
          assert.ok(Math.abs(dydx.dataSync()[0]! - g.dy_dx) < 1e-5, `dy/dx(${g.x}) = ${dydx.dataSync()[0]} vs ${g.dy_dx}`);
          tf.dispose([m, x, y, dydx]);
        }
      } finally {
        model.dispose();
      }
    });

    it('float64: the numpy callback gets a Float64Array of dtype float64 (as numpy would), both DT_DOUBLE nodes pass, narrowing reported', async () => {
      const seen: NdArray[] = [];
      const callbacks = await callbacksOf('float64');
      const model = await loadCallbackModel(modelFile('float64'), {
        callbacks: { ...callbacks, log1p64: (a: NdArray) => (seen.push(a), (callbacks.log1p64 as (a: NdArray) => NdArray)(a)) },
      });
      try {
        const run = reference.models.float64!.runs[0]!;
        const inputs = inputsOf(run);
        const { result, ends } = await observed(() => model.run(inputs));
        assert.equal(seen.length, 1);
        assert.equal(seen[0]!.dtype, 'float64');
        assert.ok(seen[0]!.data instanceof Float64Array, `got ${seen[0]!.data.constructor.name}`);
        assert.deepEqual(
          ends.map((e) => [e.node, e.toutCheck!.ok, e.Tin, e.toutCheck!.narrowed]),
          [
            ['StatefulPartitionedCall/log1p64', true, ['float64'], [{ index: 0, declared: 'float64', storedAs: 'float32' }]],
            ['StatefulPartitionedCall/cube_plus', true, ['float64'], [{ index: 0, declared: 'float64', storedAs: 'float32' }]],
          ],
        );
        assert.deepEqual(
          ends.map((e) => [e.inputs[0]!.dtype, e.inputs[0]!.heldAs, e.outputs[0]!.dtype, e.outputs[0]!.heldAs]),
          [
            ['float64', 'float32', 'float64', 'float32'],
            ['float64', 'float32', 'float64', 'float32'],
          ],
        );
        assert.deepEqual(model.outputDTypes(), ['float64', 'float32'], 'the signature says z64 is DT_DOUBLE');
        tf.dispose([...(Array.isArray(result) ? result : [result]), ...Object.values(inputs)]);
      } finally {
        model.dispose();
      }
    });

    it('cond_callback: run() takes the async executor for Switch/Merge; the callback runs only when its branch does, as in TensorFlow', async () => {
      let calls = 0;
      const model = await loadCallbackModel(modelFile('cond_callback'), { callbacks: { double_np: (a: NdArray) => (calls++, a.map((v) => v * 2)) } });
      try {
        const [taken, notTaken] = reference.models.cond_callback!.runs;
        for (const [run, expectedCalls] of [
          [taken!, 1],
          [notTaken!, 0],
        ] as const) {
          calls = 0;
          const inputs = inputsOf(run);
          const y = (await model.run(inputs)) as tf.Tensor;
          assertCloseTo(y, run.outputs.y!, 'y');
          assert.equal(calls, expectedCalls, `sum(x) ${expectedCalls ? '>' : '<='} 0`);
          tf.dispose([y, ...Object.values(inputs)]);
        }
      } finally {
        model.dispose();
      }
    });

    it('cond_callback: execute() fails before running, naming the control-flow node and what to call instead', async () => {
      let calls = 0;
      const model = await loadCallbackModel(modelFile('cond_callback'), { callbacks: { double_np: (a: NdArray) => (calls++, a) } });
      const x = tf.tensor([1, 2, 3]);
      try {
        assert.throws(
          () => model.execute({ x }),
          (err: Error) => {
            assert.ok(err instanceof DynamicGraphError, `got ${err.name}: ${err.message}`);
            assert.match(
              err.message,
              /^Model 'cond_callback' cannot run synchronously: node 'StatefulPartitionedCall\/cond\/[^']+' is a (Switch|Merge) \(tf\.cond or tf\.while_loop, lowered\)/,
            );
            assert.match(err.message, /await model\.run\(inputs\)/);
            assert.match(err.message, /executeAsync/);
            return true;
          },
        );
        assert.equal(calls, 0);
      } finally {
        x.dispose();
        model.dispose();
      }
    });

    it('no tensors leak across the runs above', () => {
      assert.equal(tf.memory().numTensors, startTensors);
    });
  });
}
