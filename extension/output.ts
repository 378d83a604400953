/**
 * The extension's one output channel, "TF.js Callbacks": a log channel, so each line carries its
 * time and level and "Developer: Set Log Level…" (or the gear in the Output view) chooses what
 * shows. Run Graph's and Set Up Native Backend's runs (the command and the process's lines at
 * info, a process that could not start at error), the graph view's failed requests (warning) and
 * the language server's log (its own levels) all go there.
 */
import type { ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import * as vscode from 'vscode';

let channel: vscode.LogOutputChannel | undefined;

export function extensionOutput(context: vscode.ExtensionContext): vscode.LogOutputChannel {
  if (!channel) {
    const created = vscode.window.createOutputChannel('TF.js Callbacks', { log: true });
    channel = created;
    context.subscriptions.push(created, { dispose: () => (channel = undefined) });
  }
  return channel;
}

/** A run's start in the shared channel: what ran (the log's timestamps set runs apart). */
export function beginRun(output: vscode.LogOutputChannel, what: string): void {
  output.info(what);
}

/**
 * A child process's stdout and stderr into the log, one log line per line of output (a log
 * channel makes each call a line of its own, so chunks are not written as they come).
 */
export function logProcessOutput(output: vscode.LogOutputChannel, child: ChildProcess): void {
  for (const stream of [child.stdout, child.stderr]) {
    if (stream) createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY }).on('line', (line) => output.info(line));
  }
}
