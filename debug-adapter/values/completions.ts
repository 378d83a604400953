/**
 * Debug Console completions, as js-debug gives them: after `expr.` the properties of expr's value
 * (own, then up the prototype chain: a tensor's or NdArray's members included), evaluated without
 * side effects; for a bare prefix the names the selected frame sees: the Callback (or Node)
 * scope's names, the frame's scopes innermost first, then the globals.
 */
import type { DebugProtocol } from '@vscode/debugprotocol';
import type { Protocol } from 'devtools-protocol';
import { callbackBindings, NODE_ATTRS } from './callback-scope.js';
import type { CdpConnection } from '../cdp/connection.js';
import type { Evaluator } from './evaluator.js';
import { stopGroup } from '../cdp/object-groups.js';
import type { StackFrameEntry } from '../state/stack.js';

/** The most items one answer holds (a global object has hundreds of names). */
const MAX_ITEMS = 500;
const NODE_NAMES = ['inputs', 'outputs', 'attrs', 'op', 'node'];

export interface CompletionsContext {
  readonly cdp: CdpConnection;
  readonly evaluator: Evaluator;
  readonly paused: boolean;
  readonly frame: StackFrameEntry | undefined;
}

/** Where the word being completed starts in `text` (0-based), the word, and the expression before its dot. */
export interface CompletionTarget {
  readonly start: number;
  readonly prefix: string;
  /** The object expression for `expr.prefix`; undefined for a bare prefix. */
  readonly object?: string;
}

/** What is being completed at `offset` of `text`. */
export function completionTarget(text: string, offset: number): CompletionTarget | undefined {
  const before = text.slice(0, offset);
  const word = /[A-Za-z_$][\w$]*$/.exec(before)?.[0] ?? '';
  const start = before.length - word.length;
  if (/\d$/.test(before.slice(0, start)) && word === '') return undefined;
  const dot = /(\?\.|\.)\s*$/.exec(before.slice(0, start));
  if (!dot) return /[\w$]$/.test(before.slice(0, start)) ? undefined : { start, prefix: word };
  const object = objectBefore(before.slice(0, start - dot[0].length));
  return object ? { start, prefix: word, object } : undefined;
}

/** The member expression that ends `text` (`a.b[0].c`, `f(x).y`), scanning back over balanced brackets. */
function objectBefore(text: string): string | undefined {
  let depth = 0;
  let i = text.length;
  while (i > 0) {
    const c = text[i - 1]!;
    if (c === ')' || c === ']') depth++;
    else if (c === '(' || c === '[') {
      if (depth === 0) break;
      depth--;
    } else if (depth === 0 && !/[\w$.\s?]/.test(c)) break;
    i--;
  }
  const object = text.slice(i).trim();
  return object && !/^\d+$/.test(object) && !object.startsWith('.') ? object : undefined;
}

/** The completion items at `offset` of `text`; `start` and `length` (0-based) say what they replace. */
export async function completions(context: CompletionsContext, text: string, offset: number): Promise<DebugProtocol.CompletionItem[]> {
  const target = completionTarget(text, offset);
  if (!target) return [];
  const items = target.object !== undefined ? await memberItems(context, target.object) : await nameItems(context);
  const lower = target.prefix.toLowerCase();
  const seen = new Set<string>();
  const out: DebugProtocol.CompletionItem[] = [];
  for (const item of items) {
    if (seen.has(item.label) || !item.label.toLowerCase().startsWith(lower)) continue;
    seen.add(item.label);
    out.push({ ...item, start: target.start, length: target.prefix.length });
    if (out.length >= MAX_ITEMS) break;
  }
  return out;
}

/** Properties of the value `object` gives, own first, then each prototype's (sortText keeps that order). */
async function memberItems(context: CompletionsContext, object: string): Promise<DebugProtocol.CompletionItem[]> {
  let value: Protocol.Runtime.RemoteObject;
  try {
    value = await context.evaluator.evaluate(object, context.frame, 'hover');
  } catch {
    return [];
  }
  if (value.type === 'undefined' || value.subtype === 'null') return [];
  const target: Protocol.Runtime.CallFunctionOnRequest = value.objectId
    ? { objectId: value.objectId, functionDeclaration: NAMES_OF_THIS }
    : {
        objectId: await globalObject(context.cdp),
        functionDeclaration: NAMES_OF_ARGUMENT,
        arguments: [value.unserializableValue !== undefined ? { unserializableValue: value.unserializableValue } : { value: value.value }],
      };
  const r = await context.cdp.send('Runtime.callFunctionOn', { ...target, returnByValue: true, silent: true, objectGroup: stopGroup(context.cdp) });
  const names = (r.result.value as [string, string, number][] | undefined) ?? [];
  return names.map(([label, type, depth]) => ({
    label,
    type: type as DebugProtocol.CompletionItemType,
    sortText: `${String(depth).padStart(3, '0')}${label}`,
  }));
}

/**
 * Runs in the debuggee: `[name, type, depth]` of every string-keyed property of `o` and its
 * prototypes, without calling a getter; array and typed-array indexes left out.
 */
function propertyNames(o: object): [string, string, number][] {
  const out: [string, string, number][] = [];
  const seen = new Set<string>();
  let depth = 0;
  for (let p: object | null = o; p !== null && depth < 32; p = Object.getPrototypeOf(p), depth++) {
    // Array.prototype is an array itself: only the value's own indexes are left out.
    const indexed = depth === 0 && (Array.isArray(p) || ArrayBuffer.isView(p));
    const keys = indexed ? (Array.isArray(p) ? ['length'] : []) : Object.getOwnPropertyNames(p);
    for (const key of keys) {
      if (seen.has(key) || (indexed && /^\d+$/.test(key))) continue;
      seen.add(key);
      const d = Object.getOwnPropertyDescriptor(p, key);
      const type =
        d && 'value' in d && typeof d.value === 'function' ? (/^class\b/.test(Function.prototype.toString.call(d.value)) ? 'class' : 'method') : 'property';
      out.push([key, type, depth]);
    }
  }
  return out;
}

/** `propertyNames` sent as its source (a transpiler that keeps names may wrap functions in `__name`). */
const NAMES_OF_THIS = `function () { var __name = (f) => f; return (${propertyNames.toString()})(this); }`;
const NAMES_OF_ARGUMENT = `function (v) { var __name = (f) => f; return (${propertyNames.toString()})(Object(v)); }`;

/** The names a bare word can be: the Callback or Node scope's, the frame's scopes', the globals. */
async function nameItems(context: CompletionsContext): Promise<DebugProtocol.CompletionItem[]> {
  const { frame, cdp } = context;
  const items: DebugProtocol.CompletionItem[] = [];
  const add = (label: string, type: DebugProtocol.CompletionItemType, rank: number) =>
    items.push({ label, type, sortText: `${String(rank).padStart(3, '0')}${label}` });
  if (frame?.kind === 'graph' && (frame.node || frame.op)) for (const name of NODE_NAMES) add(name, 'variable', 0);
  if (frame?.active) {
    const inOwnFrame = frame.kind === 'js' || frame.evalInCallback;
    for (const b of callbackBindings(frame.active, inOwnFrame)) add(b.name, 'variable', 0);
    add(NODE_ATTRS, 'variable', 0);
  }
  const callFrame = context.paused ? (frame?.kind === 'js' ? frame.callFrame : frame?.evalFrame) : undefined;
  const scopes = callFrame?.scopeChain ?? [];
  for (const [rank, scope] of scopes.entries()) {
    if (!scope.object.objectId) continue;
    const global = scope.type === 'global';
    const names = global ? await globalNames(cdp, scope.object.objectId) : await ownNames(cdp, scope.object.objectId);
    for (const [name, type] of names) add(name, type, rank + 1);
  }
  if (!scopes.some((s) => s.type === 'global')) {
    for (const [name, type] of await globalNames(cdp, await globalObject(cdp))) add(name, type, 999);
  }
  return items;
}

async function ownNames(cdp: CdpConnection, objectId: string): Promise<[string, DebugProtocol.CompletionItemType][]> {
  const { result } = await cdp.send('Runtime.getProperties', { objectId, ownProperties: true });
  return result.map((p) => [p.name, p.value?.type === 'function' ? 'function' : 'variable']);
}

/** The global object's names and its prototypes' (as `propertyNames` finds them). */
async function globalNames(cdp: CdpConnection, objectId: string): Promise<[string, DebugProtocol.CompletionItemType][]> {
  const r = await cdp.send('Runtime.callFunctionOn', {
    objectId,
    functionDeclaration: NAMES_OF_THIS,
    returnByValue: true,
    silent: true,
    objectGroup: stopGroup(cdp),
  });
  const names = (r.result.value as [string, string, number][] | undefined) ?? [];
  return names.map(([name, type]) => [name, type === 'method' ? 'function' : type === 'class' ? 'class' : 'variable']);
}

async function globalObject(cdp: CdpConnection): Promise<string> {
  const r = await cdp.send('Runtime.evaluate', { expression: 'globalThis', silent: true, objectGroup: stopGroup(cdp) });
  if (!r.result.objectId) throw new Error('the debuggee has no global object');
  return r.result.objectId;
}
