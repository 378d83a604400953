/*
 * "NaN/Inf in any op": while the filter is on, the runtime's op watch (runtime/op-watch/) tells
 * the agent each birth of NaN/Inf, and the agent stops there, with the op's tensors live for the
 * Op scope and the inspector (`nodeValues`, `nodePage`). Off, the agent watches nothing and the
 * runtime shadows no engine method.
 */
import type { OpBirth, OpBirthObserver } from '../../../runtime/hook-types.js';
import { nonFiniteWord } from '../../../runtime/non-finite-text.js';
import { OP_CONDITION_NAMES, type OpBirthIgnore, type OpBirthSnapshot, type Side, type ValuePage } from '../agent-protocol.js';
import type { AgentContext } from './context.js';

export interface OpBirthStops {
  /** The birth the program is stopped at, with its live tensors. */
  readonly paused: OpBirth | undefined;
  /** That stop as the adapter was told it (`nodeInfo(OP_BIRTH_GRAPH, …)` shows it as a node). */
  readonly pausedSnapshot: OpBirthSnapshot | undefined;
  /** Watches or stops watching as the configuration says (configure). */
  sync(): void;
  page(side: Side, index: number, start: number, count: number): ValuePage | { error: string };
}

export function opBirthSnapshot(context: AgentContext, b: OpBirth): OpBirthSnapshot {
  const { agent } = context;
  const attrs = context.state.tools?.attrsAsJson?.(b.attrs) ?? {};
  return {
    kind: b.kind,
    cause: b.cause,
    op: b.op,
    ...(b.within !== undefined ? { within: b.within } : {}),
    pass: b.pass,
    ...(b.optimizer !== undefined ? { optimizer: b.optimizer } : {}),
    ...(b.gradientOf
      ? {
          gradientOf: {
            op: b.gradientOf.op,
            ...(b.gradientOf.layer ? { layer: { ...b.gradientOf.layer } } : {}),
            ...(b.gradientOf.site ? { site: siteOf(b.gradientOf.site) } : {}),
          },
        }
      : {}),
    ...(b.layer ? { layer: { ...b.layer } } : {}),
    ...(b.fit ? { fit: { ...b.fit } } : {}),
    ...(b.model !== undefined ? { model: b.model } : {}),
    ...(b.site ? { site: siteOf(b.site) } : {}),
    inputNames: [...b.inputNames],
    inputs: b.inputs.map((t) => (t ? (agent.info(t) ?? null) : null)),
    outputs: b.outputs.map((t) => agent.valueInfo(t)),
    attrs,
    ...(b.first
      ? { first: { output: b.first.output, index: b.first.index, coords: [...b.first.coords], value: nonFiniteWord(b.first.value) ?? String(b.first.value) } }
      : {}),
    sequence: b.sequence,
    message: b.message,
  };
}

const siteOf = (s: { file: string; line: number; column: number }) => ({ file: s.file, line: s.line, column: s.column });

export function createOpBirthStops(context: AgentContext): OpBirthStops {
  let paused: OpBirth | undefined;
  let pausedSnapshot: OpBirthSnapshot | undefined;
  let stopWatching: (() => void) | undefined;
  const condition = conditionOf(context);
  const observer: OpBirthObserver = {
    onBirth(birth) {
      const config = context.agent.config;
      if (!config.breakOnOpNonFinite || (config.opNonFiniteIgnored ?? []).some((rule) => ignores(rule, birth))) return;
      const verdict = condition(birth);
      if (!verdict.stop) return;
      const op = { ...opBirthSnapshot(context, birth), ...(verdict.error ? { conditionError: verdict.error } : {}) };
      paused = birth;
      pausedSnapshot = op;
      try {
        context.breakWith({ reason: 'opNonFinite', id: 0, op });
      } finally {
        paused = undefined;
        pausedSnapshot = undefined;
      }
    },
  };
  const watch = (): (() => void) => {
    const { state } = context;
    const add = state.tools?.addOpBirthObserver;
    if (add) return add(observer);
    // Before the runtime has loaded: into the shared list, which its op watch reads when it loads.
    state.opBirthObservers = [...(state.opBirthObservers ?? []), observer];
    return () => {
      state.opBirthObservers = (state.opBirthObservers ?? []).filter((o) => o !== observer);
      state.tools?.syncOpWatch?.();
    };
  };
  return {
    get paused() {
      return paused;
    },
    get pausedSnapshot() {
      return pausedSnapshot;
    },
    sync() {
      const on = context.agent.config.breakOnOpNonFinite === true;
      if (on && !stopWatching) stopWatching = watch();
      else if (!on && stopWatching) {
        stopWatching();
        stopWatching = undefined;
      }
    },
    page(side, index, start, count) {
      const birth = paused;
      if (!birth) return { error: 'the program is not stopped at an op' };
      const values = side === 'inputs' ? birth.inputs : birth.outputs;
      const what = `${side === 'inputs' ? 'input' : 'output'} ${index} of op ${birth.op}`;
      if (!(index >= 0 && index < values.length) || !values[index]) return { error: `${what} does not exist (${values.length} ${side})` };
      return { info: context.agent.valueInfo(values[index]), start, values: context.agent.slice(values[index], start, count) };
    },
  };
}

function ignores(rule: OpBirthIgnore, birth: OpBirth): boolean {
  if ('op' in rule) return rule.op === birth.op;
  const at = birth.gradientOf?.site ?? birth.site;
  return at !== undefined && at.file === rule.file && at.line === rule.line;
}

/**
 * The filter's condition, compiled once per source, run on each birth in a tf.tidy (tensors it
 * makes are disposed); one that does not compile or throws stops, saying why.
 */
function conditionOf(context: AgentContext): (birth: OpBirth) => { stop: boolean; error?: string } {
  let source: string | undefined;
  let test: ((...values: unknown[]) => unknown) | { error: string } | undefined;
  return (birth) => {
    const wanted = context.agent.config.opNonFiniteCondition?.trim();
    if (!wanted) return { stop: true };
    if (wanted !== source) {
      source = wanted;
      try {
        test = new Function(...OP_CONDITION_NAMES, `return !!(\n${wanted}\n);`) as (...values: unknown[]) => unknown;
      } catch (err) {
        test = { error: `the condition \`${wanted}\` does not compile: ${(err as Error).message}` };
      }
    }
    if (typeof test !== 'function') return { stop: true, error: test?.error ?? 'no condition' };
    const run = test;
    const values = [
      birth.op,
      birth.layer?.name,
      birth.pass,
      birth.kind,
      birth.cause,
      birth.fit?.epoch,
      birth.fit?.batch,
      birth.site?.file,
      birth.site?.line,
      birth.inputs,
      birth.outputs,
      birth.attrs,
    ];
    try {
      const tf = context.tfjs();
      return { stop: context.untraced(() => (tf ? tf.tidy(() => Boolean(run(...values))) : Boolean(run(...values)))) };
    } catch (err) {
      return { stop: true, error: `the condition \`${wanted}\` threw ${err instanceof Error ? `${err.name}: ${err.message}` : String(err)}` };
    }
  };
}
