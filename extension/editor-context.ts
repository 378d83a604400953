/** What configuration resolution needs to know about the editor, read from the vscode API. */
import * as vscode from 'vscode';
import type { Backend, EditorContext } from './config-resolution.js';

/** The `tfjsCallbacks.backend` setting of `folder`: F5's and Run Graph's backend, and the Debug Terminal's (debug-terminal.ts). */
export function backendSetting(folder?: vscode.WorkspaceFolder): Backend {
  return vscode.workspace.getConfiguration('tfjsCallbacks', folder).get<Backend>('backend', 'auto');
}

/** `viewedModel`: the model the Graph View shows while it is the active tab (graph-panel.ts viewedModel). */
export function editorContext(folder?: vscode.WorkspaceFolder, viewedModel?: string): EditorContext {
  const settings = vscode.workspace.getConfiguration('tfjsCallbacks', folder);
  const active = vscode.window.activeTextEditor?.document;
  const workspaceFolder =
    folder?.uri.fsPath ??
    (active ? vscode.workspace.getWorkspaceFolder(active.uri)?.uri.fsPath : undefined) ??
    vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  const callbacksModule = settings.get<string>('callbacksModule') || undefined;
  return {
    ...(active && active.uri.scheme === 'file' ? { activeFile: active.uri.fsPath } : {}),
    ...(viewedModel ? { viewedModel } : {}),
    ...(workspaceFolder ? { workspaceFolder } : {}),
    trusted: vscode.workspace.isTrusted,
    backend: backendSetting(folder),
    ...(callbacksModule ? { callbacksModule } : {}),
  };
}
