/** Starts the language server (extension/server/) over IPC with vscode-languageclient; its custom messages are server/protocol.ts's. */
import * as vscode from 'vscode';
import { LanguageClient, NotificationType, RequestType, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';
import { extensionPaths } from './paths.js';
import { asLogChannel, extensionOutput } from './output.js';
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

export function startLanguageClient(context: vscode.ExtensionContext): LanguageClient {
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
    // The extension's one channel: the client would make a second "TF.js Callbacks" of its own.
    outputChannel: asLogChannel(extensionOutput(context)),
  };
  const client = new LanguageClient('tfjsCallbacks', 'TF.js Callbacks', serverOptions, clientOptions);
  void client.start();
  context.subscriptions.push(client);
  return client;
}

export async function callbacksFound(client: LanguageClient): Promise<FoundCallback[]> {
  return client.sendRequest(requestType(CallbacksRequest), { uri: vscode.window.activeTextEditor?.document.uri.toString() });
}

export function traceUpdated(client: LanguageClient, traceFile: string): void {
  void client.sendNotification(notificationType(TraceUpdatedNotification), { traceFile });
}

/** This library's types for protocol.ts's signatures (see there why they are not shared objects). */
function requestType<P, R>(signature: RequestSignature<P, R>): RequestType<P, R, void> {
  return new RequestType<P, R, void>(signature.method);
}

function notificationType<P>(signature: NotificationSignature<P>): NotificationType<P> {
  return new NotificationType<P>(signature.method);
}
