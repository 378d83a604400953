/**
 * A stop as the controller reports it: why (a plain description, no DAP), the V8 pause it is, and
 * the callback invocations under way.
 */
import type { Protocol } from 'devtools-protocol';
import type { ActiveSnapshot, DataBreakHit, NodeSnapshot, OpBirthSnapshot } from '../debuggee/agent-protocol.js';

export type StopReason = 'breakpoint' | 'function breakpoint' | 'data breakpoint' | 'exception' | 'step' | 'pause' | 'entry' | 'restart';

export interface Stop {
  readonly reason: StopReason;
  readonly description: string;
  readonly text?: string;
  /**
   * For exception stops: an id ('ToutMismatch', 'NonFinite', or the thrown error's class), the
   * full message, and whether it is handled ('always': a filter stops on it; 'unhandled': it
   * leaves the program or the callback).
   */
  readonly exception?: { readonly id: string; readonly description: string; readonly details?: string; readonly breakMode?: 'always' | 'unhandled' };
  readonly hitBreakpointIds?: number[];
}

export interface PausedState {
  readonly event: Protocol.Debugger.PausedEvent;
  readonly stop: Stop;
  /** Callback invocations under way, outermost first. */
  readonly active: ActiveSnapshot[];
  /** A stop at a model node (node breakpoint, node step, NaN/Inf in the graph): the node that just ran. */
  readonly node?: NodeSnapshot;
  /** A stop at the birth of NaN/Inf in an op ("NaN/Inf in any op"): the op, its tensors' summaries and where it ran. */
  readonly op?: OpBirthSnapshot;
  /** A data breakpoint stop: the tf.Variable assigned, its old and new values' summaries. */
  readonly data?: DataBreakHit;
}
