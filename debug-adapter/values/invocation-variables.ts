/**
 * The scopes of an invocation and of a node: the Callback scope (inputs under the callback's
 * parameter names, Tin, Tout, outputs at return, the Tout check's findings, node attrs) and the
 * Node scope (a node stop's inputs, outputs, op and attributes). Tensors expand through the agent.
 */
import type { DebugProtocol } from '@vscode/debugprotocol';
import type { Protocol } from 'devtools-protocol';
import { convertedText, errorText, inputExpression, mismatchText, narrowedText, NODE_ATTRS, outputsName } from './callback-scope.js';
import type { ActiveSnapshot, NodeSnapshot, ScopeValue, Side, ValueInfo } from '../debuggee/agent-protocol.js';
import { attrText } from './node-scope.js';
import { text, type VariableContext } from './variable-refs.js';

/**
 * Each variable's evaluateName is its name: evaluate binds the Callback names (callback-scope.ts).
 * One call to the agent shows tensor inputs (their summaries are in its answer); other inputs
 * and the outputs are remote objects, fetched together with two more.
 */
export async function callbackVariables(c: VariableContext, active: ActiveSnapshot): Promise<DebugProtocol.Variable[]> {
  const data = await c.agent.call((agent, id) => agent.scopeData(id), active.id);
  const returned = active.phase === 'returned';
  const inputs = data?.inputs ?? [];
  const remoteIndexes = inputs.flatMap((v, i) => (v.shown === 'remote' ? [i] : []));
  const remote = remoteIndexes.length > 0 || returned ? await remoteValues(c, active.id, remoteIndexes, returned) : undefined;
  const out: DebugProtocol.Variable[] = [];
  for (const [i, shown] of inputs.entries()) {
    const name = active.parameterNames[i];
    const evaluateName = name !== undefined && /^[A-Za-z_$][\w$]*$/.test(name) ? name : inputExpression(active.id, i);
    const value = remote?.inputs.get(i);
    out.push(value ? await c.toVariable(name ?? `input${i}`, value, evaluateName) : scopeVariable(c, name ?? `input${i}`, shown, active.id, i, evaluateName));
  }
  if (active.Tin.length > 0) out.push(text('Tin', `[${active.Tin.join(', ')}]`, 'Tin'));
  out.push(text('Tout', `[${active.Tout.join(', ')}]`, 'Tout'));
  // Each output a row of its own (`outputs[0]`: the tensor, one expand from its values), as each input is.
  const outName = outputsName(active);
  if (remote?.outputs?.kind === 'list')
    for (const [i, value] of remote.outputs.values.entries()) out.push(await c.toVariable(`${outName}[${i}]`, value, `${outName}[${i}]`));
  else if (remote?.outputs) out.push(await c.toVariable(outName, remote.outputs.value, outName));
  const mismatches = active.toutCheck?.mismatches ?? [];
  const indexed = mismatches.some((m) => m.index !== undefined);
  for (const m of mismatches) {
    if (m.index !== undefined) out.push(text(`mismatch[${m.index}]`, mismatchText(m), `mismatch[${m.index}]`));
    else out.push(text('mismatch', mismatchText(m), indexed ? undefined : 'mismatch'));
  }
  for (const n of active.toutCheck?.narrowed ?? []) out.push(text(`narrowed[${n.index}]`, narrowedText(n), `narrowed[${n.index}]`));
  for (const c of active.toutCheck?.conversions ?? []) out.push(text(`converted[${c.index}]`, convertedText(c), `converted[${c.index}]`));
  if (active.error) out.push(text('error', errorText(active.error), 'error'));
  const attrs: DebugProtocol.Variable[] = [
    text('op', active.op, `${NODE_ATTRS}.op`),
    text('token', active.callback.token, `${NODE_ATTRS}.token`),
    text('kind', active.callback.kind, `${NODE_ATTRS}.kind`),
    text('stateful', String(active.callback.stateful), `${NODE_ATTRS}.stateful`),
    ...(active.node !== undefined ? [text('node', active.node, `${NODE_ATTRS}.node`)] : []),
    ...(active.graph !== undefined ? [text('graph', active.graph, `${NODE_ATTRS}.graph`)] : []),
  ];
  out.push({
    name: 'node attrs',
    value: `${active.op} ${active.callback.token}`,
    evaluateName: NODE_ATTRS,
    variablesReference: c.handles.create({ kind: 'list', items: attrs }),
  });
  return out;
}

/**
 * The Node scope: each input under its name in the graph, each output, the op, the attributes
 * and the node's place in its run. Descriptions come in one call; tensors expand through the agent.
 */
export async function nodeVariables(c: VariableContext, node: NodeSnapshot): Promise<DebugProtocol.Variable[]> {
  const described = await describePausedValues(c);
  const row = (side: Side, index: number, name: string, info: ValueInfo | null | undefined, description: string | null | undefined) =>
    pausedTensorRow(c, side, index, name, info, description);
  const out: DebugProtocol.Variable[] = [];
  node.inputNames.forEach((name, i) => out.push(row('inputs', i, `${name} (input ${i})`, node.inputs[i], described.inputs[i])));
  node.outputs.forEach((info, i) => out.push(row('outputs', i, `output ${i}`, info, described.outputs[i])));
  out.push(text('op', node.op, 'op'), text('node', node.node, 'node'));
  const attrs = attrsRow(c, node.attrs);
  if (attrs) out.push(attrs);
  out.push(text('run order', `node ${node.index + 1} of this run${node.frameKey !== undefined ? ` (${node.frameKey})` : ''}`));
  out.push(text('graph', node.graph));
  return out;
}

/** The `attrs` row of a node or an op: each attribute by its name, as one line; none when it has none. */
export function attrsRow(c: VariableContext, attrs: NodeSnapshot['attrs']): DebugProtocol.Variable | undefined {
  const items = Object.entries(attrs).map(([name, value]) => text(name, attrText(value), `attrs[${JSON.stringify(name)}]`));
  if (items.length === 0) return undefined;
  return { name: 'attrs', value: `${items.length} attributes`, evaluateName: 'attrs', variablesReference: c.handles.create({ kind: 'list', items }) };
}

/** The paused node's (or op's) inputs and outputs described, in one call. */
export function describePausedValues(c: VariableContext): Promise<{ inputs: (string | null)[]; outputs: (string | null)[] }> {
  return c.agent.call((agent) => {
    const describe = (values: readonly unknown[] | undefined) => (values ?? []).map((v) => (v === undefined ? null : (agent.describe(v) ?? null)));
    return { inputs: describe(agent.nodeValues('inputs')), outputs: describe(agent.nodeValues('outputs')) };
  });
}

/** A row of the paused node's (or op's) tensor: `inputs[i]` or `outputs[i]`, expanding through the agent. */
export function pausedTensorRow(
  c: VariableContext,
  side: Side,
  index: number,
  name: string,
  info: ValueInfo | null | undefined,
  description: string | null | undefined,
): DebugProtocol.Variable {
  const evaluateName = `${side}[${index}]`;
  if (!info || !description) return { name, value: info ? (description ?? info.kind) : '(no tensor)', evaluateName, variablesReference: 0 };
  return {
    name,
    value: description,
    type: info.kind,
    evaluateName,
    variablesReference: c.handles.create({ kind: 'nodeTensor', side, index, info, evaluateName }),
    memoryReference: c.memory.create({ kind: 'node', side, index }),
  };
}

/** An input shown from the agent's summary. */
function scopeVariable(c: VariableContext, name: string, shown: ScopeValue, id: number, index: number, evaluateName: string): DebugProtocol.Variable {
  const base = { name, evaluateName };
  switch (shown.shown) {
    case 'tensor':
      return {
        ...base,
        value: shown.description,
        type: shown.className,
        variablesReference: c.handles.create({ kind: 'input', id, index, info: shown.info, evaluateName }),
        memoryReference: c.memory.create({ kind: 'input', id, index }),
      };
    case 'typedarray':
      return {
        ...base,
        value: shown.description,
        type: shown.className,
        variablesReference: c.handles.create({ kind: 'inputValues', id, index, length: shown.length, evaluateName }),
        indexedVariables: shown.length,
        memoryReference: c.memory.create({ kind: 'input', id, index }),
      };
    case 'primitive':
      return { ...base, value: shown.text, type: shown.type, variablesReference: 0 };
    case 'remote':
      return { ...base, value: '(unavailable)', variablesReference: 0 };
  }
}

/** What a returned invocation gives back: its outputs one by one, or (a Tout mismatch before conversion) the value it returned. */
type RemoteOutputs = { kind: 'list'; values: Protocol.Runtime.RemoteObject[] } | { kind: 'value'; value: Protocol.Runtime.RemoteObject };

/** The inputs at `indexes` and (when it returned) the outputs, as remote objects: two round trips. */
async function remoteValues(
  c: VariableContext,
  id: number,
  indexes: number[],
  outputs: boolean,
): Promise<{ inputs: Map<number, Protocol.Runtime.RemoteObject>; outputs?: RemoteOutputs }> {
  // [the inputs wanted…, then each output and their count, or the returned value and -1]
  const list = await c.agent.callRemote(
    (agent, invocation, wanted, withOutputs) => {
      const live = agent.live(invocation);
      if (!live) return [];
      const values: unknown[] = wanted.map((i) => live.args[i]);
      if (withOutputs && live.outputs?.length) values.push(...live.outputs, live.outputs.length);
      else if (withOutputs) values.push(live.returned, -1);
      return values;
    },
    id,
    indexes,
    outputs,
  );
  const items = list.objectId ? (await c.cdp.send('Runtime.getProperties', { objectId: list.objectId, ownProperties: true })).result : [];
  const at = new Map(items.filter((p) => /^\d+$/.test(p.name) && p.value).map((p) => [Number(p.name), p.value!]));
  const inputs = new Map(indexes.flatMap((input, i) => (at.has(i) ? [[input, at.get(i)!] as const] : [])));
  if (!outputs || at.size <= indexes.length) return { inputs };
  const count = at.get(at.size - 1)?.value as number;
  if (count < 0) return { inputs, outputs: { kind: 'value', value: at.get(indexes.length)! } };
  const values = Array.from({ length: count }, (_, i) => at.get(indexes.length + i)!).filter(Boolean);
  return { inputs, outputs: { kind: 'list', values } };
}
