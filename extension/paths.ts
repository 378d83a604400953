/** Files the extension runs, inside its install folder (the .vsix carries the built dist/ and out/). */
import * as vscode from 'vscode';

export function extensionPaths(context: vscode.ExtensionContext) {
  return {
    adapter: context.asAbsolutePath('dist/debug-adapter/main.js'),
    cli: context.asAbsolutePath('dist/runtime/cli/main.js'),
    server: context.asAbsolutePath('out/server.cjs'),
    media: vscode.Uri.joinPath(context.extensionUri, 'media'),
  };
}

/** VS Code's own executable runs Node scripts with this set (Electron as Node). */
export const NODE_ENV = { ELECTRON_RUN_AS_NODE: '1' };
