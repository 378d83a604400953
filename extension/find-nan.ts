/**
 * "Where was the NaN born" for the next run: the palette's *Debug, Stopping Where NaN/Inf Is Born*
 * (Debug Graph with the launch's `breakOnOpNonFinite` on: it stops at the first op whose outputs
 * hold NaN or Inf from finite inputs) and a status bar item that runs it, shown where the backend
 * item is (a TF.js project, or once a TS/JS file or model is open); and at such a stop, *Don't
 * Stop at This NaN/Inf Birth Again* (this op, or this line: a NaN masked on purpose).
 */
import * as vscode from 'vscode';
import { IGNORE_OP_BIRTH_REQUEST, type IgnoreOpBirthArguments, type IgnoreOpBirthResponseBody } from '../debug-adapter/extension-protocol.js';

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

export const IGNORE_OP_BIRTH_COMMAND = 'tfjsCallbacks.ignoreOpBirth';

/** At a stop of "NaN/Inf in any op": no more stops this session at this op, or at this line (a NaN masked on purpose). */
export function registerIgnoreOpBirth(context: vscode.ExtensionContext, debugType: string): void {
  context.subscriptions.push(
    vscode.commands.registerCommand(IGNORE_OP_BIRTH_COMMAND, async () => {
      const session = vscode.debug.activeDebugSession;
      if (session?.type !== debugType) return void vscode.window.showErrorMessage('Not in a TF.js Callbacks debug session.');
      const picked = await vscode.window.showQuickPick(
        [
          { label: 'This op', description: 'no more stops at this kernel (anywhere) this session', what: 'op' as const },
          { label: 'This line', description: "no more stops at births at this line of the program's this session", what: 'line' as const },
        ],
        { title: "TF.js Callbacks: Don't Stop at This NaN/Inf Birth Again" },
      );
      if (!picked) return;
      try {
        const body = (await session.customRequest(IGNORE_OP_BIRTH_REQUEST, {
          what: picked.what,
        } satisfies IgnoreOpBirthArguments)) as IgnoreOpBirthResponseBody;
        void vscode.window.showInformationMessage(`TF.js Callbacks: ${body.ignored}.`);
      } catch (err) {
        void vscode.window.showErrorMessage((err as Error).message);
      }
    }),
  );
}
