/**
 * The adapter's own requests (extension-protocol.ts): a tensor's values and bytes for the inspector, the graph
 * view's watch switch, a model node's details, the program's tf.Variables, and the inspector's pins. Each resolves to its response's body.
 */
import path from 'node:path';
import type { Controller } from './pauses/controller.js';
import type { Evaluator } from './values/evaluator.js';
import {
  GRAPH_WATCH_REQUEST,
  IGNORE_OP_BIRTH_REQUEST,
  MODEL_INFO_REQUEST,
  type ModelInfoArguments,
  type IgnoreOpBirthArguments,
  type IgnoreOpBirthResponseBody,
  type GraphWatchArguments,
  NODE_INFO_REQUEST,
  SET_PINS_REQUEST,
  type SetPinsArguments,
  type NodeInfoArguments,
  TENSOR_BYTES_REQUEST,
  TENSOR_DATA_REQUEST,
  TENSOR_DIFF_REQUEST,
  type TensorBytesArguments,
  type TensorDataArguments,
  TOGGLE_SKIP_FILE_REQUEST,
  TRAINING_VARIABLES_REQUEST,
  type TrainingVariablesResponseBody,
  type ToggleSkipFileArguments,
  type ToggleSkipFileResponseBody,
} from './extension-protocol.js';
import type { MemoryReferences } from './values/memory.js';
import type { StackView } from './pauses/stack-view.js';
import { nodeInfo, tensorBytes, tensorData } from './values/tensor-data.js';
import { tensorDiff } from './values/tensor-diff.js';
import { modelInfo } from './values/model-info.js';
import { ignoreRule } from './breakpoints/op-births.js';
import type { StopFilters } from './pauses/stop-filters.js';
import type { Pins } from './values/pins.js';

export type CustomRequestHandler = (args: unknown) => Promise<unknown>;

/** Per custom command, its handler. */
export function customRequestHandlers(
  controller: Controller,
  evaluator: Evaluator,
  stack: StackView,
  memory: MemoryReferences,
  filters: StopFilters,
  pins: Pins,
): ReadonlyMap<string, CustomRequestHandler> {
  return new Map<string, CustomRequestHandler>([
    [
      TENSOR_DATA_REQUEST,
      (args) => {
        const evaluate = (expression: string, frameId: number | undefined) => evaluator.evaluate(expression, stack.frame(frameId), 'repl');
        return tensorData(args as TensorDataArguments, controller.agent, evaluate);
      },
    ],
    [TENSOR_DIFF_REQUEST, (args) => tensorDiff(args, controller)],
    [TENSOR_BYTES_REQUEST, (args) => tensorBytes(args as Partial<TensorBytesArguments> | undefined, controller.agent, memory)],
    [GRAPH_WATCH_REQUEST, (args) => controller.setWatchGraph((args as Partial<GraphWatchArguments> | undefined)?.on === true)],
    [NODE_INFO_REQUEST, (args) => nodeInfo(args as Partial<NodeInfoArguments> | undefined, controller.agent)],
    [SET_PINS_REQUEST, async (args) => pins.set(args as Partial<SetPinsArguments> | undefined)],
    [TOGGLE_SKIP_FILE_REQUEST, (args) => toggleSkipFile(controller, args as Partial<ToggleSkipFileArguments> | undefined)],
    [
      IGNORE_OP_BIRTH_REQUEST,
      async (args): Promise<IgnoreOpBirthResponseBody> => {
        const { rule, words } = ignoreRule(controller.paused?.op, (args as Partial<IgnoreOpBirthArguments> | undefined)?.what);
        await filters.ignore(rule);
        return { ignored: words };
      },
    ],
    [
      MODEL_INFO_REQUEST,
      (args) => {
        const a = args as Partial<ModelInfoArguments> | undefined;
        const f = stack.frame(a?.frameId);
        const asked = f?.kind === 'js' ? f.callFrame : f?.evalFrame;
        const { cdp, agent } = controller.connection();
        return modelInfo(a, controller.paused?.event.callFrames, asked, cdp, agent);
      },
    ],
    [
      TRAINING_VARIABLES_REQUEST,
      async (): Promise<TrainingVariablesResponseBody> => ({ variables: controller.closed ? [] : await controller.agent.call((a) => a.variableList()) }),
    ],
  ]);
}

/** Flips a file between skipped and stepped through; the frames shown are redrawn (their hints change). */
async function toggleSkipFile(controller: Controller, args: Partial<ToggleSkipFileArguments> | undefined): Promise<ToggleSkipFileResponseBody> {
  if (typeof args?.path !== 'string' || !path.isAbsolute(args.path)) {
    throw new Error(`toggleSkipFile needs arguments { path: <absolute file path> }, not ${JSON.stringify(args ?? null)}`);
  }
  return { skipped: await controller.toggleSkipping(args.path) };
}
