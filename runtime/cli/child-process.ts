/**
 * The CLI's work goes on in a child process:
 * - a program runs as `node program.js args` would run it (process.argv[1] is its path, require.main
 *   its module, its exit code the run's), with the user's own preloads (`-r @babel/register`,
 *   NODE_OPTIONS), after which the CLI's (program-preload.cts) loads the runtime's loader and the
 *   CLI's report (program-report.ts); or as `<runner> program.js args` (--exec);
 * - where the native backend may load, the child's stderr is read without TensorFlow's startup
 *   lines (written from C++ to fd 2, runtime/tf-startup-logs.ts); otherwise it is the terminal's.
 * Stdin and stdout are shared, so a program's prompts and output are as they would be.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { installedNativeCopies, projectTfjsVersion, setupNativeBuild } from '../native/installed.js';
import { dropsTfStartupLines, filterTfStartupLines, STDERR_FILTERED_ENV } from '../tf-startup-logs.js';
import type { RunArgs } from './args.js';
import { PROGRAM_RUN_ENV, type ProgramRun } from './program-protocol.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const ext = path.extname(fileURLToPath(import.meta.url));

/** Whether the child's stderr is to be filtered: only when the native backend may load. */
export function wantsFilteredStderr(backend: string | undefined, projectDir: string, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env[STDERR_FILTERED_ENV] || !dropsTfStartupLines(env)) return false;
  const choice = backend ?? env.TFJS_BACKEND ?? 'auto';
  if (choice !== 'auto' && choice !== 'tensorflow') return false;
  return nativeMayLoad(projectDir, env);
}

/** A tfjs-node the runtime could load: the project's or the runtime's with its binding, or setup-native's build for the project's TF.js. */
function nativeMayLoad(projectDir: string, env: NodeJS.ProcessEnv): boolean {
  if (installedNativeCopies(projectDir, fileURLToPath(import.meta.url)).some((copy) => copy.hasBinding)) return true;
  const version = projectTfjsVersion(projectDir) ?? projectTfjsVersion(here);
  return !!version && !!setupNativeBuild(version, env);
}

/**
 * `node --require <the CLI's preload> <the user's preloads> program args`: the program's process,
 * as a plain node run with the user's preloads would have it (program-preload.cts says why a
 * `--require`). tsx (~200 ms) only for a TypeScript program with none of the user's preloads (with
 * them, the preload adds tsx only where nothing of theirs compiles it); a JavaScript program is
 * read by Node itself, as `node program.js` reads it. Under --exec: `node <the user's preloads>
 * <runner> program args`, the CLI's preload in NODE_OPTIONS (programEnv).
 */
export function programCommand(args: RunArgs): string[] {
  const program = [...args.nodeOptions, ...(args.exec ? [args.exec] : []), args.targetPath, ...args.programArgs];
  if (args.exec) return program;
  const tsx = /\.[cm]?tsx?$/.test(args.targetPath) && args.nodeOptions.length === 0;
  return [...cliPreloadOptions(), ...(tsx ? ['--import', pathToFileURL(require.resolve('tsx')).href] : []), ...program];
}

const require = createRequire(import.meta.url);

/** The CLI's preload as Node options (from the sources, after tsx's CommonJS hooks: it is a .cts). */
function cliPreloadOptions(): string[] {
  const preload = path.join(here, `program-preload${ext === '.ts' ? '.cts' : '.cjs'}`);
  return ext === '.ts' ? ['--require', require.resolve('tsx/cjs'), '--require', preload] : ['--require', preload];
}

/** NODE_OPTIONS with the CLI's preload after what it held, quoted where a path needs it, for every process a runner starts. */
export function withCliPreload(existing: string | undefined): string {
  const quoted = cliPreloadOptions().map((o) => (/[\s"'\\]/.test(o) ? `"${o.replace(/["\\]/g, '\\$&')}"` : o));
  return [existing?.trim(), ...quoted].filter(Boolean).join(' ');
}

/** The program's environment: the run's settings for the preloads, the user's own unchanged. */
export function programEnv(args: RunArgs, projectDir: string, shareDir: string): NodeJS.ProcessEnv {
  const run: ProgramRun = {
    target: args.target,
    targetPath: args.targetPath,
    ...(args.trace ? { trace: path.resolve(args.trace) } : {}),
    ...(args.findNan ? { findNan: true } : {}),
    cliPid: process.pid,
    shareDir,
    ...(args.exec ? { exec: true } : {}),
  };
  return {
    ...process.env,
    [PROGRAM_RUN_ENV]: JSON.stringify(run),
    TFJS_CALLBACKS_PROJECT_DIR: projectDir,
    // The loader loads the runtime and chooses the backend before the program, and says which.
    TFJS_CALLBACKS_PRELOAD_RUNTIME: '1',
    ...(args.backend ? { TFJS_BACKEND: args.backend } : {}),
    ...(args.exec ? { NODE_OPTIONS: withCliPreload(process.env.NODE_OPTIONS) } : {}),
  };
}

/** A private folder for the run's processes to share their invocations in (program-protocol.ts `shareDir`). */
export function makeShareDir(): string {
  return mkdtempSync(path.join(tmpdir(), 'tfjs-callbacks-run-'));
}

/** How long the program's last stderr may take to arrive after it exits, before the CLI returns without waiting for the pipe to close. */
const STDERR_DRAIN_MS = 200;

/**
 * Runs `node ...argv` with `env` and resolves with its exit code once it exits (not once its
 * stderr closes: a detached helper may hold that open for good); a signal that ends the child ends
 * this process the same way, after `cleanup`. Its stderr is filtered when `filterStderr`, byte for
 * byte otherwise.
 */
export function runChild(argv: readonly string[], env: NodeJS.ProcessEnv, filterStderr: boolean, cleanup: () => void = () => {}): Promise<number> {
  const child = spawn(process.execPath, argv, {
    stdio: ['inherit', 'inherit', filterStderr ? 'pipe' : 'inherit'],
    env: filterStderr ? { ...env, [STDERR_FILTERED_ENV]: '1' } : env,
  });
  // Ctrl+C reaches the child through the terminal's process group; kill, or a closed terminal, only this one: passed on.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => child.kill(signal));
  return new Promise((resolve) => {
    let drained = !filterStderr;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    let finished = false;
    const done = (): void => {
      if (finished || !drained || !exit) return;
      finished = true;
      // A helper the program left running may still write: passed on while this process lives, but not waited for.
      (child.stderr as (NodeJS.ReadableStream & { unref?: () => void }) | null)?.unref?.();
      cleanup();
      if (exit.signal) {
        process.removeAllListeners(exit.signal);
        process.kill(process.pid, exit.signal);
      }
      resolve(exit.code ?? 1);
    };
    if (filterStderr) {
      filterTfStartupLines(
        child.stderr!,
        (text) => writeQuietly(process.stderr, Buffer.from(text, 'latin1')),
        () => {
          drained = true;
          done();
        },
        'latin1',
      );
    }
    child.once('error', (err) => {
      writeQuietly(process.stderr, `tfjs-callbacks: could not start the program's process: ${err.message}\n`);
      exit = { code: 1, signal: null };
      drained = true;
      done();
    });
    child.once('exit', (code, signal) => {
      exit = { code, signal };
      if (!drained) {
        setTimeout(() => {
          drained = true;
          done();
        }, STDERR_DRAIN_MS);
      }
      done();
    });
  });
}

/** Writes to a stream the reader may have closed (`| head -1`): as for `node program.js`, EPIPE ends nothing. */
export function writeQuietly(stream: NodeJS.WriteStream, data: string | Buffer): void {
  if (stream.writableEnded || stream.destroyed) return;
  stream.write(data, () => {});
}
