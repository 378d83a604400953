/**
 * Preloaded (`node --import`) into the process in which `tfjs-callbacks run` runs a program
 * (child-process.ts), after the runtime's loader has chosen the backend and said which: prints
 * each callback invocation as it ends and, when the process exits however it exits (the program's
 * end, process.exit(), an uncaught error), the failure, the summary and the trace. It changes
 * nothing else: the exit code stays the program's, but for a callback left pending, which Node
 * would end with code 0 and nothing said.
 */
import { realpathSync } from 'node:fs';
import { currentBackend } from '../backend.js';
import { addCallbackObserver } from '../hooks.js';
import { addOpBirthObserver } from '../op-watch/op-watch.js';
import { BirthReport } from './nan-report.js';
import { finish } from './outcome.js';
import { PROGRAM_RUN_ENV, type ProgramRun } from './program-protocol.js';
import { TraceRecorder } from './trace.js';
import { UnsettledRunError, unsettledMessage } from './unsettled.js';

/**
 * Whether the program's top-level await is still pending as the process exits: Node's ES module
 * runner keeps its 'exit' listener (handleProcessExit, which sets code 13) only until the main
 * module settles, and it runs after this one, so the code cannot be read here.
 */
function topLevelAwaitPending(): boolean {
  return process.listeners('exit').some((listener) => listener.name === 'handleProcessExit');
}

/** The run this process reports, if it is the program's own process (not a fork of another script). */
function thisRun(): ProgramRun | undefined {
  const text = process.env[PROGRAM_RUN_ENV];
  if (!text || !process.argv[1]) return undefined;
  const run = JSON.parse(text) as ProgramRun;
  try {
    return realpathSync(process.argv[1]) === realpathSync(run.targetPath) ? run : undefined;
  } catch {
    return undefined;
  }
}

const run = thisRun();
if (run) {
  // Written synchronously: the last lines are written from 'exit', where nothing async runs.
  const print = (line: string): void => {
    process.stdout.write(`${line}\n`);
  };
  const recorder = new TraceRecorder(print, run.trace ? { file: run.trace, target: run.target } : undefined);
  addCallbackObserver(recorder);
  const births = run.findNan ? new BirthReport(print) : undefined;
  if (births) addOpBirthObserver(births);
  let uncaught: Error | undefined;
  process.on('uncaughtExceptionMonitor', (err) => {
    // Fatal unless the program handles it itself (its 'uncaughtException' listener).
    if (process.listenerCount('uncaughtException') > 0) return;
    uncaught ??= err instanceof Error ? err : Object.assign(new Error(String(err)), { name: 'Uncaught' });
  });
  // A program that calls process.exit() ends it on purpose, whatever is still pending.
  let exitCalled = false;
  const exit = process.exit;
  process.exit = function (this: NodeJS.Process, ...args: Parameters<typeof exit>) {
    exitCalled = true;
    return exit.apply(this, args);
  } as typeof exit;
  process.on('exit', (code) => {
    let failure = uncaught;
    const pending = recorder.pending();
    const unsettled = !uncaught && !exitCalled && topLevelAwaitPending();
    if (unsettled || (code === 0 && !exitCalled && pending.length > 0)) {
      failure = new UnsettledRunError(unsettledMessage(run.target, false, pending));
      // Node ends a pending top-level await with 13; a pending callback it would end with 0.
      if (!unsettled) process.exitCode = 1;
    }
    finish(
      recorder,
      {
        target: run.target,
        backend: currentBackend(),
        traceFile: run.trace,
        failure,
        withStack: false,
        exitCode: unsettled ? 13 : code,
        ...(births ? { births } : {}),
      },
      print,
    );
  });
}
