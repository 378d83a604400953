/**
 * "Where was the NaN born" for the next run: the palette's *Debug, Stopping Where NaN/Inf Is Born*
 * (Debug Graph with the launch's `breakOnOpNonFinite` on: it stops at the first op whose outputs
 * hold NaN or Inf from finite inputs) and a status bar item that runs it, shown where the backend
 * item is (a TF.js project, or once a TS/JS file or model is open).
 */
import * as vscode from 'vscode';

export const FIND_NAN_COMMAND = 'tfjsCallbacks.debugFindNan';

export function registerFindNan(
  context: vscode.ExtensionContext,
  debugGraph: (uri: vscode.Uri | undefined, extra: Record<string, unknown>) => Promise<void>,
  whenShown: (show: () => void) => void,
): void {
  const item = vscode.window.createStatusBarItem('tfjsCallbacks.findNan', vscode.StatusBarAlignment.Left, 9);
  item.name = 'TF.js Callbacks: find where NaN/Inf is born';
  item.text = '$(debug-alt) NaN/Inf';
  item.tooltip = 'Debug the program, stopping at the first TF.js op that makes NaN or Inf from finite inputs (its line, layer, forward or backward)';
  item.command = FIND_NAN_COMMAND;
  context.subscriptions.push(
    item,
    vscode.commands.registerCommand(FIND_NAN_COMMAND, (uri?: vscode.Uri) =>
      debugGraph(uri instanceof vscode.Uri ? uri : undefined, { breakOnOpNonFinite: true }),
    ),
  );
  whenShown(() => item.show());
}
