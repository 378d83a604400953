/**
 * The extension's one output channel, "TF.js Callbacks": Run Graph's runs, Set Up Native Backend's
 * build, the graph view's warnings and the language server's log. There were three channels, two of
 * them of that same name (the language client made its own), and users opened the wrong one.
 */
import * as vscode from 'vscode';

let channel: vscode.OutputChannel | undefined;

export function extensionOutput(context: vscode.ExtensionContext): vscode.OutputChannel {
  if (!channel) {
    const created = vscode.window.createOutputChannel('TF.js Callbacks');
    channel = created;
    context.subscriptions.push(created, { dispose: () => (channel = undefined) });
  }
  return channel;
}

/** A run's start in the shared channel: a rule and what ran, in place of clearing what others wrote. */
export function beginRun(output: vscode.OutputChannel, what: string): void {
  output.appendLine(`\n── ${new Date().toLocaleTimeString()} ──`);
  output.appendLine(what);
}

/**
 * The shared channel as the language client wants its log (a LogOutputChannel): its lines go into
 * the one channel with their level, the server's errors and warnings as such.
 */
export function asLogChannel(output: vscode.OutputChannel): vscode.LogOutputChannel {
  const level = new vscode.EventEmitter<vscode.LogLevel>();
  const line =
    (tag: string) =>
    (message: string | Error, ...args: unknown[]) =>
      output.appendLine(
        `[language server ${tag}] ${message instanceof Error ? message.message : message}${args.length ? ` ${args.map(String).join(' ')}` : ''}`,
      );
  return {
    name: output.name,
    logLevel: vscode.LogLevel.Info,
    onDidChangeLogLevel: level.event,
    trace: line('trace'),
    debug: line('debug'),
    info: line('info'),
    warn: line('warning'),
    error: line('error'),
    append: (value: string) => output.append(value),
    appendLine: (value: string) => output.appendLine(value),
    replace: (value: string) => output.replace(value),
    clear: () => output.clear(),
    show: (a?: boolean | vscode.ViewColumn, b?: boolean) => (typeof a === 'boolean' || a === undefined ? output.show(a) : output.show(a, b)),
    hide: () => output.hide(),
    dispose: () => level.dispose(),
  };
}
