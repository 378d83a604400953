/*
 * Data breakpoints: while some tf.Variable is watched, tfjs's Variable.prototype.assign (what
 * optimizers and user code call) is wrapped: the old values are kept (a clone shares the data:
 * no copy), the assign applies, the condition is checked in-process, and a stop goes through
 * callbackBreak like every other. With nothing watched, assign is tfjs's own.
 */
import type { RuntimeTools } from '../../../runtime/hook-types.js';
import { nonFiniteText } from '../../../runtime/non-finite-text.js';
import type { DataBreakHit, DataCondition, DebugAgent, VariableWatch, WatchStatus } from '../agent-protocol.js';
import { hitTest } from '../../shared/hit-condition.js';
import { CONDITION_LIMIT_MS, createLimited, overran } from './condition-limit.js';
import type { AgentContext } from './context.js';
import { className, isObject, isTensor, type TensorLike, type TfLike, type VariableLike } from './kinds.js';

type DataBreakpointMethods = Pick<DebugAgent, 'watchVariables' | 'variableName' | 'dataValues' | 'variables' | 'variableList'>;
type Test = (oldValue: unknown, newValue: unknown, delta: number) => unknown;
type Watch = VariableWatch & { test?: Test; hits: number; lets: (hits: number) => boolean };

/** What an assign changed: the largest |new - old|, and the new values' NaN/Inf (the old ones' all told). */
interface Change {
  numeric: boolean;
  maxAbs: number;
  oldBad: number;
  nan: number;
  inf: number;
  negInf: number;
}

/** Compared element by element in JS. */
function changeOf(context: AgentContext, v: VariableLike, old: TensorLike): Change {
  const change = { numeric: v.dtype !== 'string', maxAbs: 0, oldBad: 0, nan: 0, inf: 0, negInf: 0 };
  if (!change.numeric) return change;
  const a = context.untraced(() => old.dataSync());
  const b = context.untraced(() => v.dataSync());
  for (let i = 0; i < b.length; i++) {
    const x = Number(a[i]);
    const y = Number(b[i]);
    if (!Number.isFinite(x)) change.oldBad++;
    if (Number.isNaN(y)) change.nan++;
    else if (y === -Infinity) change.negInf++;
    else if (y === Infinity) change.inf++;
    if (x === y || (Number.isNaN(x) && Number.isNaN(y))) continue;
    const d = Math.abs(y - x);
    change.maxAbs = Number.isNaN(d) ? Infinity : Math.max(change.maxAbs, d);
  }
  return change;
}

/** Whether a watch's condition holds for an assign, and why in words; `error` where its expression threw or ran over. */
function conditionHeld(context: AgentContext, limited: <T>(fn: () => T) => T, w: Watch, v: VariableLike, old: TensorLike, ch: Change) {
  const c: DataCondition = w.condition;
  if (c.kind === 'always') return { held: true, why: 'assigned' };
  if (c.kind === 'nonFinite') {
    const bad = nonFiniteText({ dtype: v.dtype, nanCount: ch.nan, infCount: ch.negInf + ch.inf, negInfCount: ch.negInf });
    return { held: ch.nan + ch.negInf + ch.inf > 0 && ch.oldBad === 0, why: `became non-finite (${bad})` };
  }
  if (c.kind === 'changesBy')
    return { held: ch.maxAbs > c.threshold, why: `changed by ${Number(ch.maxAbs.toPrecision(5))} > ${c.threshold} (largest |new - old|)` };
  const test = w.test;
  if (!test) return { held: false, why: '' };
  const tf = context.tfjs();
  const scopes = tf?.engine().state.scopeStack.length ?? 0;
  try {
    const held = Boolean(limited(() => (tf ? tf.tidy(() => Boolean(test(old, v, ch.maxAbs))) : test(old, v, ch.maxAbs))));
    return { held, why: `condition \`${c.source}\` held` };
  } catch (err) {
    const error = overran(err)
      ? `the condition \`${c.source}\` ran over ${CONDITION_LIMIT_MS / 1000} s and was stopped (a data breakpoint's condition runs at each assign: keep it short)`
      : `the condition \`${c.source}\` threw: ${(err as Error).message}`;
    // A stopped run leaves its tf.tidy scope open (no finally runs on termination): close it.
    if (tf) while (tf.engine().state.scopeStack.length > scopes) tf.engine().endScope();
    return { held: true, why: error, error };
  }
}

/** Whether an assign that just happened stops, and why. */
function dataHitOf(context: AgentContext, limited: <T>(fn: () => T) => T, v: VariableLike, old: TensorLike, list: Watch[]): DataBreakHit | undefined {
  const ch = changeOf(context, v, old);
  const ids: number[] = [];
  const whys: string[] = [];
  let conditionError: string | undefined;
  for (const w of list) {
    const out = conditionHeld(context, limited, w, v, old, ch);
    if (out.error !== undefined) conditionError = out.error;
    if (!out.held || !w.lets(++w.hits)) continue;
    ids.push(w.id);
    whys.push(out.why);
  }
  if (ids.length === 0) return undefined;
  const { agent } = context;
  const hit: DataBreakHit = {
    ids,
    variable: v.name,
    dtype: v.dtype,
    shape: [...v.shape],
    old: agent.valueInfo(old),
    new: agent.valueInfo(v),
    why: [...new Set(whys)].join('; '),
  };
  if (ch.numeric) hit.maxAbsChange = ch.maxAbs;
  if (conditionError !== undefined) hit.conditionError = conditionError;
  return hit;
}

/** The watches of a `watchVariables` list by variable name, and each one's status (a condition that does not compile is refused). */
function compileWatches(list: readonly VariableWatch[], tf: TfLike | undefined): { watches: Map<string, Watch[]>; statuses: WatchStatus[] } {
  const statuses: WatchStatus[] = [];
  const watches = new Map<string, Watch[]>();
  for (const w of list) {
    const watch: Watch = { ...w, hits: 0, lets: hitTest(w.hitCondition) };
    if (w.condition.kind === 'expression') {
      try {
        watch.test = new Function('oldValue', 'newValue', 'delta', `return (\n${w.condition.source}\n);`) as Test;
      } catch (err) {
        statuses.push({ id: w.id, found: false, error: `the condition does not compile: ${(err as Error).message}` });
        continue;
      }
    }
    // Before TF.js is loaded (a breakpoint kept from the last session) the watch waits: `assign`
    // is wrapped when the runtime hands over TF.js (watchToolsArrival).
    watches.set(w.variable, [...(watches.get(w.variable) ?? []), watch]);
    statuses.push({ id: w.id, found: tf !== undefined && Object.hasOwn(tf.engine().registeredVariables, w.variable) });
  }
  return { watches, statuses };
}

/** What a data breakpoint stop holds: [old, new, change] while it lasts. */
interface DataStop {
  values: unknown[] | undefined;
}

function stopAtData(context: AgentContext, paused: DataStop, hit: DataBreakHit, v: VariableLike, old: TensorLike): void {
  let change: TensorLike | undefined;
  if (v.dtype !== 'string' && v.dtype !== 'bool') {
    try {
      change = context.untraced(() => v.sub(old));
      hit.change = context.agent.valueInfo(change);
    } catch {
      change = undefined;
    }
  }
  paused.values = [old, v, change];
  try {
    context.breakWith({ reason: 'data', id: 0, data: hit });
  } finally {
    paused.values = undefined;
    change?.dispose();
  }
}

export function createDataBreakpoints(context: AgentContext): DataBreakpointMethods {
  const limited = createLimited();
  let watches = new Map<string, Watch[]>();
  let originalAssign: ((this: VariableLike, newValue: unknown) => void) | undefined;
  const paused: DataStop = { values: undefined };
  const isVariable = (v: unknown): v is VariableLike => {
    const tf = context.tfjs();
    if (tf) return v instanceof tf.Variable;
    return isTensor(v) && className(v) === 'Variable' && typeof (v as { name?: unknown }).name === 'string';
  };
  /** The program's registered tf.Variables by name; none before TF.js is loaded. */
  const registered = (): Record<string, unknown> => context.tfjs()?.engine().registeredVariables ?? {};
  const syncAssign = () => {
    const tf = context.tfjs();
    if (!tf) return;
    const proto = tf.Variable.prototype;
    if (watches.size > 0 && !originalAssign) {
      const original = proto.assign;
      originalAssign = original;
      proto.assign = function watchedAssign(this: VariableLike, newValue: unknown) {
        const list = watches.get(this.name);
        if (!list || paused.values || this.isDisposed) return original.call(this, newValue);
        const old = context.untraced(() => this.clone());
        try {
          original.call(this, newValue);
          const hit = dataHitOf(context, limited, this, old, list);
          if (hit) stopAtData(context, paused, hit, this, old);
        } finally {
          old.dispose();
        }
      };
    } else if (watches.size === 0 && originalAssign) {
      proto.assign = originalAssign;
      originalAssign = undefined;
    }
  };
  watchToolsArrival(context, syncAssign);

  return {
    watchVariables(list) {
      const compiled = compileWatches(list, context.tfjs());
      watches = compiled.watches;
      syncAssign();
      return compiled.statuses;
    },
    variableName(v) {
      if (isVariable(v)) return v.name;
      // A tfjs-layers LayerVariable (model.layers[i].kernel) holds its tf.Variable as `val`.
      const val = isObject(v) ? v.val : undefined;
      return isVariable(val) ? val.name : undefined;
    },
    dataValues: () => paused.values,
    // No prototype: the scope lists the variables and nothing else.
    variables: () => Object.assign(Object.create(null) as Record<string, unknown>, registered()),
    variableList: () =>
      Object.entries(registered()).flatMap(([name, v]) =>
        isVariable(v) ? [{ name, trainable: (v as { trainable?: unknown }).trainable !== false, info: context.agent.valueInfo(v) }] : [],
      ),
  };
}

/*
 * The runtime hands over its TF.js by setting the shared state's `tools` (runtime/hooks.ts). An
 * agent installed before that (a launch stops before the program's first line) wraps `assign`
 * for the watches waiting then: a data breakpoint kept from the last session holds from the start.
 */
function watchToolsArrival(context: AgentContext, arrived: () => void): void {
  const { state } = context;
  if (state.tools) return;
  let tools: RuntimeTools | undefined;
  Object.defineProperty(state, 'tools', {
    configurable: true,
    enumerable: true,
    get: () => tools,
    set(value: RuntimeTools | undefined) {
      tools = value;
      arrived();
    },
  });
}
