/**
 * What the adapter tells the client it supports (the initialize response), with the exception
 * filter checkboxes of the Breakpoints view (pauses/stop-filters.ts reads which are checked).
 */
import type { DebugProtocol } from '@vscode/debugprotocol';

export function capabilities(): DebugProtocol.Capabilities {
  return {
    supportsConfigurationDoneRequest: true,
    supportsFunctionBreakpoints: true,
    supportsConditionalBreakpoints: true,
    supportsHitConditionalBreakpoints: true,
    supportsLogPoints: true,
    supportsEvaluateForHovers: true,
    supportsSetVariable: true,
    supportsTerminateRequest: true,
    supportsExceptionInfoRequest: true,
    supportsClipboardContext: true,
    supportsReadMemoryRequest: true,
    supportsDataBreakpoints: true,
    supportsCompletionsRequest: true,
    supportsBreakpointLocationsRequest: true,
    supportsLoadedSourcesRequest: true,
    supportsStepInTargetsRequest: true,
    supportsRestartFrame: true,
    completionTriggerCharacters: ['.'],
    exceptionBreakpointFilters: [
      {
        filter: 'toutMismatch',
        label: 'Tout mismatch',
        description: "A callback's outputs do not match Tout: stop before the error is raised.",
        default: true,
      },
      {
        filter: 'callbackErrors',
        label: 'Errors thrown in callbacks',
        description:
          "Stop at the throw inside a callback (pyFunction, numpyFunction, pyFunc, a model's callback node) when the error leaves it, before the runtime raises CallbackError.",
        default: true,
      },
      { filter: 'nonFinite', label: 'NaN/Inf in a callback output', default: false },
      {
        filter: 'graphNonFinite',
        label: 'NaN/Inf in the graph',
        description: 'Stop at the first model node whose outputs hold NaN or Inf while its inputs were finite.',
        default: false,
      },
      {
        filter: 'opNonFinite',
        label: 'NaN/Inf in any op',
        description:
          'Stop at the first TF.js op (eager, tf.layers, gradients, optimizer updates, tf.data, model nodes) whose outputs hold NaN or Inf while its inputs were finite, or at a tensor made from data that held them.',
        default: false,
        supportsCondition: true,
        conditionDescription:
          "Stop only where this holds, e.g. op === 'Log' && layer === 'head' (op, layer, pass, kind, cause, epoch, batch, file, line, inputs, outputs, attrs)",
      },
      {
        filter: 'uncaught',
        label: 'Uncaught exceptions',
        description: 'Stop at an exception nothing catches, and (as Errors thrown in callbacks does) at one that leaves a callback.',
        default: false,
      },
      { filter: 'caught', label: 'Caught exceptions', default: false },
    ],
  };
}
