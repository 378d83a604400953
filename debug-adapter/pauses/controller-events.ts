/**
 * The controller's events that become one DAP event each, but for stops (stop-events.ts): the
 * program's output, a logpoint's line, a newly loaded source, a breakpoint that bound or changed,
 * a watched graph's run that ended, the backend the program's preloads chose.
 */
import { BreakpointEvent, Event, LoadedSourceEvent, OutputEvent } from '@vscode/debugadapter';
import type { DebugProtocol } from '@vscode/debugprotocol';
import type { ClientPositions } from '../client.js';
import type { Controller } from './controller.js';
import { BACKEND_EVENT, type BackendEventBody, GRAPH_RUN_EVENT, type GraphRunEventBody } from '../extension-protocol.js';
import { LoadedSourceEvents } from '../sources/loaded-sources.js';
import { logpointOutput } from '../breakpoints/logpoints.js';

export function forwardControllerEvents(controller: Controller, sendEvent: (event: DebugProtocol.Event) => void, positions: ClientPositions): void {
  controller.on('output', (category, text) => sendEvent(new OutputEvent(text, category)));
  const loadedSourceEvents = new LoadedSourceEvents();
  controller.scripts.sources.onAdded((script) => {
    for (const source of loadedSourceEvents.fresh(controller.scripts.sources, script)) sendEvent(new LoadedSourceEvent('new', source));
  });
  controller.on('logpoint', (text, where) => {
    const event = new OutputEvent(text, 'console') as DebugProtocol.OutputEvent;
    event.body = logpointOutput(text, where, { line: (l) => positions.lineToClient(l), column: (c) => positions.columnToClient(c) });
    sendEvent(event);
  });
  controller.on('breakpoint', (bp) => {
    sendEvent(
      new BreakpointEvent('changed', {
        id: bp.id,
        verified: bp.verified,
        line: bp.line,
        ...(bp.message ? { message: bp.message } : {}),
      } as DebugProtocol.Breakpoint),
    );
  });
  // The graph view's statuses at a run's end (at stops, stop-events.ts sends them).
  controller.on('graphRunEnded', (run) => sendEvent(new Event(GRAPH_RUN_EVENT, run satisfies GraphRunEventBody)));
  controller.on('backendChosen', (backend) => sendEvent(new Event(BACKEND_EVENT, { backend } satisfies BackendEventBody)));
  controller.on('functionBreakpoint', (bp) => {
    sendEvent(new BreakpointEvent('changed', { id: bp.id, verified: bp.verified, ...(bp.message ? { message: bp.message } : {}) } as DebugProtocol.Breakpoint));
  });
}
