/** Starts the language server (extension/server/) over IPC with vscode-languageclient. */
import type { CallbackEntry } from './server/callback-list.js';
import * as vscode from 'vscode';
import { LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';
import { extensionPaths } from './paths.js';

/** The server's answer to 'tfjsCallbacks/callbacks': one type for both ends. */
export type FoundCallback = CallbackEntry;

export function startLanguageClient(context: vscode.ExtensionContext): LanguageClient {
  const module = extensionPaths(context).server;
  const serverOptions: ServerOptions = {
    run: { module, transport: TransportKind.ipc },
    debug: { module, transport: TransportKind.ipc },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: 'file', language: 'typescript' },
      { scheme: 'file', language: 'javascript' },
      { scheme: 'file', language: 'json', pattern: '**/*model.json' },
    ],
    synchronize: { configurationSection: 'tfjsCallbacks' },
    initializationOptions: { callbacksModule: vscode.workspace.getConfiguration('tfjsCallbacks').get<string>('callbacksModule') || undefined },
  };
  const client = new LanguageClient('tfjsCallbacks', 'TF.js Callbacks', serverOptions, clientOptions);
  void client.start();
  context.subscriptions.push(client);
  return client;
}

export async function callbacksFound(client: LanguageClient): Promise<FoundCallback[]> {
  return client.sendRequest<FoundCallback[]>('tfjsCallbacks/callbacks', { uri: vscode.window.activeTextEditor?.document.uri.toString() });
}

export function traceUpdated(client: LanguageClient, traceFile: string): void {
  void client.sendNotification('tfjsCallbacks/traceUpdated', { traceFile });
}
