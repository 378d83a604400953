/**
 * A stop as the client sees it: the stopped event at once (with a data breakpoint's event after it),
 * the inspector's event right behind it, then the graph view's once the client has the paused
 * frame, which it asks for with stackTrace.
 */
import { Event, StoppedEvent } from '@vscode/debugadapter';
import type { DebugProtocol } from '@vscode/debugprotocol';
import type { Controller } from './controller.js';
import type { PausedState } from '../state/pause-state.js';
import { dataValueExpression } from '../breakpoints/data.js';
import { mark } from '../debuggee/timeline.js';
import {
  DATA_BREAKPOINT_EVENT,
  type DataBreakpointEventBody,
  GRAPH_NODE_EVENT,
  GRAPH_RUN_EVENT,
  type GraphNodeEventBody,
  type GraphRunEventBody,
  TENSOR_CALLBACK_EVENT,
  type TensorCallbackEventBody,
} from '../extension-protocol.js';
import { opBirthNode } from '../debuggee/agent-protocol.js';
import { THREAD_ID } from './stack-view.js';

/** How long a stop's extras wait for a client that does not ask for the stack (a script, a test). */
const EXTRAS_WAIT_MS = 200;
/** ... and for the answer to a stack request that came (the answer is what they wait for). */
const EXTRAS_ANSWER_WAIT_MS = 2000;

export class StopEvents {
  /** The current stop's wait for its first stack trace (stopped): told when it is asked for and answered. */
  private stackWait: { requested(): void; answered(): void } | undefined;

  constructor(
    private readonly controller: Controller,
    private readonly sendEvent: (event: DebugProtocol.Event) => void,
    /** Forgets the previous stop (its frames, variables, evaluations). */
    private readonly resumed: () => void,
    /** The pinned expressions' event (values/pins.ts), once the client has the paused frame. */
    private readonly pinned: (state: PausedState) => Promise<void> = async () => {},
  ) {
    controller.on('stopped', (state) => void this.stopped(state));
    controller.on('stopped', (state) => this.dataStopped(state));
  }

  /** A stackTrace request came: the extras now wait for its answer. */
  stackRequested(): void {
    this.stackWait?.requested();
  }

  /** The stop's stack was answered: its extras go. */
  stackAnswered(): void {
    this.stackWait?.answered();
    this.stackWait = undefined;
  }

  private async stopped(state: PausedState): Promise<void> {
    this.resumed();
    const event = new StoppedEvent(state.stop.reason, THREAD_ID, state.stop.text) as DebugProtocol.StoppedEvent;
    event.body.description = state.stop.description;
    if (state.stop.hitBreakpointIds) event.body.hitBreakpointIds = state.stop.hitBreakpointIds;
    const stackShown = new Promise<void>((resolve) => {
      let timer = setTimeout(resolve, EXTRAS_WAIT_MS);
      this.stackWait = {
        requested: () => {
          clearTimeout(timer);
          timer = setTimeout(resolve, EXTRAS_ANSWER_WAIT_MS);
        },
        answered: () => {
          clearTimeout(timer);
          resolve();
        },
      };
    });
    mark('adapter: stopped sent');
    this.sendEvent(event);
    // The inspector's event goes with the stop: its one debuggee read (the invocation's summaries,
    // which the Variables view's Callback scope reads next anyway) is a few milliseconds, and its
    // way through VS Code to the webview then runs beside the client's own stack and scopes.
    const inspector = this.sendInvocation(state);
    // The graph view's extras (a run's statuses: a read that grows with the model) go once the
    // client has the paused frame: its paused line is drawn first, not after them.
    await stackShown;
    await inspector;
    if (this.controller.paused !== state) return;
    await this.pinned(state).catch(() => {});
    if (this.controller.paused !== state) return;
    // A node stop, or an op stop shown as a node of OP_BIRTH_GRAPH (its tensors page as a node's).
    const node = state.node ?? (state.op ? opBirthNode(state.op) : undefined);
    if (node) {
      const body: GraphNodeEventBody = { reason: state.stop.reason, description: state.stop.description, node };
      this.sendEvent(new Event(GRAPH_NODE_EVENT, body));
    }
    if (this.controller.watchingGraph) {
      const run = await this.controller.agent.call((agent) => agent.graphRun()).catch(() => undefined);
      if (run) this.sendEvent(new Event(GRAPH_RUN_EVENT, run satisfies GraphRunEventBody));
    }
  }

  /** The inspector's event for the innermost invocation under way, with its inputs' and outputs' summaries. */
  private async sendInvocation(state: PausedState): Promise<void> {
    const innermost = state.active[state.active.length - 1];
    if (!innermost) return;
    const details = await this.controller.agent.call((agent, id) => agent.details(id), innermost.id).catch(() => undefined);
    if (this.controller.paused !== state) return;
    const body = { reason: state.stop.reason, description: state.stop.description, invocation: innermost, ...details } as TensorCallbackEventBody;
    mark('adapter: tensorCallback sent');
    this.sendEvent(new Event(TENSOR_CALLBACK_EVENT, body));
  }

  /** After a data breakpoint's stopped event: the inspector's event, with the old and new values' summaries. */
  private dataStopped(state: PausedState): void {
    const hit = state.data;
    if (!hit) return;
    const body: DataBreakpointEventBody = {
      reason: state.stop.reason,
      description: state.stop.description,
      hit,
      expressions: { old: dataValueExpression(0), new: dataValueExpression(1), ...(hit.change ? { change: dataValueExpression(2) } : {}) },
    };
    this.sendEvent(new Event(DATA_BREAKPOINT_EVENT, body));
  }
}
