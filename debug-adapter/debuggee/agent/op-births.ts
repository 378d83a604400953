/*
 * "NaN/Inf in any op": while the filter is on, the runtime's op watch (runtime/op-watch/) tells
 * the agent each birth of NaN/Inf, and the agent stops there, with the op's tensors live for the
 * Op scope and the inspector (`nodeValues`, `nodePage`). Off, the agent watches nothing and the
 * runtime shadows no engine method.
 */
import type { OpBirth, OpBirthObserver } from '../../../runtime/hook-types.js';
import { nonFiniteWord } from '../../../runtime/non-finite-text.js';
import type { OpBirthSnapshot, Side, ValuePage } from '../agent-protocol.js';
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
  const observer: OpBirthObserver = {
    onBirth(birth) {
      if (!context.agent.config.breakOnOpNonFinite) return;
      const op = opBirthSnapshot(context, birth);
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
