/** NaN and ±Inf in words (runtime/non-finite-text.ts), from real summaries of real values. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { nonFiniteText } from '../../runtime/non-finite-text.js';
import { summarizeValues } from '../../runtime/summary.js';

const of = (flat: unknown[], dtype: 'float32' | 'string' = 'float32') => nonFiniteText(summarizeValues({ dtype, shape: [flat.length], flat }));

test('the counts that are not 0, each infinity with its sign', () => {
  assert.equal(of([1, Number.NaN, -Infinity, -Infinity, Infinity]), '1 NaN, 2 −Inf, 1 +Inf');
  assert.equal(of([-Infinity]), '1 −Inf');
  assert.equal(of([1, 2]), '');
});

test('strings have no NaN to count', () => {
  assert.equal(of(['NaN', 'x'], 'string'), '');
});

test('a summary that did not count signs says ±Inf', () => {
  assert.equal(nonFiniteText({ dtype: 'float32', nanCount: 0, infCount: 2 }), '2 ±Inf');
});
