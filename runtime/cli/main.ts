#!/usr/bin/env node
/**
 * tfjs-callbacks run <program.ts|program.js|model.json> [--callbacks mod.ts] [--inputs inputs.json]
 *                    [--backend auto|tensorflow|wasm|cpu] [--trace trace.json]
 *
 * Runs a graph program or model and prints one line per callback invocation and a summary.
 *
 * tfjs-callbacks setup-native [--python <python> | --wheel <file.whl>] [--undo]
 *
 * Builds the native TensorFlow backend from a TensorFlow the user has (runtime/native/setup.ts).
 *
 * tfjs-callbacks backend [--backend <name>]   (the whole report behind a run's one backend line)
 * tfjs-callbacks --version
 *
 * A program runs in a child process, as `node program.js args` would run it (child-process.ts); a
 * model runs here, or in a child whose stderr is filtered where the native backend may load.
 *
 * This entry imports no TensorFlow.js: it reads the arguments, points module resolution at the
 * project (runtime/loader), and only then loads the runtime (run.ts), so that the runtime and the
 * project share the project's one copy of each @tensorflow package.
 */
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseBackendArgs, parseCliArgs, parseSetupArgs, projectDirOf, USAGE, UsageError } from './args.js';

// A reader that closed the pipe (`tfjs-callbacks run prog.js | head -1`) ends nothing, as for `node prog.js`.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE') throw err;
  });
}

/**
 * The subcommands besides `run`, by name; each gets the arguments after its name and returns the
 * exit code. Anything else is `run`'s (with or without the word `run`: parseCliArgs).
 */
const COMMANDS: Readonly<Record<string, (argv: string[]) => Promise<number>>> = {
  'setup-native': setupNativeCommand,
  backend: backendCommand,
};

async function main(argv: string[]): Promise<number> {
  const command = Object.hasOwn(COMMANDS, argv[0] ?? '') ? COMMANDS[argv[0]!] : undefined;
  return command ? command(argv.slice(1)) : runCommand(argv);
}

/** `run` (the default): a program in a child process, or a model here. */
async function runCommand(argv: string[]): Promise<number> {
  const args = parseCliArgs(argv);
  if (args === 'help' || args === 'version') {
    console.log(args === 'help' ? USAGE : await ownVersion());
    return 0;
  }
  const projectDir = process.env.TFJS_CALLBACKS_PROJECT_DIR ?? projectDirOf(args);
  const unsupported = await unsupportedTfjs(projectDir);
  if (unsupported) return unsupported;
  const { makeShareDir, programCommand, programEnv, runChild, wantsFilteredStderr } = await import('./child-process.js');
  const filterStderr = wantsFilteredStderr(args.backend, projectDir);
  if (!args.isModel) {
    const shareDir = makeShareDir();
    const cleanup = (): void => rmSync(shareDir, { recursive: true, force: true });
    return runChild(programCommand(args), programEnv(args, projectDir, shareDir), filterStderr, cleanup);
  }
  // On the native backend the model's run goes on in a child whose stderr is read without TensorFlow's startup lines.
  if (filterStderr) return runChild([...process.execArgv, ...process.argv.slice(1)], process.env, true);
  // The program's own selectBackend() call must see the same choice.
  if (args.backend) process.env.TFJS_BACKEND = args.backend;
  process.env.TFJS_CALLBACKS_PROJECT_DIR ??= projectDir;
  await import('../loader/register.js');
  const { run } = await import('./run.js');
  return run(args);
}

/** This package's version, from its package.json (above dist/ or the sources). */
async function ownVersion(): Promise<string> {
  const { packageRoot } = await import('../loader/commonjs-resolution.js');
  const manifest = path.join(packageRoot(path.dirname(fileURLToPath(import.meta.url))), 'package.json');
  return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
}

/** `backend`: the backend a run in this folder's project would get, and the whole why (a run prints one short line). */
async function backendCommand(argv: string[]): Promise<number> {
  const args = parseBackendArgs(argv);
  if (args === 'help') {
    console.log(USAGE);
    return 0;
  }
  const projectDir = process.env.TFJS_CALLBACKS_PROJECT_DIR ?? process.cwd();
  const unsupported = await unsupportedTfjs(projectDir);
  if (unsupported) return unsupported;
  // Where the native backend may load, the report comes from a child whose stderr is read without TensorFlow's startup lines, as a run's.
  const { runChild, wantsFilteredStderr } = await import('./child-process.js');
  if (wantsFilteredStderr(args.backend, projectDir)) return runChild([...process.execArgv, ...process.argv.slice(1)], process.env, true);
  process.env.TFJS_CALLBACKS_PROJECT_DIR ??= projectDir;
  await import('../loader/register.js');
  const { backendDetails, selectBackend } = await import('../backend.js');
  const report = await selectBackend({ quiet: true, ...(args.backend ? { backend: args.backend } : {}) });
  for (const line of backendDetails(report)) console.log(line);
  return 0;
}

async function setupNativeCommand(argv: string[]): Promise<number> {
  const args = parseSetupArgs(argv);
  if (args === 'help') {
    console.log(USAGE);
    return 0;
  }
  const unsupported = await unsupportedTfjs(process.cwd());
  if (unsupported) return unsupported;
  const { setupNative, undoNative, describeSetup, NativeSetupError } = await import('../native/setup.js');
  if (args.undo) {
    const removed = undoNative({});
    console.log(
      removed
        ? `removed ${removed}: auto no longer finds that native backend`
        : 'nothing to undo: setup-native has built nothing for this @tensorflow/tfjs version',
    );
    return 0;
  }
  try {
    const result = await setupNative({ ...args, say: (line) => console.log(line) });
    for (const line of describeSetup(result)) console.log(line);
    return 0;
  } catch (err) {
    if (!(err instanceof NativeSetupError)) throw err;
    console.error(`tfjs-callbacks setup-native: ${err.message}`);
    return 1;
  }
}

/** A project on a TF.js version the runtime does not support is told so at once, before anything loads: exit code 1. */
async function unsupportedTfjs(projectDir: string): Promise<number | undefined> {
  const { checkProjectTfjs } = await import('../tfjs-version.js');
  const tfjs = checkProjectTfjs(projectDir);
  if (tfjs.ok) return undefined;
  console.error(`tfjs-callbacks: ${tfjs.message}`);
  return 1;
}

// run.ts reports a program or callback that stalls; this catches a stall anywhere else (loading
// the runtime, choosing the backend): Node would otherwise exit 0 with nothing said.
let settled = false;
process.on('exit', () => {
  if (settled) return;
  console.error(
    'tfjs-callbacks: the run never finished: Node ran out of work while the CLI was still waiting (a promise nothing resolves). This is a bug in tfjs-callbacks if no program or callback was running: please report it.',
  );
  process.exitCode = 1;
});

main(process.argv.slice(2)).then(
  (code) => {
    settled = true;
    process.exitCode = code;
  },
  (err: unknown) => {
    settled = true;
    if (err instanceof UsageError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      const usage = err instanceof UsageError && !err.showUsage ? '' : `\n\n${USAGE}`;
      console.error(`tfjs-callbacks: ${(err as Error).message}${usage}`);
      process.exitCode = 2;
    } else {
      console.error(`tfjs-callbacks: ${err instanceof Error ? err.message : String(err)}`);
      process.exitCode = 1;
    }
  },
);
