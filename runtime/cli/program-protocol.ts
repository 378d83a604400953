/**
 * What the CLI hands the process that runs a program (program-report.ts, preloaded there): one
 * JSON value in one environment variable, written by the CLI (child-process.ts) and read by the
 * preload.
 */
export const PROGRAM_RUN_ENV = 'TFJS_CALLBACKS_CLI_RUN';

export interface ProgramRun {
  /** The program as the user named it, for messages. */
  readonly target: string;
  /** Its absolute path: the process whose process.argv[1] this is reports (not its forks of other scripts). */
  readonly targetPath: string;
  /** Where to write the trace JSON, if asked. */
  readonly trace?: string;
  /** --find-nan: report the births of NaN/Inf (nan-report.ts). */
  readonly findNan?: boolean;
  /** The CLI's pid: its direct child is the program's process, which reports; it ends itself if the CLI is gone. */
  readonly cliPid: number;
  /**
   * A private folder where the program's other processes and threads (its forks, its workers)
   * leave their invocations, one JSON line each (process-share.ts), for the one summary and trace.
   */
  readonly shareDir: string;
  /**
   * --exec: a runner starts the program, perhaps in a process of its own (babel-node): the program's
   * process is the first that starts the target, not the CLI's child, and its forks know it by PROGRAM_PID_ENV.
   */
  readonly exec?: boolean;
}

/**
 * Under --exec, set by the program's process to its pid (program-report.ts): the processes it
 * starts inherit it, and know they are the program's forks, not the program.
 */
export const PROGRAM_PID_ENV = 'TFJS_CALLBACKS_CLI_PROGRAM_PID';
