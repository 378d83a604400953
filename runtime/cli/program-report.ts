/**
 * Loaded (program-preload.cts) into the process in which `tfjs-callbacks run` runs a program
 * (child-process.ts), after the runtime's loader has chosen the backend and said which, and into
 * the processes and worker threads the program starts from it. The program's own process prints
 * each callback invocation as it ends and, when it ends however it ends (the program's end,
 * process.exit(), an uncaught error, Ctrl+C or another signal, the CLI gone), the failure, the one
 * summary and the trace, counting what its forks and workers left (process-share.ts). It changes
 * nothing else: the exit code stays the program's, but for a callback left pending, which Node
 * would end with code 0 and nothing said.
 */
import { rmSync } from 'node:fs';
import { Console } from 'node:console';
import { isMainThread } from 'node:worker_threads';
import { currentBackend } from '../backend.js';
import { addCallbackObserver } from '../hooks.js';
import { addOpBirthObserver } from '../op-watch/op-watch.js';
import { BirthReport } from './nan-report.js';
import { finish } from './outcome.js';
import { readShared, ShareWriter } from './process-share.js';
import { PROGRAM_PID_ENV, PROGRAM_RUN_ENV, type ProgramRun } from './program-protocol.js';
import { isAlive } from '../process-alive.js';
import { TraceRecorder } from './trace.js';
import { TrainingReport } from './training-report.js';
import { addFitLogObserver } from '../training/fit-logs.js';
import { UnsettledRunError, unsettledMessage } from './unsettled.js';

/** Signals that end a program by default; on each, the summary and trace come first. */
const ENDING_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
/** How often the program's process checks that the CLI is still there (a `kill -9` of the CLI leaves no other trace). */
const ORPHAN_CHECK_MS = 500;

/**
 * Writes a line as console.log does, so a reader that closed the pipe (`| head -1`) ends nothing,
 * through a console of its own (the program may replace console.log).
 */
const out = new Console({ stdout: process.stdout, stderr: process.stderr });
const print = (line: string): void => out.log('%s', line);
const warn = (line: string): void => out.error('%s', line);

/**
 * Whether the program's top-level await is still pending as the process exits: Node's ES module
 * runner keeps its 'exit' listener (handleProcessExit, which sets code 13) only until the main
 * module settles, and it runs after this one, so the code cannot be read here.
 */
function topLevelAwaitPending(): boolean {
  return process.listeners('exit').some((listener) => listener.name === 'handleProcessExit');
}

function readRun(): ProgramRun | undefined {
  const text = process.env[PROGRAM_RUN_ENV];
  return text ? (JSON.parse(text) as ProgramRun) : undefined;
}

/** The program's own process: what it ran, and how it ends. */
function reportProgram(run: ProgramRun): void {
  const recorder = new TraceRecorder(print, run.trace ? { file: run.trace, target: run.target } : undefined);
  addCallbackObserver(recorder);
  const births = run.findNan ? new BirthReport(print) : undefined;
  if (births) addOpBirthObserver(births);
  const training = new TrainingReport();
  addFitLogObserver(training);
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

  let reported = false;
  const report = (code: number | undefined, signal?: string): void => {
    if (reported) return;
    reported = true;
    let failure = uncaught;
    const pending = recorder.pending();
    const unsettled = !signal && !uncaught && !exitCalled && topLevelAwaitPending();
    if (unsettled || (code === 0 && !exitCalled && pending.length > 0)) {
      failure = new UnsettledRunError(unsettledMessage(run.target, false, pending));
      // Node ends a pending top-level await with 13; a pending callback it would end with 0.
      if (!unsettled) process.exitCode = 1;
    }
    const others = readShared(run.shareDir, (r) => ('invocation' in r ? recorder.addShared(r.invocation) : births?.addShared(r.birth)));
    rmSync(run.shareDir, { recursive: true, force: true });
    const outcome = { target: run.target, backend: currentBackend(), traceFile: run.trace, failure, withStack: false, others };
    finish(recorder, { ...outcome, exitCode: unsettled ? 13 : code, ...(signal ? { signal } : {}), ...(births ? { births } : {}), training }, print);
  };
  process.on('exit', (code) => report(code));
  let orphaned = false;
  reportOnSignals((code, signal) => report(code, orphaned ? `${signal} (the tfjs-callbacks process that ran it was gone)` : signal));
  endWhenOrphaned(run, () => {
    orphaned = true;
  });
}

/**
 * On a signal that would end the program (it has no listener of its own for it), the report comes
 * first; then the signal ends the process as it would have, so the CLI and the shell see it.
 */
function reportOnSignals(report: (code: undefined, signal: NodeJS.Signals) => void): void {
  for (const signal of ENDING_SIGNALS) {
    const onSignal = (): void => {
      if (process.listenerCount(signal) > 1) return; // the program's own listener decides
      report(undefined, signal);
      process.removeListener(signal, onSignal);
      process.kill(process.pid, signal);
    };
    process.on(signal, onSignal);
  }
}

/**
 * A CLI killed outright (SIGKILL) cannot pass a signal on: the program notices it is gone and ends
 * as on a closed terminal. Under --exec its parent may be the runner's process: the CLI is looked for.
 */
function endWhenOrphaned(run: ProgramRun, onOrphaned: () => void): void {
  const timer = setInterval(() => {
    if (run.exec ? isAlive(run.cliPid) : process.ppid === run.cliPid) return;
    clearInterval(timer);
    onOrphaned();
    process.kill(process.pid, 'SIGHUP');
  }, ORPHAN_CHECK_MS);
  timer.unref();
}

/** A fork of the program, or a worker thread: prints, and leaves its records for the program's process. */
function shareProcess(run: ProgramRun): void {
  const writer = new ShareWriter(run.shareDir, print, warn);
  addCallbackObserver(writer);
  if (run.findNan) addOpBirthObserver(writer);
}

/**
 * A reader that closed the pipe (`run prog.js | head -1`) ends nothing, as for `node prog.js`
 * writing with console.log: the runtime's module hooks run in a thread whose output Node pipes
 * into this process's stdout and stderr, and that pipe turns the first EPIPE, which console.log
 * would have let pass, into an uncaught error.
 */
function surviveClosedOutput(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EPIPE') throw err;
    });
  }
}

/**
 * Whether this process is the program's, which reports: the CLI's direct child; under --exec, the
 * first process that starts the target (program-preload.cts), which its forks then know (PROGRAM_PID_ENV).
 */
function isProgramProcess(run: ProgramRun): boolean {
  if (!isMainThread) return false;
  if (!run.exec) return process.ppid === run.cliPid;
  if (process.env[PROGRAM_PID_ENV]) return false;
  process.env[PROGRAM_PID_ENV] = String(process.pid);
  return true;
}

const run = readRun();
if (run) {
  if (isMainThread) surviveClosedOutput();
  if (isProgramProcess(run)) reportProgram(run);
  else shareProcess(run);
}
