/**
 * Scopes and variables with tensors in mind: a "Callback" scope (inputs under the callback's
 * parameter names, Tout, outputs at return, node attrs) before V8's scopes; any tfjs Tensor shows
 * as `Tensor float32[2,3] min=… max=… mean=…` (and `(1 NaN, 2 −Inf)` where there are) and expands to dtype, shape, stats and values;
 * values, typed arrays and long arrays page through indexedVariables, so a 10M-element tensor
 * expands at once without pulling all of it.
 */
import { Handles } from '@vscode/debugadapter';
import type { DebugProtocol } from '@vscode/debugprotocol';
import type { Protocol } from 'devtools-protocol';
import type { CdpConnection } from './cdp/connection.js';
import type { AgentClient } from './agent-client.js';
import type { ActiveSnapshot, DataBreakHit, FlatValue, NodeSnapshot, ScopeValue, Side, ValueInfo } from './debuggee/agent-protocol.js';
import { attrText } from './node-scope.js';
import { MemoryReferences } from './memory.js';
import { stopGroup } from './object-groups.js';
import { dataScopeVariables } from './data-breakpoints.js';
import { convertedText, errorText, inputExpression, mismatchText, narrowedText, NODE_ATTRS, outputsName } from './callback-scope.js';
import { elementName, memberName, scopeName, valuesName } from './evaluate-names.js';
import { previewText } from './previews.js';

export const PAGE = 100;
/**
 * The most values one variables request returns: a client asking for 10M at once gets this many
 * (at the start it asked for), and the rest by further pages, instead of minutes of waiting.
 */
export const MAX_PAGE = 1000;

/** `evaluateName`: the expression of the value a reference expands (its children's names build on it). */
type Ref =
  | { kind: 'scope'; objectId: string; callFrameId: string; scopeNumber: number }
  | { kind: 'callback'; active: ActiveSnapshot }
  | { kind: 'object'; objectId: string; evaluateName?: string }
  | { kind: 'tensor'; objectId: string; evaluateName?: string }
  /** A tensor input of an invocation, shown from the summary the stop fetched: paged through the agent. */
  | { kind: 'input'; id: number; index: number; info: ValueInfo; evaluateName?: string }
  | { kind: 'indexed'; objectId: string; length: number; shape?: readonly number[]; evaluateName?: string }
  | { kind: 'inputValues'; id: number; index: number; length: number; shape?: readonly number[]; evaluateName?: string }
  /** The paused node (a node stop), its tensors, and their values paged through the agent. */
  | { kind: 'node'; node: NodeSnapshot }
  | { kind: 'nodeTensor'; side: Side; index: number; info: ValueInfo; evaluateName?: string }
  | { kind: 'nodeValues'; side: Side; index: number; length: number; shape?: readonly number[]; evaluateName?: string }
  | { kind: 'list'; items: DebugProtocol.Variable[] }
  /** A long tensor's `values`: its first page, then all of them (paged by the client). */
  | { kind: 'head'; values: ValuesRef; evaluateName?: string }
  /** A data breakpoint stop's scope (data-breakpoints.ts). */
  | { kind: 'data'; hit: DataBreakHit }
  /** The tf.Variables scope: the program's registered variables, fetched when it is expanded. */
  | { kind: 'trainingVariables' };

/** The global the agent defines for the program's tf.Variables by name (agent.ts `variables`). */
export const VARIABLES_GLOBAL = '$tfVariables';

type ValuesRef = Extract<Ref, { kind: 'indexed' | 'inputValues' | 'nodeValues' }>;

const TENSOR_CLASSES = new Set(['Tensor', 'Variable', 'NdArray']);

/** What the store reads the debuggee through. */
export interface RemoteValues {
  readonly cdp: CdpConnection;
  readonly agent: AgentClient;
}

export class VariableStore {
  private readonly handles = new Handles<Ref>();
  /** `memoryReference`s of tensor variables (readMemory, memory.ts); they outlive the stop's handles. */
  readonly memory = new MemoryReferences();

  constructor(private readonly debuggee: () => RemoteValues) {}

  /** Forget everything: references do not outlive a stop (nor do the remote objects behind them: object-groups.ts). */
  reset(): void {
    this.handles.reset();
    this.memory.stopEnded();
  }

  private get cdp() {
    return this.debuggee().cdp;
  }

  private get agent() {
    return this.debuggee().agent;
  }

  callbackScope(active: ActiveSnapshot): DebugProtocol.Scope {
    return { name: 'Callback', presentationHint: 'arguments', variablesReference: this.handles.create({ kind: 'callback', active }), expensive: false };
  }

  /** A data breakpoint stop: the variable's old value, new value and change. */
  dataScope(hit: DataBreakHit): DebugProtocol.Scope {
    return { name: 'Data Breakpoint', presentationHint: 'arguments', variablesReference: this.handles.create({ kind: 'data', hit }), expensive: false };
  }

  /**
   * The program's tf.Variables, in every frame of a stop: an ESM program paused in a callback
   * while its top level awaits `model.fit` has no frame that sees its model, yet its weights are
   * what a data breakpoint watches (Break on Value Change on each one).
   */
  trainingScope(): DebugProtocol.Scope {
    return { name: 'tf.Variables', variablesReference: this.handles.create({ kind: 'trainingVariables' }), expensive: false };
  }

  /** The value of `name` in a V8 scope, an object shown or the tf.Variables scope (data breakpoints ask by variable); undefined elsewhere. */
  async childValue(reference: number, name: string): Promise<Protocol.Runtime.RemoteObject | undefined> {
    const ref = this.handles.get(reference);
    const objectId =
      ref?.kind === 'scope' || ref?.kind === 'object' ? ref.objectId : ref?.kind === 'trainingVariables' ? await this.trainingObject() : undefined;
    if (objectId === undefined) return undefined;
    const { result } = await this.cdp.send('Runtime.getProperties', { objectId, ownProperties: true });
    return result.find((p) => p.name === name)?.value;
  }

  nodeScope(node: NodeSnapshot): DebugProtocol.Scope {
    return { name: 'Node', presentationHint: 'arguments', variablesReference: this.handles.create({ kind: 'node', node }), expensive: false };
  }

  v8Scopes(callFrame: Protocol.Debugger.CallFrame): DebugProtocol.Scope[] {
    const names: Record<string, string> = {
      local: 'Locals',
      closure: 'Closure',
      block: 'Block',
      catch: 'Catch',
      script: 'Script',
      module: 'Module',
      global: 'Global',
      with: 'With',
      eval: 'Eval',
      wasmExpressionStack: 'Wasm stack',
    };
    return callFrame.scopeChain.map((scope, scopeNumber) => ({
      name: names[scope.type] ?? scope.type,
      ...(scope.type === 'local' ? { presentationHint: 'locals' } : {}),
      variablesReference: this.handles.create({ kind: 'scope', objectId: scope.object.objectId!, callFrameId: callFrame.callFrameId, scopeNumber }),
      expensive: scope.type === 'global',
    }));
  }

  async variables(reference: number, start?: number, count?: number): Promise<DebugProtocol.Variable[]> {
    const ref = this.handles.get(reference);
    if (!ref) return [];
    switch (ref.kind) {
      case 'scope':
        return this.properties(ref.objectId, undefined);
      case 'object':
        return this.properties(ref.objectId, ref.evaluateName);
      case 'callback':
        return this.callbackVariables(ref.active);
      case 'tensor':
        return this.tensorChildren(ref.objectId, ref.evaluateName);
      case 'input':
        return this.tensorRows(ref.info, { kind: 'inputValues', id: ref.id, index: ref.index, length: ref.info.size, shape: ref.info.shape }, ref.evaluateName);
      case 'node':
        return this.nodeVariables(ref.node);
      case 'nodeTensor':
        return this.tensorRows(
          ref.info,
          { kind: 'nodeValues', side: ref.side, index: ref.index, length: ref.info.size, shape: ref.info.shape },
          ref.evaluateName,
        );
      case 'indexed':
      case 'inputValues':
      case 'nodeValues':
        // DAP: no count (or 0) means "the rest"; here that is one default page.
        return this.indexed(ref, ...pageRange(start, count));
      case 'list':
        return ref.items;
      case 'head':
        return [
          ...(await this.indexed(ref.values, 0, PAGE)),
          {
            name: 'all values',
            value: `${ref.values.length} values`,
            variablesReference: this.handles.create(ref.values),
            indexedVariables: ref.values.length,
            ...(ref.evaluateName ? { evaluateName: ref.evaluateName } : {}),
          },
        ];
      case 'trainingVariables': {
        const objectId = await this.trainingObject();
        return objectId === undefined ? [] : this.properties(objectId, VARIABLES_GLOBAL);
      }
      case 'data':
        return dataScopeVariables(
          (name, value, evaluateName) => this.toVariable(name, value, evaluateName),
          this.agent,
          ref.hit,
          async (objectId) => (await this.cdp.send('Runtime.getProperties', { objectId, ownProperties: true })).result,
        );
    }
  }

  /**
   * A DAP variable for a CDP value: tensors described, arrays paged, objects expandable, arrays
   * and objects previewed as js-debug does (`(3) [1, 2, 3]`, `{a: 1}`). `evaluated`: an evaluate's
   * result, where a typed array is previewed too (in Variables it keeps the agent's summary).
   */
  async toVariable(name: string, value: Protocol.Runtime.RemoteObject, evaluateName?: string, evaluated = false): Promise<DebugProtocol.Variable> {
    const base = { name, ...(evaluateName ? { evaluateName } : {}) };
    if (value.type !== 'object' || !value.objectId || value.subtype === 'null') {
      return { ...base, value: primitive(value), type: value.type, variablesReference: 0 };
    }
    const named = evaluateName ? { evaluateName } : {};
    if (TENSOR_CLASSES.has(value.className ?? '')) {
      const description = await this.describe(value.objectId);
      if (description)
        return {
          ...base,
          value: description,
          type: value.className!,
          variablesReference: this.handles.create({ kind: 'tensor', objectId: value.objectId, ...named }),
          memoryReference: this.memory.create({ kind: 'object', objectId: value.objectId }),
        };
    }
    if (value.subtype === 'typedarray' || value.subtype === 'array') {
      const length = Number(/\((\d+)\)/.exec(value.description ?? '')?.[1] ?? 0);
      if (value.subtype === 'typedarray' || length > PAGE) {
        const describe = value.subtype === 'typedarray' && !evaluated ? await this.describe(value.objectId) : undefined;
        return {
          ...base,
          value: describe ?? previewText(value) ?? value.description ?? 'Array',
          type: value.className ?? 'Array',
          variablesReference: this.handles.create({ kind: 'indexed', objectId: value.objectId, length, ...named }),
          indexedVariables: length,
          ...(value.subtype === 'typedarray' ? { memoryReference: this.memory.create({ kind: 'object', objectId: value.objectId }) } : {}),
        };
      }
    }
    const expandable = value.type === 'object';
    return {
      ...base,
      value:
        value.subtype === 'error' ? (value.description ?? 'Error').split('\n')[0]! : (previewText(value) ?? value.description ?? value.className ?? 'Object'),
      type: value.className ?? value.type,
      variablesReference: expandable ? this.handles.create({ kind: 'object', objectId: value.objectId, ...named }) : 0,
    };
  }

  /** A variable for an evaluate result; `expression` is what its children's evaluateNames build on. */
  async evaluated(value: Protocol.Runtime.RemoteObject, expression?: string): Promise<DebugProtocol.Variable> {
    return this.toVariable('result', value, expression?.trim() || undefined, true);
  }

  /** Properties of an object (`parent`: its expression) or of a scope (no parent: each name is its own expression). */
  /** A fresh object of the program's tf.Variables by name (agent.ts `variables`). */
  private async trainingObject(): Promise<string | undefined> {
    return (await this.agent.callRemote((a) => a.variables())).objectId;
  }

  private async properties(objectId: string, parent: string | undefined): Promise<DebugProtocol.Variable[]> {
    const { result, internalProperties } = await this.cdp.send('Runtime.getProperties', { objectId, ownProperties: true, generatePreview: true });
    const childName = (name: string) => (parent === undefined ? scopeName(name) : memberName(parent, name));
    const out: DebugProtocol.Variable[] = [];
    for (const p of result) {
      const evaluateName = childName(p.name);
      if (!p.value) {
        if (p.get) out.push({ name: p.name, value: '(getter)', variablesReference: 0, ...(evaluateName ? { evaluateName } : {}) });
        continue;
      }
      out.push(await this.toVariable(p.name, p.value, evaluateName));
    }
    for (const p of internalProperties ?? []) {
      if (p.value && p.name !== '[[FunctionLocation]]' && p.name !== '[[Scopes]]') out.push(await this.toVariable(p.name, p.value));
    }
    return out;
  }

  /**
   * Each variable's evaluateName is its name: evaluate binds the Callback names (callback-scope.ts).
   * One call to the agent shows tensor inputs (their summaries are in its answer); other inputs
   * and the outputs are remote objects, fetched together with two more.
   */
  private async callbackVariables(active: ActiveSnapshot): Promise<DebugProtocol.Variable[]> {
    const data = await this.agent.call((agent, id) => agent.scopeData(id), active.id);
    const returned = active.phase === 'returned';
    const inputs = data?.inputs ?? [];
    const remoteIndexes = inputs.flatMap((v, i) => (v.shown === 'remote' ? [i] : []));
    const remote = remoteIndexes.length > 0 || returned ? await this.remoteValues(active.id, remoteIndexes, returned) : undefined;
    const out: DebugProtocol.Variable[] = [];
    for (const [i, shown] of inputs.entries()) {
      const name = active.parameterNames[i];
      const evaluateName = name !== undefined && /^[A-Za-z_$][\w$]*$/.test(name) ? name : inputExpression(active.id, i);
      const value = remote?.inputs.get(i);
      out.push(
        value ? await this.toVariable(name ?? `input${i}`, value, evaluateName) : this.scopeVariable(name ?? `input${i}`, shown, active.id, i, evaluateName),
      );
    }
    if (active.Tin.length > 0) out.push(text('Tin', `[${active.Tin.join(', ')}]`, 'Tin'));
    out.push(text('Tout', `[${active.Tout.join(', ')}]`, 'Tout'));
    if (remote?.outputs) out.push(await this.toVariable(outputsName(active), remote.outputs, outputsName(active)));
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
      variablesReference: this.handles.create({ kind: 'list', items: attrs }),
    });
    return out;
  }

  /**
   * The Node scope: each input under its name in the graph, each output, the op, the attributes
   * and the node's place in its run. Descriptions come in one call; tensors expand through the agent.
   */
  private async nodeVariables(node: NodeSnapshot): Promise<DebugProtocol.Variable[]> {
    const described = await this.agent.call((agent) => {
      const describe = (values: readonly unknown[] | undefined) => (values ?? []).map((v) => (v === undefined ? null : (agent.describe(v) ?? null)));
      return { inputs: describe(agent.nodeValues('inputs')), outputs: describe(agent.nodeValues('outputs')) };
    });
    const row = (
      side: Side,
      index: number,
      name: string,
      info: ValueInfo | null | undefined,
      description: string | null | undefined,
    ): DebugProtocol.Variable => {
      const evaluateName = `${side}[${index}]`;
      if (!info || !description) return { name, value: info ? (description ?? info.kind) : '(no tensor)', evaluateName, variablesReference: 0 };
      return {
        name,
        value: description,
        type: info.kind,
        evaluateName,
        variablesReference: this.handles.create({ kind: 'nodeTensor', side, index, info, evaluateName }),
        memoryReference: this.memory.create({ kind: 'node', side, index }),
      };
    };
    const out: DebugProtocol.Variable[] = [];
    node.inputNames.forEach((name, i) => out.push(row('inputs', i, `${name} (input ${i})`, node.inputs[i], described.inputs[i])));
    node.outputs.forEach((info, i) => out.push(row('outputs', i, `output ${i}`, info, described.outputs[i])));
    out.push(text('op', node.op, 'op'), text('node', node.node, 'node'));
    const attrs = Object.entries(node.attrs).map(([name, value]) => text(name, attrText(value), `attrs[${JSON.stringify(name)}]`));
    if (attrs.length > 0)
      out.push({
        name: 'attrs',
        value: `${attrs.length} attributes`,
        evaluateName: 'attrs',
        variablesReference: this.handles.create({ kind: 'list', items: attrs }),
      });
    out.push(text('run order', `node ${node.index + 1} of this run${node.frameKey !== undefined ? ` (${node.frameKey})` : ''}`));
    out.push(text('graph', node.graph));
    return out;
  }

  /** An input shown from the agent's summary. */
  private scopeVariable(name: string, shown: ScopeValue, id: number, index: number, evaluateName: string): DebugProtocol.Variable {
    const base = { name, evaluateName };
    switch (shown.shown) {
      case 'tensor':
        return {
          ...base,
          value: shown.description,
          type: shown.className,
          variablesReference: this.handles.create({ kind: 'input', id, index, info: shown.info, evaluateName }),
          memoryReference: this.memory.create({ kind: 'input', id, index }),
        };
      case 'typedarray':
        return {
          ...base,
          value: shown.description,
          type: shown.className,
          variablesReference: this.handles.create({ kind: 'inputValues', id, index, length: shown.length, evaluateName }),
          indexedVariables: shown.length,
          memoryReference: this.memory.create({ kind: 'input', id, index }),
        };
      case 'primitive':
        return { ...base, value: shown.text, type: shown.type, variablesReference: 0 };
      case 'remote':
        return { ...base, value: '(unavailable)', variablesReference: 0 };
    }
  }

  /** The inputs at `indexes` and (when it returned) the outputs, as remote objects: two round trips. */
  private async remoteValues(
    id: number,
    indexes: number[],
    outputs: boolean,
  ): Promise<{ inputs: Map<number, Protocol.Runtime.RemoteObject>; outputs?: Protocol.Runtime.RemoteObject }> {
    const list = await this.agent.callRemote(
      (agent, invocation, wanted, withOutputs) => {
        const live = agent.live(invocation);
        if (!live) return [];
        const values: unknown[] = wanted.map((i) => live.args[i]);
        if (withOutputs) values.push(live.outputs?.length ? live.outputs : live.returned);
        return values;
      },
      id,
      indexes,
      outputs,
    );
    const items = list.objectId ? (await this.cdp.send('Runtime.getProperties', { objectId: list.objectId, ownProperties: true })).result : [];
    const at = new Map(items.filter((p) => /^\d+$/.test(p.name) && p.value).map((p) => [Number(p.name), p.value!]));
    const inputs = new Map(indexes.flatMap((input, i) => (at.has(i) ? [[input, at.get(i)!] as const] : [])));
    const output = at.get(indexes.length);
    return { inputs, ...(outputs && output ? { outputs: output } : {}) };
  }

  private async tensorChildren(objectId: string, evaluateName: string | undefined): Promise<DebugProtocol.Variable[]> {
    const info = await this.agent
      .callOn(objectId, function (agent) {
        return agent.info(this);
      })
      .catch(() => undefined);
    if (!info) return [];
    const dataHolder = info.kind === 'NdArray' ? await this.member(objectId, 'data') : objectId;
    return this.tensorRows(info, { kind: 'indexed', objectId: dataHolder ?? objectId, length: info.size, shape: info.shape }, evaluateName);
  }

  /**
   * A tensor's rows: dtype, shape, size, its statistics, and its values (paged through `values`).
   * `parent`: the tensor's expression; its dtype, shape, size and values are members of it.
   */
  private tensorRows(info: ValueInfo, values: Extract<Ref, { kind: 'indexed' | 'inputValues' | 'nodeValues' }>, parent?: string): DebugProtocol.Variable[] {
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
      variablesReference: this.handles.create(long ? { kind: 'head', values: paged, ...named } : paged),
      ...(long ? { namedVariables: PAGE + 1 } : { indexedVariables: info.size }),
      ...named,
    });
    return vars;
  }

  /** One page of values: numbers for tensors and typed arrays, remote objects for arrays. */
  private async indexed(
    ref: Extract<Ref, { kind: 'indexed' | 'inputValues' | 'nodeValues' }>,
    start: number,
    count: number,
  ): Promise<DebugProtocol.Variable[]> {
    const end = Math.min(ref.length, start + count);
    if (end <= start) return [];
    if (ref.kind === 'nodeValues') {
      const page = await this.agent.call((agent, side, index, s, c) => agent.nodePage(side, index, s, c), ref.side, ref.index, start, end - start);
      if ('error' in page) throw new Error(page.error);
      return page.values.map((v, i) => element(start + i, v, ref));
    }
    if (ref.kind === 'inputValues') {
      const page = await this.agent.call((agent, id, index, s, c) => agent.page(id, 'inputs', index, s, c), ref.id, ref.index, start, end - start);
      if ('error' in page) throw new Error(page.error);
      return page.values.map((v, i) => element(start + i, v, ref));
    }
    const typed = await this.agent
      .callOn(
        ref.objectId,
        function (agent, s, c) {
          // Under `values`, where NaN and ±Infinity travel as themselves (wire-values.ts).
          return Array.isArray(this) ? undefined : { values: agent.slice(this, s, c) };
        },
        start,
        end - start,
      )
      .catch(() => undefined);
    if (typed) return typed.values.map((v, i) => element(start + i, v, ref));
    // A plain array: its items may be objects, so page through a remote slice.
    const slice = await this.cdp.send('Runtime.callFunctionOn', {
      objectId: ref.objectId,
      functionDeclaration: 'function (s, e) { return this.slice(s, e); }',
      arguments: [{ value: start }, { value: end }],
      objectGroup: stopGroup(this.cdp),
    });
    const items = (await this.cdp.send('Runtime.getProperties', { objectId: slice.result.objectId!, ownProperties: true })).result.filter((p) =>
      /^\d+$/.test(p.name),
    );
    return Promise.all(items.map((p) => this.toVariable(`[${start + Number(p.name)}]`, p.value!, elementName(ref.evaluateName, start + Number(p.name)))));
  }

  private async member(objectId: string, name: string): Promise<string | undefined> {
    const r = await this.cdp.send('Runtime.callFunctionOn', {
      objectId,
      functionDeclaration: 'function (k) { return this[k]; }',
      arguments: [{ value: name }],
      objectGroup: stopGroup(this.cdp),
    });
    return r.result.objectId;
  }

  /** The agent's one-line description of a tensor-like remote object; undefined for anything else. */
  private async describe(objectId: string): Promise<string | undefined> {
    return this.agent
      .callOn(objectId, function (agent) {
        return agent.describe(this);
      })
      .catch(() => undefined);
  }

  /** The call frame a scope belongs to (a new value for its variables is evaluated there). */
  callFrameOf(reference: number): string | undefined {
    const ref = this.handles.get(reference);
    return ref?.kind === 'scope' ? ref.callFrameId : undefined;
  }

  /** setVariable: a scope variable through V8, an object property by assignment. */
  async set(reference: number, name: string, value: Protocol.Runtime.RemoteObject): Promise<DebugProtocol.Variable> {
    const ref = this.handles.get(reference);
    const argument: Protocol.Runtime.CallArgument = value.objectId
      ? { objectId: value.objectId }
      : value.unserializableValue
        ? { unserializableValue: value.unserializableValue }
        : { value: value.value };
    if (ref?.kind === 'scope') {
      await this.cdp.send('Debugger.setVariableValue', { scopeNumber: ref.scopeNumber, variableName: name, newValue: argument, callFrameId: ref.callFrameId });
    } else if (ref?.kind === 'object') {
      await this.cdp.send('Runtime.callFunctionOn', {
        objectId: ref.objectId,
        functionDeclaration: 'function (k, v) { this[k] = v; }',
        arguments: [{ value: name }, argument],
        objectGroup: stopGroup(this.cdp),
      });
    } else {
      throw new Error(`${name} cannot be set here`);
    }
    return this.toVariable(name, value);
  }
}

function text(name: string, value: string, evaluateName?: string): DebugProtocol.Variable {
  return { name, value, variablesReference: 0, ...(evaluateName ? { evaluateName } : {}) };
}

/** One value of a page, named by its index (`[1, 2]` for N-D), its evaluateName the flat element. */
function element(flat: number, v: FlatValue, ref: { shape?: readonly number[]; evaluateName?: string }): DebugProtocol.Variable {
  // NaN and ±Infinity came as NonFiniteValue (wire-values.ts): JS's own words for them, as for any number.
  const shown = typeof v === 'string' ? JSON.stringify(v) : typeof v === 'object' && v !== null ? v.nonFinite : String(v);
  return text(indexName(flat, ref.shape), shown, elementName(ref.evaluateName, flat));
}

/** The values a variables request asks for: DAP's no count (or 0) is one default page; never more than MAX_PAGE. */
export function pageRange(start: number | undefined, count: number | undefined): [start: number, count: number] {
  return [start ?? 0, Math.min(count || PAGE, MAX_PAGE)];
}

/** `[i]` for 1-D, `[i, j, k]` for N-D (row-major). */
export function indexName(flat: number, shape?: readonly number[]): string {
  if (!shape || shape.length <= 1) return `[${flat}]`;
  const index: number[] = [];
  let rest = flat;
  for (let axis = shape.length - 1; axis >= 0; axis--) {
    const dim = shape[axis]!;
    index.unshift(rest % dim);
    rest = Math.floor(rest / dim);
  }
  return `[${index.join(', ')}]`;
}

export function primitive(value: Protocol.Runtime.RemoteObject): string {
  if (value.type === 'string') return JSON.stringify(value.value);
  if (value.unserializableValue) return value.unserializableValue;
  if (value.type === 'undefined') return 'undefined';
  if (value.subtype === 'null') return 'null';
  if (value.type === 'function') return (value.description ?? 'function').split('\n')[0]!;
  if (value.value !== undefined) return String(value.value);
  return value.description ?? String(value.type);
}
