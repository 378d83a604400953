/**
 * A tensor as variables: dtype, shape, size, its statistics (NaN and each infinity counted with
 * its sign) and its values, paged through indexedVariables, so a 10M-element tensor expands at
 * once without pulling all of it; the values of typed arrays and long arrays page the same way.
 */
import type { DebugProtocol } from '@vscode/debugprotocol';
import type { ValueInfo } from '../debuggee/agent-protocol.js';
import { elementName, memberName, valuesName } from './evaluate-names.js';
import { stopGroup } from '../cdp/object-groups.js';
import { element, PAGE, TENSOR_CLASSES, text, type ValuesRef, type VariableContext } from './variable-refs.js';

export async function tensorChildren(c: VariableContext, objectId: string, evaluateName: string | undefined): Promise<DebugProtocol.Variable[]> {
  const info = await c.agent
    .callOn(objectId, function (agent) {
      return agent.info(this);
    })
    .catch(() => undefined);
  if (!info) return [];
  const dataHolder = info.kind === 'NdArray' ? await memberObject(c, objectId, 'data') : objectId;
  return tensorRows(c, info, { kind: 'indexed', objectId: dataHolder ?? objectId, length: info.size, shape: info.shape }, evaluateName);
}

/**
 * A tensor's rows: dtype, shape, size, its statistics, and its values (paged through `values`).
 * `parent`: the tensor's expression; its dtype, shape, size and values are members of it.
 */
export function tensorRows(c: VariableContext, info: ValueInfo, values: ValuesRef, parent?: string): DebugProtocol.Variable[] {
  const tensorLike = TENSOR_CLASSES.has(info.kind);
  const member = (name: string) => (tensorLike ? memberName(parent, name) : undefined);
  const vars: DebugProtocol.Variable[] = [
    text('dtype', info.dtype, member('dtype')),
    text('shape', `[${info.shape.join(', ')}]`, member('shape')),
    text('size', String(info.size), tensorLike ? member('size') : memberName(parent, 'length')),
  ];
  if (info.disposed) return [...vars, text('disposed', 'true', member('isDisposed'))];
  for (const key of ['min', 'max', 'mean'] as const) if (info[key] !== undefined) vars.push(text(key, String(info[key])));
  if (info.nanCount !== undefined) {
    // Each infinity with its sign where the summary counted them (runtime/non-finite-text.ts).
    const inf = info.infCount ?? 0;
    const infinities =
      info.negInfCount === undefined ? [text('±Inf', String(inf))] : [text('−Inf', String(info.negInfCount)), text('+Inf', String(inf - info.negInfCount))];
    vars.push(text('NaN', String(info.nanCount)), ...infinities, text('zeros', String(info.zeroCount ?? 0)));
  }
  if (info.exact === false) vars.push(text('stats', `from a strided sample of ${info.counted} elements`));
  const valuesExpression = valuesName(parent, info.kind);
  const named = valuesExpression ? { evaluateName: valuesExpression } : {};
  const paged: ValuesRef = { ...values, ...named };
  // A long tensor opens on its first values (one click, not VS Code's ranges of ranges: a 2^20-element
  // one took four), with all of them paged below.
  const long = info.size > PAGE;
  vars.push({
    name: 'values',
    value: `${info.size} values`,
    variablesReference: c.handles.create(long ? { kind: 'head', values: paged, ...named } : paged),
    ...(long ? { namedVariables: PAGE + 1 } : { indexedVariables: info.size }),
    ...named,
  });
  return vars;
}

/** One page of values: numbers for tensors and typed arrays, remote objects for arrays. */
export async function indexed(c: VariableContext, ref: ValuesRef, start: number, count: number): Promise<DebugProtocol.Variable[]> {
  const end = Math.min(ref.length, start + count);
  if (end <= start) return [];
  if (ref.kind === 'nodeValues') {
    const page = await c.agent.call((agent, side, index, s, c) => agent.nodePage(side, index, s, c), ref.side, ref.index, start, end - start);
    if ('error' in page) throw new Error(page.error);
    return page.values.map((v, i) => element(start + i, v, ref));
  }
  if (ref.kind === 'inputValues') {
    const page = await c.agent.call((agent, id, index, s, c) => agent.page(id, 'inputs', index, s, c), ref.id, ref.index, start, end - start);
    if ('error' in page) throw new Error(page.error);
    return page.values.map((v, i) => element(start + i, v, ref));
  }
  const typed = await c.agent
    .callOn(
      ref.objectId,
      function (agent, s, c) {
        // Under `values`, where NaN and ±Infinity travel as themselves (cdp/wire-values.ts).
        return Array.isArray(this) ? undefined : { values: agent.slice(this, s, c) };
      },
      start,
      end - start,
    )
    .catch(() => undefined);
  if (typed) return typed.values.map((v, i) => element(start + i, v, ref));
  // A plain array: its items may be objects, so page through a remote slice.
  const slice = await c.cdp.send('Runtime.callFunctionOn', {
    objectId: ref.objectId,
    functionDeclaration: 'function (s, e) { return this.slice(s, e); }',
    arguments: [{ value: start }, { value: end }],
    objectGroup: stopGroup(c.cdp),
  });
  const items = (await c.cdp.send('Runtime.getProperties', { objectId: slice.result.objectId!, ownProperties: true })).result.filter((p) =>
    /^\d+$/.test(p.name),
  );
  return Promise.all(items.map((p) => c.toVariable(`[${start + Number(p.name)}]`, p.value!, elementName(ref.evaluateName, start + Number(p.name)))));
}

async function memberObject(c: VariableContext, objectId: string, name: string): Promise<string | undefined> {
  const r = await c.cdp.send('Runtime.callFunctionOn', {
    objectId,
    functionDeclaration: 'function (k) { return this[k]; }',
    arguments: [{ value: name }],
    objectGroup: stopGroup(c.cdp),
  });
  return r.result.objectId;
}

/** The agent's one-line description of a tensor-like remote object; undefined for anything else. */
export async function describe(c: VariableContext, objectId: string): Promise<string | undefined> {
  return c.agent
    .callOn(objectId, function (agent) {
      return agent.describe(this);
    })
    .catch(() => undefined);
}
