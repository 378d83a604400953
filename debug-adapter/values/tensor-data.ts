/**
 * The `tensorData` request (extension-protocol.ts): a slice of an invocation's input or output, or
 * of any expression whose value is a tensor, NdArray or typed array; and `tensorBytes`, the bytes
 * of an invocation's or node's value (memory.ts).
 */
import type { Protocol } from 'devtools-protocol';
import type { AgentClient } from '../cdp/agent-client.js';
import {
  DATA_BREAKPOINT_GRAPH,
  VARIABLES_GRAPH,
  type InvocationDataArguments,
  type NodeDataArguments,
  type NodeInfoArguments,
  type NodeInfoResponseBody,
  type TensorBytesArguments,
  type TensorBytesResponseBody,
  type TensorDataArguments,
  type TensorDataResponseBody,
} from '../extension-protocol.js';
import type { MemoryReferences } from './memory.js';

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
  if ('node' in args && typeof args.node === 'string' && args.graph === VARIABLES_GRAPH) {
    // A tf.Variable picked in Show tf.Variables: its value, by name, while the program is paused.
    const page = await agent.call(
      (a, name, from, c) => {
        const v = a.variables()[name];
        return a.variableName(v) === name
          ? { info: a.valueInfo(v), start: from, values: a.slice(v, from, c) }
          : { error: `no tf.Variable named '${name}' is registered now` };
      },
      args.node,
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
  return expressionData(args.expression, args.frameId, start, count, agent, evaluate);
}

/** A slice of any expression's value that is a tensor, NdArray or typed array. */
async function expressionData(
  target: string,
  frameId: number | undefined,
  start: number,
  count: number,
  agent: AgentClient,
  evaluate: (expression: string, frameId: number | undefined) => Promise<Protocol.Runtime.RemoteObject>,
): Promise<TensorDataResponseBody> {
  const value = await evaluate(target, frameId);
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

/** The `tensorBytes` request: bytes of an invocation's or the paused node's input or output, as stored. */
export async function tensorBytes(
  args: Partial<TensorBytesArguments> | undefined,
  agent: AgentClient,
  memory: MemoryReferences,
): Promise<TensorBytesResponseBody> {
  const offset = Number(args?.offset ?? 0);
  const count = Number(args?.count ?? 256);
  if (!Number.isInteger(offset) || offset < 0 || !Number.isInteger(count) || count < 0) {
    throw new Error(`tensorBytes needs a byte offset and count that are whole numbers ≥ 0 (got offset ${args?.offset}, count ${args?.count})`);
  }
  const side = args?.side === 'inputs' ? 'inputs' : 'outputs';
  const index = Number(args?.index ?? 0);
  if (args && 'node' in args && typeof args.node === 'string') {
    // A data breakpoint stop: input 0 is the old value, outputs 0 and 1 the new value and the change.
    if (args.graph === DATA_BREAKPOINT_GRAPH) return memory.bytes(agent, { kind: 'data', index: side === 'inputs' ? 0 : 1 + index }, offset, count);
    const live = await agent.call((a, g, n) => a.nodeInfo(g, n)?.live === true, String(args.graph), args.node);
    if (!live) throw new Error(`node ${args.node} of ${args.graph} is not the node the program is stopped at`);
    return memory.bytes(agent, { kind: 'node', side, index }, offset, count);
  }
  const id = Number((args as Partial<InvocationDataArguments> | undefined)?.invocationId);
  if (!Number.isInteger(id)) throw new Error('tensorBytes needs an invocationId, or a graph and a node');
  return memory.bytes(agent, { kind: 'input', id, side, index }, offset, count);
}
