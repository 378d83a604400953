/**
 * Programs whose modules a transpiler compiles as they load (issue 43): fresh projects, their
 * packages installed by npm (from its cache when it has them), launched under the real adapter
 * with `runtimeArgs` preloads as docs/launch-json.md shows them. Breakpoints set before launch in
 * a module other than the entry bind before that module runs, top-level lines included (a babel
 * module whose first function is babel's `_typeof`, which never runs as it loads: an entry
 * breakpoint on the file's first position bound there); and the compiler's own code (TypeScript's
 * re-export getter `get`) is neither a step's stop nor a frame of the user's.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { tempDir } from '../fixtures/callback-models.js';
import { describeFrames, Session, THREAD, useDebugAdapter } from '../helpers/dap.js';
import { lineOf } from '../helpers/markers.js';
import { makeUserProject, TFJS_VERSION, type UserProject } from '../helpers/projects.js';
import ts from 'typescript';

useDebugAdapter();
const { dir: root, cleanup } = tempDir('transpiled-modules-');
after(cleanup);

/** Installs included (npm's cache makes them seconds). */
const T = { timeout: 240_000 };

const projects = new Map<string, UserProject>();
function project(name: string, make: (dir: string) => UserProject): UserProject {
  let made = projects.get(name);
  if (!made) projects.set(name, (made = make(path.join(root, name))));
  return made;
}

/**
 * As lstm-text-generation has it: the model in a module the entry requires, compiled by
 * @babel/register to ES5 (preset-env's default targets), so babel puts its `_typeof` helper first
 * in model.js, called only when `describe` is (after training here).
 */
function babelProject(): UserProject {
  return project('babel', (dir) => {
    const p = makeUserProject(dir, {
      dependencies: { '@babel/core': '^7', '@babel/register': '^7', '@babel/preset-env': '^7', '@tensorflow/tfjs': TFJS_VERSION },
    });
    p.write('.babelrc', JSON.stringify({ presets: ['@babel/preset-env'] }));
    p.write(
      'model.js',
      [
        "const tf = require('@tensorflow/tfjs');",
        '',
        'const UNITS = 3; // @top-level',
        '',
        'function describe(value) {',
        '  return typeof value; // @typeof',
        '}',
        '',
        'function createModel() {',
        '  const model = tf.sequential();',
        '  model.add(tf.layers.dense({ units: UNITS, inputShape: [2] })); // @add-dense',
        '  return model;',
        '}',
        '',
        'module.exports = { createModel, describe };',
        '',
      ].join('\n'),
    );
    p.write('late.js', "export function later() {\n  return 'later'; // @later-body\n}\n");
    p.write(
      'train.js',
      [
        "import * as tf from '@tensorflow/tfjs';",
        "import { createModel, describe } from './model';",
        '',
        'const model = createModel();',
        'const y = model.predict(tf.ones([1, 2]));',
        "console.log('shape', y.shape.join(','), describe(y)); // @log",
        "const { later } = require('./late'); // @require-late",
        'console.log(later()); // @after-require',
        '',
      ].join('\n'),
    );
    return p;
  });
}

/** ts-node (TypeScript 5.9: ts-node cannot load 7) with tsconfig's esModuleInterop, as `tsc --init` writes it. */
function tsNodeProject(): UserProject {
  return project('ts-node', (dir) => {
    const p = makeUserProject(dir, { dependencies: { 'ts-node': '^10', typescript: '~5.9.0', '@tensorflow/tfjs': TFJS_VERSION } });
    p.write('tsconfig.json', JSON.stringify({ compilerOptions: { target: 'ES2020', module: 'commonjs', strict: true, esModuleInterop: true } }));
    p.write(
      'scale.ts',
      "import * as tf from '@tensorflow/tfjs';\n\nexport const FACTOR = 2; // @factor\n\nexport function scale(t: tf.Tensor): tf.Tensor {\n  return t.mul(FACTOR); // @scale\n}\n",
    );
    p.write(
      'prog.ts',
      [
        "import * as tf from '@tensorflow/tfjs';",
        "import { scale } from './scale';",
        '',
        'const a = scale(tf.tensor([1, 2, 3]));',
        'const b = tf.tensor([2, 4, 7]);',
        'const loss = tf.losses.meanSquaredError(a, b); // @loss',
        "console.log('loss', loss.dataSync()[0]); // @after-loss",
        '',
      ].join('\n'),
    );
    return p;
  });
}

/**
 * The ts-node project's program and module, compiled by another register hook (esbuild's, swc's).
 * swc-node keeps its source maps in memory, where no debugger sees them, unless tsconfig asks for
 * them inline (`inlineSourceMap`, as docs/launch-json.md says).
 */
function registerProject(name: string, dependencies: Record<string, string>): UserProject {
  return project(name, (dir) => {
    const p = makeUserProject(dir, { dependencies: { ...dependencies, '@tensorflow/tfjs': TFJS_VERSION } });
    const ts = tsNodeProject();
    for (const file of ['scale.ts', 'prog.ts']) p.write(file, fs.readFileSync(path.join(ts.dir, file), 'utf8'));
    const config = JSON.parse(fs.readFileSync(path.join(ts.dir, 'tsconfig.json'), 'utf8')) as { compilerOptions: Record<string, unknown> };
    p.write('tsconfig.json', JSON.stringify({ compilerOptions: { ...config.compilerOptions, inlineSourceMap: true } }));
    return p;
  });
}

/**
 * A build's output: src/*.ts compiled by tsc beforehand to dist/*.js with external maps
 * (dist/x.js.map, naming ../src/x.ts), the program run as `node dist/train.js`. `withMaps` false:
 * the same build without maps, where a breakpoint in src/ cannot bind.
 */
function builtProject(withMaps: boolean): UserProject {
  return project(withMaps ? 'built' : 'built-no-maps', (dir) => {
    const p = makeUserProject(dir, { dependencies: { '@tensorflow/tfjs': TFJS_VERSION } });
    const sources: Record<string, string> = {
      'model.ts':
        "import * as tf from '@tensorflow/tfjs';\n\nexport const UNITS: number = 4; // @built-top\n\nexport function createModel(): tf.Sequential {\n  const model = tf.sequential();\n  model.add(tf.layers.dense({ units: UNITS, inputShape: [2] })); // @built-dense\n  return model;\n}\n",
      'train.ts':
        "import * as tf from '@tensorflow/tfjs';\nimport { createModel } from './model';\n\nconst y = createModel().predict(tf.ones([1, 2])) as tf.Tensor;\nconsole.log('shape', y.shape.join(','));\n",
    };
    for (const [name, text] of Object.entries(sources)) {
      const source = p.write(path.join('src', name), text);
      const out = ts.transpileModule(text, {
        fileName: source,
        compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2020, esModuleInterop: true, sourceMap: withMaps },
      });
      const js = name.replace(/\.ts$/, '.js');
      p.write(path.join('dist', js), withMaps ? out.outputText.replace(/sourceMappingURL=.*$/m, `sourceMappingURL=${js}.map`) : out.outputText);
      if (withMaps) {
        const map = JSON.parse(out.sourceMapText!) as { sources: string[]; file: string };
        p.write(path.join('dist', `${js}.map`), JSON.stringify({ ...map, file: js, sources: [`../src/${name}`] }));
      }
    }
    return p;
  });
}

/** An ES module project run from TypeScript as the adapter runs it (tsx): the model in a second module. */
function esmProject(): UserProject {
  return project('esm', (dir) => {
    const p = makeUserProject(dir, { type: 'module', dependencies: { '@tensorflow/tfjs': TFJS_VERSION } });
    p.write(
      'model.ts',
      "import * as tf from '@tensorflow/tfjs';\n\nfunction unused(x: unknown): string {\n  return typeof x;\n}\n\nexport const UNITS = 5; // @esm-top\n\nexport function createModel(): tf.Sequential {\n  const model = tf.sequential();\n  model.add(tf.layers.dense({ units: UNITS, inputShape: [2] })); // @esm-dense\n  return model;\n}\nexport { unused };\n",
    );
    p.write(
      'main.ts',
      "import * as tf from '@tensorflow/tfjs';\nimport { createModel } from './model.ts';\n\nconst y = createModel().predict(tf.ones([1, 2])) as tf.Tensor;\nconsole.log('shape', y.shape.join(','));\n",
    );
    return p;
  });
}

/** Launches `program` with `runtimeArgs` and breakpoints at `markers` of `file`, set before launch. */
async function launch(p: UserProject, program: string, runtimeArgs: string[], file: string, markers: string[]): Promise<Session> {
  const s = await Session.start();
  const source = path.join(p.dir, file);
  await s.launch({ program: path.join(p.dir, program), cwd: p.dir, backend: 'cpu', runtimeArgs }, (dc) =>
    dc.setBreakpointsRequest({ source: { path: source }, breakpoints: markers.map((m) => ({ line: lineOf(source, m) })) }),
  );
  return s;
}

/** The next stop's top frame is `file` at `marker`, stopped by a breakpoint. */
async function stopsAt(s: Session, file: string, marker: string): Promise<DebugProtocol.StackFrame[]> {
  const stop = await s.nextStop();
  assert.ok(stop, `a stop at ${marker}, not the program's end\n${s.summary()}\n${s.output()}`);
  assert.equal(stop.body.reason, 'breakpoint', s.summary());
  const frames = await s.stack();
  assert.deepEqual([frames[0]!.source?.path, frames[0]!.line], [file, lineOf(file, marker)], describeFrames(frames));
  return frames;
}

describe('breakpoints bind in every module a transpiler loads', () => {
  test('@babel/register: a second module, babel’s _typeof first in it: top-level and function lines stop, verified', T, async () => {
    const p = babelProject();
    const model = path.join(p.dir, 'model.js');
    const s = await launch(p, 'train.js', ['-r', '@babel/register'], 'model.js', ['@top-level', '@add-dense']);
    try {
      await stopsAt(s, model, '@top-level');
      const verified = s.all('breakpoint').map((e) => (e as DebugProtocol.BreakpointEvent).body.breakpoint);
      assert.ok(
        verified.some((bp) => bp.verified && bp.line === lineOf(model, '@top-level')),
        `verified as model.js loads: ${JSON.stringify(verified)}`,
      );
      assert.equal((await s.evaluate('typeof createModel', (await s.stack())[0]!.id)).result, '"function"');
      await s.dc.continueRequest({ threadId: THREAD });
      const frames = await stopsAt(s, model, '@add-dense');
      assert.equal((await s.evaluate('UNITS', frames[0]!.id)).result, '3');
      await s.dc.continueRequest({ threadId: THREAD });
      const exited = (await s.terminated()) as DebugProtocol.ExitedEvent | undefined;
      assert.equal(exited?.body.exitCode, 0, s.output());
      assert.match(s.output('stdout'), /^shape 1,3 object\nlater$/m);
    } finally {
      await s.close();
    }
  });

  test('ts-node/register: a second module’s top-level and function lines', T, () => scaleStops(tsNodeProject(), ['-r', 'ts-node/register']));
});

/** prog.ts under `runtimeArgs` stops at scale.ts's top-level line, then in its function, and ends well. */
async function scaleStops(p: UserProject, runtimeArgs: string[]): Promise<void> {
  const scale = path.join(p.dir, 'scale.ts');
  const s = await launch(p, 'prog.ts', runtimeArgs, 'scale.ts', ['@factor', '@scale']);
  try {
    await stopsAt(s, scale, '@factor');
    await s.dc.continueRequest({ threadId: THREAD });
    await stopsAt(s, scale, '@scale');
    await s.dc.continueRequest({ threadId: THREAD });
    assert.equal(((await s.terminated()) as DebugProtocol.ExitedEvent | undefined)?.body.exitCode, 0, s.output());
    assert.match(s.output('stdout'), /^loss /m);
  } finally {
    await s.close();
  }
}

describe('register hooks of other compilers: a second module’s lines bind before it runs', () => {
  const cases: [string, Record<string, string>, string[]][] = [
    ['esbuild-register', { 'esbuild-register': '^3', esbuild: '^0.25' }, ['-r', 'esbuild-register']],
    ['@swc-node/register', { '@swc-node/register': '^1', '@swc/core': '^1', typescript: '~5.9.0' }, ['-r', '@swc-node/register']],
  ];
  for (const [name, dependencies, runtimeArgs] of cases)
    test(`${name}: top-level and function lines of scale.ts`, T, () => scaleStops(registerProject(name.replace(/[@/]/g, '_'), dependencies), runtimeArgs));
});

describe('a module load’s stop is never seen', () => {
  test('@babel/register: Step Over a require of a module whose breakpoints wait stops on the next line', T, async () => {
    const p = babelProject();
    const train = path.join(p.dir, 'train.js');
    const late = path.join(p.dir, 'late.js');
    const s = await Session.start();
    try {
      await s.launch({ program: train, cwd: p.dir, backend: 'cpu', runtimeArgs: ['-r', '@babel/register'] }, async (dc) => {
        await dc.setBreakpointsRequest({ source: { path: train }, breakpoints: [{ line: lineOf(train, '@require-late') }] });
        await dc.setBreakpointsRequest({ source: { path: late }, breakpoints: [{ line: lineOf(late, '@later-body') }] });
      });
      await stopsAt(s, train, '@require-late');
      await s.dc.nextRequest({ threadId: THREAD });
      assert.equal((await s.nextStop())?.body.reason, 'step', s.summary());
      const frames = await s.stack();
      assert.deepEqual([frames[0]!.source?.path, frames[0]!.line], [train, lineOf(train, '@after-require')], describeFrames(frames));
      await s.dc.continueRequest({ threadId: THREAD });
      await stopsAt(s, late, '@later-body');
    } finally {
      await s.close();
    }
  });
});

describe('breakpoints bind in modules built beforehand and in ES modules', () => {
  test('tsc-built dist/ with external maps: breakpoints in src/model.ts, a module the entry requires', T, async () => {
    const p = builtProject(true);
    const model = path.join(p.dir, 'src', 'model.ts');
    const s = await launch(p, 'dist/train.js', [], 'src/model.ts', ['@built-top', '@built-dense']);
    try {
      await stopsAt(s, model, '@built-top');
      await s.dc.continueRequest({ threadId: THREAD });
      await stopsAt(s, model, '@built-dense');
      await s.dc.continueRequest({ threadId: THREAD });
      assert.equal(((await s.terminated()) as DebugProtocol.ExitedEvent | undefined)?.body.exitCode, 0, s.output());
    } finally {
      await s.close();
    }
  });

  test('an ES module (tsx): a second module’s top-level and function lines', T, async () => {
    const p = esmProject();
    const model = path.join(p.dir, 'model.ts');
    const s = await launch(p, 'main.ts', [], 'model.ts', ['@esm-top', '@esm-dense']);
    try {
      await stopsAt(s, model, '@esm-top');
      await s.dc.continueRequest({ threadId: THREAD });
      await stopsAt(s, model, '@esm-dense');
      await s.dc.continueRequest({ threadId: THREAD });
      assert.equal(((await s.terminated()) as DebugProtocol.ExitedEvent | undefined)?.body.exitCode, 0, s.output());
    } finally {
      await s.close();
    }
  });

  test('a build without maps: the breakpoint in src/ says why it is not bound (dist/model.js ran, with no map)', T, async () => {
    const p = builtProject(false);
    const model = path.join(p.dir, 'src', 'model.ts');
    const s = await launch(p, 'dist/train.js', [], 'src/model.ts', ['@built-dense']);
    try {
      assert.equal(await s.nextStop(), undefined, 'no stop: the program runs to its end');
      const said = s.all('breakpoint').map((e) => (e as DebugProtocol.BreakpointEvent).body.breakpoint);
      const last = said.at(-1);
      assert.equal(last?.verified, false, JSON.stringify(said));
      assert.equal(last?.message, `Not bound yet: the program ran ${path.join(p.dir, 'dist', 'model.js')}, not this file, and it has no source map.`);
      assert.ok(fs.existsSync(model));
    } finally {
      await s.close();
    }
  });
});

describe('the compiler’s code is not the user’s', () => {
  test('@babel/register: Step Into on `typeof value` passes over babel’s _typeof helper', T, async () => {
    const p = babelProject();
    const train = path.join(p.dir, 'train.js');
    const model = path.join(p.dir, 'model.js');
    const s = await launch(p, 'train.js', ['-r', '@babel/register'], 'train.js', ['@log']);
    try {
      await stopsAt(s, train, '@log');
      await s.dc.stepInRequest({ threadId: THREAD });
      assert.equal((await s.nextStop())?.body.reason, 'step', s.summary());
      let frames = await s.stack();
      assert.deepEqual([frames[0]!.source?.path, frames[0]!.line], [model, lineOf(model, '@typeof')], describeFrames(frames));
      await s.dc.stepInRequest({ threadId: THREAD });
      assert.equal((await s.nextStop())?.body.reason, 'step', s.summary());
      frames = await s.stack();
      assert.notEqual(frames[0]!.name, '_typeof', describeFrames(frames));
      const at = [frames[0]!.source?.path, frames[0]!.line];
      assert.ok(
        [
          [model, lineOf(model, '@typeof')],
          [train, lineOf(train, '@log')],
          [train, lineOf(train, '@require-late')],
        ].some((want) => want[0] === at[0] && want[1] === at[1]),
        `back in the user's code: ${describeFrames(frames)}`,
      );
    } finally {
      await s.close();
    }
  });

  test('ts-node: Step Into on a tf-op line passes over the re-export getter (`get`, line 1) to the next line', T, async () => {
    const p = tsNodeProject();
    const prog = path.join(p.dir, 'prog.ts');
    const s = await launch(p, 'prog.ts', ['-r', 'ts-node/register'], 'prog.ts', ['@loss']);
    try {
      await stopsAt(s, prog, '@loss');
      await s.dc.stepInRequest({ threadId: THREAD });
      const stop = await s.nextStop();
      assert.equal(stop?.body.reason, 'step', s.summary());
      const frames = await s.stack();
      assert.notEqual(frames[0]!.name, 'get', `not in the getter: ${describeFrames(frames)}`);
      assert.deepEqual([frames[0]!.source?.path, frames[0]!.line], [prog, lineOf(prog, '@after-loss')], describeFrames(frames));
      assert.ok(!frames.some((f) => f.name === 'get' && f.presentationHint !== 'subtle'), describeFrames(frames));
    } finally {
      await s.close();
    }
  });
});
