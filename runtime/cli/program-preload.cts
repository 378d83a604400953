/**
 * The first thing in the process where `tfjs-callbacks run` runs a program:
 * `node --require <this> <the user's -r/--import/--loader> program args` (child-process.ts), or,
 * under `--exec <runner>`, in NODE_OPTIONS, so that it is in each Node process the runner starts.
 *
 * CommonJS and a `--require` on purpose: on Node 20 any `--import` sends the entry point through the
 * ES module loader, past CommonJS require hooks (@babel/register, ts-node, pirates), so a babel
 * program's `import { x } from './data'` ran untranspiled (`Cannot find module './data'`) where
 * `node -r @babel/register train.js` runs it. So, as the debugger's bootloader does
 * (debug-adapter/debuggee/boot.cts), it takes Node's `Module.runMain`, which starts the entry point
 * (and which babel-node's CLI calls again in its process to start the program): when runMain is
 * about to start the program, it imports the runtime's loader (which loads the runtime and chooses
 * the backend) and the CLI's report (program-report.ts); then Node's own runMain starts the
 * program, CommonJS or ES module as it would decide without us, after the user's own preloads.
 */
import Module from 'node:module';
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { explainTsNodeFailure } from '../ts-node-check.cjs';

// Copies, checked against the ES modules that own them (this file cannot require those on every Node).
const PROGRAM_RUN_ENV: typeof import('./program-protocol.js', { with: { 'resolution-mode': 'import' }}).PROGRAM_RUN_ENV = 'TFJS_CALLBACKS_CLI_RUN';
const PROGRAM_PID_ENV: typeof import('./program-protocol.js', { with: { 'resolution-mode': 'import' }}).PROGRAM_PID_ENV = 'TFJS_CALLBACKS_CLI_PROGRAM_PID';

type RunMain = (this: unknown, main?: string) => unknown;

/** From the TypeScript sources (the CLI run by tsx), the ES modules need tsx first. */
const fromSource = path.extname(__filename) === '.cts';

/** The file a path names, links followed; the path itself when it names none. */
function real(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return path.resolve(file);
  }
}

/**
 * Whether runMain is about to start the program: at once, as the CLI's child; under --exec, where
 * it starts the target (the runner's own processes start the runner's scripts first), or in any
 * process the program's process started (its forks of other scripts).
 */
function startsProgram(run: { targetPath: string; exec?: boolean }, main: string | undefined): boolean {
  if (!run.exec || process.env[PROGRAM_PID_ENV]) return true;
  return !!main && real(main) === real(run.targetPath);
}

/**
 * A TypeScript program that nothing compiles: neither a require hook of the user's for its
 * extension (`-r ts-node/register`) nor tsx on the command line. The user's preloads were other
 * things (`-r dotenv/config`): tsx reads it, as it does with no preloads.
 */
function needsTsx(main: string): boolean {
  const ext = path.extname(main);
  if (!/^\.[cm]?tsx?$/.test(ext) || ext in (Module as unknown as { _extensions: object })._extensions) return false;
  return !process.execArgv.some((a) => /(^|[/\\=])tsx([/\\]|$)/.test(a));
}

async function preloadRuntime(main: string): Promise<void> {
  const ext = fromSource ? 'ts' : 'js';
  if (fromSource || needsTsx(main)) await import(pathToFileURL(require.resolve('tsx')).href);
  await import(pathToFileURL(path.join(__dirname, '..', 'loader', `register.${ext}`)).href);
  await import(pathToFileURL(path.join(__dirname, `program-report.${ext}`)).href);
}

/**
 * The debugger's bootloader (debug-adapter/debuggee/boot.cts), in NODE_OPTIONS in a Debug Terminal,
 * is loaded before this file and keeps the runMain it starts here: this one goes there, so that the
 * debugger's session and hold come first, then the runtime (its backend as the session chose).
 */
const INNER_RUN_MAIN_KEY = Symbol.for('tfjs-callback-debugger.runMain.inner');

function install(): void {
  const text = process.env[PROGRAM_RUN_ENV];
  if (!text) return;
  explainTsNodeFailure();
  const run = JSON.parse(text) as { targetPath: string; exec?: boolean };
  const modules = Module as unknown as { runMain: RunMain };
  const holder = ((modules.runMain as unknown as Record<symbol, { runMain: RunMain } | undefined>)[INNER_RUN_MAIN_KEY] ?? modules) as { runMain: RunMain };
  const runMain = holder.runMain;
  const preloading = function (this: unknown, main = process.argv[1]) {
    if (!startsProgram(run, main)) return runMain.call(this, main);
    holder.runMain = runMain;
    if (modules.runMain === preloading) modules.runMain = runMain; // the bootloader put this one back as it started
    // A preload that fails (a backend asked for that cannot start) ends the process with its error, as an --import's would.
    void preloadRuntime(main ?? '').then(() => process.nextTick(() => runMain.call(this, main)));
  };
  holder.runMain = preloading;
}

install();
