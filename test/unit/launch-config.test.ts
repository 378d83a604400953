/**
 * Launch resolution (debug-adapter/launch-config.ts): program and model launches, paths against
 * cwd, env, backend, exception filters, and the errors bad launch arguments get. Real files in a
 * temp folder; no debuggee.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { ConfigurationError, filtersOf, planLaunch, type LaunchArguments } from '../../debug-adapter/launch-config.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tfjs-cb-launch-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));
for (const file of ['app/main.ts', 'app/model.json', 'app/callbacks.ts', 'app/inputs.json']) {
  fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
  fs.writeFileSync(path.join(dir, file), '');
}
const app = path.join(dir, 'app');
const CLI = '/opt/cli/main.js';

/** planLaunch's ConfigurationError message for `args` (fails when it does not throw one). */
function refusal(args: LaunchArguments): string {
  try {
    planLaunch(args, CLI);
  } catch (err) {
    assert.ok(err instanceof ConfigurationError, `a ConfigurationError, got ${String(err)}`);
    return err.message;
  }
  assert.fail(`planLaunch accepted ${JSON.stringify(args)}`);
}

describe('a program launch', () => {
  test('runs the program in its own folder by default, with its args, and the program is the user code', () => {
    const plan = planLaunch({ program: path.join(app, 'main.ts'), args: ['--fast'] }, CLI);
    assert.equal(plan.cwd, app);
    assert.equal(plan.entry, path.join(app, 'main.ts'));
    assert.deepEqual(plan.args, ['--fast']);
    assert.deepEqual(plan.runtimeArgs, []);
    assert.equal(plan.stopOnEntry, false);
    assert.deepEqual(plan.userCode, [path.join(app, 'main.ts')]);
    assert.deepEqual(plan.filters, {
      breakOnCallbacks: [],
      breakOnToutMismatch: true,
      breakOnNonFinite: false,
      breakOnGraphNonFinite: false,
      breakOnOpNonFinite: false,
    });
    assert.deepEqual(plan.env, {});
  });

  test("runtimeArgs are Node's options before the program, kept as given (node resolves them against cwd)", () => {
    const plan = planLaunch({ program: path.join(app, 'main.ts'), runtimeArgs: ['-r', './setup.js', '--import', 'tsx'] }, CLI);
    assert.deepEqual(plan.runtimeArgs, ['-r', './setup.js', '--import', 'tsx']);
  });

  test('a relative program resolves against cwd when one is given', () => {
    const plan = planLaunch({ program: 'app/main.ts', cwd: dir, stopOnEntry: true }, CLI);
    assert.equal(plan.cwd, dir);
    assert.equal(plan.entry, path.join(app, 'main.ts'));
    assert.equal(plan.stopOnEntry, true);
  });

  test('a relative program with no cwd resolves against the working directory, and runs in its folder', () => {
    const relative = path.relative(process.cwd(), path.join(app, 'main.ts'));
    const plan = planLaunch({ program: relative }, CLI);
    assert.equal(plan.entry, path.join(app, 'main.ts'));
    assert.equal(plan.cwd, app);
  });

  test('env: values as strings, null removes a variable, an empty string stays one, the backend goes to TFJS_BACKEND', () => {
    const env = { KEEP: 'yes', GONE: null, EMPTY: '', N: 3 as unknown as string };
    const plan = planLaunch({ program: path.join(app, 'main.ts'), env, backend: 'wasm' }, CLI);
    assert.deepEqual(plan.env, { KEEP: 'yes', EMPTY: '', N: '3', TFJS_BACKEND: 'wasm' });
    assert.deepEqual(plan.envRemoved, ['GONE']);
  });

  test('a project on a TF.js version the runtime does not support is refused, naming the version, the range and the fix', () => {
    const old = path.join(dir, 'old-project');
    fs.mkdirSync(path.join(old, 'node_modules', '@tensorflow', 'tfjs'), { recursive: true });
    fs.writeFileSync(path.join(old, 'node_modules', '@tensorflow', 'tfjs', 'package.json'), JSON.stringify({ name: '@tensorflow/tfjs', version: '1.7.4' }));
    fs.writeFileSync(path.join(old, 'main.js'), '');
    assert.match(
      refusal({ program: path.join(old, 'main.js') }),
      /@tensorflow\/tfjs 1\.7\.4 .*does not support: it supports TensorFlow\.js >=3\.0\.0 <5\.0\.0 .*npm install @tensorflow\/tfjs@\^4\.22\.0/,
    );
  });

  test('what is missing or wrong is refused, saying what and what to do', () => {
    assert.match(refusal({}), /Set "program" to the graph program to debug \(or "model" to a model\.json\)/);
    assert.match(refusal({ program: 'nope.ts', cwd: app }), new RegExp(`program ${path.join(app, 'nope.ts')} does not exist`));
    assert.match(refusal({ program: 'main.ts', cwd: path.join(dir, 'nowhere') }), /cwd .*nowhere does not exist/);
    assert.match(refusal({ program: 'main.ts', cwd: app, backend: 'gpu' as never }), /backend "gpu" is not one of auto, tensorflow, wasm, cpu/);
    assert.match(refusal({ program: 'main.ts', cwd: app, callbacks: 'callbacks.ts' }), /"callbacks" and "inputs" apply to a "model" launch/);
    assert.match(refusal({ program: 'main.ts', cwd: app, inputs: 'inputs.json' }), /"callbacks" and "inputs" apply to a "model" launch/);
  });

  test('arguments of the wrong type are refused before they can fail later (a string args spread into letters)', () => {
    const program = path.join(app, 'main.ts');
    assert.match(refusal({ program, args: '--fast' as never }), /"args" must be a list of strings, not "--fast"/);
    assert.match(refusal({ program, args: ['a', 1] as never }), /"args" must be a list of strings/);
    assert.match(refusal({ program, runtimeArgs: '-r @babel/register' as never }), /"runtimeArgs" must be a list of strings, not "-r @babel\/register"/);
    assert.match(refusal({ program: 42 as never }), /"program" must be a string, not 42/);
    assert.match(refusal({ program, cwd: ['.'] as never }), /"cwd" must be a string/);
    assert.match(refusal({ program, env: 'A=1' as never }), /"env" must be an object of variable names to strings/);
    assert.match(refusal({ program, env: { A: { b: 1 } } as never }), /env "A" must be a string \(or null to remove it\)/);
    assert.match(refusal({ program, stopOnEntry: 'yes' as never }), /"stopOnEntry" must be true or false, not "yes"/);
    assert.match(refusal({ program, breakOnToutMismatch: 'false' as never }), /"breakOnToutMismatch" must be true or false, not "false"/);
  });
});

describe('a model launch', () => {
  test('runs the CLI on the model with its callbacks and inputs, resolved against cwd; the callbacks are the user code', () => {
    const plan = planLaunch({ model: 'model.json', callbacks: 'callbacks.ts', inputs: 'inputs.json', cwd: app, stopOnEntry: true }, CLI);
    assert.equal(plan.entry, CLI);
    const [model, callbacks, inputs] = ['model.json', 'callbacks.ts', 'inputs.json'].map((f) => path.join(app, f));
    assert.deepEqual(plan.args, ['run', model, '--callbacks', callbacks, '--inputs', inputs]);
    assert.equal(plan.cwd, app);
    assert.equal(plan.stopOnEntry, false, 'a model has no program of the user to stop at');
    assert.deepEqual(plan.userCode, [path.join(app, 'callbacks.ts')]);
  });

  test('a model alone: no callbacks module, no user code', () => {
    const plan = planLaunch({ model: path.join(app, 'model.json') }, CLI);
    assert.deepEqual(plan.args, ['run', path.join(app, 'model.json')]);
    assert.deepEqual(plan.userCode, []);
    assert.equal(plan.cwd, process.cwd());
  });

  test('program and model together, or a file that is not there, are refused', () => {
    assert.match(refusal({ model: 'model.json', program: 'main.ts', cwd: app }), /Give either program or model, not both/);
    assert.match(refusal({ model: 'missing.json', cwd: app }), /model .*missing\.json does not exist/);
    assert.match(refusal({ model: 'model.json', callbacks: 'missing.ts', cwd: app }), /callbacks .*missing\.ts does not exist/);
    assert.match(refusal({ model: 'model.json', inputs: 'missing.json', cwd: app }), /inputs .*missing\.json does not exist/);
  });
});

describe('filtersOf (launch and attach)', () => {
  test('defaults: no callbacks, stop on Tout mismatches, not on NaN/Inf', () => {
    assert.deepEqual(filtersOf({}), {
      breakOnCallbacks: [],
      breakOnToutMismatch: true,
      breakOnNonFinite: false,
      breakOnGraphNonFinite: false,
      breakOnOpNonFinite: false,
    });
  });

  test('"*" or a list of names; the four flags as given', () => {
    assert.deepEqual(filtersOf({ breakOnCallbacks: '*' }).breakOnCallbacks, ['*']);
    assert.deepEqual(
      filtersOf({
        breakOnCallbacks: ['scale_rows', 'pyfunc_2'],
        breakOnToutMismatch: false,
        breakOnNonFinite: true,
        breakOnGraphNonFinite: true,
        breakOnOpNonFinite: true,
      }),
      {
        breakOnCallbacks: ['scale_rows', 'pyfunc_2'],
        breakOnToutMismatch: false,
        breakOnNonFinite: true,
        breakOnGraphNonFinite: true,
        breakOnOpNonFinite: true,
      },
    );
    assert.throws(() => filtersOf({ breakOnOpNonFinite: 'yes' as never }), /"breakOnOpNonFinite" must be true or false, not "yes"\./);
  });

  test('anything else for breakOnCallbacks is refused', () => {
    for (const bad of ['scale_rows', 3, [1], { a: 1 }]) {
      const refused = (err: Error) => err instanceof ConfigurationError && /breakOnCallbacks must be "\*" or a list/.test(err.message);
      assert.throws(() => filtersOf({ breakOnCallbacks: bad as never }), refused);
    }
  });
});
