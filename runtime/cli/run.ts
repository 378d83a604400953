/**
 * The CLI's run, loaded by main.ts once module resolution points at the program's project: select
 * the backend, run the program (in this process) or the model, print each callback invocation as
 * it ends and the summary, and write the trace.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import '../index.js'; // the whole runtime, registered for the program's CommonJS require()s
import { announceBackend, selectBackend, type BackendReport } from '../backend.js';
import { addCallbackObserver } from '../hooks.js';
import { loadCallbackModel, type CallbackBindings } from '../graph-model/callback-model.js';
import type { RunArgs } from './args.js';
import { formatSummary, summarize } from './format.js';
import { TraceRecorder } from './trace.js';
import { UnsettledRunError, unsettledMessage } from './unsettled.js';
import { readModelInputs, seededModelInputs } from './model-inputs.js';
import { signature, summarizeTensor } from '../summary.js';
import { tf } from '../tf.js';

/** Runs the program or model; the exit code. */
export async function run(args: RunArgs): Promise<number> {
  const { target, targetPath, isModel } = args;
  await registerTypeScript();
  const backend = await selectBackend({ quiet: true, ...(args.backend ? { backend: args.backend } : {}) });
  announceBackend(backend, (line) => console.log(line));

  const recorder = new TraceRecorder((line) => console.log(line));
  addCallbackObserver(recorder);
  let failure: Error | undefined;
  // Node exits, code 0, once nothing is left to wait for, even with a top-level await or a
  // callback's promise still pending: that is a run that stalled, not one that finished.
  const loopEmptied = eventLoopEmptied();
  try {
    const work = isModel ? runModel(targetPath, args.callbacks, args.inputs) : import(pathToFileURL(targetPath).href);
    const outcome = await Promise.race([work.then(() => 'settled' as const), loopEmptied.then(() => 'stalled' as const)]);
    if (outcome === 'stalled') throw new UnsettledRunError(unsettledMessage(target, isModel, recorder.pending()));
    // Lets work the program scheduled without awaiting (timers, tf.data iterators) finish first.
    await loopEmptied;
  } catch (err) {
    failure = err instanceof Error ? err : new Error(String(err));
  }
  finish(recorder, target, backend, args.trace, failure);
  return failure ? 1 : 0;
}

/** Resolves when Node has nothing left to run or wait for ('beforeExit'). */
function eventLoopEmptied(): Promise<void> {
  return new Promise((resolve) => process.once('beforeExit', () => resolve()));
}

function finish(recorder: TraceRecorder, target: string, backend: BackendReport, traceFile: string | undefined, failure: Error | undefined): void {
  if (failure) {
    console.log(`\n✗ ${target} failed: ${failure.name}: ${failure.message}`);
    const hint = hintFor(failure);
    if (hint) console.log(`  ${hint}`);
    if (failure.stack && !['InvalidArgumentError', 'UnboundCallbackError', 'UnsettledRunError', 'ModelFormatError', 'InputsError'].includes(failure.name)) {
      console.log(failure.stack.split('\n').slice(1, 8).join('\n'));
    }
  }
  console.log(`\n${formatSummary(summarize(recorder.invocations), backend.backend, failure !== undefined)}`);
  if (traceFile) {
    recorder.write(traceFile, target, backend, failure);
    console.log(`trace written to ${traceFile}`);
  }
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
      const held = s.heldAs ? ` (held as ${s.heldAs})` : '';
      console.log(`  output ${model.outputNames[i] ?? i}: ${signature(s)}${held} min=${fmt(s.min)} max=${fmt(s.max)} mean=${fmt(s.mean)}`);
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

/** What to do about failures whose own message does not say. */
function hintFor(failure: Error): string | undefined {
  if (/Top-level await is currently not supported with the "cjs" output format/.test(failure.message)) {
    return 'The file is CommonJS (its package.json has no "type": "module"), as tsx and Node read it, and CommonJS has no top-level await: add "type": "module" to package.json, rename it to .mts, or wrap the code in an async function.';
  }
  return undefined;
}

/**
 * TypeScript programs and callbacks modules run through tsx, registered as `node --import tsx`
 * does: for ES modules and for CommonJS ones (a callbacks.ts in an `npm init -y` project is
 * CommonJS, and Node's require(esm) of it would cycle). Importing it again under tsx is a no-op.
 */
async function registerTypeScript(): Promise<void> {
  const loader: string = 'tsx'; // its loader entry (what --import tsx runs) ships no types
  await import(loader);
}
