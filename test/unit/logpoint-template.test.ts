/**
 * The logpoint message parser (debug-adapter/breakpoints/logpoint-template.ts): each `{expression}`
 * read as JavaScript, so inner braces, strings, template literals, comments and regular expressions
 * do not end it; empty braces stay text; a message that cannot be read says where and what.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseLogpointTemplate, type TemplatePiece } from '../../debug-adapter/breakpoints/logpoint-template.js';

const text = (t: string): TemplatePiece => ({ kind: 'text', text: t });
const expr = (source: string, at: number): TemplatePiece => ({ kind: 'expression', source, at });

test('text and expressions, as before', () => {
  assert.deepEqual(parseLogpointTemplate('i = {i}, j = {j}!'), [text('i = '), expr('i', 4), text(', j = '), expr('j', 13), text('!')]);
  assert.deepEqual(parseLogpointTemplate('no braces'), [text('no braces')]);
  assert.deepEqual(parseLogpointTemplate(''), []);
});

test('inner braces: an object literal, a block-body arrow, a shorthand object', () => {
  assert.deepEqual(parseLogpointTemplate('{JSON.stringify({a: 1})}'), [expr('JSON.stringify({a: 1})', 0)]);
  assert.deepEqual(parseLogpointTemplate('x={[1,2].map((x) => { return x * 2; })}.'), [text('x='), expr('[1,2].map((x) => { return x * 2; })', 2), text('.')]);
  assert.deepEqual(parseLogpointTemplate('{{a, b}}'), [expr('{a, b}', 0)]);
});

test('braces in strings, template literals, comments and regular expressions do not count', () => {
  assert.deepEqual(parseLogpointTemplate(`{"}" + '{' + "\\"}"}`), [expr(`"}" + '{' + "\\"}"`, 0)]);
  assert.deepEqual(parseLogpointTemplate('{`a}${ {b: 1}.b }{`}!'), [expr('`a}${ {b: 1}.b }{`', 0), text('!')]);
  assert.deepEqual(parseLogpointTemplate('{a /* } */ + 1}'), [expr('a /* } */ + 1', 0)]);
  assert.deepEqual(parseLogpointTemplate('{a // }\n}'), [expr('a // }\n', 0)]);
  assert.deepEqual(parseLogpointTemplate('{/}/.test(s)}'), [expr('/}/.test(s)', 0)]);
  assert.deepEqual(parseLogpointTemplate('{a / b / c}'), [expr('a / b / c', 0)], 'division, not a regular expression');
});

test('empty or blank braces and a lone closing brace stay text', () => {
  assert.deepEqual(parseLogpointTemplate('{} { } a}b'), [text('{} { } a}b')]);
});

test('a message that cannot be read: its text so far, then where and what', () => {
  const unread = (template: string) => {
    const pieces = parseLogpointTemplate(template);
    const last = pieces.at(-1);
    assert.equal(last?.kind, 'unreadable', JSON.stringify(pieces));
    return { before: pieces.slice(0, -1), message: last.kind === 'unreadable' ? last.message : '' };
  };
  const brace = unread('x = {i');
  assert.deepEqual(brace.before, [text('x = ')]);
  assert.match(brace.message, /^Logpoint message: the '\{' at character 5 has no matching '\}'\. A '\{' meant as text is written \{'\{'\}$/);
  assert.match(unread('{i} and {f({a: 1)}').message, /the '\{' at character 9 has no matching '\}'/);
  assert.match(unread('{"abc}').message, /the string at character 2 is not closed/);
  assert.match(unread('{`a${b}').message, /the template literal at character 2 is not closed/);
  assert.match(unread('{a /* x }').message, /the comment at character 4 is not closed/);
  assert.match(unread('{a // note}').message, /the '\{' at character 1 has no matching '\}' \(the \/\/ comment at character 4 runs to the end of the line\)/);
});
