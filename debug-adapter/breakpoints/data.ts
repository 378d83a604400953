/**
 * Data breakpoints on tf.Variables (DAP `dataBreakpointInfo`, `setDataBreakpoints`): a variable
 * shown in Variables (or named by an expression) that is a tf.Variable answers its TF.js name as
 * the dataId (TF.js keeps variable names unique); the agent watches those names and stops when one
 * is assigned (`variable.assign`, what optimizers call) and the condition holds:
 *
 * - none: every assign;
 * - `nonFinite` (or "becomes non-finite", "NaN/Inf"): the new values hold NaN or ±Infinity and the old ones did not;
 * - `changes by more than X`: the largest |new - old| is over X;
 * - anything else is a JS expression over `oldValue`, `newValue` (tensors) and `delta` (that
 *   largest change, a number), run in the program inside tf.tidy: `newValue.max().dataSync()[0] > 10`.
 *
 * A condition or hit condition that cannot be read leaves the breakpoint unverified, saying what is
 * accepted, as source breakpoints' hit conditions do. The stop shows a "Data Breakpoint" scope:
 * the old value, the new value and the change, as tensors that expand like the Callback scope's.
 */
import type { DebugProtocol } from '@vscode/debugprotocol';
import type { Protocol } from 'devtools-protocol';
import { agentExpression, type AgentClient } from '../cdp/agent-client.js';
import { parseHitCondition } from '../shared/hit-condition.js';
import type { DataBreakHit, DataCondition, VariableWatch, WatchStatus } from '../debuggee/agent-protocol.js';
import type { Stop } from '../state/pause-state.js';

const NON_FINITE = /^(?:(?:becomes?|became)\s+)?(?:non-?finite|nan\s*(?:\/|or)\s*inf(?:inity)?|nan)$/i;
const CHANGES_BY = /^(?:changes?|changed)\s+by\s+more\s+than\s+(\S+)$/i;
const CONDITION_FORMS =
  'Use "nonFinite" (becomes NaN/Inf), "changes by more than 0.1", or a JS expression over oldValue, newValue (tensors) and delta (the largest |new - old|), e.g. "delta > 0.1".';

/** A data breakpoint's condition as the agent checks it, or why it cannot be read. */
export function parseDataCondition(text: string | undefined): { ok: true; condition: DataCondition } | { ok: false; message: string } {
  const t = text?.trim() ?? '';
  if (t === '') return { ok: true, condition: { kind: 'always' } };
  if (NON_FINITE.test(t)) return { ok: true, condition: { kind: 'nonFinite' } };
  const by = CHANGES_BY.exec(t);
  if (by) {
    const threshold = Number(by[1]);
    if (!Number.isFinite(threshold) || threshold < 0) return { ok: false, message: `"${t}": ${by[1]} is not a number ≥ 0. ${CONDITION_FORMS}` };
    return { ok: true, condition: { kind: 'changesBy', threshold } };
  }
  try {
    // Compiled only, here in the adapter: never run.
    new Function('oldValue', 'newValue', 'delta', `return (\n${t}\n);`);
  } catch (err) {
    return { ok: false, message: `The condition "${t}" is not a JS expression (${(err as Error).message}). ${CONDITION_FORMS}` };
  }
  return { ok: true, condition: { kind: 'expression', source: t } };
}

/** The stop a data breakpoint makes. */
export function dataStop(hit: DataBreakHit): Stop {
  const description = `Paused on data breakpoint: ${hit.variable} ${hit.why}`;
  return { reason: 'data breakpoint', description, text: `${hit.variable} assigned`, hitBreakpointIds: hit.ids };
}

/** The data breakpoints of a session. */
export class DataBreakpoints {
  /** Apart from the controller's function breakpoint ids: a `tf.Variable` function breakpoint's id is one of these. */
  private nextId = 1_000_001;

  /** `dataBreakpointInfo` for a value the client named: a tf.Variable's name as dataId, or why not. */
  async info(agent: AgentClient, value: Protocol.Runtime.RemoteObject | undefined, name: string): Promise<DebugProtocol.DataBreakpointInfoResponse['body']> {
    if (!value) return { dataId: null, description: `${name} cannot be found here` };
    const found =
      value.objectId !== undefined
        ? await agent
            .callOn(value.objectId, function (a) {
              const variable = a.variableName(this);
              return variable === undefined ? undefined : { variable, describe: a.describe(this) ?? '' };
            })
            .catch(() => undefined)
        : undefined;
    if (!found) {
      const what = value.className ?? value.type;
      return {
        dataId: null,
        description: `${name} is ${/^[aeiou]/i.test(what) ? 'an' : 'a'} ${what}, not a tf.Variable: data breakpoints watch tf.Variables (assigned in place by optimizers and assign())`,
      };
    }
    // What it holds, where the agent can say (no empty "()" where it cannot).
    const holds = found.describe.replace(/^Variable /, '');
    return {
      dataId: found.variable,
      description: `tf.Variable '${found.variable}'${holds ? ` (${holds})` : ''}: stop when it is assigned`,
      accessTypes: ['write'],
      canPersist: false,
    };
  }

  /** The watches of the client's data breakpoints and of `tf.Variable <name>` function breakpoints: the agent watches both. */
  private readonly watched: Record<WatchSource, VariableWatch[]> = { data: [], function: [] };

  /** `setDataBreakpoints`: replaces the watched variables; each breakpoint verified when such a variable exists. */
  set(agent: AgentClient | undefined, breakpoints: readonly DebugProtocol.DataBreakpoint[]): Promise<DebugProtocol.Breakpoint[]> {
    const asked = breakpoints.map((bp) => {
      if (typeof bp !== 'object' || bp === null || typeof bp.dataId !== 'string') return 'not a data breakpoint (expected { dataId: string }): not set';
      if (bp.accessType !== undefined && bp.accessType !== 'write')
        return `tf.Variables can be watched for writes (assign) only, not ${JSON.stringify(bp.accessType)}`;
      return { variable: bp.dataId, condition: bp.condition, hitCondition: bp.hitCondition };
    });
    return this.replace(agent, 'data', asked);
  }

  /**
   * Function breakpoints named `tf.Variable <name>` (extension-protocol.ts): data breakpoints the
   * extension can add (Show tf.Variables) and the Breakpoints view keeps. Answered in the order given.
   */
  setFromFunctionBreakpoints(
    agent: AgentClient | undefined,
    breakpoints: readonly { variable: string; condition?: string; hitCondition?: string }[],
  ): Promise<DebugProtocol.Breakpoint[]> {
    return this.replace(agent, 'function', breakpoints);
  }

  /**
   * A program connected: the watches set while none ran go to its agent (a `tf.Variable` function
   * breakpoint kept from the last session); those now verified are told through `changed`.
   */
  async connected(agent: AgentClient, changed: (bp: DebugProtocol.Breakpoint) => void): Promise<void> {
    const all = [...this.watched.data, ...this.watched.function];
    if (all.length === 0) return;
    for (const status of await this.send(agent, all)) {
      if (status.found && !status.error) changed({ id: status.id, verified: true });
    }
  }

  private send(agent: AgentClient, all: readonly VariableWatch[]): Promise<WatchStatus[]> {
    return agent.call(
      (a, list) => a.watchVariables(list),
      all.map((w) => ({ ...w, condition: { ...w.condition } })),
    );
  }

  /** Replaces one source's watches; each answered verified when such a variable exists, else why not. */
  private async replace(agent: AgentClient | undefined, source: WatchSource, asked: readonly (WatchRequest | string)[]): Promise<DebugProtocol.Breakpoint[]> {
    const out: DebugProtocol.Breakpoint[] = [];
    const watches: VariableWatch[] = [];
    const at = new Map<number, number>();
    for (const request of asked) {
      const id = this.nextId++;
      if (typeof request === 'string') {
        out.push({ id, verified: false, message: request });
        continue;
      }
      if (
        (request.condition !== undefined && typeof request.condition !== 'string') ||
        (request.hitCondition !== undefined && typeof request.hitCondition !== 'string')
      ) {
        out.push({ id, verified: false, message: 'condition and hitCondition must be strings: not set' });
        continue;
      }
      const condition = parseDataCondition(request.condition);
      if (!condition.ok) {
        out.push({ id, verified: false, message: condition.message });
        continue;
      }
      const hits = parseHitCondition(request.hitCondition);
      if (!hits.ok) {
        out.push({ id, verified: false, message: hits.message });
        continue;
      }
      at.set(id, out.length);
      out.push({ id, verified: true });
      watches.push({
        id,
        variable: request.variable,
        condition: condition.condition,
        ...(request.hitCondition?.trim() ? { hitCondition: request.hitCondition.trim() } : {}),
      });
    }
    this.watched[source] = watches;
    if (!agent) {
      // Kept: a program that starts gets them (connected).
      for (const w of watches)
        out[at.get(w.id)!] = { id: w.id, verified: false, message: `no tf.Variable named '${w.variable}' exists yet: watched once the program runs` };
      return out;
    }
    for (const status of await this.send(agent, [...this.watched.data, ...this.watched.function])) {
      const i = at.get(status.id);
      if (i === undefined) continue;
      const w = watches.find((x) => x.id === status.id)!;
      if (status.error) out[i] = { id: status.id, verified: false, message: status.error };
      else if (!status.found)
        out[i] = {
          id: status.id,
          verified: false,
          message: `no tf.Variable named '${w.variable}' exists now; it is watched should one be made`,
        };
    }
    return out;
  }
}

type WatchSource = 'data' | 'function';

/** One data breakpoint asked for, from either source. */
interface WatchRequest {
  variable: string;
  condition?: string;
  hitCondition?: string;
}

/** An expression for a data breakpoint stop's old value (0), new value (1) or change (2): watchable, copyable. */
export function dataValueExpression(index: number): string {
  return agentExpression((a, i: number) => a.dataValues()?.[i], String(index));
}

/** How Variables shows a value (VariableStore.toVariable), passed in: the store lists this scope, so this module does not import it. */
type ShowValue = (name: string, value: Protocol.Runtime.RemoteObject, evaluateName: string) => Promise<DebugProtocol.Variable>;

/** The "Data Breakpoint" scope: which variable, why, its old value, new value and the change. */
export async function dataScopeVariables(
  show: ShowValue,
  agent: AgentClient,
  hit: DataBreakHit,
  properties: (objectId: string) => Promise<Protocol.Runtime.PropertyDescriptor[]>,
): Promise<DebugProtocol.Variable[]> {
  const list = await agent.callRemote((a) => a.dataValues() ?? []);
  const items = list.objectId ? (await properties(list.objectId)).filter((p) => /^\d+$/.test(p.name) && p.value) : [];
  const value = (i: number) => items.find((p) => p.name === String(i))?.value;
  const text = (name: string, v: string): DebugProtocol.Variable => ({ name, value: v, variablesReference: 0 });
  const out: DebugProtocol.Variable[] = [text('variable', `tf.Variable '${hit.variable}' ${hit.dtype}[${hit.shape.join(',')}]`), text('why', hit.why)];
  const names = ['old value', 'new value', 'change'];
  for (const [i, name] of names.entries()) {
    const v = value(i);
    if (v && v.type === 'object') out.push(await show(name, v, dataValueExpression(i)));
  }
  if (hit.maxAbsChange !== undefined) out.push(text('max |change|', String(hit.maxAbsChange)));
  if (hit.conditionError) out.push(text('condition error', hit.conditionError));
  return out;
}
