/**
 * `tfjs-callbacks run` on the native backend runs the program in a child process whose stderr it
 * reads, so that TensorFlow's startup lines (written from C++ to fd 2, runtime/tf-startup-logs.ts)
 * stay out of the output. Only when the native backend may load: a second Node costs ~50 ms.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { nativeRoot } from '../native/cache.js';
import { dropsTfStartupLines, filterTfStartupLines, STDERR_FILTERED_ENV } from '../tf-startup-logs.js';

/** Whether this run is to go on in a child with its stderr filtered. */
export function wantsFilteredChild(backend: string | undefined, projectDir: string, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env[STDERR_FILTERED_ENV] || !dropsTfStartupLines(env)) return false;
  const choice = backend ?? env.TFJS_BACKEND ?? 'auto';
  if (choice !== 'auto' && choice !== 'tensorflow') return false;
  return nativeMayLoad(projectDir, env);
}

/** A tfjs-node the runtime would try: the project's, the runtime's, or a setup-native build. */
function nativeMayLoad(projectDir: string, env: NodeJS.ProcessEnv): boolean {
  const resolvers = [createRequire(path.join(projectDir, 'noop.js')), createRequire(import.meta.url)];
  for (const pkg of ['@tensorflow/tfjs-node', '@tensorflow/tfjs-node-gpu']) {
    for (const resolver of resolvers) {
      try {
        resolver.resolve(`${pkg}/package.json`);
        return true;
      } catch {
        // not there
      }
    }
  }
  const root = nativeRoot(env);
  return existsSync(root) && readdirSync(root).some((name) => name.startsWith('tfjs-node-'));
}

/**
 * Runs this same command in a child (stdin and stdout shared, stderr filtered) and resolves with
 * its exit code; a signal that ends the child ends this process the same way.
 */
export function runInFilteredChild(argv: readonly string[]): Promise<number> {
  const child = spawn(process.execPath, [...process.execArgv, ...argv], {
    stdio: ['inherit', 'inherit', 'pipe'],
    env: { ...process.env, [STDERR_FILTERED_ENV]: '1' },
  });
  // Ctrl+C reaches the child through the terminal's process group; this one waits for it.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => child.kill(signal));
  return new Promise((resolve) => {
    let ended = false;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    const done = (): void => {
      if (!ended || !exit) return;
      if (exit.signal) {
        process.removeAllListeners(exit.signal);
        process.kill(process.pid, exit.signal);
      }
      resolve(exit.code ?? 1);
    };
    filterTfStartupLines(
      child.stderr!,
      (text) => process.stderr.write(text),
      () => {
        ended = true;
        done();
      },
    );
    child.once('error', (err) => {
      process.stderr.write(`tfjs-callbacks: could not start the program's process: ${err.message}\n`);
      exit = { code: 1, signal: null };
      ended = true;
      done();
    });
    child.once('exit', (code, signal) => {
      exit = { code, signal };
      done();
    });
  });
}
