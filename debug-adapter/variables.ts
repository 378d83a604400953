/**
 * Scopes and variables with tensors in mind: a "Callback" scope (inputs under the callback's
 * parameter names, Tout, outputs at return, node attrs) before V8's scopes; any tfjs Tensor shows
 * as `Tensor float32[2,3] min=… max=… NaN=0` and expands to dtype, shape, stats and values;
 * values, typed arrays and long arrays page through indexedVariables, so a 10M-element tensor
 * expands at once without pulling all of it.
 */
import { Handles } from '@vscode/debugadapter';
import type { DebugProtocol } from '@vscode/debugprotocol';
import type { Protocol } from 'devtools-protocol';
import { AGENT } from './agent-access.js';
import type { Controller } from './controller.js';
import type { ActiveSnapshot } from './debuggee/agent.js';
import { convertedText, errorText, liveExpression, mismatchText, narrowedText, NODE_ATTRS, outputsName } from './callback-scope.js';

export const PAGE = 100;
/**
 * The most values one variables request returns: a client asking for 10M at once gets this many
 * (at the start it asked for), and the rest by further pages, instead of minutes of waiting.
 */
export const MAX_PAGE = 1000;

type Ref =
  | { kind: 'scope'; objectId: string; callFrameId: string; scopeNumber: number }
  | { kind: 'callback'; active: ActiveSnapshot }
  | { kind: 'object'; objectId: string }
  | { kind: 'tensor'; objectId: string }
  | { kind: 'indexed'; objectId: string; length: number; shape?: readonly number[] }
  | { kind: 'list'; items: DebugProtocol.Variable[] };

const TENSOR_CLASSES = new Set(['Tensor', 'Variable', 'NdArray']);

export class VariableStore {
  private readonly handles = new Handles<Ref>();

  constructor(private readonly controller: Controller) {}

  /** Forget everything: references do not outlive a stop. */
  reset(): void {
    this.handles.reset();
  }

  private get cdp() {
    return this.controller.cdp!;
  }

  callbackScope(active: ActiveSnapshot): DebugProtocol.Scope {
    return { name: 'Callback', presentationHint: 'arguments', variablesReference: this.handles.create({ kind: 'callback', active }), expensive: false };
  }

  v8Scopes(callFrame: Protocol.Debugger.CallFrame): DebugProtocol.Scope[] {
    const names: Record<string, string> = { local: 'Locals', closure: 'Closure', block: 'Block', catch: 'Catch', script: 'Script', module: 'Module', global: 'Global', with: 'With', eval: 'Eval', wasmExpressionStack: 'Wasm stack' };
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
      case 'object':
        return this.properties(ref.objectId);
      case 'callback':
        return this.callbackVariables(ref.active);
      case 'tensor':
        return this.tensorChildren(ref.objectId);
      case 'indexed':
        // DAP: no count (or 0) means "the rest"; here that is one default page.
        return this.indexed(ref, start ?? 0, Math.min(count || PAGE, MAX_PAGE));
      case 'list':
        return ref.items;
    }
  }

  /** A DAP variable for a CDP value: tensors described, arrays paged, objects expandable. */
  async toVariable(name: string, value: Protocol.Runtime.RemoteObject, evaluateName?: string): Promise<DebugProtocol.Variable> {
    const base = { name, ...(evaluateName ? { evaluateName } : {}) };
    if (value.type !== 'object' || !value.objectId || value.subtype === 'null') {
      return { ...base, value: primitive(value), type: value.type, variablesReference: 0 };
    }
    if (TENSOR_CLASSES.has(value.className ?? '')) {
      const description = await this.call<string | undefined>(value.objectId, `function () { return ${AGENT}.describe(this); }`);
      if (description) return { ...base, value: description, type: value.className!, variablesReference: this.handles.create({ kind: 'tensor', objectId: value.objectId }) };
    }
    if (value.subtype === 'typedarray' || value.subtype === 'array') {
      const length = Number(/\((\d+)\)/.exec(value.description ?? '')?.[1] ?? 0);
      if (value.subtype === 'typedarray' || length > PAGE) {
        const describe = value.subtype === 'typedarray' ? await this.call<string | undefined>(value.objectId, `function () { return ${AGENT}.describe(this); }`) : undefined;
        return {
          ...base,
          value: describe ?? value.description ?? 'Array',
          type: value.className ?? 'Array',
          variablesReference: this.handles.create({ kind: 'indexed', objectId: value.objectId, length }),
          indexedVariables: length,
        };
      }
    }
    const expandable = value.type === 'object';
    return {
      ...base,
      value: value.subtype === 'error' ? (value.description ?? 'Error').split('\n')[0]! : (value.description ?? value.className ?? 'Object'),
      type: value.className ?? value.type,
      variablesReference: expandable ? this.handles.create({ kind: 'object', objectId: value.objectId }) : 0,
    };
  }

  /** A variable for an evaluate result. */
  async evaluated(value: Protocol.Runtime.RemoteObject): Promise<DebugProtocol.Variable> {
    return this.toVariable('result', value);
  }

  private async properties(objectId: string): Promise<DebugProtocol.Variable[]> {
    const { result, internalProperties } = await this.cdp.send('Runtime.getProperties', { objectId, ownProperties: true, generatePreview: false });
    const out: DebugProtocol.Variable[] = [];
    for (const p of result) {
      if (!p.value) {
        if (p.get) out.push({ name: p.name, value: '(getter)', variablesReference: 0 });
        continue;
      }
      out.push(await this.toVariable(p.name, p.value));
    }
    for (const p of internalProperties ?? []) {
      if (p.value && p.name !== '[[FunctionLocation]]' && p.name !== '[[Scopes]]') out.push(await this.toVariable(p.name, p.value));
    }
    return out;
  }

  /** Each variable's evaluateName is its name: evaluate binds the Callback names (callback-scope.ts). */
  private async callbackVariables(active: ActiveSnapshot): Promise<DebugProtocol.Variable[]> {
    const liveExpr = liveExpression(active.id);
    const live = await this.cdp.send('Runtime.evaluate', { expression: liveExpr });
    const out: DebugProtocol.Variable[] = [];
    if (live.result.objectId) {
      const args = await this.member(live.result.objectId, 'args');
      if (args) {
        const items = (await this.cdp.send('Runtime.getProperties', { objectId: args, ownProperties: true })).result.filter((p) => /^\d+$/.test(p.name));
        for (const item of items) {
          const i = Number(item.name);
          const name = active.parameterNames[i];
          out.push(await this.toVariable(name ?? `input${i}`, item.value!, name !== undefined && /^[A-Za-z_$][\w$]*$/.test(name) ? name : `${liveExpr}.args[${i}]`));
        }
      }
    }
    if (active.Tin.length > 0) out.push(text('Tin', `[${active.Tin.join(', ')}]`, 'Tin'));
    out.push(text('Tout', `[${active.Tout.join(', ')}]`, 'Tout'));
    if (active.phase === 'returned' && live.result.objectId) {
      const outputs = await this.cdp.send('Runtime.evaluate', { expression: `(l => (l.outputs && l.outputs.length ? l.outputs : l.returned))(${liveExpr})` });
      out.push(await this.toVariable(outputsName(active), outputs.result, outputsName(active)));
    }
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
      text('op', active.op),
      text('token', active.callback.token),
      text('kind', active.callback.kind),
      text('stateful', String(active.callback.stateful)),
      ...(active.node !== undefined ? [text('node', active.node)] : []),
      ...(active.graph !== undefined ? [text('graph', active.graph)] : []),
    ];
    out.push({ name: 'node attrs', value: `${active.op} ${active.callback.token}`, evaluateName: NODE_ATTRS, variablesReference: this.handles.create({ kind: 'list', items: attrs }) });
    return out;
  }

  private async tensorChildren(objectId: string): Promise<DebugProtocol.Variable[]> {
    const info = await this.call<TensorInfo | undefined>(objectId, `function () { return ${AGENT}.info(this); }`);
    if (!info) return [];
    const vars: DebugProtocol.Variable[] = [text('dtype', info.dtype), text('shape', `[${info.shape.join(', ')}]`), text('size', String(info.size))];
    if (info.disposed) return [...vars, text('disposed', 'true')];
    for (const key of ['min', 'max', 'mean'] as const) if (info[key] !== undefined) vars.push(text(key, String(info[key])));
    if (info.nanCount !== undefined) vars.push(text('NaN', String(info.nanCount)), text('Inf', String(info.infCount ?? 0)), text('zeros', String(info.zeroCount ?? 0)));
    if (info.exact === false) vars.push(text('stats', `from a strided sample of ${info.counted} elements`));
    const dataHolder = info.kind === 'NdArray' ? await this.member(objectId, 'data') : objectId;
    vars.push({
      name: 'values',
      value: `${info.size} values`,
      variablesReference: this.handles.create({ kind: 'indexed', objectId: dataHolder ?? objectId, length: info.size, shape: info.shape }),
      indexedVariables: info.size,
    });
    return vars;
  }

  /** One page of values: numbers for tensors and typed arrays, remote objects for arrays. */
  private async indexed(ref: Extract<Ref, { kind: 'indexed' }>, start: number, count: number): Promise<DebugProtocol.Variable[]> {
    const end = Math.min(ref.length, start + count);
    if (end <= start) return [];
    const values = await this.call<unknown[] | undefined>(ref.objectId, `function (s, c) { return Array.isArray(this) ? undefined : ${AGENT}.slice(this, s, c); }`, [start, end - start]);
    if (values) {
      return values.map((v, i) => text(indexName(start + i, ref.shape), typeof v === 'string' ? JSON.stringify(v) : String(v)));
    }
    // A plain array: its items may be objects, so page through a remote slice.
    const slice = await this.cdp.send('Runtime.callFunctionOn', { objectId: ref.objectId, functionDeclaration: 'function (s, e) { return this.slice(s, e); }', arguments: [{ value: start }, { value: end }] });
    const items = (await this.cdp.send('Runtime.getProperties', { objectId: slice.result.objectId!, ownProperties: true })).result.filter((p) => /^\d+$/.test(p.name));
    return Promise.all(items.map((p) => this.toVariable(`[${start + Number(p.name)}]`, p.value!)));
  }

  private async member(objectId: string, name: string): Promise<string | undefined> {
    const r = await this.cdp.send('Runtime.callFunctionOn', { objectId, functionDeclaration: `function () { return this[${JSON.stringify(name)}]; }` });
    return r.result.objectId;
  }

  private async call<T>(objectId: string, functionDeclaration: string, args: unknown[] = []): Promise<T> {
    const r = await this.cdp.send('Runtime.callFunctionOn', { objectId, functionDeclaration, arguments: args.map((value) => ({ value })), returnByValue: true, silent: true });
    return (r.exceptionDetails ? undefined : r.result.value) as T;
  }

  /** The call frame a scope belongs to (a new value for its variables is evaluated there). */
  callFrameOf(reference: number): string | undefined {
    const ref = this.handles.get(reference);
    return ref?.kind === 'scope' ? ref.callFrameId : undefined;
  }

  /** setVariable: a scope variable through V8, an object property by assignment. */
  async set(reference: number, name: string, value: Protocol.Runtime.RemoteObject): Promise<DebugProtocol.Variable> {
    const ref = this.handles.get(reference);
    const argument: Protocol.Runtime.CallArgument = value.objectId ? { objectId: value.objectId } : value.unserializableValue ? { unserializableValue: value.unserializableValue } : { value: value.value };
    if (ref?.kind === 'scope') {
      await this.cdp.send('Debugger.setVariableValue', { scopeNumber: ref.scopeNumber, variableName: name, newValue: argument, callFrameId: ref.callFrameId });
    } else if (ref?.kind === 'object') {
      await this.cdp.send('Runtime.callFunctionOn', { objectId: ref.objectId, functionDeclaration: 'function (k, v) { this[k] = v; }', arguments: [{ value: name }, argument] });
    } else {
      throw new Error(`${name} cannot be set here`);
    }
    return this.toVariable(name, value);
  }
}

interface TensorInfo {
  kind: string;
  dtype: string;
  shape: number[];
  size: number;
  disposed: boolean;
  min?: number;
  max?: number;
  mean?: number;
  nanCount?: number;
  infCount?: number;
  zeroCount?: number;
  exact?: boolean;
  counted?: number;
}

function text(name: string, value: string, evaluateName?: string): DebugProtocol.Variable {
  return { name, value, variablesReference: 0, ...(evaluateName ? { evaluateName } : {}) };
}

/** `[i]` for 1-D, `[i, j, k]` for N-D (row-major). */
function indexName(flat: number, shape?: readonly number[]): string {
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
