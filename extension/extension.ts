/**
 * Activation: wires the debug type, the commands, the status bar, the tensor inspector and the
 * language client (which starts the server when a document needs it). Each part lives in its own
 * module; nothing here knows tensors.
 */
import path from 'node:path';
import * as vscode from 'vscode';
import { registerFindNan, registerIgnoreOpBirth } from './find-nan.js';
import { mark } from '../debug-adapter/debuggee/timeline.js';
import {
  BACKEND_EVENT,
  type BackendEventBody,
  TOGGLE_SKIP_FILE_REQUEST,
  type ToggleSkipFileArguments,
  type ToggleSkipFileResponseBody,
} from '../debug-adapter/extension-protocol.js';
import { writeCliShims } from './cli-shims.js';
import { DEBUG_TYPE, UNTRUSTED_MESSAGE, configurationForFile, launchConfigurationFor, type DebugConfig } from './config-resolution.js';
import { registerDebugWiring } from './debug-wiring.js';
import { registerDebugTerminal } from './debug-terminal.js';
import { editorContext } from './editor-context.js';
import { GraphPanel } from './graph-panel.js';
import { InspectorPanel } from './inspector-panel.js';
import { Pins } from './pins.js';
import { LanguageServer } from './language-client.js';
import { NativeSetup } from './native-setup.js';
import { extensionPaths } from './paths.js';
import { GraphRunner } from './run-graph.js';
import { BackendStatus } from './status-bar.js';
import { showTrainingVariables } from './training-variables.js';
import { registerWalkthrough } from './walkthrough.js';

export function activate(context: vscode.ExtensionContext): void {
  mark('extension: activated');
  putCliOnPath(context);
  // F5 with the Graph View focused debugs its model (made below; VS Code asks after activation).
  let graphView: GraphPanel | undefined;
  registerDebugWiring(context, () => graphView?.viewedModel());
  registerDebugTerminal(context);
  const runner = new GraphRunner(context);
  const status = new BackendStatus(context);
  const inspector = new InspectorPanel(context, new Pins(context));
  const server = new LanguageServer(context);
  runner.onDidRun((result) => {
    status.used(result.trace?.backend?.backend);
    server.traceUpdated(result.traceFile);
  });
  if (vscode.workspace.isTrusted) server.traceUpdated(runner.traceFile);
  trackSessionBackends(context, status);

  const command = (id: string, run: (...args: never[]) => unknown) => context.subscriptions.push(vscode.commands.registerCommand(id, run));
  command('tfjsCallbacks.runGraph', (uri?: vscode.Uri) => runner.run(uri));
  /** Debug Graph on a file (the Graph View's model when it is the active tab; asked for when neither), with `extra` launch attributes. */
  const debugGraph = async (uri: vscode.Uri | undefined, extra: Record<string, unknown> = {}) => {
    if (!vscode.workspace.isTrusted) return void vscode.window.showErrorMessage(UNTRUSTED_MESSAGE);
    const viewed = uri ? undefined : graphView?.viewedModel();
    const target = viewed ?? (await runner.pickTarget(uri));
    if (!target) return;
    const folder = vscode.workspace.getWorkspaceFolder(vscode.Uri.file(target));
    // F5 on the Graph View (package.json keybindings): the model's own launch configuration, with its inputs, when there is one.
    const launch = viewed && Object.keys(extra).length === 0 ? modelLaunch(viewed, folder) : undefined;
    if (launch) return startDebugging(folder, launch);
    const resolution = configurationForFile(target, editorContext(folder));
    if ('error' in resolution) return void vscode.window.showErrorMessage(resolution.error);
    await startDebugging(folder, { ...resolution.config, ...extra } as vscode.DebugConfiguration);
  };
  command('tfjsCallbacks.debugGraph', (uri?: vscode.Uri) => debugGraph(uri instanceof vscode.Uri ? uri : undefined));
  registerFindNan(context, debugGraph, (show) => status.whenShown(show));
  registerIgnoreOpBirth(context, DEBUG_TYPE);
  command('tfjsCallbacks.openInspector', () => inspector.show());
  const graphPanel = new GraphPanel(context, inspector);
  graphView = graphPanel;
  command('tfjsCallbacks.openGraphView', (uri?: vscode.Uri) => graphPanel.open(uri instanceof vscode.Uri ? uri : undefined));
  command('tfjsCallbacks.selectBackend', () => status.select());
  const native = new NativeSetup(context);
  command('tfjsCallbacks.setupNative', () => native.run());
  command('tfjsCallbacks.toggleSkipFile', (target?: unknown) => toggleSkipFile(target));
  command('tfjsCallbacks.showVariables', () => showTrainingVariables((session, node) => inspector.showNode(session, node, true)));
  registerWalkthrough(context);
  command('tfjsCallbacks.breakOnCallback', (name?: string) => breakOnCallback(server, name));
}

export function deactivate(): void {}

/** The name of the workspace's launch configuration of ours for `model`, if any. */
function modelLaunch(model: string, folder: vscode.WorkspaceFolder | undefined): vscode.DebugConfiguration | undefined {
  const configurations = vscode.workspace.getConfiguration('launch', folder?.uri).get<DebugConfig[]>('configurations', []);
  // The configuration itself, not its name: a launch.json just changed may no longer have the name VS Code looks up.
  return launchConfigurationFor(model, configurations, folder?.uri.fsPath, 'model') as vscode.DebugConfiguration | undefined;
}

/** Starts a session; a start VS Code refuses is said (it would otherwise be only in the extension host's log). */
async function startDebugging(folder: vscode.WorkspaceFolder | undefined, config: vscode.DebugConfiguration): Promise<void> {
  try {
    await vscode.debug.startDebugging(folder, config);
  } catch (err) {
    void vscode.window.showErrorMessage(`Debug Graph could not start "${config.name}": ${(err as Error).message ?? String(err)}`);
  }
}

/**
 * A debug session's backend: the bar's "→ backend" was the last Run Graph's, so it goes as the
 * session's adapter starts (a tracker is made before its first message: the session's start event
 * may come after the adapter said its backend, a Debug Terminal's attach answering only once
 * connected), and shows the session's own once the adapter says it.
 */
function trackSessionBackends(context: vscode.ExtensionContext, status: BackendStatus): void {
  context.subscriptions.push(
    vscode.debug.registerDebugAdapterTrackerFactory(DEBUG_TYPE, {
      createDebugAdapterTracker: () => {
        status.used(undefined);
        return {
          onDidSendMessage: (m: { type?: string; event?: string; body?: { output?: unknown; backend?: unknown } }) => {
            if (m.type !== 'event') return;
            // The program's preloads chose it (F5, Debug Graph, the Debug Terminal, whose backend line
            // goes to the terminal); a program that chooses its own later says so in its line.
            if (m.event === BACKEND_EVENT && typeof m.body?.backend === 'string') status.used((m.body as BackendEventBody).backend);
            if (m.event !== 'output' || typeof m.body?.output !== 'string') return;
            const backend = BACKEND_LINE.exec(m.body.output)?.[1];
            if (backend) status.used(backend);
          },
        };
      },
    }),
  );
}

/** Break on Callback: a function breakpoint on a callback the language server found, or on a typed name. */
async function breakOnCallback(server: LanguageServer, name: string | undefined): Promise<void> {
  let callback = typeof name === 'string' ? name : undefined;
  if (!callback) {
    const found = await server.callbacks().catch(() => []);
    const picked = await vscode.window.showQuickPick(
      [
        ...found.map((c) => ({
          label: c.functionName ?? c.name,
          description: `${c.kind} · ${vscode.workspace.asRelativePath(vscode.Uri.parse(c.uri))}:${c.line}${c.column ? `:${c.column}` : ''}`,
        })),
      ],
      {
        title: 'TF.js Callbacks: Break on Callback',
        placeHolder: found.length ? 'Stop at the first line of this callback when it runs' : 'No callbacks found in open files: type a callback name or token',
      },
    );
    callback = picked?.label;
    if (!callback && found.length === 0) callback = await vscode.window.showInputBox({ prompt: 'Callback name, function name or token (pyfunc_N)' });
  }
  if (!callback) return;
  vscode.debug.addBreakpoints([new vscode.FunctionBreakpoint(callback)]);
  void vscode.window.setStatusBarMessage(`Breaks when callback ${callback} runs (${DEBUG_TYPE})`, 4000);
}

/**
 * Toggle Skipping this File: the call stack's menu gives the frame's source (a URI string), the
 * palette the active editor's file. Steps then pass over it, or go through it line by line.
 */
async function toggleSkipFile(target: unknown): Promise<void> {
  const session = vscode.debug.activeDebugSession;
  if (session?.type !== DEBUG_TYPE) return void vscode.window.showErrorMessage(`Toggle Skipping this File works in a ${DEBUG_TYPE} debug session.`);
  const file =
    typeof target === 'string'
      ? target.startsWith('file:')
        ? vscode.Uri.parse(target).fsPath
        : target
      : target instanceof vscode.Uri
        ? target.fsPath
        : vscode.window.activeTextEditor?.document.uri.fsPath;
  if (!file || !path.isAbsolute(file))
    return void vscode.window.showErrorMessage('Toggle Skipping this File: no file to toggle (pick a frame of a file in the call stack).');
  const args: ToggleSkipFileArguments = { path: file };
  const { skipped } = (await session.customRequest(TOGGLE_SKIP_FILE_REQUEST, args)) as ToggleSkipFileResponseBody;
  void vscode.window.setStatusBarMessage(`${path.basename(file)}: ${skipped ? 'steps pass over it' : 'steps go through it'}`, 4000);
}

/** The backend line a session prints first (runtime/backend.ts announceBackend). */
const BACKEND_LINE = /^\[tfjs-callbacks\] backend: (\w+)/;

/** `tfjs-callbacks` in VS Code's terminals (cli-shims.ts): new terminals get it on their PATH. */
function putCliOnPath(context: vscode.ExtensionContext): void {
  try {
    const bin = writeCliShims(path.join(context.globalStorageUri.fsPath, 'bin'), extensionPaths(context).cli);
    context.environmentVariableCollection.description = 'Puts `tfjs-callbacks` (the TF.js Callback Debugger CLI) on the PATH.';
    context.environmentVariableCollection.prepend('PATH', `${bin}${path.delimiter}`);
  } catch (err) {
    void vscode.window.showWarningMessage(`TF.js Callbacks: could not put tfjs-callbacks on the terminals' PATH: ${(err as Error).message}`);
  }
}
