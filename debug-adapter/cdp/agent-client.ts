/**
 * Every call the adapter makes into the debuggee's agent. Code that runs there is written here as
 * real functions, type-checked against the agent's API (`DebugAgent`, agent-protocol.ts), and sent
 * as their source (js-debug's `remoteFunction` pattern): a renamed or mistyped call fails
 * `tsc`, not a debugging session. Such a function must be self-contained: it may use its
 * parameters and globals, nothing from this module's scope.
 */
import type { Protocol } from 'devtools-protocol';
import type { CdpConnection } from './connection.js';
import { AGENT_KEY, AGENT_SOURCE_URL, type ActiveSnapshot, type DebugAgent } from '../debuggee/agent-protocol.js';
import { stopGroup } from './object-groups.js';
import { tagNonFinite } from './wire-values.js';

/**
 * Names each script the adapter runs in the debuggee after the agent, which the debugger
 * blackboxes. A step or pause asked for while such a call runs must land in the user's code, not
 * in the call: Node dispatches one inspector message at a time, so a pause inside a call's own
 * dispatch would hold every later command (the stop's own reads included) until the program died.
 */
const AGENT_CALL_TAG = `//# sourceURL=${AGENT_SOURCE_URL}`;

/** Arguments that travel by value (JSON). */
type Json = string | number | boolean | null | undefined | readonly Json[] | { readonly [key: string]: Json };

/** Runs in the debuggee with the agent. */
export type RemoteFunction<A extends Json[], R> = (agent: DebugAgent, ...args: A) => R;
/** Runs in the debuggee with the agent, `this` being a remote object. */
export type RemoteMethod<A extends Json[], R> = (this: unknown, agent: DebugAgent, ...args: A) => R;

export class AgentMissingError extends Error {
  constructor() {
    super('the debugger agent is not loaded in the debuggee');
    this.name = 'AgentMissingError';
  }
}

/**
 * The declaration sent for a remote function: finds the agent, then calls the function's own source.
 * An answer by value goes through tagNonFinite on its way out, as JSON would make its NaN and ±Infinity null.
 */
const declarations = { byValue: new WeakMap<object, string>(), byReference: new WeakMap<object, string>() };
function declaration(fn: object, byValue = false): string {
  const cache = byValue ? declarations.byValue : declarations.byReference;
  let text = cache.get(fn);
  if (text === undefined) {
    const call = `(${fn.toString()}).call(this, agent, ...args)`;
    // `__name`: what a transpiler that keeps function names (tsx) wraps nested functions in.
    text = `function (key, ...args) {
  ${AGENT_CALL_TAG}
  var __name = (f) => f;
  const agent = globalThis[key];
  if (!agent) throw new Error('AgentMissing');
  return ${byValue ? `(${tagNonFinite.toString()})(${call})` : call};
}`;
    cache.set(fn, text);
  }
  return text;
}

/**
 * `fn(agent, ...args)` as a JS expression, for what must be evaluated on a call frame (the user's
 * expressions with the Callback names bound; V8's evaluation timeout applies there, not to
 * `callFunctionOn`). Each of `args` is JS source: values are `JSON.stringify`'d by the caller.
 */
export function agentExpression<A extends unknown[], R>(fn: (agent: DebugAgent, ...args: A) => R, ...args: string[]): string {
  return `(${declaration(fn)})(${[JSON.stringify(AGENT_KEY), ...args].join(', ')})`;
}

/** As agentExpression, for a result read by value (`returnByValue`): its NaN and ±Infinity tagged as the agent's answers are. */
export function agentValueExpression<A extends unknown[], R>(fn: (agent: DebugAgent, ...args: A) => R, ...args: string[]): string {
  return `(${declaration(fn, true)})(${[JSON.stringify(AGENT_KEY), ...args].join(', ')})`;
}

export class AgentClient {
  private globalObject: Promise<string> | undefined;
  private globalId: string | undefined;
  private readonly locations = new Map<number, Promise<Protocol.Debugger.Location | undefined>>();

  constructor(private readonly cdp: CdpConnection) {}

  /** `fn(agent, ...args)` in the debuggee; its result by value. */
  async call<A extends Json[], R>(fn: RemoteFunction<A, R>, ...args: A): Promise<R> {
    const r = await this.invoke(await this.global(), fn, args, true);
    return r.value as R;
  }

  /** `fn(agent, ...args)` in the debuggee; its result as a remote object (shown by reference). */
  async callRemote<A extends Json[], R>(fn: RemoteFunction<A, R>, ...args: A): Promise<Protocol.Runtime.RemoteObject> {
    return this.invoke(await this.global(), fn, args, false);
  }

  /** `fn.call(object, agent, ...args)` on a remote object; its result by value. */
  async callOn<A extends Json[], R>(objectId: string, fn: RemoteMethod<A, R>, ...args: A): Promise<R> {
    const r = await this.invoke(objectId, fn, args, true);
    return r.value as R;
  }

  /** Where the function of an invocation under way starts ([[FunctionLocation]]: its parameter list), fetched once. */
  functionLocation(id: number): Promise<Protocol.Debugger.Location | undefined> {
    let location = this.locations.get(id);
    if (!location) {
      location = (async () => {
        const fn = await this.callRemote((agent, invocation) => agent.live(invocation)?.func, id);
        if (!fn.objectId) return undefined;
        const props = await this.cdp.send('Runtime.getProperties', { objectId: fn.objectId, ownProperties: true });
        // Kept by value: the function itself is let go at once (a run that never stops makes many).
        this.cdp.send('Runtime.releaseObject', { objectId: fn.objectId }).catch(() => {});
        return props.internalProperties?.find((p) => p.name === '[[FunctionLocation]]')?.value?.value as Protocol.Debugger.Location | undefined;
      })().catch(() => undefined);
      if (this.locations.size > 1000) this.locations.clear(); // invocation ids only grow; old ones never return
      this.locations.set(id, location);
    }
    return location;
  }

  /** The callback invocations under way (none while the agent is not loaded). */
  async snapshot(): Promise<ActiveSnapshot[]> {
    try {
      return await this.call((agent) => agent.snapshot());
    } catch (err) {
      if (err instanceof AgentMissingError) return [];
      throw err;
    }
  }

  /** A call whose answer nobody waits for (pipelined before the next command). */
  notify<A extends Json[]>(fn: RemoteFunction<A, unknown>, ...args: A): void {
    // Sent now when the global is known: it must go out before a resume or step that follows.
    const sent = this.globalId !== undefined ? this.invoke(this.globalId, fn, args, true) : this.global().then((id) => this.invoke(id, fn, args, true));
    sent.catch(() => {});
  }

  private async invoke(objectId: string, fn: object, args: readonly Json[], returnByValue: boolean): Promise<Protocol.Runtime.RemoteObject> {
    const r = await this.cdp.send('Runtime.callFunctionOn', {
      objectId,
      functionDeclaration: declaration(fn, returnByValue),
      arguments: [{ value: AGENT_KEY }, ...args.map((value) => ({ value }))],
      returnByValue,
      silent: true,
      // The global object has no group: what is made from it must not inherit that (object-groups.ts).
      objectGroup: stopGroup(this.cdp),
    });
    if (r.exceptionDetails) {
      const message = r.exceptionDetails.exception?.description ?? r.exceptionDetails.text;
      if (/AgentMissing/.test(message)) throw new AgentMissingError();
      throw new Error(`the debugger agent failed: ${message.split('\n')[0]}`);
    }
    return r.result;
  }

  /** The debuggee's global object, the target of calls that have none of their own: in no group, it outlives every stop. */
  private global(): Promise<string> {
    this.globalObject ??= this.cdp.send('Runtime.evaluate', { expression: `globalThis\n${AGENT_CALL_TAG}` }).then((r) => {
      if (!r.result.objectId) throw new Error('the debuggee has no global object');
      this.globalId = r.result.objectId;
      return r.result.objectId;
    });
    return this.globalObject;
  }
}
