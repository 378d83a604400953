/**
 * The CLI's run of a model, loaded by main.ts once module resolution points at the model's project:
 * select the backend, bind the callbacks module, run the model, print each callback invocation as
 * it ends, the outputs and the summary, and write the trace. (A program runs in a process of its
 * own: child-process.ts, program-report.ts.)
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import '../index.js'; // the whole runtime, registered for the callbacks module's CommonJS require()s
import { announceBackend, selectBackend } from '../backend.js';
import { addCallbackObserver } from '../hooks.js';
import { loadCallbackModel, type CallbackBindings } from '../graph-model/callback-model.js';
import { conventionalCallbacksModule } from '../graph-model/model-path.js';
import type { RunArgs } from './args.js';
import { finish } from './outcome.js';
import { TraceRecorder } from './trace.js';
import { BirthReport } from './nan-report.js';
import { addOpBirthObserver } from '../op-watch/op-watch.js';
import { UnsettledRunError, unsettledMessage } from './unsettled.js';
import { readModelInputs, seededModelInputs } from './model-inputs.js';
import { nonFiniteText } from '../non-finite-text.js';
import { signature, summarizeTensor } from '../summary.js';
import { tf } from '../tf.js';
import { narrowingText } from '../tout-verdict.js';

/** Runs the model; the exit code. */
export async function run(args: RunArgs): Promise<number> {
  const { target, targetPath } = args;
  await registerTypeScript();
  const backend = await selectBackend({ quiet: true, ...(args.backend ? { backend: args.backend } : {}) });
  announceBackend(backend, (line) => console.log(line));

  const recorder = new TraceRecorder((line) => console.log(line), args.trace ? { file: args.trace, target } : undefined);
  addCallbackObserver(recorder);
  const births = args.findNan ? new BirthReport((line) => console.log(line)) : undefined;
  if (births) addOpBirthObserver(births);
  let failure: Error | undefined;
  // Node exits, code 0, once nothing is left to wait for, even with a callback's promise still
  // pending: that is a run that stalled, not one that finished.
  const loopEmptied = eventLoopEmptied();
  try {
    // As F5 and Run Graph do: with no --callbacks, the callbacks module beside the model.
    const callbacks = args.callbacks ?? conventionalCallbacksModule(targetPath, existsSync);
    const work = runModel(targetPath, callbacks, args.inputs);
    const outcome = await Promise.race([work.then(() => 'settled' as const), loopEmptied.then(() => 'stalled' as const)]);
    if (outcome === 'stalled') throw new UnsettledRunError(unsettledMessage(target, true, recorder.pending()));
  } catch (err) {
    failure = err instanceof Error ? err : new Error(String(err));
  }
  finish(recorder, { target, backend, traceFile: args.trace, failure, withStack: true, ...(births ? { births } : {}) }, (line) => console.log(line));
  return failure ? 1 : 0;
}

/** Resolves when Node has nothing left to run or wait for ('beforeExit'). */
function eventLoopEmptied(): Promise<void> {
  return new Promise((resolve) => process.once('beforeExit', () => resolve()));
}

async function runModel(modelPath: string, callbacksModule: string | undefined, inputsFile: string | undefined): Promise<void> {
  const callbacks = callbacksModule ? await loadBindings(callbacksModule) : {};
  const model = await loadCallbackModel(modelPath, { callbacks });
  const inputs = inputsFile ? await readModelInputs(inputsFile, model) : seededModelInputs(model);
  try {
    const result = await model.run(inputs);
    const outputs = Array.isArray(result) ? result : [result];
    const declared = model.outputDTypes();
    outputs.forEach((t, i) => {
      const s = summarizeTensor(t, declared[i]);
      const held = s.heldAs ? ` (${narrowingText(s.dtype, s.heldAs)})` : '';
      // min, max and mean are over the finite values; the others are counted beside them.
      const nonFinite = nonFiniteText(s);
      console.log(
        `  output ${model.outputNames[i] ?? i}: ${signature(s)}${held} min=${fmt(s.min)} max=${fmt(s.max)} mean=${fmt(s.mean)}${nonFinite ? ` (${nonFinite})` : ''}`,
      );
    });
    tf.dispose(outputs);
  } finally {
    tf.dispose(Object.values(inputs));
    model.dispose();
  }
}

function fmt(v: number | undefined): string {
  return v === undefined ? '—' : Number(v.toPrecision(4)).toString();
}

async function loadBindings(modulePath: string): Promise<CallbackBindings> {
  const resolved = path.resolve(modulePath);
  const mod = (await import(pathToFileURL(resolved).href)) as Record<string, unknown>;
  const source = mod.default && typeof mod.default === 'object' ? (mod.default as Record<string, unknown>) : mod;
  const bindings: Record<string, Function> = {};
  for (const [key, value] of Object.entries(source)) if (typeof value === 'function') bindings[key] = value;
  return bindings;
}

/**
 * TypeScript callbacks modules run through tsx, registered as `node --import tsx`
 * does: for ES modules and for CommonJS ones (a callbacks.ts in an `npm init -y` project is
 * CommonJS, and Node's require(esm) of it would cycle). Importing it again under tsx is a no-op.
 */
async function registerTypeScript(): Promise<void> {
  const loader: string = 'tsx'; // its loader entry (what --import tsx runs) ships no types
  await import(loader);
}
