/**
 * The Callback scope's names as JS bindings, so that what Variables shows can be evaluated and
 * watched: the inputs under the callback's parameter names, `Tin`, `Tout`, `returned` or
 * `outputs`, `mismatch[i]`, `narrowed[i]`, `converted[i]`, `error` and the node attributes
 * (`nodeAttrs`; the scope lists them as "node attrs", which the console also takes).
 *
 * An expression that mentions one of them is evaluated on the frame inside an arrow function
 * that receives them: `((Tout, returned) => (expr))(["float32"], …)`. The frame's own names win:
 * in the callback's frame a name the frame defines is not bound (its locals are the truth, a
 * parameter reassigned included), except a parameter the JS renamed (`beta2`), whose source name
 * would otherwise find the module-level `beta` it shadows. A graph frame whose callback has
 * returned evaluates in some other frame: there the Callback names are bound over the frame's.
 */
import { agentExpression } from '../cdp/agent-client.js';
import type { CdpConnection } from '../cdp/connection.js';
import type { ActiveSnapshot } from '../debuggee/agent-protocol.js';
import { stopGroup } from '../cdp/object-groups.js';
import { narrowingText } from '../../runtime/tout-verdict.js';

export interface CallbackBinding {
  readonly name: string;
  /** JS evaluated in the frame for the value. */
  readonly value: string;
  /** Bound even where the frame has the name (a renamed parameter's source name). */
  readonly always?: boolean;
}

/** The identifier the node attributes are bound to. */
export const NODE_ATTRS = 'nodeAttrs';

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** An input of an invocation under way, as an expression in the debuggee. */
export function inputExpression(id: number, index: number): string {
  return agentExpression((agent, invocation: number, i: number) => agent.live(invocation)?.args[i], String(id), String(index));
}

/** What an invocation that returned gave back (its output tensors, else its returned value), as an expression. */
export function outputsExpression(id: number): string {
  return agentExpression((agent, invocation: number) => {
    const live = agent.live(invocation);
    return live && (live.outputs?.length ? live.outputs : live.returned);
  }, String(id));
}

/** What a returned invocation's values are called: `returned` on a Tout mismatch, else `outputs`. */
export function outputsName(active: ActiveSnapshot): 'returned' | 'outputs' {
  return active.toutCheck?.ok === false ? 'returned' : 'outputs';
}

type Check = NonNullable<ActiveSnapshot['toutCheck']>;

export function mismatchText(m: Check['mismatches'][number]): string {
  return m.message.split('\n')[0]!;
}

export function narrowedText(n: Check['narrowed'][number]): string {
  return narrowingText(n.declared, n.storedAs);
}

export function convertedText(c: Check['conversions'][number]): string {
  return `${c.fromDType} ${c.from} → ${c.to} (py_function converts, as TensorFlow does)`;
}

export function errorText(e: NonNullable<ActiveSnapshot['error']>): string {
  return `${e.name}: ${e.message}`;
}

/** Every name the Callback scope shows, with how to get its value in the frame. */
export function callbackBindings(active: ActiveSnapshot, inOwnFrame: boolean): CallbackBinding[] {
  const out: CallbackBinding[] = [];
  active.parameterNames.forEach((name, i) => {
    if (!IDENTIFIER.test(name)) return;
    const generated = active.generatedParameterNames?.[i];
    if (inOwnFrame && generated !== undefined && generated !== name) out.push({ name, value: generated, always: true });
    else out.push({ name, value: inputExpression(active.id, i) });
  });
  if (active.Tin.length > 0) out.push({ name: 'Tin', value: JSON.stringify(active.Tin) });
  out.push({ name: 'Tout', value: JSON.stringify(active.Tout) });
  if (active.phase === 'returned') out.push({ name: outputsName(active), value: outputsExpression(active.id) });
  const check = active.toutCheck;
  const mismatches = check?.mismatches ?? [];
  if (mismatches.some((m) => m.index !== undefined))
    out.push({
      name: 'mismatch',
      value: byIndex(
        mismatches.filter((m) => m.index !== undefined),
        (m) => m.index!,
        mismatchText,
      ),
    });
  else if (mismatches.length > 0) out.push({ name: 'mismatch', value: JSON.stringify(mismatchText(mismatches[0]!)) });
  if (check && check.narrowed.length > 0) out.push({ name: 'narrowed', value: byIndex(check.narrowed, (n) => n.index, narrowedText) });
  if (check && check.conversions.length > 0) out.push({ name: 'converted', value: byIndex(check.conversions, (c) => c.index, convertedText) });
  if (active.error) out.push({ name: 'error', value: JSON.stringify(errorText(active.error)) });
  const attrs = {
    op: active.op,
    token: active.callback.token,
    kind: active.callback.kind,
    stateful: active.callback.stateful,
    ...(active.node !== undefined ? { node: active.node } : {}),
    ...(active.graph !== undefined ? { graph: active.graph } : {}),
  };
  out.push({ name: NODE_ATTRS, value: JSON.stringify(attrs) });
  return out;
}

/** A JS array literal with each item's text at its index (`mismatch[1]` is the 1-th output's). */
function byIndex<T>(items: readonly T[], index: (item: T) => number, text: (item: T) => string): string {
  const array: (string | null)[] = [];
  for (const item of items) array[index(item)] = text(item);
  return JSON.stringify(Array.from(array, (x) => x ?? null));
}

/**
 * `expression` with the Callback names it mentions bound (see the top of this file); unchanged
 * when it mentions none or is not an expression (statements are evaluated as they are).
 * `defined` caches, per call frame, which names the frame itself resolves.
 */
export async function withCallbackNames(
  cdp: CdpConnection,
  expression: string,
  active: ActiveSnapshot,
  callFrameId: string,
  inOwnFrame: boolean,
  defined: Map<string, boolean>,
): Promise<string> {
  const source = expression.trim() === 'node attrs' ? NODE_ATTRS : expression;
  if (!isExpression(source)) return source;
  let bindings = callbackBindings(active, inOwnFrame).filter((b) => mentions(source, b.name));
  if (inOwnFrame) {
    const ask = bindings.filter((b) => !b.always && !defined.has(`${callFrameId}\u0000${b.name}`)).map((b) => b.name);
    if (ask.length > 0) {
      const checks = ask.map((n) => `(() => { try { return (void ${n}, true); } catch { return false; } })()`);
      const expression = `[${checks.join(', ')}]`;
      const r = await cdp.send('Debugger.evaluateOnCallFrame', { callFrameId, expression, returnByValue: true, silent: true, objectGroup: stopGroup(cdp) });
      const found = (r.result.value as boolean[] | undefined) ?? ask.map(() => true);
      ask.forEach((n, i) => defined.set(`${callFrameId}\u0000${n}`, found[i] === true));
    }
    bindings = bindings.filter((b) => b.always || defined.get(`${callFrameId}\u0000${b.name}`) === false);
  }
  if (bindings.length === 0) return source;
  return `((${bindings.map((b) => b.name).join(', ')}) => (\n${source}\n))(${bindings.map((b) => b.value).join(', ')})`;
}

/** Whether `name` occurs in `source` as a name of its own (not `x.name`, not part of a word). */
export function mentions(source: string, name: string): boolean {
  return new RegExp(`(^|[^\\w$.]|\\.\\.\\.)${name.replace(/\$/g, '\\$')}(?![\\w$])`).test(source);
}

/** Whether `source` parses as one expression (compiled only, here in the adapter: never run). */
export function isExpression(source: string): boolean {
  try {
    new Function(`return (\n${source}\n);`);
    return true;
  } catch {
    return false;
  }
}
