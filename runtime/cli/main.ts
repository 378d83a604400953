#!/usr/bin/env node
/**
 * tfjs-callbacks run <program.ts|program.js|model.json> [--callbacks mod.ts] [--inputs inputs.json]
 *                    [--backend auto|tensorflow|wasm|cpu] [--trace trace.json]
 *
 * Runs a graph program or model and prints one line per callback invocation and a summary.
 */
import { parseArgs } from 'node:util';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { existsSync } from 'node:fs';
import { parseChoice, selectBackend, describeBackend, type BackendChoice, type BackendReport } from '../backend.js';
import { addCallbackObserver } from '../hooks.js';
import { loadCallbackModel, type CallbackBindings } from '../graph-model/callback-model.js';
import { formatSummary, summarize } from './format.js';
import { TraceRecorder } from './trace.js';
import { readModelInputs, seededModelInputs } from './model-inputs.js';
import { signature, summarizeTensor } from '../summary.js';
import { tf } from '../tf.js';

const USAGE = `Usage: tfjs-callbacks run <program.ts|program.js|model.json> [options]

Runs a TensorFlow.js program or graph model and prints one line per graph-callback invocation
(node, input/output dtypes and shapes, ✓/✗ against Tout, time) and a summary.

Options:
  --callbacks <module>   for a model.json: module exporting the callbacks, by node name or token
  --inputs <file.json>   for a model.json: inputs by name, e.g. {"x": [[1, 2, 3]]}
                         (default: seeded values shaped like the model's placeholders)
  --backend <name>       auto (default), tensorflow, wasm or cpu; also TFJS_BACKEND
  --trace <file.json>    also write the invocations as JSON (for the editor)
  -h, --help             this text`;

class UsageError extends Error {}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      callbacks: { type: 'string' },
      inputs: { type: 'string' },
      backend: { type: 'string' },
      trace: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const [command, target, ...extra] = positionals;
  if (command !== 'run' || !target || extra.length) throw new UsageError(command && command !== 'run' ? `Unknown command '${command}'.` : 'Nothing to run.');
  const targetPath = path.resolve(target);
  if (!existsSync(targetPath)) throw new UsageError(`${target} does not exist.`);
  const isModel = targetPath.endsWith('.json');
  if (!isModel && (values.callbacks || values.inputs)) throw new UsageError('--callbacks and --inputs apply to a model.json target.');

  if (values.callbacks && !existsSync(path.resolve(values.callbacks))) throw new UsageError(`--callbacks ${values.callbacks} does not exist.`);
  if (values.inputs && !existsSync(path.resolve(values.inputs))) throw new UsageError(`--inputs ${values.inputs} does not exist.`);
  let choice: BackendChoice | undefined;
  try {
    choice = values.backend === undefined ? undefined : parseChoice(values.backend, '--backend');
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  // The program's own selectBackend() call must see the same choice.
  if (choice) process.env.TFJS_BACKEND = choice;
  await import('../loader/register.js');
  await registerTypeScript();
  const backend = await selectBackend({ quiet: true, ...(choice ? { backend: choice } : {}) });
  console.log(describeBackend(backend));

  const recorder = new TraceRecorder((line) => console.log(line));
  addCallbackObserver(recorder);
  let failure: Error | undefined;
  try {
    if (isModel) await runModel(targetPath, values.callbacks, values.inputs);
    else await import(pathToFileURL(targetPath).href);
    await drained();
  } catch (err) {
    failure = err instanceof Error ? err : new Error(String(err));
  }
  finish(recorder, target, backend, values.trace, failure);
  return failure ? 1 : 0;
}

/** Lets work the program scheduled without awaiting (timers, tf.data iterators) finish first. */
function drained(): Promise<void> {
  return new Promise((resolve) => process.once('beforeExit', () => resolve()));
}

function finish(recorder: TraceRecorder, target: string, backend: BackendReport, traceFile: string | undefined, failure: Error | undefined): void {
  if (failure) {
    console.log(`\n✗ ${target} failed: ${failure.name}: ${failure.message}`);
    if (failure.stack && !(failure.name === 'InvalidArgumentError' || failure.name === 'UnboundCallbackError')) {
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

/** TS programs run through tsx; registering again under tsx is harmless. */
async function registerTypeScript(): Promise<void> {
  const { register } = await import('tsx/esm/api');
  register();
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    if (err instanceof UsageError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      console.error(`tfjs-callbacks: ${(err as Error).message}\n\n${USAGE}`);
      process.exitCode = 2;
    } else {
      console.error(`tfjs-callbacks: ${err instanceof Error ? err.message : String(err)}`);
      process.exitCode = 1;
    }
  },
);
