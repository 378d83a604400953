/**
 * Where the runtime's hook state lives (hooks.ts `shared`): one global symbol, so that every copy
 * of the runtime in a process and a debugger's agent find the same state. A leaf: the agent's
 * bundle takes it as it is.
 */
export const SHARED_STATE_KEY = Symbol.for('tfjs-callback-debugger.runtime.state');

/** The state as the first copy of the runtime (or an agent that comes before it) makes it. */
export const freshSharedState = () => ({ observers: [], nextToken: 0, nextInvocation: 1 });
