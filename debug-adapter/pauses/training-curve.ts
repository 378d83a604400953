/**
 * The training curve's events (`trainingCurve`, PROTOCOL.md): what the agent gathers of each fit's
 * logs (debuggee/agent/training-curve.ts) reaches the client while the program runs, through
 * TRAINING_BINDING, and at each stop once a fit has begun, from the agent's `trainingCurve()` with
 * the batch stopped in (a program that fits nothing costs its stops no call).
 */
import { Event } from '@vscode/debugadapter';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { TRAINING_BINDING, type TrainingCurveChunk } from '../debuggee/agent-protocol.js';
import { TRAINING_CURVE_EVENT, type TrainingCurveEventBody } from '../extension-protocol.js';
import type { Controller } from './controller.js';
import type { PausedState } from '../state/pause-state.js';

export function sendTrainingCurve(controller: Controller, sendEvent: (event: DebugProtocol.Event) => void): void {
  /** Set by the first notice (the agent sends one as each fit begins): before it, a stop asks nothing. */
  let fitSeen = false;
  const send = (chunk: TrainingCurveChunk, paused: boolean) =>
    sendEvent(new Event(TRAINING_CURVE_EVENT, { ...chunk, paused } satisfies TrainingCurveEventBody));
  controller.onConnected(async () => {
    const { cdp } = controller.connection();
    cdp.on('Runtime.bindingCalled', (e) => {
      if (e.name !== TRAINING_BINDING) return;
      fitSeen = true;
      try {
        send(JSON.parse(e.payload) as TrainingCurveChunk, false);
      } catch (err) {
        controller.emit('output', 'stderr', `debugger: a training curve notice could not be read: ${(err as Error).message}\n`);
      }
    });
    await cdp.send('Runtime.addBinding', { name: TRAINING_BINDING });
  });
  controller.on('stopped', (state: PausedState) => {
    if (!fitSeen) return;
    void controller.agent
      .call((agent) => agent.trainingCurve())
      .then((chunk) => {
        if (chunk && controller.paused === state) send(chunk, true);
      })
      .catch((err: unknown) => {
        controller.emit('output', 'stderr', `debugger: the training curve could not be read at this stop: ${(err as Error).message}\n`);
      });
  });
}
