/**
 * The rules behind issue 43 rows 1 and 2, without a debuggee: which CommonJS compiles the agent
 * stops before (debuggee/agent/module-loads.ts: a file whose breakpoints wait, or the user's code
 * with a source map), the map URL it reads from the code, the wrapper on Module.prototype._compile
 * calling through unchanged; and which generated lines are the compiler's (sources.ts `compiled`:
 * TypeScript's helpers and re-export getters map to nothing; the user's lines, a function of
 * theirs named `get` included, do).
 */
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import ts from 'typescript';
import { sourceMapUrlOf, stopsFor, watchModuleLoads } from '../../debug-adapter/debuggee/agent/module-loads.js';
import { helperLines } from '../../debug-adapter/sources/compiled-code.js';
import { Sources } from '../../debug-adapter/sources/sources.js';

test('the map URL is the code’s last sourceMappingURL comment, inline or a file', () => {
  assert.equal(sourceMapUrlOf('x;\n//# sourceMappingURL=data:application/json;base64,eyJ9\n'), 'data:application/json;base64,eyJ9');
  assert.equal(sourceMapUrlOf('"//# sourceMappingURL=no.map";\n//# sourceMappingURL=model.js.map'), 'model.js.map');
  assert.equal(sourceMapUrlOf('x;\n//@ sourceMappingURL=old.map\n'), 'old.map');
  assert.equal(sourceMapUrlOf('x;\n'), undefined);
});

test('a compile stops only while breakpoints wait: for their file, or the user’s code with a map', () => {
  const waiting = new Set(['/p/src/model.ts']);
  assert.equal(stopsFor('/p/src/model.ts', undefined, new Set()), false, 'nothing waits');
  assert.equal(stopsFor('/p/src/model.ts', undefined, waiting), true);
  assert.equal(stopsFor('/p/dist/model.js', 'model.js.map', waiting), true, 'a build output may hold the file');
  assert.equal(stopsFor('/p/dist/other.js', undefined, waiting), false, 'no map: it holds only itself');
  assert.equal(stopsFor('/p/node_modules/lib/index.js', 'index.js.map', waiting), false, 'a package, with no breakpoint in one');
  assert.equal(stopsFor('/p/node_modules/lib/index.js', 'index.js.map', new Set(['/p/node_modules/lib/src/a.ts'])), true);
});

test('the wrapper calls Module.prototype._compile through, and stops with the file and its map', () => {
  const Module = createRequire(import.meta.url)('node:module') as { prototype: { _compile: (...a: unknown[]) => unknown } };
  const saved = Module.prototype._compile;
  const calls: unknown[][] = [];
  Module.prototype._compile = (...args: unknown[]) => {
    calls.push(args);
    return 'compiled';
  };
  try {
    const stops: unknown[] = [];
    const watch = watchModuleLoads(globalThis, (why) => stops.push(why));
    const code = 'x;\n//# sourceMappingURL=data:application/json,{}';
    assert.equal(Module.prototype._compile.call({}, code, '/p/a.js'), 'compiled');
    watch(['/p/a.js']);
    Module.prototype._compile.call({}, code, '/p/a.js');
    Module.prototype._compile.call({}, 'y;', '/p/b.js');
    assert.deepEqual(stops, [{ reason: 'moduleLoad', id: 0, load: { file: '/p/a.js', length: code.length, sourceMapURL: 'data:application/json,{}' } }]);
    assert.equal(calls.length, 3, 'every compile goes through, unchanged');
    assert.deepEqual(calls[2], ['y;', '/p/b.js']);
  } finally {
    Module.prototype._compile = saved;
  }
});

test("TypeScript's helpers and re-export getter map to nothing; the user's lines, a `get` of theirs too, map", () => {
  const source = "import * as tf from '@tensorflow/tfjs';\nexport function get(): number {\n  return 1;\n}\nconsole.log(tf.version, get());\n";
  const out = ts.transpileModule(source, {
    fileName: '/p/prog.ts',
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2020, esModuleInterop: true, sourceMap: true, inlineSourceMap: false },
  });
  const map = Buffer.from(out.sourceMapText!).toString('base64');
  const sources = new Sources();
  const script = sources.add({
    scriptId: '1',
    url: 'file:///p/prog.ts',
    sourceMapURL: `data:application/json;base64,${map}`,
  } as Parameters<Sources['add']>[0]);
  const lines = out.outputText.split('\n');
  const getter = lines.findIndex((l) => l.includes('get: function() { return m[k]; }'));
  const own = lines.findIndex((l) => l.includes('function get()'));
  assert.ok(getter >= 0 && own >= 0, out.outputText);
  assert.equal(sources.compiled({ scriptId: '1', lineNumber: getter }), true, 'the re-export getter');
  assert.equal(sources.compiled({ scriptId: '1', lineNumber: own }), false, 'the user’s own function named get');
  assert.equal(sources.compiled({ scriptId: '1', lineNumber: own + 1 }), false);
  const runs = sources.compiledLines(script);
  assert.ok(
    runs.some(([first, end]) => first <= getter && getter < end),
    JSON.stringify(runs),
  );
  assert.ok(!runs.some(([first, end]) => first <= own && own < end), JSON.stringify(runs));
  assert.equal(sources.compiled({ scriptId: '2', lineNumber: 0 }), false, 'a script not known');
});

test("babel's helpers, mapped to the statement that asked for them, are the compiler's; the user's `_typeof` is theirs", () => {
  const generated = [
    '"use strict";',
    'var _m = _interopRequireDefault(require("./m2"));',
    'function _interopRequireDefault(e) { return e && e.__esModule ? e : { "default": e }; }',
    'function _typeof(o) { "@babel/helpers - typeof"; return typeof o; }',
    'function tryCatch(t, e, r) { try { return { type: "normal", arg: t.call(e, r) }; } catch (t) { return { type: "throw", arg: t }; } }',
    'function _own(x) {',
    '  return _typeof(x);',
    '}',
  ].join('\n');
  const original = ["import m from './m2';", 'async function train(model) {', 'function _own(x) {', '  return typeof x;', '}'];
  // Where each generated line maps (babel's: helpers to the import or the next statement).
  const mapsTo = [[], [0], [0], [0, 1], [1], [2], [3], [4]];
  const found = helperLines(generated, (line) => mapsTo[line]!.map((l) => original[l]!));
  assert.deepEqual([...found], [2, 3, 4]);
  // A module on one line, starting with a helper of esbuild's or a function of the user's: many lines.
  assert.deepEqual([...helperLines('function _x(){}function own(){}own();', () => [original[1]!, original[2]!, original[3]!])], []);
});
