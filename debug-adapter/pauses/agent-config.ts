/**
 * Setting up the debuggee's agent: loading it into a program attached to without it, telling it
 * what to stop on (agent-protocol.ts AgentConfig), and the one V8 breakpoint every stop the agent
 * decides goes through (on its `callbackBreak`).
 */
import type { Protocol } from 'devtools-protocol';
import { type AgentClient, AgentMissingError } from '../cdp/agent-client.js';
import type { CdpConnection } from '../cdp/connection.js';
import type { AgentConfig, FunctionBreakpointRule } from '../debuggee/agent-protocol.js';
import type { FilterConfig } from '../launch-config.js';

/** Loads the agent into a program that was not launched with it (attach): its source, run once. */
export async function injectAgent(cdp: CdpConnection, source: string): Promise<void> {
  const r = await cdp.send('Runtime.evaluate', { expression: source, returnByValue: true, silent: true });
  if (r.exceptionDetails) throw new Error(r.exceptionDetails.exception?.description ?? r.exceptionDetails.text);
}

/** What the agent is told: the launch's filters, the function breakpoints, the graph view's watch. */
export function agentConfig(
  filters: FilterConfig,
  functionBreakpoints: FunctionBreakpointRule[],
  options: { watchGraph: boolean; debuggerActive: boolean; debuggerBeforeCallbacks: boolean; moduleLoads: string[] },
): AgentConfig {
  return {
    breakOnCallbacks: [...filters.breakOnCallbacks],
    // Callbacks, model nodes and ops: the agent counts their hits and evaluates their conditions.
    functionBreakpoints,
    breakOnToutMismatch: filters.breakOnToutMismatch,
    breakOnNonFinite: filters.breakOnNonFinite,
    breakOnGraphNonFinite: filters.breakOnGraphNonFinite,
    breakOnOpNonFinite: filters.breakOnOpNonFinite,
    ...(filters.opNonFiniteCondition ? { opNonFiniteCondition: filters.opNonFiniteCondition } : {}),
    opNonFiniteIgnored: [...(filters.opNonFiniteIgnored ?? [])],
    watchGraph: options.watchGraph,
    // Restart Frame (restart-frame.ts) puts back inputs a callback wrote: copies kept while the debugger is on.
    keepInputs: options.debuggerActive,
    // Errors thrown in callbacks with the debugger off: it comes on before the first callback runs.
    debuggerBeforeCallbacks: options.debuggerBeforeCallbacks,
    // Files whose source breakpoints wait: a CommonJS module compiled for one stops first (module-loads.ts).
    moduleLoads: options.moduleLoads,
  };
}

/** Tells the agent its configuration; a program without the agent (yet) has nothing to tell. */
export async function configureAgent(agent: AgentClient, config: AgentConfig): Promise<void> {
  try {
    await agent.call((a, c) => void a.configure(c), { ...config });
  } catch (err) {
    if (!(err instanceof AgentMissingError)) throw err;
  }
}

/** Sets the one unconditional breakpoint, on the agent's callbackBreak; its CDP id. */
export async function setAgentBreakpoint(cdp: CdpConnection, agent: AgentClient): Promise<string> {
  const fn = await agent.callRemote((a) => a.callbackBreak);
  if (!fn.objectId) throw new AgentMissingError();
  const props = await cdp.send('Runtime.getProperties', { objectId: fn.objectId, ownProperties: true });
  const location = props.internalProperties?.find((p) => p.name === '[[FunctionLocation]]')?.value?.value as Protocol.Debugger.Location | undefined;
  if (!location) throw new Error('cannot locate the debugger agent');
  return (await cdp.send('Debugger.setBreakpoint', { location })).breakpointId;
}
