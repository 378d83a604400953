/*
 * Function breakpoints on callbacks and model nodes: each one's hits are counted and its
 * condition evaluated here, where the hit happens, so a hit that does not stop costs no pause
 * (a V8 pause the adapter resumes is two round trips, and 999 of them for a `>= 1000`).
 */
import type { NodeExecution } from '../../../runtime/hook-types.js';
import type { ConditionFailure, ConditionVerdict, FunctionBreakpointRule, LastBreak } from '../agent-protocol.js';
import { isCallbackOp } from '../../../runtime/graph-model/callback-ops.js';
import { hitTest } from '../../shared/hit-condition.js';
import { answersTo } from '../../shared/callback-answers.js';
import type { AgentContext, Entry } from './context.js';
import { compilePattern, nodeAnswers, type NodePattern } from './node-patterns.js';

type Condition = (...args: unknown[]) => unknown;

export interface Rule {
  readonly spec: FunctionBreakpointRule;
  readonly pattern: NodePattern;
  /** The condition compiled, by parameter list (a condition that does not compile keeps its error). */
  readonly compiled: Map<string, Condition | { error: unknown }>;
  /** Hits so far: kept when the breakpoints are set again with this id; a new id counts from 0. */
  hits: number;
  /** The hit condition, read once: a hit that does not stop is a count and this comparison. */
  readonly lets: (hits: number) => boolean;
}

export interface FunctionBreakpoints {
  readonly rules: readonly Rule[];
  set(specs: FunctionBreakpointRule[]): void;
  /** Whether the function breakpoints on this invocation's callback stop it, and why. */
  callbackStop(e: Entry): Partial<LastBreak> | undefined;
  /** See DebugAgent.decideConditions. */
  decide(e: Entry, ids: number[], names: string[]): ConditionVerdict;
  /** Whether any rule may stop at this node (its name and op): none, and its runs are not counted. */
  mayStopAt(node: string, op: string): boolean;
  /** Counts a node's hits; the rules whose hit condition this one meets (undefined for none). */
  countNodeHits(node: string, op: string): Rule[] | undefined;
  /** Whether the rules a node's run met stop there (their conditions), and why. */
  nodeStop(e: NodeExecution, met: readonly Rule[]): Pick<LastBreak, 'matched' | 'conditionFailure'> | undefined;
}

/** What a node breakpoint's condition sees: the Node scope's names (node-scope.ts `nodeBindings`). */
const NODE_NAMES = ['inputs', 'outputs', 'attrs', 'op', 'node'];

/** Counts a hit; whether the breakpoint's hit condition lets this one through. */
const counted = (rule: Rule): boolean => rule.lets(++rule.hits);
/** Parameter names as bindings: one that is no identifier (a destructured parameter) is `argN`. */
const bindable = (names: readonly string[]): string[] => names.map((p, i) => (/^[A-Za-z_$][\w$]*$/.test(p) ? p : `arg${i}`));
const failureOf = (rule: Rule, error: unknown): ConditionFailure => ({
  breakpoint: rule.spec.name,
  message: error instanceof Error ? `${error.name}: ${error.message}` : `threw ${typeof error === 'string' ? JSON.stringify(error) : String(error)}`,
});

/** A rule's condition, compiled once for a parameter list. */
function compiled(rule: Rule, source: string, names: readonly string[]): Condition | { error: unknown } {
  const key = names.join(',');
  let test = rule.compiled.get(key);
  if (!test) {
    try {
      test = new Function(...names, `return !!(\n${source}\n);`) as Condition;
    } catch (error) {
      test = { error };
    }
    rule.compiled.set(key, test);
  }
  return test;
}

/** A condition with `values` under `names`; no condition holds. Tensors it makes are disposed. */
function evaluate(context: AgentContext, rule: Rule, names: readonly string[], values: readonly unknown[]): { held: boolean; thrown?: { error: unknown } } {
  const source = rule.spec.condition?.trim();
  if (!source) return { held: true };
  const test = compiled(rule, source, names);
  if (typeof test !== 'function') return { held: false, thrown: test };
  try {
    const tf = context.tfjs();
    return { held: context.untraced(() => (tf ? tf.tidy(() => Boolean(test(...values))) : Boolean(test(...values)))) };
  } catch (error) {
    return { held: false, thrown: { error } };
  }
}

/**
 * Whether the function breakpoints on this invocation's callback stop it, and why. A condition
 * that names what is not bound (a ReferenceError), on a callback whose source names the adapter
 * has not given (`given`), is left to the adapter (`undecided`): the JS may have renamed a parameter.
 */
function callbackStopOf(context: AgentContext, rules: readonly Rule[], given: string[] | undefined, e: Entry): Partial<LastBreak> | undefined {
  const callback = { ...e.callback, node: e.node };
  let why: Partial<LastBreak> | undefined;
  const undecided: number[] = [];
  for (const rule of rules) {
    if (!answersTo(rule.spec.name, callback) || !counted(rule)) continue;
    const out = evaluate(context, rule, bindable(given ?? e.start().parameterNames), e.args);
    if (out.held) why ??= {};
    else if (!out.thrown) continue;
    else if (!given && (out.thrown.error as Error | undefined)?.name === 'ReferenceError') undecided.push(rule.spec.id);
    else why = { conditionFailure: failureOf(rule, out.thrown.error) };
  }
  return why ?? (undecided.length > 0 ? { undecided } : undefined);
}

/** Whether the rules a node's run met stop there (their conditions), and why. */
function nodeStopOf(context: AgentContext, e: NodeExecution, met: readonly Rule[]): Pick<LastBreak, 'matched' | 'conditionFailure'> | undefined {
  let values: unknown[] | undefined;
  let matched: string[] | undefined;
  let conditionFailure: ConditionFailure | undefined;
  for (const rule of met) {
    if (rule.spec.condition) values ??= [e.inputs, e.outputs, e.attrs(), e.op, e.node];
    const out = evaluate(context, rule, NODE_NAMES, values ?? []);
    if (out.thrown) conditionFailure = failureOf(rule, out.thrown.error);
    else if (!out.held) continue;
    (matched ??= []).push(rule.spec.name);
  }
  if (!matched) return undefined;
  return conditionFailure ? { matched, conditionFailure } : { matched };
}

/**
 * `livePatterns`: how many node breakpoint patterns may stop at a node now (node-watch.ts): with
 * none, a node's run is not counted at all.
 */
export function createFunctionBreakpoints(context: AgentContext, livePatterns: () => number): FunctionBreakpoints {
  let rules: Rule[] = [];
  /**
   * Rules that answer to a node, by node name (with its op: a name is one op per model). A callback
   * node's are none here: its breakpoint is its callback's. Asked for every node that runs.
   */
  let nodeRuleCache = new Map<string, { op: string; rules: Rule[] }>();
  /** The source's parameter names of a callback (by token), from the adapter (`decideConditions`). */
  const sourceNames = new Map<string, string[]>();

  const nodeRules = (node: string, op: string): Rule[] => {
    let cached = nodeRuleCache.get(node);
    if (!cached || cached.op !== op) {
      cached = { op, rules: isCallbackOp(op) ? [] : rules.filter((r) => nodeAnswers(r.pattern, node, op)) };
      nodeRuleCache.set(node, cached);
    }
    return cached.rules;
  };

  return {
    get rules() {
      return rules;
    },
    set(specs) {
      const counts = new Map(rules.map((r) => [r.spec.id, r.hits]));
      rules = specs.map((spec) => ({
        spec,
        pattern: compilePattern(spec.name),
        compiled: new Map(),
        hits: counts.get(spec.id) ?? 0,
        lets: hitTest(spec.hitCondition),
      }));
      nodeRuleCache = new Map();
    },
    callbackStop: (e) => callbackStopOf(context, rules, sourceNames.get(e.callback.token), e),
    decide(e, ids, names) {
      sourceNames.set(e.callback.token, [...names]);
      let verdict: ConditionVerdict = { stop: false };
      for (const rule of rules) {
        if (!ids.includes(rule.spec.id)) continue;
        const out = evaluate(context, rule, bindable(names), e.args);
        if (out.thrown !== undefined) verdict = { stop: true, failure: failureOf(rule, out.thrown.error) };
        else if (out.held) verdict = { ...verdict, stop: true };
      }
      return verdict;
    },
    mayStopAt: (node, op) => livePatterns() > 0 && nodeRules(node, op).length > 0,
    // Called from the node observer's `wants`, so a hit that does not stop builds no node event at all.
    countNodeHits(node, op) {
      const answering = nodeRules(node, op);
      if (answering.length === 0 || livePatterns() === 0) return undefined;
      let met: Rule[] | undefined;
      for (const rule of answering) if (counted(rule)) (met ??= []).push(rule);
      return met;
    },
    nodeStop: (e, met) => nodeStopOf(context, e, met),
  };
}
