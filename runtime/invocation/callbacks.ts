/**
 * Callback identity: the token and name TensorFlow would give a wrapped function.
 *
 * TensorFlow hands out `pyfunc_N` once per wrapper op. Here a callback is one JS function object:
 * it keeps its token across calls, like a wrapper traced once into a graph. Two closures with the
 * same source are different callbacks (they may capture different values), so a function re-created
 * on every call gets a new token each time, as each eager tf.py_function call does in TensorFlow.
 */
import { createRequire } from 'node:module';
import type { Token } from 'acorn';
import type { CallbackIdentity, CallbackKind } from '../events.js';
import { callbackKnown, nextToken } from '../hooks.js';

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

/**
 * The names in a function's parameter list, read with acorn's tokenizer (comments, strings,
 * templates and regexes are its business, not ours), token by token up to the end of the list: a
 * closure made on every call pays for its head, never its body. A destructured parameter is
 * `argN`; a function whose text is no JS (a native one) has the names it has.
 */
function parseParameters(source: string): string[] {
  const { tokenizer, tokTypes } = acorn();
  const OPENING = new Set([tokTypes.parenL, tokTypes.bracketL, tokTypes.braceL, tokTypes.dollarBraceL]);
  const CLOSING = new Set([tokTypes.parenR, tokTypes.bracketR, tokTypes.braceR]);
  const names: string[] = [];
  try {
    const tokens = tokenizer(source, { ecmaVersion: 'latest' });
    const text = (t: Token) => source.slice(t.start, t.end);
    let token = tokens.getToken();
    if (token.type === tokTypes.name && text(token) === 'async') {
      const next = tokens.getToken();
      if (next.type === tokTypes.arrow) return ['async']; // `async => …`: a parameter named async
      token = next;
    }
    // `x => …` (and `async x => …`): one parameter, no parentheses.
    if (token.type === tokTypes.name) {
      const next = tokens.getToken();
      if (next.type === tokTypes.arrow) return [text(token)];
      token = next;
    }
    while (token.type !== tokTypes.parenL && token.type !== tokTypes.eof) token = tokens.getToken();
    let depth = 0;
    let index = 0;
    let start = true;
    for (token = tokens.getToken(); token.type !== tokTypes.eof; token = tokens.getToken()) {
      if (depth === 0 && token.type === tokTypes.parenR) break;
      if (depth === 0 && token.type === tokTypes.comma) {
        index++;
        start = true;
        continue;
      }
      if (start && token.type !== tokTypes.ellipsis) {
        names.push(token.type === tokTypes.name ? text(token) : `arg${index}`);
        start = false;
      }
      if (OPENING.has(token.type)) depth++;
      else if (CLOSING.has(token.type)) depth--;
    }
  } catch {
    // Not JS the tokenizer reads: the names found so far.
  }
  return names;
}

/** acorn, loaded on first use: only an observed callback (a debugger, a trace) needs its names, and a program start should not pay ~20 ms for it. */
let loaded: typeof import('acorn') | undefined;
function acorn(): typeof import('acorn') {
  loaded ??= createRequire(import.meta.url)('acorn') as typeof import('acorn');
  return loaded;
}
