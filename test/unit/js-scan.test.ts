/**
 * The adapter's JS scanning (try/catch around a frame's position, async functions, parameter
 * lists, a function's one return statement) and its name matching helpers, on tsx-style one-line
 * output and on plain JS. No debuggee.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isLikelyTypo } from '../../debug-adapter/breakpoints/callback-names.js';
import { editDistance } from '../../runtime/edit-distance.js';
import { inTryWithCatch, isAsyncFunction, offsetOf, parameterList, positionOf, returnStatementStart } from '../../debug-adapter/sources/js-scan.js';

/** `src` with the function starting at the first `(` after `fn`, and `at` at the first `marker`. */
function at(src: string, fn: string, marker: string): [number, number] {
  return [src.indexOf('(', src.indexOf(fn)), src.indexOf(marker)];
}

describe('inTryWithCatch', () => {
  test('a throw in a try block with a catch, in the same function, is caught', () => {
    const src = 'function f(x){try{if(x)throw new Error("a")}catch(e){g(e)}return 1}';
    assert.equal(inTryWithCatch(src, ...at(src, 'function f', 'throw')), true);
  });

  test('try/finally does not catch; nor does the catch block protect itself', () => {
    const fin = 'function f(x){try{throw new Error("a")}finally{g()}}';
    assert.equal(inTryWithCatch(fin, ...at(fin, 'function f', 'throw')), false);
    const inCatch = 'function f(x){try{g()}catch(e){throw e}}';
    assert.equal(inTryWithCatch(inCatch, ...at(inCatch, 'function f', 'throw')), false);
    const nested = 'function f(x){try{try{g()}catch(e){throw e}}catch(e2){}}';
    assert.equal(inTryWithCatch(nested, ...at(nested, 'function f', 'throw')), true, 'an outer try with a catch does');
  });

  test('a try that encloses the function, or a closed one before the position, does not count', () => {
    const outside = 'try{numpyFunction(function cb(x){throw new Error("a")},[t],"float32")}catch(e){}';
    assert.equal(inTryWithCatch(outside, ...at(outside, 'function cb', 'throw')), false);
    const before = 'function f(x){try{g()}catch(e){}const h=()=>{try{k()}catch{}};throw new Error("a")}';
    assert.equal(inTryWithCatch(before, ...at(before, 'function f', 'throw new')), false);
  });

  test('braces in strings, templates, regular expressions and comments do not confuse it', () => {
    const src = 'function f(x){const s="}{";const t=`a${x+"}"}b}`;const r=/[}{]\\}/g;/* } */try{throw new Error(`${s}}`)}catch{}}';
    assert.equal(inTryWithCatch(src, ...at(src, 'function f', 'throw')), true);
    const plain = 'function f(x) {\n  // } not a brace\n  const y = x / 2; // division\n  try {\n    return y / x;\n  } catch (e) {\n    return 0;\n  }\n}';
    assert.equal(inTryWithCatch(plain, ...at(plain, 'function f', 'return y')), true);
  });

  test("a regular expression right after a statement's parenthesis (`if (s) /}/…`) is one, not a division", () => {
    const src = 'function f(s){try{if(s)/}/.test(s);throw new Error("a")}catch(e){}}';
    assert.equal(inTryWithCatch(src, ...at(src, 'function f', 'throw')), true);
    const loop = 'function f(s){try{while(s)/{/.exec(s);throw new Error("a")}catch(e){}}';
    assert.equal(inTryWithCatch(loop, ...at(loop, 'function f', 'throw')), true);
  });
});

describe('isAsyncFunction and parameterList', () => {
  test('async declarations, arrows and methods', () => {
    for (const src of ['async function f(x){}', 'const f=async(x)=>{}', 'const f = async (x) => x', 'class A{async m(x){}}']) {
      assert.equal(isAsyncFunction(src, src.indexOf('(', src.search(/f|m\(/))), true, src);
    }
    assert.equal(isAsyncFunction('function f(x){}', 'function f'.length), false);
  });

  test('names and offsets; destructured ones are undefined; a single-name arrow', () => {
    const src = 'function smooth(x,beta2,{a,b},[c],...rest){}';
    const params = parameterList(src, src.indexOf('('));
    assert.deepEqual(
      params.map((p) => p?.name),
      ['x', 'beta2', undefined, undefined, 'rest'],
    );
    assert.equal(src.slice(params[1]!.at, params[1]!.at + 5), 'beta2');
    assert.deepEqual(
      parameterList('v=>v*b', 0).map((p) => p?.name),
      ['v'],
    );
    assert.deepEqual(
      parameterList('(a = {x: 1}, b) => a', 0).map((p) => p?.name),
      ['a', 'b'],
    );
  });
});

describe('returnStatementStart', () => {
  test('tsx output (the return position is the closing brace) and plain JS (after the semicolon)', () => {
    const min = 'function bad(x){const y=1;return Float64Array.from(x.data)}__name(bad,"bad");';
    const ret = min.indexOf('}__name');
    assert.equal(returnStatementStart(min, min.indexOf('('), ret), min.indexOf('return'));
    const plain = 'function a(x) {\n  const y = x + 1;\n  return y * 2;\n}';
    assert.equal(returnStatementStart(plain, plain.indexOf('('), plain.indexOf(';\n}') + 1), plain.indexOf('return'));
  });

  test('the implicit return at the end, and a return nested in a block, give none; an arrow gives its body', () => {
    const implicit = 'function c(x){g(x)}';
    assert.equal(returnStatementStart(implicit, implicit.indexOf('('), implicit.length - 1), undefined);
    const afterReturn = 'function c(x){if(x){return 1}g(x)}';
    assert.equal(returnStatementStart(afterReturn, afterReturn.indexOf('('), afterReturn.length - 1), undefined);
    const arrow = 'const f=(x)=>x.map(v=>v*2);';
    assert.equal(returnStatementStart(arrow, arrow.indexOf('('), arrow.indexOf(';')), arrow.indexOf('x.map'));
  });
});

describe('positions', () => {
  test('offsetOf and positionOf agree across \\n, \\r\\n and \\r', () => {
    const src = 'a\nbc\r\nd\re';
    for (const [line, column] of [
      [0, 0],
      [1, 1],
      [2, 0],
      [3, 0],
    ] as const) {
      assert.deepEqual(positionOf(src, offsetOf(src, line, column)), { lineNumber: line, columnNumber: column });
    }
    assert.equal(src[offsetOf(src, 3, 0)], 'e');
  });
});

describe('edit distance', () => {
  test('typos are close, other names are not', () => {
    assert.equal(editDistance('log_hubr', 'log_huber'), 1);
    assert.equal(editDistance('int23', 'int32'), 1, 'two neighbours swapped are one edit');
    assert.equal(editDistance('flaot32', 'float32'), 1);
    assert.equal(editDistance('', 'relu'), 4);
    assert.equal(isLikelyTypo('log_hubr', 'log_huber'), true);
    assert.equal(isLikelyTypo('Log_Huber', 'log_huber'), true, 'case ignored');
    assert.equal(isLikelyTypo('no_such_callback', 'scale_rows'), false);
    assert.equal(isLikelyTypo('scale', 'scale_rows'), false);
    assert.equal(isLikelyTypo('widdenn', 'widen'), true, 'two doubled keys in a short name');
    assert.equal(isLikelyTypo('relu', 'tanh'), false);
  });
});
