/**
 * Scopes and variables with tensors in mind: a "Callback" scope before V8's scopes
 * (invocation-variables.ts), any tfjs Tensor shown as `Tensor float32[2,3] min=… max=… mean=…`
 * (and `(1 NaN, 2 −Inf)` where there are) and expanded to dtype, shape, stats and values
 * (tensor-variables.ts); objects expand by their properties, arrays as js-debug previews them.
 * The references and the rows they share: variable-refs.ts.
 */
import type { DebugProtocol } from '@vscode/debugprotocol';
import type { Protocol } from 'devtools-protocol';
import type { CdpConnection } from '../cdp/connection.js';
import type { AgentClient } from '../cdp/agent-client.js';
import type { ActiveSnapshot, DataBreakHit, NodeSnapshot, OpBirthSnapshot } from '../debuggee/agent-protocol.js';
import { MemoryReferences } from './memory.js';
import { StopHandles } from './stop-handles.js';
import { stopGroup } from '../cdp/object-groups.js';
import { dataScopeVariables } from '../breakpoints/data.js';
import { memberName, scopeName } from './evaluate-names.js';
import { callbackVariables, nodeVariables } from './invocation-variables.js';
import { opVariables } from './op-scope.js';
import { previewText } from './previews.js';
import { describe, indexed, tensorChildren, tensorRows } from './tensor-variables.js';
import { PAGE, pageRange, primitive, type Ref, TENSOR_CLASSES, type VariableContext } from './variable-refs.js';

/** The global the agent defines for the program's tf.Variables by name (debuggee/agent/data-breakpoints.ts `variables`). */
export const VARIABLES_GLOBAL = '$tfVariables';

/** What the store reads the debuggee through. */
export interface RemoteValues {
  readonly cdp: CdpConnection;
  readonly agent: AgentClient;
}

export class VariableStore {
  private readonly handles = new StopHandles<Ref>();
  /** `memoryReference`s of tensor variables (readMemory, memory.ts); they outlive the stop's handles. */
  readonly memory = new MemoryReferences();

  constructor(private readonly debuggee: () => RemoteValues) {}

  /** Forget everything: references do not outlive a stop (nor do the remote objects behind them: object-groups.ts). */
  reset(): void {
    this.handles.reset(); // numbered on: an earlier stop's reference never names one of the next stop's values
    this.memory.stopEnded();
  }

  private get cdp() {
    return this.debuggee().cdp;
  }

  private get agent() {
    return this.debuggee().agent;
  }

  /** What the store's parts (invocation-variables.ts, tensor-variables.ts) make variables with. */
  private get context(): VariableContext {
    const { cdp, agent } = this.debuggee();
    return { handles: this.handles, memory: this.memory, cdp, agent, toVariable: (name, value, evaluateName) => this.toVariable(name, value, evaluateName) };
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

  /** An op stop ("NaN/Inf in any op"): the op's inputs, outputs, pass, layer and attributes. */
  opScope(op: OpBirthSnapshot): DebugProtocol.Scope {
    return { name: 'Op', presentationHint: 'arguments', variablesReference: this.handles.create({ kind: 'op', op }), expensive: false };
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
    if (!ref && this.handles.stale(reference))
      throw new Error(`variablesReference ${reference} is of an earlier stop: the program ran on since; expand the value in this stop's Variables`);
    if (!ref) return [];
    switch (ref.kind) {
      case 'scope':
        return this.properties(ref.objectId, undefined);
      case 'object':
        return this.properties(ref.objectId, ref.evaluateName);
      case 'callback':
        return callbackVariables(this.context, ref.active);
      case 'tensor':
        return tensorChildren(this.context, ref.objectId, ref.evaluateName);
      case 'input':
        return tensorRows(
          this.context,
          ref.info,
          { kind: 'inputValues', id: ref.id, index: ref.index, length: ref.info.size, shape: ref.info.shape },
          ref.evaluateName,
        );
      case 'node':
        return nodeVariables(this.context, ref.node);
      case 'op':
        return opVariables(this.context, ref.op);
      case 'nodeTensor':
        return tensorRows(
          this.context,
          ref.info,
          { kind: 'nodeValues', side: ref.side, index: ref.index, length: ref.info.size, shape: ref.info.shape },
          ref.evaluateName,
        );
      case 'indexed':
      case 'inputValues':
      case 'nodeValues':
        // DAP: no count (or 0) means "the rest"; here that is one default page.
        return indexed(this.context, ref, ...pageRange(start, count));
      case 'list':
        return ref.items;
      case 'head':
        return [
          ...(await indexed(this.context, ref.values, 0, PAGE)),
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
      const description = await describe(this.context, value.objectId);
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
        const summary = value.subtype === 'typedarray' && !evaluated ? await describe(this.context, value.objectId) : undefined;
        return {
          ...base,
          value: summary ?? previewText(value) ?? value.description ?? 'Array',
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
  /** A fresh object of the program's tf.Variables by name (debuggee/agent/data-breakpoints.ts `variables`). */
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
