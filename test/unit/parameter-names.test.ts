/**
 * The callback's parameter names (the debugger's Callback scope and breakpoint conditions use
 * them), read from plain JS sources the way a user writes them: comments, defaults holding commas
 * or brackets in strings, destructuring, rest parameters. Read with acorn's tokenizer (runtime/invocation/callbacks.ts).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parameterNames } from '../../runtime/invocation/callbacks.js';

/** A function made from JS source, as plain JS (no TypeScript transform touches its text). */
const js = (source: string): Function => new Function(`return ${source}`)() as Function;

const CASES: [source: string, names: string[]][] = [
  ['(x, /* y, */ z) => x', ['x', 'z']],
  ['function (a /* , b */, c) { return a }', ['a', 'c']],
  ['(x, // y,\n z) => x', ['x', 'z']],
  ['(s = "a,b", t = \'(\') => s', ['s', 't']],
  ['(t = `a,${1},b`, u) => t', ['t', 'u']],
  ['async /* the input */ x => x', ['x']],
  ['x => x', ['x']],
  ['({ a, b }, [c], ...rest) => a', ['arg0', 'arg1', 'rest']],
  ['function scale(x, factor = Math.max(1, 2)) { return x }', ['x', 'factor']],
  // What a hand-written scanner gets wrong: a regex with a paren or comma, a template with a nested
  // template, a method, a generator, `async` as a name.
  ['(r = /[(,]/g, q) => r', ['r', 'q']],
  ['(t = `a${`,(${1}`}`, u) => t', ['t', 'u']],
  ['({ scale(a, b) { return a } }).scale', ['a', 'b']],
  ['function* gen(a, b) { yield a }', ['a', 'b']],
  ['async => 1', ['async']],
  ['Math.max', []],
];

for (const [source, names] of CASES) {
  test(`parameter names of ${JSON.stringify(source)}: ${names.join(', ')}`, () => {
    assert.deepEqual(parameterNames(js(source)), names);
  });
}
