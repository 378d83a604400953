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

function parseParameters(original: string): string[] {
  const source = blankCommentsAndStrings(original);
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

/**
 * The function's head, up to the end of its parameter list (or its `=>` for a one-parameter
 * arrow), with comments and the insides of string and template literals turned to spaces, so that
 * `(x, /* y, *\/ z)` or a default `(s = "a,b")` splits where the parameters do. The body is never
 * scanned: a closure made on every call pays for its head only.
 */
function blankCommentsAndStrings(source: string): string {
  const out: string[] = [];
  let depth = 0;
  let opened = false;
  let i = 0;
  while (i < source.length) {
    const c = source[i]!;
    const next = source[i + 1];
    let stop = i + 1;
    if (c === '/' && (next === '/' || next === '*')) {
      const end = next === '/' ? source.indexOf('\n', i) : source.indexOf('*/', i + 2);
      stop = end < 0 ? source.length : next === '/' ? end : end + 2;
      out.push(' '.repeat(stop - i));
    } else if (c === '"' || c === "'" || c === '`') {
      let j = i + 1;
      while (j < source.length && source[j] !== c) j += source[j] === '\\' ? 2 : 1;
      stop = Math.min(j + 1, source.length);
      out.push(c, ' '.repeat(Math.max(0, stop - i - 2)), stop - i >= 2 ? c : '');
    } else {
      out.push(c);
      if (c === '(' || c === '[' || c === '{') {
        depth++;
        opened = true;
      } else if (c === ')' || c === ']' || c === '}') depth--;
      if (opened && depth === 0) break;
      if (!opened && c === '=' && next === '>') {
        out.push('>');
        break;
      }
    }
    i = stop;
  }
  return out.join('');
}
