/**
 * A callback's parameter names as its source writes them. tsx (esbuild) renames a parameter that
 * shadows a module-level name (`beta` becomes `beta2` when the module has a `beta` of its own), so
 * the runtime, reading the function's text, and V8 both see `beta2`; tsx's source maps have no
 * `names`. The original name is in the source at the position the map gives for the parameter.
 */
import type { Protocol } from 'devtools-protocol';
import type { AgentClient } from '../cdp/agent-client.js';
import type { ActiveSnapshot } from '../debuggee/agent-protocol.js';
import type { Scripts } from './scripts.js';
import { offsetOf, parameterList, positionOf } from './js-scan.js';

/** Renames by function location: `generated name → source name` for each renamed parameter. */
const cache = new Map<string, Map<string, string>>();

/**
 * The source names of the parameters of the function at `location` ([[FunctionLocation]]), for
 * the names the runtime read from its text; `generated` is set when some differ.
 */
export async function sourceParameterNames(
  scripts: Scripts,
  location: Protocol.Debugger.Location,
  names: readonly string[],
): Promise<{ names: string[]; generated?: string[] }> {
  const renames = await renamesAt(scripts, location);
  if (renames.size === 0 || !names.some((n) => renames.has(n))) return { names: [...names] };
  return { names: names.map((n) => renames.get(n) ?? n), generated: [...names] };
}

/** An invocation with its parameters named as the source names them (the agent says where its function is). */
export async function withSourceNames(agent: AgentClient, scripts: Scripts, active: ActiveSnapshot): Promise<ActiveSnapshot> {
  const location = await agent.functionLocation(active.id);
  if (!location) return active;
  const names = await sourceParameterNames(scripts, location, active.parameterNames);
  return names.generated ? { ...active, parameterNames: names.names, generatedParameterNames: names.generated } : active;
}

async function renamesAt(scripts: Scripts, location: Protocol.Debugger.Location): Promise<Map<string, string>> {
  const key = `${location.scriptId}:${location.lineNumber}:${location.columnNumber ?? 0}`;
  let renames = cache.get(key);
  if (renames) return renames;
  renames = new Map();
  cache.set(key, renames);
  const script = scripts.sources.get(location.scriptId);
  if (!script?.sourceMapURL) return renames;
  const src = await scripts.text(location.scriptId);
  if (src === undefined) return renames;
  for (const param of parameterList(src, offsetOf(src, location.lineNumber, location.columnNumber ?? 0))) {
    if (!param) continue;
    const at = positionOf(src, param.at);
    const original = scripts.sources.original(location.scriptId, at.lineNumber, at.columnNumber);
    if (!original) continue;
    const line = scripts.sources.text(original.file)?.split(/\r\n|\r|\n/)[original.line - 1];
    const name = line !== undefined ? /^[A-Za-z_$][\w$]*/.exec(line.slice(original.column))?.[0] : undefined;
    // esbuild renames by appending a number: anything else is the map pointing elsewhere.
    if (name && name !== param.name && new RegExp(`^${name.replace(/\$/g, '\\$')}\\d+$`).test(param.name)) renames.set(param.name, name);
  }
  return renames;
}
