/**
 * What every part of the agent shares: the global it lives on, the runtime's shared state it
 * observes through, the agent object the adapter calls (its `callbackBreak`, where every stop
 * happens), and the few tools each part needs of them.
 */
import type { InvocationFrame } from '../../../runtime/events.js';
import type { shared } from '../../../runtime/hooks.js';
import { freshSharedState, SHARED_STATE_KEY } from '../../../runtime/shared-state.js';
import { AGENT_KEY, KNOWN_BINDING, type BreakReason, type DebugAgent, type KnownNotice, type LastBreak } from '../agent-protocol.js';
import type { TfLike } from './kinds.js';

/** The runtime's shared state (runtime/hooks.ts), found under its global symbol: the agent imports no runtime code. */
export type SharedState = typeof shared;

/**
 * An invocation under way: the runtime's frame of it (its live objects, its events built when a
 * stop asks: nothing is built for a call that does not stop).
 */
export type Entry = InvocationFrame;

/** The agent's own state besides its API (tests and the bridge reach these). */
export interface InstalledAgent extends DebugAgent {
  /** Invocations under way, outermost first. */
  readonly active: Entry[];
  lastBreak: LastBreak | undefined;
  pausedAt: number | undefined;
  signal(reason: BreakReason, entry: Entry, why?: Partial<LastBreak>): void;
}

export interface AgentContext {
  readonly holder: Record<string | symbol, unknown>;
  readonly state: SharedState;
  /** The agent the adapter calls: set once its parts are made, read when they run. */
  agent: InstalledAgent;
  /** Runs the agent's own tensor reads outside a tfFunction trace under way (they are not the traced function's). */
  untraced<T>(fn: () => T): T;
  /** The program's TensorFlow.js, once the runtime has handed it over. */
  tfjs(): TfLike | undefined;
  /** Tells the adapter (its KNOWN_BINDING), when it listens. */
  tell(notice: KnownNotice): void;
  /** Stops in callbackBreak, saying why for as long as the stop lasts. */
  breakWith(lastBreak: LastBreak): void;
}

export function createContext(g: typeof globalThis): AgentContext {
  const holder = g as unknown as Record<string | symbol, unknown>;
  const state = (holder[SHARED_STATE_KEY] ??= freshSharedState()) as SharedState;
  const context: AgentContext = {
    holder,
    state,
    agent: undefined as unknown as InstalledAgent,
    untraced: (fn) => {
      const run = state.tools?.untraced;
      return run ? run(fn) : fn();
    },
    tfjs: () => state.tools?.tf as unknown as TfLike | undefined,
    tell(notice) {
      const binding = holder[KNOWN_BINDING];
      if (typeof binding === 'function') binding(JSON.stringify(notice));
    },
    breakWith(lastBreak) {
      const agent = context.agent;
      agent.lastBreak = lastBreak;
      try {
        agent.ensureDebugger?.();
        agent.callbackBreak();
      } finally {
        agent.lastBreak = undefined;
      }
    },
  };
  return context;
}

/** The agent already installed on `g`, if any. */
export const installedOn = (g: typeof globalThis): InstalledAgent | undefined =>
  (g as unknown as Record<string, unknown>)[AGENT_KEY] as InstalledAgent | undefined;
