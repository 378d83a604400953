/**
 * What the variables a stop shows are made of: the references the client expands (each kind says
 * what its children are), the page sizes, and the rows every part of the store writes alike. The
 * store (variables.ts) hands its parts a VariableContext; they never import it.
 */
import type { DebugProtocol } from '@vscode/debugprotocol';
import type { Protocol } from 'devtools-protocol';
import type { AgentClient } from '../cdp/agent-client.js';
import type { CdpConnection } from '../cdp/connection.js';
import type { ActiveSnapshot, DataBreakHit, FlatValue, NodeSnapshot, Side, ValueInfo, OpBirthSnapshot } from '../debuggee/agent-protocol.js';
import { elementName } from './evaluate-names.js';
import type { MemoryReferences } from './memory.js';
import type { StopHandles } from './stop-handles.js';

export const PAGE = 100;
/**
 * The most values one variables request returns: a client asking for 10M at once gets this many
 * (at the start it asked for), and the rest by further pages, instead of minutes of waiting.
 */
export const MAX_PAGE = 1000;

/** `evaluateName`: the expression of the value a reference expands (its children's names build on it). */
export type Ref =
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
  | { kind: 'op'; op: OpBirthSnapshot }
  | { kind: 'nodeTensor'; side: Side; index: number; info: ValueInfo; evaluateName?: string }
  | { kind: 'nodeValues'; side: Side; index: number; length: number; shape?: readonly number[]; evaluateName?: string }
  | { kind: 'list'; items: DebugProtocol.Variable[] }
  /** A long tensor's `values`: its first page, then all of them (paged by the client). */
  | { kind: 'head'; values: ValuesRef; evaluateName?: string }
  /** A data breakpoint stop's scope (breakpoints/data.ts). */
  | { kind: 'data'; hit: DataBreakHit }
  /** The tf.Variables scope: the program's registered variables, fetched when it is expanded. */
  | { kind: 'trainingVariables' };

export type ValuesRef = Extract<Ref, { kind: 'indexed' | 'inputValues' | 'nodeValues' }>;

/** The classes shown as tensors (described by the agent, expanded to dtype, shape, stats and values). */
export const TENSOR_CLASSES = new Set(['Tensor', 'Variable', 'NdArray']);

/** What the store's parts make variables with: its references, memory references, the debuggee, and its own conversion. */
export interface VariableContext {
  readonly handles: StopHandles<Ref>;
  readonly memory: MemoryReferences;
  readonly agent: AgentClient;
  readonly cdp: CdpConnection;
  toVariable(name: string, value: Protocol.Runtime.RemoteObject, evaluateName?: string): Promise<DebugProtocol.Variable>;
}

export function text(name: string, value: string, evaluateName?: string): DebugProtocol.Variable {
  return { name, value, variablesReference: 0, ...(evaluateName ? { evaluateName } : {}) };
}

/** One value of a page, named by its index (`[1, 2]` for N-D), its evaluateName the flat element. */
export function element(flat: number, v: FlatValue, ref: { shape?: readonly number[]; evaluateName?: string }): DebugProtocol.Variable {
  // NaN and ±Infinity came as NonFiniteValue (cdp/wire-values.ts): JS's own words for them, as for any number.
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
