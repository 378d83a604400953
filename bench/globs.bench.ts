/**
 * Node breakpoint globs against adversarial names (issue 28 point 3): the agent's matcher costs
 * name × pattern steps, so time per match grows linearly with the name's length. Printed as the
 * ratio to the shortest name in the same run; the regular expression it replaced backtracked
 * exponentially in the number of stars (`*a*a*a*b` on 400 characters: 9.8 s).
 */
import { installAgent } from '../debug-adapter/debuggee/agent/index.js';
import { measure } from './harness.js';

type Print = (line: string) => void;

export async function globBenchmarks(print: Print): Promise<void> {
  print('\nnode breakpoint globs · "*a*a*a*a*a*b" against a name of n "a"s (no match: the worst case)');
  let base: number | undefined;
  for (const n of [1_000, 10_000, 100_000]) {
    const name = 'a'.repeat(n);
    const g = {
      [Symbol.for('tfjs-callback-debugger.runtime.state')]: {
        observers: [],
        nextToken: 0,
        nextInvocation: 1,
        knownGraphs: [{ graph: 'bench', nodes: [{ name, op: 'Relu' }] }],
      },
    } as unknown as typeof globalThis;
    const agent = installAgent(g);
    const { usPerCall } = measure(() => agent.knownStatus(['*a*a*a*a*a*b']), n >= 100_000 ? 3 : 20, 5);
    base ??= usPerCall / n;
    print(
      `  n=${String(n).padStart(7)}  ${(usPerCall / 1000).toFixed(2).padStart(8)} ms/match  per character ${(usPerCall / n / base).toFixed(2)}x the n=1,000 cost`,
    );
  }
}
