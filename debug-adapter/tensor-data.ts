/**
 * The `tensorData` request (extension-protocol.ts): a slice of an invocation's input or output, or
 * of any expression whose value is a tensor, NdArray or typed array.
 */
import type { Protocol } from 'devtools-protocol';
import type { AgentClient } from './agent-client.js';
import {
  DATA_BREAKPOINT_GRAPH,
  type InvocationDataArguments,
  type NodeDataArguments,
  type NodeInfoArguments,
  type NodeInfoResponseBody,
  type TensorDataArguments,
  type TensorDataResponseBody,
} from './extension-protocol.js';

/** At most this many values in one answer. */
const MAX_COUNT = 1_000_000;

export async function tensorData(
  args: TensorDataArguments,
  agent: AgentClient,
  evaluate: (expression: string, frameId: number | undefined) => Promise<Protocol.Runtime.RemoteObject>,
): Promise<TensorDataResponseBody> {
  const start = Math.max(0, args.start ?? 0);
  const count = Math.max(0, Math.min(args.count ?? 1000, MAX_COUNT));
  if ('node' in args && typeof args.node === 'string' && args.graph === DATA_BREAKPOINT_GRAPH) {
    // A data breakpoint stop: input 0 is the old value, outputs 0 and 1 the new value and the change.
    const at = args.side === 'inputs' ? 0 : 1 + Number(args.index ?? 0);
    const page = await agent.call(
      (a, i, from, c) => {
        const v = a.dataValues()?.[i];
        const info = v === undefined ? undefined : a.info(v);
        return info ? { info, start: from, values: a.slice(v, from, c) } : { error: 'the program is not stopped at a data breakpoint with that value' };
      },
      at,
      start,
      count,
    );
    if ('error' in page) throw new Error(page.error);
    return page;
  }
  if ('node' in args && typeof args.node === 'string') {
    // The paused node's input or output (a node stop).
    const { graph, side: asked, index } = args as Partial<NodeDataArguments>;
    const side = asked === 'inputs' ? 'inputs' : 'outputs';
    const page = await agent.call(
      (a, g, n, s, i, from, c) =>
        a.nodeInfo(g, n)?.live ? a.nodePage(s, i, from, c) : { error: `node ${n} of ${g} is not the node the program is stopped at` },
      String(graph),
      args.node,
      side,
      Number(index ?? 0),
      start,
      count,
    );
    if ('error' in page) throw new Error(page.error);
    return page;
  }
  if (!('expression' in args) || typeof args.expression !== 'string') {
    // An invocation's input or output: any value a callback takes or returns (the agent's page).
    const { invocationId, index, side: asked } = args as Partial<InvocationDataArguments>;
    const side = asked === 'inputs' ? 'inputs' : 'outputs';
    const page = await agent.call((a, id, s, i, from, n) => a.page(id, s, i, from, n), Number(invocationId), side, Number(index ?? 0), start, count);
    if (!page || 'error' in page) throw new Error(page?.error ?? `invocation ${invocationId} is not under way`);
    return page;
  }
  const target = args.expression;
  const value = await evaluate(target, args.frameId);
  if (!value.objectId) throw new Error(`${target} is not a tensor`);
  const page = await agent
    .callOn(
      value.objectId,
      function (a, from, n) {
        const info = a.info(this);
        return info ? { info, start: from, values: a.slice(this, from, n) } : undefined;
      },
      start,
      count,
    )
    .catch(() => undefined);
  if (!page) throw new Error(`${target} is not a tensor, NdArray or typed array`);
  return page;
}

/** The `nodeInfo` request: a node of the latest watched run (the paused one with live tensors). */
export async function nodeInfo(args: Partial<NodeInfoArguments> | undefined, agent: AgentClient): Promise<NodeInfoResponseBody> {
  if (typeof args?.graph !== 'string' || typeof args.node !== 'string') throw new Error('nodeInfo needs a graph and a node name');
  const info = await agent.call((a, g, n) => a.nodeInfo(g, n), args.graph, args.node);
  if (!info) throw new Error(`node ${args.node} did not run in the latest watched run of ${args.graph}`);
  return info;
}
