/** NaN and ±Inf in words (runtime/non-finite-text.ts), from real summaries of real values. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { nonFiniteOutOf, nonFiniteOutputsText, nonFiniteText } from '../../runtime/non-finite-text.js';
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

test('out of how many elements, and in which output (the NaN/Inf stops)', () => {
  const summary = (flat: number[]) => summarizeValues({ dtype: 'float32', shape: [flat.length], flat });
  assert.equal(nonFiniteOutOf(summary([Number.NaN, -Infinity, -Infinity, 1, 2, Infinity])), '1 NaN, 2 −Inf, 1 +Inf of 6 elements');
  assert.equal(nonFiniteOutOf(summary([Number.NaN])), '1 NaN of 1 element');
  assert.equal(nonFiniteOutOf(summary([1, 2])), '');
  assert.equal(
    nonFiniteOutputsText([summary([1, Number.NaN, 3]), null, summary([1]), summary([Infinity, Infinity, 0, 0])]),
    'output 0 has 1 NaN of 3 elements; output 3 has 2 +Inf of 4 elements',
  );
  // A huge tensor's summary counts a sample: the words say so.
  assert.equal(
    nonFiniteOutOf({ dtype: 'float32', size: 4_000_000, nanCount: 3, infCount: 0, negInfCount: 0, exact: false, counted: 1_048_576 }),
    '3 NaN in a sample of 1048576 of 4000000 elements',
  );
  // A value's info without counts says nothing of it.
  assert.equal(nonFiniteOutputsText([{ dtype: 'float32', size: 3 }]), '');
});
