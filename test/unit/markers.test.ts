/**
 * test/helpers/markers.ts: tests find fixture lines by `// @name` markers; a missing, repeated or
 * misspelt marker is an error that says which and where, never a wrong line.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { blankLineAbove, lineOf, lineOfMarker, lineWith } from '../helpers/markers.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tfjs-cb-markers-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));
const file = path.join(dir, 'program.ts');
const lines = ['// a program', '', 'const a = 1; // @first', 'const b = 2; // note @second-one, said in passing'];
lines.push('// @dup', '// @dup', 'const c = 3; // @first-two');
fs.writeFileSync(file, lines.join('\n'));

describe('lineOf', () => {
  test('the 1-based line carrying the marker, with or without @, after other comment text too', () => {
    assert.equal(lineOf(file, '@first'), 3);
    assert.equal(lineOf(file, 'first'), 3);
    assert.equal(lineOf(file, '@second-one'), 4);
    assert.equal(lineOf(file, '@first-two'), 7, 'a longer name is another marker, not a match of @first');
  });

  test('a marker missing, or on two lines, is an error naming the file and the lines', () => {
    assert.throws(() => lineOf(file, '@second'), /No line of .*program\.ts carries the marker "\/\/ @second": add it at the end of the line/);
    assert.throws(() => lineOf(file, '@dup'), /Lines 5, 6 of .*program\.ts all carry the marker "\/\/ @dup"/);
    assert.throws(() => lineOf(file, '@a b'), /"@a b" is not a marker name/);
  });

  test('in source text the test holds', () => {
    assert.equal(lineOfMarker('x\ny // @here\n', '@here', 'inline'), 2);
    assert.throws(() => lineOfMarker('@here\n', '@here', 'inline'), /No line of inline carries/, 'only in a // comment');
  });
});

describe('blankLineAbove and lineWith', () => {
  test('the blank line above a marker, or an error when it is not blank', () => {
    assert.equal(blankLineAbove(file, '@first'), 2);
    const notBlank = /Line 3 of .*, above the marker "\/\/ @second-one", should be blank but is "const a = 1; \/\/ @first"/;
    assert.throws(() => blankLineAbove(file, '@second-one'), notBlank);
  });

  test('the one line containing a text', () => {
    assert.equal(lineWith(file, 'const b = 2;'), 4);
    assert.throws(() => lineWith(file, 'const z'), /No line of .* contains "const z"/);
    assert.throws(() => lineWith(file, 'const'), /Lines 3, 4, 7 of .* all contain "const"/);
  });
});
