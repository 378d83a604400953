/**
 * What the adapter keeps per stop stays bounded (issue 42, the adapter's memory over 2,000 stops):
 * heap snapshots of a long session show one entry a stop in AgentClient's cache of invocation
 * locations (debug-adapter/cdp/agent-client.ts), emptied past 1,000. A count, not a duration: after
 * 2,500 invocations the cache holds at most 1,001 entries, and one asked again is fetched once.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AgentClient } from '../../debug-adapter/cdp/agent-client.js';
import type { CdpConnection } from '../../debug-adapter/cdp/connection.js';

/** A CDP connection that answers as V8 does for functionLocation's three calls, counting them. */
function fakeCdp(): { cdp: CdpConnection; sent: Map<string, number> } {
  const sent = new Map<string, number>();
  let functions = 0;
  const answers: Record<string, () => unknown> = {
    'Runtime.evaluate': () => ({ result: { type: 'object', objectId: 'global' } }),
    'Runtime.callFunctionOn': () => ({ result: { type: 'function', objectId: `fn-${++functions}` } }),
    'Runtime.getProperties': () => ({
      result: [],
      internalProperties: [{ name: '[[FunctionLocation]]', value: { type: 'object', value: { scriptId: '7', lineNumber: functions, columnNumber: 0 } } }],
    }),
    'Runtime.releaseObject': () => ({}),
  };
  const send = async (method: string) => {
    sent.set(method, (sent.get(method) ?? 0) + 1);
    const answer = answers[method];
    if (!answer) throw new Error(`the fake CDP connection has no answer for ${method}`);
    return answer();
  };
  return { cdp: { send } as unknown as CdpConnection, sent };
}

test('the cache of invocation locations holds at most 1,001 entries however many invocations stop', async () => {
  const { cdp, sent } = fakeCdp();
  const client = new AgentClient(cdp);
  const cache = (client as unknown as { locations: Map<number, unknown> }).locations;
  let largest = 0;
  for (let id = 1; id <= 2500; id++) {
    const location = await client.functionLocation(id);
    assert.equal(location?.scriptId, '7', `invocation ${id}: ${JSON.stringify(location)}`);
    largest = Math.max(largest, cache.size);
  }
  assert.ok(largest <= 1001, `the cache grew to ${largest} entries`);
  assert.equal(sent.get('Runtime.getProperties'), 2500);
  // The same invocation at its next stop: answered from the cache, nothing sent.
  await client.functionLocation(2500);
  assert.equal(sent.get('Runtime.getProperties'), 2500);
  // Each function looked at is let go at once.
  assert.equal(sent.get('Runtime.releaseObject'), 2500);
});
