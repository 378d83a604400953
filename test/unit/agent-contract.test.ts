/**
 * The adapter ↔ agent contract (debug-adapter/debuggee/agent-protocol.ts): the agent installs
 * under the one versioned key the client calls, implements every member of `DebugAgent`, and code
 * sent to it is type-checked: each `@ts-expect-error` below is a call `tsc` must refuse (npm test
 * type-checks this file; a contract loose enough to accept one fails that check).
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import vm from 'node:vm';
import { agentExpression, type AgentClient } from '../../debug-adapter/cdp/agent-client.js';
import { installAgent } from '../../debug-adapter/debuggee/agent/index.js';
import { AGENT_KEY, AGENT_SOURCE_URL, AGENT_VERSION, type DebugAgent } from '../../debug-adapter/debuggee/agent-protocol.js';
import { adapterPaths } from '../../debug-adapter/paths.js';

test('the agent installs under AGENT_KEY with AGENT_VERSION and every DebugAgent member', () => {
  const g = { [Symbol.for('tfjs-callback-debugger.runtime.state')]: { observers: [], nextToken: 0, nextInvocation: 1 } } as unknown as typeof globalThis;
  const agent = installAgent(g);
  assert.equal((g as unknown as Record<string, unknown>)[AGENT_KEY], agent);
  assert.equal(agent.version, AGENT_VERSION);
  const members: (keyof DebugAgent)[] = [
    'version',
    'config',
    'configure',
    'callbackBreak',
    'lastBreak',
    'ensureDebugger',
    'pauseBegan',
    'pauseEnded',
    'knownStatus',
    'snapshot',
    'live',
    'values',
    'details',
    'page',
    'scopeData',
    'info',
    'valueInfo',
    'describe',
    'slice',
    'watchVariables',
    'variableName',
    'dataValues',
    'memoryPin',
    'memoryRead',
  ];
  for (const m of members) assert.ok(m in agent, `the agent has ${m}`);
  assert.equal(installAgent(g), agent, 'a second install keeps the one agent');
});

test("the script an attach injects (the build's bundle of the agent) installs the same agent, with no module to load", () => {
  const file = adapterPaths.agentBundle;
  assert.ok(existsSync(file), `${file} is missing: run npm run build`);
  // A context of its own: no require, no process; the runtime's state not there yet.
  const context = vm.createContext({ performance, Buffer, console, setTimeout });
  vm.runInContext(readFileSync(file, 'utf8'), context, { filename: AGENT_SOURCE_URL });
  const injected = (context as Record<string, DebugAgent | undefined>)[AGENT_KEY];
  assert.ok(injected, 'the script installs the agent under AGENT_KEY');
  assert.equal(injected.version, AGENT_VERSION);
  const g = { [Symbol.for('tfjs-callback-debugger.runtime.state')]: { observers: [], nextToken: 0, nextInvocation: 1 } } as unknown as typeof globalThis;
  assert.deepEqual(Object.keys(injected).sort(), Object.keys(installAgent(g)).sort(), 'the same members as the agent the bridge imports');
  vm.runInContext(readFileSync(file, 'utf8'), context);
  assert.equal((context as Record<string, unknown>)[AGENT_KEY], injected, 'injected again, it keeps the one agent');
});

test('an expression for a frame calls a real function with the agent found under its key', () => {
  const expression = agentExpression((agent, id: number) => agent.live(id)?.args, '7');
  assert.ok(expression.includes(JSON.stringify(AGENT_KEY)));
  const g = { [AGENT_KEY]: { live: (id: number) => ({ args: [id, 'x'] }) } };
  const run = new Function('globalThis', `return ${expression};`) as (g: unknown) => unknown;
  assert.deepEqual(run(g), [7, 'x']);
  assert.throws(() => run({}), /AgentMissing/, 'no agent in the debuggee: a clear failure, not undefined');
});

/** Never run: what `tsc` must refuse. */
export async function refusedCalls(client: AgentClient): Promise<void> {
  // @ts-expect-error: the agent has no such method.
  await client.call((agent) => agent.snapshots());
  // @ts-expect-error: page takes an invocation id, not a name.
  await client.call((agent, id) => agent.page(id, 'inputs', 0, 0, 10), 'pyfunc_1');
  // @ts-expect-error: a side is 'inputs' or 'outputs'.
  await client.call((agent) => agent.page(1, 'input', 0, 0, 10));
  const notJson = () => 1;
  // @ts-expect-error: arguments travel as JSON; a function does not.
  await client.call((agent, f) => agent.describe(f), notJson);
  // @ts-expect-error: the result is what the function returns (ActiveSnapshot[]), not a string.
  const text: string = await client.call((agent) => agent.snapshot());
  void text;
}
