import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import {
  UNTRUSTED_MESSAGE,
  callbacksModuleFor,
  configurationForFile,
  resolveConfiguration,
  resolveSubstituted,
  runArguments,
  launchRuntimeArgs,
  launchConfigurationFor,
  runtimePreloads,
  type EditorContext,
} from '../../extension/config-resolution.js';
import { programCommand, withCliPreload } from '../../runtime/cli/child-process.js';
import { parseCliArgs } from '../../runtime/cli/args.js';

const workspace = mkdtempSync(path.join(os.tmpdir(), 'tfjs-cb-config-'));
const modelDir = path.join(workspace, 'models', 'standardize');
const program = path.join(workspace, 'main.ts');
const base: EditorContext = { workspaceFolder: workspace, trusted: true, backend: 'auto' };

describe('F5 with no launch.json', () => {
  test('on a TS graph program: a launch of that program with the backend setting', () => {
    const r = resolveConfiguration({}, { ...base, activeFile: program, backend: 'wasm' });
    assert.ok('config' in r);
    assert.equal(r.config.type, 'tfjs-callbacks');
    assert.equal(r.config.request, 'launch');
    assert.equal(r.config.program, program);
    assert.equal(r.config.backend, 'wasm');
    assert.equal(r.config.cwd, workspace);
  });

  test('on a JS file too, but not on a .d.ts', () => {
    assert.ok('config' in resolveConfiguration({}, { ...base, activeFile: path.join(workspace, 'a.mjs') }));
    assert.ok('error' in resolveConfiguration({}, { ...base, activeFile: path.join(workspace, 'a.d.ts') }));
  });

  test('on a model.json: a model launch with callbacks.ts found beside it', async () => {
    const { mkdirSync } = await import('node:fs');
    mkdirSync(modelDir, { recursive: true });
    writeFileSync(path.join(modelDir, 'callbacks.ts'), 'export const py = (x: unknown) => x;\n');
    const model = path.join(modelDir, 'model.json');
    const r = resolveConfiguration({}, { ...base, activeFile: model });
    assert.ok('config' in r);
    assert.equal(r.config.model, model);
    assert.equal(r.config.callbacks, path.join(modelDir, 'callbacks.ts'));
    assert.equal(r.config.program, undefined);
  });

  test('the callbacksModule setting wins over the file beside the model', () => {
    const model = path.join(modelDir, 'model.json');
    assert.equal(callbacksModuleFor(model, { workspaceFolder: workspace, callbacksModule: 'cb/bind.ts' }), path.join(workspace, 'cb', 'bind.ts'));
    assert.equal(callbacksModuleFor(model, { workspaceFolder: workspace, callbacksModule: '/abs/bind.ts' }), '/abs/bind.ts');
  });

  test('with nothing open: an error that says what to open', () => {
    const r = resolveConfiguration({}, base);
    assert.ok('error' in r);
    assert.match(r.error, /Open a TS\/JS graph program or a model\.json/);
  });

  test('with the Graph View focused (no text editor active): a launch of the model it shows, also when the picker chose our debugger (issue 43)', () => {
    mkdirSync(modelDir, { recursive: true });
    writeFileSync(path.join(modelDir, 'callbacks.ts'), 'export const py = (x: unknown) => x;\n');
    const model = path.join(modelDir, 'model.json');
    const r = resolveConfiguration({}, { ...base, viewedModel: model });
    assert.ok('config' in r, 'error' in r ? r.error : '');
    assert.equal(r.config.model, model);
    assert.equal(r.config.callbacks, path.join(modelDir, 'callbacks.ts'));
    const picked = resolveConfiguration({ type: 'tfjs-callbacks', request: 'launch', name: 'Debug' }, { ...base, viewedModel: model });
    assert.ok('config' in picked);
    assert.equal(picked.config.model, model);
    // A text editor that is active wins: the view is then not the focused tab.
    const active = resolveConfiguration({}, { ...base, activeFile: program, viewedModel: model });
    assert.ok('config' in active);
    assert.equal(active.config.program, program);
  });

  test('the Graph View’s model: its own launch configuration is found by its substituted "model"', () => {
    const model = path.join(modelDir, 'model.json');
    const configurations = [
      { type: 'tfjs-callbacks', request: 'launch', name: 'Program', program: '${workspaceFolder}/main.ts' },
      { type: 'node', request: 'launch', name: 'Not ours', model: '${workspaceFolder}/models/standardize/model.json' },
      { type: 'tfjs-callbacks', request: 'launch', name: 'Standardize', model: '${workspaceFolder}/models/standardize/model.json', inputs: 'in.json' },
    ];
    assert.equal(launchConfigurationFor(model, configurations, workspace, 'model')?.name, 'Standardize');
    assert.equal(launchConfigurationFor(path.join(workspace, 'other', 'model.json'), configurations, workspace, 'model'), undefined);
    assert.equal(launchConfigurationFor(program, configurations, workspace, 'program')?.name, 'Program');
  });

  test('on another kind of file: an error naming it', () => {
    const r = resolveConfiguration({}, { ...base, activeFile: path.join(workspace, 'notes.md') });
    assert.ok('error' in r);
    assert.match(r.error, /notes\.md is neither/);
  });
});

describe('launch.json configurations', () => {
  test('defaults are filled: name, backend from the setting, cwd', () => {
    const r = resolveConfiguration({ type: 'tfjs-callbacks', request: 'launch', program }, { ...base, backend: 'cpu' });
    assert.ok('config' in r);
    assert.equal(r.config.backend, 'cpu');
    assert.equal(r.config.cwd, workspace);
    assert.equal(r.config.name, 'Debug graph');
  });

  test('a model launch whose paths use ${workspaceFolder}: callbacks.ts beside the model once VS Code substituted them', () => {
    mkdirSync(modelDir, { recursive: true });
    writeFileSync(path.join(modelDir, 'callbacks.ts'), 'export const py = (x: unknown) => x;\n');
    const model = path.join(modelDir, 'model.json');
    const raw = { type: 'tfjs-callbacks', request: 'launch', model: '${workspaceFolder}/models/standardize/model.json' };
    const r = resolveConfiguration(raw, base);
    assert.ok('config' in r);
    assert.equal(r.config.callbacks, undefined, 'before substitution the path cannot be looked at');
    const substituted = resolveSubstituted({ ...r.config, model }, base);
    assert.equal(substituted.callbacks, path.join(path.dirname(model), 'callbacks.ts'));
    const explicit = resolveSubstituted({ ...r.config, model, callbacks: '/mine.ts' }, base);
    assert.equal(explicit.callbacks, '/mine.ts', 'an explicit callbacks module is kept');
  });

  test('an explicit backend is kept; an invalid one is an error', () => {
    const ok = resolveConfiguration({ type: 'tfjs-callbacks', request: 'launch', program, backend: 'wasm' }, { ...base, backend: 'cpu' });
    assert.ok('config' in ok && ok.config.backend === 'wasm');
    const bad = resolveConfiguration({ type: 'tfjs-callbacks', request: 'launch', program, backend: 'gpu' }, base);
    assert.ok('error' in bad);
    assert.match(bad.error, /"backend": "gpu" is not one of auto, tensorflow, wasm, cpu/);
  });

  test('a launch without program or model takes the active file, else says what is missing', () => {
    const fromFile = resolveConfiguration({ type: 'tfjs-callbacks', request: 'launch', name: 'x', breakOnCallbacks: ['f'] }, { ...base, activeFile: program });
    assert.ok('config' in fromFile);
    assert.equal(fromFile.config.program, program);
    assert.deepEqual(fromFile.config.breakOnCallbacks, ['f']);
    const missing = resolveConfiguration({ type: 'tfjs-callbacks', request: 'launch', name: 'x' }, base);
    assert.ok('error' in missing);
    assert.match(missing.error, /Set "program"/);
  });

  test('attach needs a port and defaults the host to loopback', () => {
    const r = resolveConfiguration({ type: 'tfjs-callbacks', request: 'attach', port: 9229 }, base);
    assert.ok('config' in r);
    assert.equal(r.config.host, '127.0.0.1');
    const bad = resolveConfiguration({ type: 'tfjs-callbacks', request: 'attach' }, base);
    assert.ok('error' in bad);
    assert.match(bad.error, /needs "port"/);
  });

  test('another debug type passes through untouched', () => {
    const config = { type: 'node', request: 'launch', name: 'n', program };
    const r = resolveConfiguration(config, base);
    assert.ok('config' in r);
    assert.deepEqual(r.config, config);
  });
});

describe('workspace trust', () => {
  test('nothing launches in an untrusted workspace, and the user is told why', () => {
    for (const config of [{}, { type: 'tfjs-callbacks', request: 'launch', program }, { type: 'tfjs-callbacks', request: 'attach', port: 1 }]) {
      const r = resolveConfiguration(config, { ...base, activeFile: program, trusted: false });
      assert.ok('error' in r);
      assert.equal(r.error, UNTRUSTED_MESSAGE);
    }
    assert.match(UNTRUSTED_MESSAGE, /Manage Workspace Trust/);
  });
});

describe('Run Graph arguments', () => {
  test('a program: run, trace and backend', () => {
    assert.deepEqual(runArguments(program, '/t/trace.json', { ...base, backend: 'wasm' }), ['run', program, '--trace', '/t/trace.json', '--backend', 'wasm']);
  });

  test('a model: its callbacks module is passed', () => {
    const model = path.join(modelDir, 'model.json');
    assert.deepEqual(runArguments(model, '/t/trace.json', base), [
      'run',
      model,
      '--trace',
      '/t/trace.json',
      '--backend',
      'auto',
      '--callbacks',
      path.join(modelDir, 'callbacks.ts'),
    ]);
  });

  test('configurationForFile names the launch after the file', () => {
    const r = configurationForFile(program, base);
    assert.ok('config' in r);
    assert.equal(r.config.name, 'Debug main.ts');
  });
});

describe('Run Graph with the launch configuration’s preloads, and the CLI’s order (issue 43)', () => {
  const babel = {
    type: 'tfjs-callbacks',
    request: 'launch',
    program: '${workspaceFolder}/main.ts',
    runtimeArgs: ['-r', '@babel/register', '--max-old-space-size=4096'],
  };

  test('the runtimeArgs of the launch whose program is the file; its Node preloads go before the program, the rest is said to be left out', () => {
    const other = { ...babel, program: '${workspaceFolder}/other.ts', runtimeArgs: ['--import', './x.mjs'] };
    const runtimeArgs = launchRuntimeArgs(program, [other, { type: 'node', request: 'launch', program: '${file}' }, babel], workspace);
    assert.deepEqual(runtimeArgs, ['-r', '@babel/register', '--max-old-space-size=4096']);
    const { preloads, ignored } = runtimePreloads(runtimeArgs);
    assert.deepEqual(preloads, ['-r', '@babel/register']);
    assert.deepEqual(ignored, ['--max-old-space-size=4096']);
    assert.deepEqual(runArguments(program, '/t/trace.json', base, preloads), [
      'run',
      '-r',
      '@babel/register',
      program,
      '--trace',
      '/t/trace.json',
      '--backend',
      'auto',
    ]);
    assert.deepEqual(launchRuntimeArgs(program, [{ ...babel, program: '${file}' }], workspace), babel.runtimeArgs, '${file} is the file run');
    assert.deepEqual(launchRuntimeArgs(program, [other], workspace), []);
  });

  test('the CLI takes Node’s preloads before the program, in order, and runs them after its own --require', () => {
    writeFileSync(program, '');
    const args = parseCliArgs(['run', '-r', 'a', '--import=b', '--backend', 'cpu', '--loader', 'c', '--require', 'd', program, '-r', 'x']);
    assert.ok(typeof args === 'object');
    assert.deepEqual(args.nodeOptions, ['--require=a', '--import=b', '--experimental-loader=c', '--require=d']);
    assert.deepEqual(args.programArgs, ['-r', 'x'], 'after the program, -r is the program’s');
    assert.equal(args.backend, 'cpu');
    const command = programCommand(args);
    assert.match(command[command.indexOf('--require=a') - 1]!, /program-preload\.c[jt]s$/, 'the CLI’s preload first, then the user’s');
    assert.deepEqual(command.slice(command.indexOf('--require=a')), [
      '--require=a',
      '--import=b',
      '--experimental-loader=c',
      '--require=d',
      program,
      '-r',
      'x',
    ]);
    assert.throws(() => parseCliArgs(['run', program, '--exec']), /--exec/);
    assert.throws(() => parseCliArgs(['run', '-r']), /-r needs a module, as for node: -r @babel\/register/);
    // A word that is a key of every object's prototype is no preload flag.
    assert.throws(
      () => parseCliArgs(['run', 'constructor']),
      (err: Error) => !/needs a module/.test(err.message),
    );
    assert.doesNotThrow(() => parseCliArgs(['run', '-r', 'a', program, 'toString']));
  });

  test('under --exec the CLI’s preload goes in NODE_OPTIONS, after the user’s, quoted where a path needs it', () => {
    const options = withCliPreload('-r @babel/register');
    assert.match(options, /^-r @babel\/register( --require \S+)* --require ("[^"]+"|\S+)program-preload\.c[jt]s"?$/);
    assert.equal(withCliPreload(undefined).startsWith('--require'), true);
  });
});
