/**
 * The CLI's arguments: read and checked before anything loads TensorFlow.js, so that the runtime
 * can then load the project's own copy (see main.ts).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { parseChoice, type BackendChoice } from '../backend-choice.js';
import { conventionalCallbacksModule, isModelTarget } from '../graph-model/model-path.js';
import { findRunner, RunnerError } from './exec-runner.js';
import { traceTargetProblem } from './trace-target.js';

export const USAGE = `Usage: tfjs-callbacks run [options] <program.ts|program.js> [options] [--] [program arguments]
       tfjs-callbacks run [options] <model.json> [options]
       tfjs-callbacks backend [--backend <name>]
       tfjs-callbacks setup-native [--python <python> | --wheel <tensorflow.whl>] [--undo]
       tfjs-callbacks --version

Runs a TensorFlow.js program or graph model and prints one line per graph-callback invocation
(node, input/output dtypes and shapes, ✓/✗ against Tout, time) and a summary.

A program runs as \`node program.js args\` would: in a process of its own, with process.argv[1] its
path, require.main its module, its own exit code. After the program, the options below are read
up to the first argument that is not one of them (or up to --): that argument and all that follow
go to the program. So \`run train.js --epochs 5\` passes --epochs 5 to train.js, and
\`run train.js --backend cpu -- --backend x\` gives --backend x to it. NODE_OPTIONS is the
program's, as for node.

Options:
  --callbacks <module>   for a model.json: module exporting the callbacks, by name, node name or token
                         (default: callbacks.ts, .js, .mts, .mjs or .cjs beside the model, as F5 finds it)
  --inputs <file.json>   for a model.json: inputs by name, e.g. {"x": [[1, 2, 3]]}
                         (default: seeded values shaped like the model's placeholders)
  --backend <name>       auto (default), tensorflow, wasm or cpu; also TFJS_BACKEND
  --trace <file.json>    also write the invocations as JSON (for the editor)
  --find-nan             watch every TF.js op: print where the first NaN/Inf was born (op, forward
                         or backward, layer, epoch/batch, the program's line), and later births
  -r, --require <module>, --import <module>, --loader <module>
                         before the program: Node's preloads, given to the program's node in this
                         order, as \`node -r @babel/register train.js\` takes them
  --exec <runner>        start the program with a Node.js runner script, as \`<runner> program args\`
                         (e.g. --exec babel-node: from the project's node_modules/.bin, else PATH)
  -h, --help             this text (before the program; after it, --help is the program's)
  -v, --version          the version of tfjs-callbacks

backend says which backend a run here would get and why (each one tried, and why it was not used).

setup-native builds the native TensorFlow backend (@tensorflow/tfjs-node's binding) against a
TensorFlow you already have: a Python environment's tensorflow/tensorflow-cpu (--python, default
python3) or a wheel file (--wheel). Needs g++ and make; ~30 s, ~25 MiB in ~/.cache. --undo removes it.`;

export class UsageError extends Error {
  /** `showUsage`: false where the message says all there is to fix (a refused --trace path), and the usage text would bury it. */
  constructor(
    message: string,
    readonly showUsage = true,
  ) {
    super(message);
  }
}

export interface RunArgs {
  /** As given, for messages. */
  readonly target: string;
  readonly targetPath: string;
  readonly isModel: boolean;
  /** What the program gets as process.argv.slice(2). */
  readonly programArgs: readonly string[];
  readonly callbacks?: string;
  readonly inputs?: string;
  readonly backend?: BackendChoice;
  readonly trace?: string;
  /** --find-nan: watch every op for the birth of NaN/Inf (runtime/op-watch/). */
  readonly findNan?: boolean;
  /** Node's preload options given before the program (`-r`, `--require`, `--import`, `--loader`), in order, each `--flag=value`. */
  readonly nodeOptions: readonly string[];
  /** --exec: the script of the runner that starts the program (exec-runner.ts). */
  readonly exec?: string;
}

/** The CLI's own options, each taking a value. */
const VALUE_OPTIONS = ['callbacks', 'inputs', 'backend', 'trace', 'exec'] as const;
type ValueOption = (typeof VALUE_OPTIONS)[number];
/** The CLI's own options that take no value (after the target, they are still the CLI's). */
const FLAG_OPTIONS = ['find-nan'] as const;

/** Node's options that preload a module, as `node` takes them before the program (`--loader` is Node 20's name for --experimental-loader). */
const NODE_PRELOADS: Readonly<Record<string, string>> = {
  '-r': '--require',
  '--require': '--require',
  '--import': '--import',
  '--loader': '--experimental-loader',
  '--experimental-loader': '--experimental-loader',
};

/**
 * Node's preload option at `argv[i]` (`-r mod`, `--require=mod`, …) as `--flag=value`, and how many
 * arguments it took; undefined when it is not one.
 */
function nodePreloadAt(argv: readonly string[], i: number): { option: string; used: number } | undefined {
  const arg = argv[i]!;
  const eq = arg.indexOf('=');
  const name = eq > 0 ? arg.slice(0, eq) : arg;
  // Own keys only: a program named `constructor` or `toString` is a program, not a preload.
  const flag = Object.hasOwn(NODE_PRELOADS, name) ? NODE_PRELOADS[name] : undefined;
  if (!flag) return undefined;
  if (eq > 0) return { option: `${flag}=${arg.slice(eq + 1)}`, used: 1 };
  const value = argv[i + 1];
  if (value === undefined) throw new UsageError(`${arg} needs a module, as for node: ${arg} @babel/register.`);
  return { option: `${flag}=${value}`, used: 2 };
}

/**
 * Splits `run`'s arguments into the CLI's, Node's preloads and the program's: before the target
 * everything is the CLI's or, for `-r`/`--require`/`--import`/`--loader`, Node's; after it, the
 * CLI's options up to the first argument that is not one (or `--`), and the rest is the program's, unchanged.
 */
function splitAtProgram(argv: readonly string[]): { cli: string[]; program: string[]; preloads: string[] } {
  const preloads = preloadsBeforeTarget(argv);
  const { cli, program } = splitOwn(argv.filter((_, i) => !preloads.at.has(i)));
  return { cli, program, preloads: preloads.options };
}

/** Node's preload options before the target: where they are (values included), and each as `--flag=value`, in order. */
function preloadsBeforeTarget(argv: readonly string[]): { at: Set<number>; options: string[] } {
  const at = new Set<number>();
  const options: string[] = [];
  let positionals = 0;
  for (let i = 0; i < argv.length && argv[i] !== '--' && positionals < 2; i++) {
    const arg = argv[i]!;
    const preload = nodePreloadAt(argv, i);
    if (preload) {
      options.push(preload.option);
      for (let k = 0; k < preload.used; k++) at.add(i + k);
      i += preload.used - 1;
    } else if (!arg.startsWith('-') || arg === '-') {
      positionals++;
    } else if (takesValue(arg) && !arg.includes('=')) {
      i++;
    }
  }
  return { at, options };
}

/** splitAtProgram without Node's preloads: the CLI's arguments and the program's. */
function splitOwn(argv: readonly string[]): { cli: string[]; program: string[] } {
  const cli: string[] = [];
  let i = 0;
  let target: string | undefined;
  // Up to and including the target (the first positional after the command).
  let positionals = 0;
  for (; i < argv.length && target === undefined; i++) {
    const arg = argv[i]!;
    // `run -- <program> args`: no more options of ours; the program and its arguments follow.
    // The target goes to parseArgs after a `--` of its own, so a name starting with `-` stays a name.
    if (arg === '--' && positionals === 1 && i + 1 < argv.length) return { cli: [...cli, '--', argv[i + 1]!], program: argv.slice(i + 2) };
    cli.push(arg);
    if (!arg.startsWith('-') || arg === '-') {
      if (++positionals === 2) target = arg;
    } else if (takesValue(arg) && !arg.includes('=') && i + 1 < argv.length) {
      cli.push(argv[++i]!);
    }
  }
  if (target === undefined) return { cli: [...cli, ...argv.slice(i)], program: [] };
  // After the target: our options, then the program's arguments.
  while (i < argv.length) {
    const arg = argv[i]!;
    if (arg === '--') return { cli, program: argv.slice(i + 1) };
    const flag = (FLAG_OPTIONS as readonly string[]).includes(arg.slice(2)) && arg.startsWith('--');
    if (!takesValue(arg) && !flag) break;
    cli.push(arg);
    if (!flag && !arg.includes('=') && i + 1 < argv.length) cli.push(argv[++i]!);
    i += 1;
  }
  return { cli, program: argv.slice(i) };
}

function takesValue(arg: string): boolean {
  const name = arg.split('=')[0]!;
  return name.startsWith('--') && (VALUE_OPTIONS as readonly string[]).includes(name.slice(2) as ValueOption);
}

/** The run's arguments, or 'help'; throws UsageError (or Node's ERR_PARSE_ARGS_*) for bad usage. */
export function parseCliArgs(argv: string[]): RunArgs | 'help' | 'version' {
  const { cli, program, preloads } = splitAtProgram(argv);
  const { values, positionals } = parseArgs({
    args: cli,
    allowPositionals: true,
    options: {
      callbacks: { type: 'string' },
      inputs: { type: 'string' },
      backend: { type: 'string' },
      trace: { type: 'string' },
      'find-nan': { type: 'boolean' },
      exec: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
      version: { type: 'boolean', short: 'v' },
    },
  });
  if (values.help) return 'help';
  if (values.version) return 'version';
  const [command, target, ...extra] = positionals;
  if (command !== 'run' || !target || extra.length) {
    throw new UsageError(command && command !== 'run' ? `Unknown command '${command}' (commands: run, backend, setup-native).` : 'Nothing to run.');
  }
  const targetPath = path.resolve(target);
  if (!existsSync(targetPath)) throw new UsageError(`${target} does not exist.`);
  const isModel = isModelTarget(targetPath);
  if (!isModel && (values.callbacks || values.inputs)) throw new UsageError('--callbacks and --inputs apply to a model.json target.');
  if (isModel && program.length) throw new UsageError(`A model.json takes no program arguments (got ${program.join(' ')}).`);
  if (isModel && (preloads.length || values.exec)) throw new UsageError('-r, --require, --import, --loader and --exec apply to a program, not a model.json.');
  if (values.callbacks && !existsSync(path.resolve(values.callbacks))) throw new UsageError(`--callbacks ${values.callbacks} does not exist.`);
  if (values.inputs && !existsSync(path.resolve(values.inputs))) throw new UsageError(`--inputs ${values.inputs} does not exist.`);
  const traceProblem = values.trace ? traceTargetProblem(values.trace, protectedByTrace(targetPath, isModel, values.callbacks)) : undefined;
  if (traceProblem) throw new UsageError(traceProblem, false);
  let backend: BackendChoice | undefined;
  try {
    backend = values.backend === undefined ? undefined : parseChoice(values.backend, '--backend');
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  return {
    target,
    targetPath,
    isModel,
    programArgs: program,
    ...(values.callbacks ? { callbacks: values.callbacks } : {}),
    ...(values.inputs ? { inputs: values.inputs } : {}),
    ...(backend ? { backend } : {}),
    ...(values.trace ? { trace: values.trace } : {}),
    ...(values['find-nan'] ? { findNan: true } : {}),
    nodeOptions: preloads,
    ...(values.exec ? { exec: runnerScript(values.exec, path.dirname(targetPath)) } : {}),
  };
}

function runnerScript(runner: string, projectDir: string): string {
  try {
    return findRunner(runner, projectDir);
  } catch (err) {
    if (err instanceof RunnerError) throw new UsageError(err.message, false);
    throw err;
  }
}

/** The files a trace must never replace: the target and, for a model, its callbacks module. */
function protectedByTrace(targetPath: string, isModel: boolean, callbacks: string | undefined): string[] {
  const module = callbacks ?? (isModel ? conventionalCallbacksModule(targetPath, existsSync) : undefined);
  return module ? [targetPath, module] : [targetPath];
}

/**
 * Where the program's own packages are looked up: beside the program (or the callbacks module of
 * a model), as Node would resolve its imports.
 */
export function projectDirOf(args: RunArgs): string {
  return path.dirname(args.callbacks ? path.resolve(args.callbacks) : args.targetPath);
}

/** `backend`'s arguments (argv without the command). */
export function parseBackendArgs(argv: string[]): { readonly backend?: BackendChoice } | 'help' {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { backend: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help) return 'help';
  if (positionals.length)
    throw new UsageError(`backend takes no file arguments (got ${positionals.join(' ')}): it reports on the project of the folder it runs in.`);
  try {
    return values.backend === undefined ? {} : { backend: parseChoice(values.backend, '--backend') };
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

export interface SetupArgs {
  readonly python?: string;
  readonly wheel?: string;
  readonly undo: boolean;
}

/** `setup-native`'s arguments (argv without the command). */
export function parseSetupArgs(argv: string[]): SetupArgs | 'help' {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { python: { type: 'string' }, wheel: { type: 'string' }, undo: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help) return 'help';
  if (positionals.length) throw new UsageError(`setup-native takes no file arguments (got ${positionals.join(' ')}): --python <python> or --wheel <file.whl>.`);
  if (values.python && values.wheel) throw new UsageError('Give --python or --wheel, not both.');
  if (values.undo && (values.python || values.wheel)) throw new UsageError('--undo takes no other option.');
  return { ...(values.python ? { python: values.python } : {}), ...(values.wheel ? { wheel: values.wheel } : {}), undo: !!values.undo };
}
