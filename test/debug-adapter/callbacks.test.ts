/**
 * Stops the adapter makes inside graph callbacks on its own: Tout mismatches, NaN/Inf outputs, a
 * model's callback nodes; the tensorCallback event and the tensorData request that go with them.
 * Real adapter, real debuggee, real TF.js.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, test } from 'node:test';
import { locationOfNodeName } from '../fixtures/callback-models.js';
import { describeFrames, fixture, root, THREAD, useDebugAdapter, withSession } from '../helpers/dap.js';
import { lineOf, lineWith } from '../helpers/markers.js';

useDebugAdapter();

const NUMPY = fixture('numpy-program.ts');
const NONFINITE = fixture('nonfinite-program.ts');
const T = { timeout: 60_000 };
const TF_MESSAGE = /0-th value returned by \S+ is double, but expects float/;

describe('Tout mismatch', () => {
  test('stops by default, before the error, with the mismatch described and the returned value shown', T, () =>
    withSession(async (s) => {
      await s.launch({ program: NUMPY });
      const stop = await s.stopped();
      assert.equal(stop.body.reason, 'exception');
      assert.equal(stop.body.description, 'Tout mismatch in bad_dtype: 0-th value is double, but expects float');

      const info = (await s.dc.exceptionInfoRequest({ threadId: THREAD })).body;
      // The whole message, the fix hint included (VS Code's exception widget shows the description).
      assert.match(info.description ?? '', /^Tout mismatch in bad_dtype: 0-th value is double, but expects float\n[\s\S]*or declare Tout 'float64'\.$/);
      assert.match(info.details?.message ?? '', TF_MESSAGE);
      assert.equal(info.exceptionId, 'ToutMismatch');

      const frames = await s.stack();
      const top = frames[0]!;
      assert.match(top.name, /›/, `the top frame is the synthetic graph frame:\n  ${describeFrames(frames)}`);
      assert.match(top.name, /\(PyFunc\)$/);
      assert.equal(top.presentationHint, 'label');
      assert.equal(top.source?.path, NUMPY, 'the graph frame points at the callback in the program');
      const returnLine = lineOf(NUMPY, '@bad-dtype-return');
      assert.deepEqual([top.line, top.column], [returnLine, 3], 'the return statement that produced the value, not the header of bad_dtype');
      assert.deepEqual(
        frames.filter((f) => !f.source?.name).map((f) => f.name),
        [],
        `no "Unknown Source":\n  ${describeFrames(frames)}`,
      );

      const scopes = await s.scopes(top.id);
      assert.deepEqual(
        scopes.map((x) => x.name),
        ['Callback', 'tf.Variables'],
      );
      const cb = await s.scope(top.id, 'Callback');
      assert.match(cb.get('x').value, /^NdArray float32\[2,3\] /);
      const returned = cb.get('returned');
      assert.equal(returned.type, 'Float64Array');
      assert.match(returned.value, /^Float64Array float64\[6\] min=1 max=6 mean=3\.5$/);
      assert.equal(returned.indexedVariables, 6);
      const values = await s.variables(returned.variablesReference, 0, 6);
      assert.deepEqual(
        values.list.map((v) => Number(v.value)),
        [1, 2, 3, 4, 5, 6],
      );
      assert.match(cb.get('mismatch[0]').value, TF_MESSAGE);

      // Continuing lets the runtime raise TensorFlow's error, which the program catches.
      await s.dc.continueRequest({ threadId: THREAD });
      await s.terminated();
      assert.match(s.output('stdout'), /caught 0-th value returned by \S+ is double, but expects float/);
    }),
  );

  test('setExceptionBreakpoints without toutMismatch: no stop, the program catches the error', T, () =>
    withSession(async (s) => {
      await s.launch({ program: NUMPY }, (dc) => dc.setExceptionBreakpointsRequest({ filters: [] }));
      const exited = await s.terminated();
      assert.equal(s.all('stopped').length, 0, s.summary());
      assert.equal(exited?.body.exitCode, 0);
      assert.match(s.output('stdout'), /caught 0-th value returned by \S+ is double, but expects float/);
      assert.match(s.output('stdout'), /done/);
    }),
  );

  test('launch argument breakOnToutMismatch: false: no stop', T, () =>
    withSession(async (s) => {
      await s.launch({ program: NUMPY, breakOnToutMismatch: false });
      await s.terminated();
      assert.equal(s.all('stopped').length, 0, s.summary());
      assert.match(s.output('stdout'), /caught 0-th value returned by \S+ is double, but expects float/);
    }),
  );

  test('turning the filter off at a stop lets the mismatch pass', T, () =>
    withSession(async (s) => {
      await s.launch({ program: NUMPY }, (dc) => dc.setFunctionBreakpointsRequest({ breakpoints: [{ name: 'log_huber' }] }));
      assert.equal((await s.stopped()).body.reason, 'function breakpoint');
      await s.dc.setExceptionBreakpointsRequest({ filters: [] });
      await s.dc.continueRequest({ threadId: THREAD });
      assert.equal(await s.nextStop(), undefined, `no more stops: ${s.summary()}`);
      assert.match(s.output('stdout'), /caught 0-th value returned by/);
    }),
  );
});

describe('NaN/Inf in a callback output', () => {
  test("with the 'nonFinite' filter it stops, naming NaN/Inf", T, () =>
    withSession(async (s) => {
      await s.launch({ program: NONFINITE }, (dc) => dc.setExceptionBreakpointsRequest({ filters: ['toutMismatch', 'nonFinite'] }));
      const stop = await s.stopped();
      assert.equal(stop.body.reason, 'exception');
      assert.match(stop.body.description ?? '', /NaN|Inf/);
      assert.match(stop.body.description ?? '', /log_of/);
      // How many, in which output, out of how many: in the description the exception widget shows.
      assert.equal(stop.body.description, 'NaN/Inf in an output of log_of: output 0 has 1 NaN of 3 elements');
      const info = (await s.dc.exceptionInfoRequest({ threadId: THREAD })).body;
      assert.equal(info.description, 'NaN/Inf in an output of log_of: output 0 has 1 NaN of 3 elements');
      const frames = await s.stack();
      const cb = await s.scope(frames[0]!.id, 'Callback');
      // The output is a row of its own: the tensor, one expand from its values (as the input x is).
      assert.ok(!cb.has('outputs'), cb.list.map((v) => v.name).join(', '));
      const output = cb.get('outputs[0]');
      assert.match(output.value, /^Tensor float32\[3\] .*\(1 NaN\)/, 'the output tensor shows the NaN');
      assert.equal(output.evaluateName, 'outputs[0]');
      const tensor = await s.variables(output.variablesReference);
      assert.ok(tensor.has('values'), tensor.list.map((v) => v.name).join(', '));
      assert.equal((await s.evaluate('outputs[0].shape', frames[0]!.id, 'watch')).result, '(1) [3]', 'its evaluateName evaluates');
      await s.dc.continueRequest({ threadId: THREAD });
      await s.terminated();
      assert.match(s.output('stdout'), /log_of NaN,0,0\.69/);
    }),
  );

  test('launch argument breakOnNonFinite: true does the same', T, () =>
    withSession(async (s) => {
      await s.launch({ program: NONFINITE, breakOnNonFinite: true });
      const stop = await s.stopped();
      assert.equal(stop.body.reason, 'exception');
      assert.match(stop.body.description ?? '', /NaN|Inf/);
    }),
  );

  test('without it, no stop', T, () =>
    withSession(async (s) => {
      await s.launch({ program: NONFINITE });
      const exited = await s.terminated();
      assert.equal(s.all('stopped').length, 0, s.summary());
      assert.equal(exited?.body.exitCode, 0);
      assert.match(s.output('stdout'), /done/);
    }),
  );
});

describe('tensorCallback event and tensorData request', () => {
  test('each stop in a callback sends tensorCallback; tensorData pages its inputs', T, () =>
    withSession(async (s) => {
      const line = lineOf(NUMPY, '@scale-rows-body');
      await s.launch({ program: NUMPY }, (dc) => dc.setBreakpointsRequest({ source: { path: NUMPY }, breakpoints: [{ line }] }));
      const stop = await s.stopped();
      const tc = await s.waitFor('tensorCallback');
      assert.equal(tc.body.reason, stop.body.reason);
      const invocation = tc.body.invocation as {
        id: number;
        callback: { functionName?: string; kind: string };
        op: string;
        Tout: string[];
        parameterNames: string[];
      };
      assert.equal(invocation.callback.functionName, 'scale_rows');
      assert.equal(invocation.callback.kind, 'numpy_function');
      assert.equal(invocation.op, 'PyFunc');
      assert.deepEqual(invocation.Tout, ['float32']);
      assert.deepEqual(invocation.parameterNames, ['x']);
      const inputs = tc.body.inputs as { dtype: string; shape: number[] }[];
      assert.equal(inputs.length, 1);
      assert.equal(inputs[0]!.dtype, 'float32');
      assert.deepEqual(inputs[0]!.shape, [2, 3]);

      const byInvocation = await s.dc.customRequest('tensorData', { invocationId: invocation.id, side: 'inputs', index: 0, start: 2, count: 3 });
      assert.equal(byInvocation.body.start, 2);
      assert.deepEqual(byInvocation.body.values, [3, 4, 5]);
      assert.deepEqual(byInvocation.body.info.shape, [2, 3]);

      const frameId = (await s.stack())[0]!.id;
      const byExpression = await s.dc.customRequest('tensorData', { expression: 'x', frameId, start: 0, count: 100 });
      assert.deepEqual(byExpression.body.values, [1, 2, 3, 4, 5, 6]);
      await assert.rejects(s.dc.customRequest('tensorData', { expression: 'factor', frameId }), /not a tensor/);
    }),
  );

  test('at a Tout mismatch, outputs describe what was returned (typed arrays, nested arrays, numbers, bigints) and tensorData pages it', T, () =>
    withSession(async (s) => {
      interface Info {
        kind: string;
        dtype: string;
        shape: number[];
        size: number;
        min?: number;
        max?: number;
        mean?: number;
        nanCount?: number;
        zeroCount?: number;
        preview?: unknown[];
      }
      const expected: { callback: string; info: Partial<Info>; values: unknown[]; page?: [number, number, unknown[]] }[] = [
        {
          callback: 'float64_array',
          info: { kind: 'Float64Array', dtype: 'float64', shape: [6], size: 6, min: 1, max: 6, mean: 3.5, nanCount: 0 },
          values: [1, 2, 3, 4, 5, 6],
          page: [4, 10, [5, 6]],
        },
        // Non-integers for Tout int32 are double: the mismatch TensorFlow reports.
        {
          callback: 'nested_array',
          info: { kind: 'Array', dtype: 'float64', shape: [2, 3], size: 6, min: 0.5, max: 5.5, mean: 3, nanCount: 0 },
          values: [0.5, 1.5, 2.5, 3.5, 4.5, 5.5],
          page: [2, 2, [2.5, 3.5]],
        },
        { callback: 'plain_number', info: { kind: 'number', dtype: 'float64', shape: [], size: 1, min: 2.5, max: 2.5, mean: 2.5 }, values: [2.5] },
        {
          callback: 'bigint_array',
          info: { kind: 'BigInt64Array', dtype: 'int64', shape: [3], size: 3, min: -3, max: 2 ** 40, zeroCount: 1 },
          values: [-3, 0, 2 ** 40],
        },
      ];
      await s.launch({ program: fixture('returns-program.ts') });
      for (const want of expected) {
        const stop = await s.stopped();
        assert.equal(stop.body.reason, 'exception', s.summary());
        assert.match(stop.body.description ?? '', new RegExp(`^Tout mismatch in ${want.callback}: 0-th value is`));
        const tc = await s.waitFor('tensorCallback');
        const invocation = tc.body.invocation as { id: number; callback: { name: string }; toutCheck: { ok: boolean } };
        assert.equal(invocation.callback.name, want.callback);
        assert.equal(invocation.toutCheck.ok, false);
        const outputs = tc.body.outputs as (Info | null)[];
        assert.equal(outputs.length, 1, `${want.callback}: one returned value`);
        const info = outputs[0]!;
        assert.ok(info, `${want.callback}: its output has a summary`);
        for (const [key, value] of Object.entries(want.info)) assert.deepEqual(info[key as keyof Info], value, `${want.callback}: ${key}`);
        assert.deepEqual(info.preview, want.values, `${want.callback}: preview`);
        const all = await s.dc.customRequest('tensorData', { invocationId: invocation.id, side: 'outputs', index: 0, start: 0, count: 100 });
        assert.deepEqual(all.body.values, want.values, `${want.callback}: tensorData`);
        assert.deepEqual([all.body.info.kind, all.body.info.dtype, all.body.info.shape], [want.info.kind, want.info.dtype, want.info.shape]);
        if (want.page) {
          const [start, count, values] = want.page;
          const page = await s.dc.customRequest('tensorData', { invocationId: invocation.id, side: 'outputs', index: 0, start, count });
          assert.deepEqual([page.body.start, page.body.values], [start, values], `${want.callback}: a page`);
        }
        await assert.rejects(
          s.dc.customRequest('tensorData', { invocationId: invocation.id, side: 'outputs', index: 1 }),
          /output 1 of invocation \d+ does not exist/,
        );
        await s.dc.continueRequest({ threadId: THREAD });
      }
      await s.terminated();
      assert.equal(s.output('stdout').match(/caught 0-th value returned by/g)?.length, 4, s.output());
      assert.match(s.output('stdout'), /done/);
    }),
  );
});

describe('py_function conversions', () => {
  test("a Float64Array py_function converts (as TensorFlow does) is no Tout mismatch: the first stop is numpy_function's refusal", T, () =>
    withSession(async (s) => {
      await s.launch({ program: fixture('conversion-program.ts') });
      const stop = await s.stopped();
      assert.equal(stop.body.reason, 'exception');
      assert.equal(stop.body.description, 'Tout mismatch in widen_np: 0-th value is double, but expects float');
      assert.match(s.output('stdout'), /converted 0\.5,1/, 'the py_function ran to its end before');
      await s.dc.continueRequest({ threadId: THREAD });
      await s.terminated();
      assert.match(s.output('stdout'), /caught 0-th value returned by \S+ is double, but expects float/);
    }),
  );
});

describe('function breakpoint conditions, decided in the debuggee', () => {
  const RENAME = fixture('rename-program.ts');
  for (const [value, stops] of [
    [2, true],
    [3, false],
  ] as const) {
    test(`a condition on a parameter tsx renamed (beta → beta2) reads the source's name: beta.data[0] === ${value} ${stops ? 'stops' : 'never stops'}`, T, () =>
      withSession(async (s) => {
        await s.launch({ program: RENAME }, (dc) =>
          dc.setFunctionBreakpointsRequest({ breakpoints: [{ name: 'smooth', condition: `beta.data[0] === ${value}` }] }),
        );
        if (stops) {
          assert.equal((await s.stopped()).body.description, 'Paused on callback smooth (PyFunc)');
          await s.dc.continueRequest({ threadId: THREAD });
        }
        await s.terminated();
        assert.equal(s.all('stopped').length, stops ? 1 : 0, s.summary());
        assert.doesNotMatch(s.output(), /condition of function breakpoint/, 'the condition did not fail');
      }),
    );
  }
});

describe('model launch', () => {
  for (const backend of ['cpu', 'wasm']) {
    test(
      `on ${backend}: a model converted from TensorFlow with tf.cond (Switch/Merge) runs, and stops in the callback by its TensorFlow name; the graph frame is the node’s name in the one-line model.json`,
      T,
      () =>
        withSession(async (s) => {
          const dir = 'test/fixtures/tf-converted/cond_callback';
          const model = path.join(root, dir, 'model.json');
          const node = 'StatefulPartitionedCall/cond/then/_3/cond/double_np';
          await s.launch({ model: `${dir}/model.json`, callbacks: `${dir}/callbacks.ts`, cwd: root, backend }, (dc) =>
            dc.setFunctionBreakpointsRequest({ breakpoints: [{ name: 'double_np' }] }),
          );
          const stop = await s.stopped();
          assert.equal(stop.body.reason, 'function breakpoint');
          const frames = await s.stack();
          assert.equal(frames[0]!.name, 'double_np', describeFrames(frames));
          assert.equal(frames[0]!.source?.path, path.join(root, dir, 'callbacks.ts'));
          assert.equal(frames[0]!.line, lineOf(path.join(root, dir, 'callbacks.ts'), '@double-np-first'), 'the first line of double_np');
          const graph = frames[1]!;
          assert.equal(graph.name, `cond_callback › ${node} (PyFunc)`, describeFrames(frames));
          assert.equal(graph.source?.path, model);
          const at = locationOfNodeName(model, node);
          assert.deepEqual([graph.line, graph.column, graph.endLine, graph.endColumn], [1, at.column, 1, at.endColumn], 'the node’s name, not just line 1');
          const cb = await s.scope(frames[0]!.id, 'Callback');
          assert.match(cb.get('a').value, /^NdArray float32\[1\] /);
          await s.dc.continueRequest({ threadId: THREAD });
          const exited = await s.terminated();
          assert.equal(exited?.body.exitCode, 0, s.output());
          assert.match(s.output('stdout'), /✓ cond_callback › StatefulPartitionedCall\/cond\/then\/_3\/cond\/double_np/);
          assert.match(s.output(), new RegExp(`backend: ${backend}`));
        }),
    );
  }

  test('a function breakpoint on a model callback node stops in its callbacks module, under a graph frame in model.json', T, () =>
    withSession(async (s) => {
      const model = path.join(root, 'examples/models/standardize/model.json');
      const callbacks = path.join(root, 'examples/callbacks/standardize.ts');
      await s.launch({ model: 'examples/models/standardize/model.json', callbacks: 'examples/callbacks/standardize.ts', cwd: root }, (dc) =>
        dc.setFunctionBreakpointsRequest({ breakpoints: [{ name: 'standardize' }] }),
      );
      const stop = await s.stopped();
      assert.equal(stop.body.reason, 'function breakpoint');
      const frames = await s.stack();
      const top = frames[0]!;
      assert.equal(top.name, 'standardize', describeFrames(frames));
      assert.equal(top.source?.path, callbacks);
      assert.equal(top.line, lineWith(callbacks, 'const { mean, variance } = tfjs.moments(h, -1, true);'), 'the first line of standardize');
      const graph = frames.find((f) => f.name === 'standardize › standardize (EagerPyFunc)');
      assert.ok(graph, `a graph frame for the node:\n  ${describeFrames(frames)}`);
      assert.equal(graph.source?.path, model);
      assert.ok(graph.line > 0, 'the graph frame points at the node in model.json');
      assert.equal(frames.indexOf(graph), 1, 'right below the callback frame');
      const cb = await s.scope(top.id, 'Callback');
      assert.match(cb.get('h').value, /^Tensor float32\[\d+,16\] /);
      const attrs = await s.variables(cb.get('node attrs').variablesReference);
      assert.equal(attrs.get('node').value, 'standardize');
      await s.dc.continueRequest({ threadId: THREAD });
      const exited = await s.terminated();
      assert.equal(exited?.body.exitCode, 0, s.output());
    }),
  );
});
