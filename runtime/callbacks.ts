/**
 * Callback identity: the token and name TensorFlow would give a wrapped function.
 *
 * TensorFlow hands out `pyfunc_N` once per wrapper op. Here a callback is one JS function object:
 * it keeps its token across calls, like a wrapper traced once into a graph. Two closures with the
 * same source are different callbacks (they may capture different values), so a function re-created
 * on every call gets a new token each time, as each eager tf.py_function call does in TensorFlow.
 */
import type { CallbackIdentity, CallbackKind } from './events.js';
import { callbackKnown, nextToken } from './hooks.js';

const byFunction = new WeakMap<Function, CallbackIdentity[]>();

export function identify(func: Function, kind: CallbackKind, stateful: boolean, name: string | undefined): CallbackIdentity {
  const known = byFunction.get(func);
  if (known) {
    for (const identity of known) {
      if (identity.kind === kind && identity.stateful === stateful && (name === undefined ? identity.name === identity.token : identity.name === name)) {
        return identity;
      }
    }
  }
  const identity = newIdentity(func, kind, stateful, name);
  if (known) known.push(identity);
  else byFunction.set(func, [identity]);
  return identity;
}

function newIdentity(func: Function, kind: CallbackKind, stateful: boolean, name: string | undefined): CallbackIdentity {
  const token = nextToken();
  const functionName = func.name || undefined;
  const identity: CallbackIdentity = { name: name ?? token, token, kind, stateful, ...(functionName ? { functionName } : {}) };
  callbackKnown({ name: identity.name, token, ...(functionName ? { functionName } : {}) });
  return identity;
}

const parameterCache = new WeakMap<Function, string[]>();

/** Parameter names from the function's source ("x", "m"); destructured ones read "arg0". */
export function parameterNames(func: Function): string[] {
  let names = parameterCache.get(func);
  if (!names) {
    names = parseParameters(Function.prototype.toString.call(func));
    parameterCache.set(func, names);
  }
  return names;
}

function parseParameters(source: string): string[] {
  const arrowSingle = /^(?:async\s+)?([A-Za-z_$][\w$]*)\s*=>/.exec(source);
  if (arrowSingle) return [arrowSingle[1]!];
  const open = source.indexOf('(');
  if (open < 0) return [];
  let depth = 0;
  let close = open;
  for (; close < source.length; close++) {
    const c = source[close];
    if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') depth--;
    if (depth === 0) break;
  }
  const inner = source.slice(open + 1, close);
  const params: string[] = [];
  depth = 0;
  let current = '';
  for (const c of inner) {
    if (c === '(' || c === '[' || c === '{') depth++;
    if (c === ')' || c === ']' || c === '}') depth--;
    if (c === ',' && depth === 0) {
      params.push(current);
      current = '';
    } else current += c;
  }
  if (current.trim()) params.push(current);
  return params.map((p, i) => {
    const name = /^\s*(?:\.\.\.)?([A-Za-z_$][\w$]*)/.exec(p);
    return name ? name[1]! : `arg${i}`;
  });
}
