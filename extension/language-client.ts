/**
 * The language server (extension/server/) over IPC with vscode-languageclient; its custom messages
 * are server/protocol.ts's. Started at the first open document that needs it (server-start.ts),
 * not at activation: VS Code activates the extension for every TypeScript and JavaScript file.
 */
import { readdirSync } from 'node:fs';
import * as vscode from 'vscode';
import { LanguageClient, NotificationType, RequestType, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';
import { callbacksModuleSetting, isModelJsonPath } from '../runtime/graph-model/model-path.js';
import { mark } from '../debug-adapter/debuggee/timeline.js';
import { extensionPaths } from './paths.js';
import { extensionOutput } from './output.js';
import { isTfjsProject, needsLanguageServer } from './server-start.js';
import {
  CallbacksRequest,
  SETTINGS_SECTION,
  TraceUpdatedNotification,
  type CallbackEntry,
  type InitializationOptions,
  type NotificationSignature,
  type RequestSignature,
} from './server/protocol.js';

/** The server's answer to CallbacksRequest. */
export type FoundCallback = CallbackEntry;

/** The language client, started when a document needs it or a command asks the server. */
export class LanguageServer {
  private client: LanguageClient | undefined;
  private traceFile: string | undefined;
  private readonly watch: vscode.Disposable;

  constructor(private readonly context: vscode.ExtensionContext) {
    this.watch = vscode.workspace.onDidOpenTextDocument((doc) => this.consider(doc));
    context.subscriptions.push(this.watch);
    for (const doc of vscode.workspace.textDocuments) this.consider(doc);
    // A TF.js project: started now, so it has loaded and warmed up before the first file opens.
    // Asked without waiting: activation never waits on what the workspace's files hold.
    if (!this.client) {
      void inTfjsProject()
        .then((project) => {
          if (project) this.start();
        })
        .catch((err: unknown) => extensionOutput(context).error(`the language server did not start: ${(err as Error).message}`));
    }
  }

  /** The client, started now if it was not. */
  start(): LanguageClient {
    if (this.client) return this.client;
    this.watch.dispose();
    mark('extension: language server started');
    this.client = startLanguageClient(this.context);
    if (this.traceFile) traceUpdated(this.client, this.traceFile);
    return this.client;
  }

  /** The callbacks the server found in the open files (Break on Callback…). */
  callbacks(): Promise<FoundCallback[]> {
    return callbacksFound(this.start());
  }

  /** The last run's trace: told to the server now, or when it starts. */
  traceUpdated(traceFile: string): void {
    this.traceFile = traceFile;
    if (this.client) traceUpdated(this.client, traceFile);
  }

  private consider(doc: vscode.TextDocument): void {
    if (this.client) return;
    const folder = vscode.workspace.getWorkspaceFolder(doc.uri)?.uri.fsPath;
    const setting = vscode.workspace.getConfiguration(SETTINGS_SECTION, doc.uri).get<string>('callbacksModule');
    const callbacksModule = callbacksModuleSetting(doc.fileName, setting, folder);
    const open = { scheme: doc.uri.scheme, languageId: doc.languageId, fileName: doc.fileName, text: doc.getText() };
    if (needsLanguageServer(open, { ...(callbacksModule ? { callbacksModule } : {}), holdsModel })) this.start();
  }
}

/** Whether a workspace folder on disk is a TF.js project (server-start.ts isTfjsProject, bounded and asynchronous). */
export async function inTfjsProject(): Promise<boolean> {
  for (const folder of vscode.workspace.workspaceFolders ?? []) {
    if (folder.uri.scheme === 'file' && (await isTfjsProject(folder.uri.fsPath))) return true;
  }
  return false;
}

function holdsModel(folder: string): boolean {
  try {
    return readdirSync(folder).some(isModelJsonPath);
  } catch {
    return false;
  }
}

function startLanguageClient(context: vscode.ExtensionContext): LanguageClient {
  const module = extensionPaths(context).server;
  const serverOptions: ServerOptions = {
    run: { module, transport: TransportKind.ipc },
    debug: { module, transport: TransportKind.ipc },
  };
  const initializationOptions: InitializationOptions = {
    callbacksModule: vscode.workspace.getConfiguration(SETTINGS_SECTION).get<string>('callbacksModule') || undefined,
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: 'file', language: 'typescript' },
      { scheme: 'file', language: 'javascript' },
      // The server decides which of these is a model (runtime/graph-model/model-path.ts).
      { scheme: 'file', language: 'json', pattern: '**/*model.json' },
      // Its tfjs dependency gets a warning when the runtime does not support the installed version.
      { scheme: 'file', language: 'json', pattern: '**/package.json' },
    ],
    synchronize: { configurationSection: SETTINGS_SECTION },
    initializationOptions,
    // The extension's one channel (a log channel: the server's lines keep their levels); the client
    // would make a second "TF.js Callbacks" of its own.
    outputChannel: extensionOutput(context),
  };
  const client = new LanguageClient('tfjsCallbacks', 'TF.js Callbacks', serverOptions, clientOptions);
  void client.start();
  context.subscriptions.push(client);
  return client;
}

async function callbacksFound(client: LanguageClient): Promise<FoundCallback[]> {
  return client.sendRequest(requestType(CallbacksRequest), { uri: vscode.window.activeTextEditor?.document.uri.toString() });
}

function traceUpdated(client: LanguageClient, traceFile: string): void {
  void client.sendNotification(notificationType(TraceUpdatedNotification), { traceFile });
}

/** This library's types for protocol.ts's signatures (see there why they are not shared objects). */
function requestType<P, R>(signature: RequestSignature<P, R>): RequestType<P, R, void> {
  return new RequestType<P, R, void>(signature.method);
}

function notificationType<P>(signature: NotificationSignature<P>): NotificationType<P> {
  return new NotificationType<P>(signature.method);
}
