/**
 * Node breakpoint globs against hostile names (issue 28 point 3): the agent matches `*` patterns
 * with no regular expression, so several stars against a long name that almost matches cost
 * name × pattern steps instead of the exponential backtracking of `^.*a.*a…b$` (a 400-character
 * name took 9.8 s per node; these names would not finish at all). Counts only, no durations.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { installAgent } from '../../debug-adapter/debuggee/agent/index.js';
import { summarizeTensor, summarizeValues } from '../../runtime/summary.js';

/** An agent on a global of its own that knows one model with these node names. */
function agentKnowing(names: readonly string[]) {
  const g = {
    [Symbol.for('tfjs-callback-debugger.runtime.state')]: {
      observers: [],
      nextToken: 0,
      nextInvocation: 1,
      tools: { summarizeTensor, summarizeValues },
      knownGraphs: [{ graph: 'hostile', nodes: names.map((name) => ({ name, op: 'Relu' })) }],
    },
  } as unknown as typeof globalThis;
  return installAgent(g);
}

describe('node breakpoint globs against hostile names', () => {
  test('many stars against long almost-matching names answer, right', { timeout: 120_000 }, () => {
    const names = ['a'.repeat(5000), `${'ab'.repeat(20_000)}c`, 'scope\nwith/newline/Relu_7'];
    const agent = agentKnowing(names);
    const { matched } = agent.knownStatus([
      '*a*a*a*a*a*a*a*b', // no b at all in the first; the second has b's but the pattern must end in b: it ends in c
      '*a*a*a*a*a*a*a*a',
      '*a*b*a*b*a*b*c',
      'scope*Relu_7', // a star matches across the newline
      '*x*y*z*',
    ]);
    assert.deepEqual(matched, ['*a*a*a*a*a*a*a*a', '*a*b*a*b*a*b*c', 'scope*Relu_7']);
  });

  test('literal characters of regular expressions are literal in globs', () => {
    const agent = agentKnowing(['dense(1)/MatMul', 'dense.1/MatMul', 'a+b/[x]']);
    const { matched } = agent.knownStatus(['dense(1)*', 'dense.?/*', 'a+b/[x]*', '*[x]', 'dense?1*']);
    assert.deepEqual(matched, ['dense(1)*', 'a+b/[x]*', '*[x]']);
  });
});
