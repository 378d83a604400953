/**
 * The debuggee's bootloader, CommonJS on purpose: `node --require <this>` on a launch's command
 * line (launcher.ts) and in the Debug Terminal's NODE_OPTIONS, so it runs first in every Node
 * process started there.
 *
 * It takes the place Node leaves for this: `Module.runMain`, which starts a process's entry point
 * (and which babel-node's and ts-node's CLIs call again, in their own process, to start the
 * program once their compiler is registered). When runMain is about to start a program to debug,
 * boot-program.ts gets its session and loads the bridge, tsx where needed, the runtime's loader
 * and the bridge's hold; then Node's own runMain starts the program, deciding as it would without
 * us. An `--import` of ours would not leave that decision alone: on Node 20 any `--import` sends
 * every entry point through the ES module loader, past CommonJS require hooks (@babel/register,
 * ts-node, anything built on `Module._extensions`), so a `.js` file with `import` syntax ran
 * untranspiled (`ERR_MODULE_NOT_FOUND` for babel's extensionless `./agent`) and a `.ts` one failed.
 *
 * Every other process pays for this file, one property write and, where runMain starts a script,
 * a stat of it and a look for its package's name: npm, npx, babel-node's and ts-node's CLIs,
 * anything under node_modules (Node's runMain starts them unchanged), `node -e`, the REPL (which
 * never call runMain).
 */
import Module from 'node:module';
import { closeSync, constants, fstatSync, openSync, readFileSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { isMainThread } from 'node:worker_threads';

// Copies, checked against the ES modules that own them (this file cannot require those on every Node).
/** A launch's debuggee: the adapter's bridge socket (bridge-protocol.ts). */
const SOCKET_ENV: typeof import('./bridge-protocol.js', { with: { 'resolution-mode': 'import' }}).SOCKET_ENV = 'TFJS_CALLBACKS_DEBUG_SOCKET';
/** A Debug Terminal's process: the extension's socket (terminal-protocol.ts). */
const TERMINAL_SOCKET_ENV: typeof import('./terminal-protocol.js', { with: { 'resolution-mode': 'import' }}).TERMINAL_SOCKET_ENV =
  'TFJS_CALLBACKS_TERMINAL_SOCKET';

/**
 * The runtime's CLI as a project installs it. It runs a model in its own process, which is then
 * the one to debug; a program it runs in a child process of its own (as `node program.js` would),
 * which is debugged itself, the CLI being a tool then.
 */
const RUNTIME_CLI = path.join(path.sep, 'node_modules', 'tfjs-callback-debugger', 'dist', 'runtime', 'cli', 'main.js');
/** The same CLI beside this bootloader (a checkout's dist/, the extension's). */
const OWN_CLI = path.join(__dirname, '..', '..', 'runtime', 'cli', 'main.js');

/**
 * The program a Debug Terminal's process is about to run, when it is a user's program worth a
 * session; else undefined. `main` is what runMain starts.
 */
export function programToDebug(main: string | undefined, env: NodeJS.ProcessEnv, argv: readonly string[] = process.argv): string | undefined {
  if (!env[TERMINAL_SOCKET_ENV] || env[SOCKET_ENV] || !main) return undefined; // no terminal, or a launch's debuggee already
  const script = path.resolve(main);
  let real: string;
  try {
    if (!statSync(script).isFile()) return undefined;
    real = realpathSync(script); // `/usr/bin/npm` is a link to …/node_modules/npm/bin/npm-cli.js
  } catch {
    return undefined;
  }
  return isToolScript(real, argv) ? undefined : script;
}

/**
 * Package managers and tools, not programs: anything installed in a node_modules folder (npm, npx,
 * node-gyp, tsx's CLI, which starts the program in a child that is debugged, babel-node's and
 * ts-node's, which start it with runMain again), corepack's and yarn's own copies, and npm, yarn,
 * pnpm and corepack wherever else they are installed (apt's /usr/share/nodejs, Volta's and
 * corepack's caches, pnpm's standalone installer): by their entry scripts' names, else by the
 * name of the package the script is in. Except this package's runtime CLI (`tfjs-callbacks run
 * program.ts`).
 */
export function isToolScript(real: string, argv: readonly string[] = []): boolean {
  if (isRuntimeCli(real)) return !runsModel(argv.slice(2));
  const parts = real.split(path.sep);
  if (parts.includes('node_modules') || parts.includes('corepack') || real.includes(`${path.sep}.yarn${path.sep}releases${path.sep}`)) return true;
  if (isToolEntry(real)) return true;
  const name = packageNameOf(path.dirname(real));
  return name !== undefined && TOOL_PACKAGES.has(name);
}

/** The packages of package managers; a script in one of them is the tool, wherever it is installed. */
const TOOL_PACKAGES = new Set(['npm', 'npx', 'yarn', '@yarnpkg/cli-dist', '@yarnpkg/cli', 'pnpm', '@pnpm/exe', 'corepack']);
/** Their entry scripts, named as no program is, for copies with no package.json above them. */
const TOOL_ENTRY = /^(?:np[mx]-cli\.js|pnp[mx]\.cjs|yarn\.cjs|yarn-\d[\w.-]*\.cjs)$/;
/** Their plainer names, taken for theirs only in a bin/ or dist/ folder (yarn's bin/yarn.js, corepack's dist/pnpm.js). */
const TOOL_BIN = /^(?:npm|npx|pnpm|pnpx|yarn|yarnpkg|corepack)\.c?js$/;

function isToolEntry(real: string): boolean {
  const base = path.basename(real);
  return TOOL_ENTRY.test(base) || (TOOL_BIN.test(base) && ['bin', 'dist'].includes(path.basename(path.dirname(real))));
}

/** A package.json past this is no package manager's (theirs are a few kB): it is not read. */
const MANIFEST_LIMIT = 256 * 1024;

/** The name in the nearest package.json above `dir` that has one (a nameless one, `{ "type": "module" }`, is passed over). */
function packageNameOf(dir: string): string | undefined {
  for (let at = dir; ; at = path.dirname(at)) {
    const name = manifestName(path.join(at, 'package.json'));
    if (name !== undefined) return name;
    if (path.dirname(at) === at) return undefined;
  }
}

/**
 * A package.json's name, read bounded: a regular file only, opened without blocking (a FIFO or a
 * link to /dev/zero in a project must not hang or swell the user's process), under MANIFEST_LIMIT.
 * The runtime's bounded reader (runtime/bounded-read.ts) is an ES module this file cannot load on
 * every Node.
 */
function manifestName(file: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch {
    return undefined;
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile() || stats.size > MANIFEST_LIMIT) return undefined;
    const name = (JSON.parse(readFileSync(fd, 'utf8')) as { name?: unknown } | null)?.name;
    return typeof name === 'string' ? name : undefined;
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** Whether a script's real path is this package's runtime CLI. */
function isRuntimeCli(real: string): boolean {
  return real.endsWith(RUNTIME_CLI) || real === OWN_CLI;
}

/** The CLI options that take a value (runtime/cli/args.ts). */
const CLI_VALUE_OPTIONS = ['--callbacks', '--inputs', '--backend', '--trace'];

/** Whether CLI arguments (`run [options] <target> …`) name a model.json as the target. */
export function runsModel(args: readonly string[]): boolean {
  if (args[0] !== 'run') return false;
  for (let i = 1; i < args.length; i++) {
    const arg = args[i]!;
    if (CLI_VALUE_OPTIONS.includes(arg)) i++;
    else if (!arg.startsWith('-')) return /\.json$/i.test(arg);
  }
  return false;
}

type RunMain = (this: unknown, main?: string) => unknown;

/**
 * Where the runMain this file's starts is kept, on its function: a preload loaded after this file
 * (the CLI's, runtime/cli/program-preload.cts, in the process `tfjs-callbacks run` starts in a
 * Debug Terminal) puts itself there, so that the session, the bridge and its hold come first, as
 * they did when the CLI's preloads were --imports.
 */
const INNER_RUN_MAIN_KEY = Symbol.for('tfjs-callback-debugger.runMain.inner');

function install(): void {
  const launch = !!process.env[SOCKET_ENV];
  if (!isMainThread || (!launch && !process.env[TERMINAL_SOCKET_ENV])) return;
  // Every process here pays for this file alone: the ts-node check loads only where ts-node is named.
  if (`${process.execArgv.join(' ')} ${process.env.NODE_OPTIONS ?? ''} ${process.argv[1] ?? ''}`.includes('ts-node')) {
    (require('../../runtime/ts-node-check.cjs') as typeof import('../../runtime/ts-node-check.cjs')).explainTsNodeFailure();
  }
  const modules = Module as unknown as { runMain: RunMain };
  const inner = { runMain: modules.runMain };
  let calls = 0;
  const runMain = function (this: unknown, main = process.argv[1]) {
    calls++;
    // A launch debugs what it starts; a terminal, the first program among what runMain starts.
    const program = launch ? main && path.resolve(main) : programToDebug(main, process.env);
    if (!program) return inner.runMain.call(this, main);
    modules.runMain = inner.runMain;
    // Outside the promise: an error the program throws as it starts is an uncaught exception, as without us.
    void debug(program, launch, calls > 1).then(() => process.nextTick(() => inner.runMain.call(this, main)));
  };
  Object.defineProperty(runMain, INNER_RUN_MAIN_KEY, { value: inner });
  modules.runMain = runMain;
}

/** Gets the program its session (boot-program.ts); a failure is said (and a terminal's program runs undebugged). */
async function debug(program: string, launch: boolean, viaRunner: boolean): Promise<void> {
  try {
    // From the TypeScript sources (the adapter run by tsx), the ES modules need tsx first.
    const fromSource = path.extname(__filename) === '.cts';
    if (fromSource) await import(pathToFileURL(require.resolve('tsx')).href);
    const url = pathToFileURL(path.join(__dirname, `boot-program.${fromSource ? 'ts' : 'js'}`)).href;
    const { bootProgram } = (await import(url)) as typeof import('./boot-program.js', { with: { 'resolution-mode': 'import' }});
    await bootProgram({ program, launch, viaRunner, runtimeCli: !launch && isRuntimeCli(realpathSync(program)) });
  } catch (err) {
    process.stderr.write(`tfjs-callbacks debugger: ${(err as Error).stack ?? err}\n`);
    // A launch cannot go on without its bridge; a terminal's program runs as it would without us.
    if (launch) process.exit(1);
    process.stderr.write(`${path.basename(program)} runs without the debugger.\n`);
  }
}

install();
