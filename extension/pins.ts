/**
 * Pinned expressions: *Pin in Tensor Inspector* on a Variables row, a watch, or from the palette
 * (an input box, the editor's selection in it). The list is the workspace's (workspace state: it
 * outlives sessions and reloads); each tfjs-callbacks session gets it with `setPins` when it starts
 * and whenever it changes, and evaluates every pin at each of its stops (`pinnedValues`, which the
 * inspector panel shows). Unpin is the inspector's (a `unpin` message from its webview).
 */
import * as vscode from 'vscode';
import { SET_PINS_REQUEST, type SetPinsArguments } from '../debug-adapter/extension-protocol.js';
import { DEBUG_TYPE } from './config-resolution.js';
import { pinTarget, withoutPin, withPin } from './pin-list.js';

const STATE_KEY = 'tfjsCallbacks.pins';

export class Pins {
  private readonly changed = new vscode.EventEmitter<readonly string[]>();
  /** The list after each change (the inspector's webview shows it). */
  readonly onDidChange = this.changed.event;
  /** The tfjs-callbacks sessions running: each gets every change. */
  private readonly sessions = new Set<vscode.DebugSession>();

  constructor(private readonly context: vscode.ExtensionContext) {
    context.subscriptions.push(
      this.changed,
      vscode.debug.onDidStartDebugSession((session) => {
        if (session.type !== DEBUG_TYPE) return;
        this.sessions.add(session);
        if (this.list.length > 0) void this.send(session);
      }),
      vscode.debug.onDidTerminateDebugSession((session) => this.sessions.delete(session)),
      vscode.commands.registerCommand('tfjsCallbacks.pinExpression', (arg?: unknown) => this.pinFrom(arg)),
    );
  }

  get list(): readonly string[] {
    const saved = this.context.workspaceState.get<unknown>(STATE_KEY);
    return Array.isArray(saved) ? saved.filter((e): e is string => typeof e === 'string') : [];
  }

  /** The command: the row's or watch's expression, else one typed (the editor's selection offered). */
  private async pinFrom(arg: unknown): Promise<void> {
    let expression = pinTarget(arg);
    if (!expression && arg !== undefined && typeof arg === 'object') {
      void vscode.window.showErrorMessage('Pin in Tensor Inspector: this row has no expression that reaches it from the program (evaluateName).');
      return;
    }
    if (!expression) {
      const editor = vscode.window.activeTextEditor;
      const selected = editor && !editor.selection.isEmpty ? editor.document.getText(editor.selection).trim() : '';
      expression = await vscode.window.showInputBox({
        title: 'Pin in Tensor Inspector',
        prompt: 'An expression evaluated at every stop (a tensor, array or number): its summary and a chart over the stops',
        value: selected,
        placeHolder: 'loss, this.kernel.read(), $tfVariables["dense/kernel"]',
      });
      if (expression === undefined) return;
    }
    const next = withPin(this.list, expression);
    if ('error' in next) return void vscode.window.showErrorMessage(next.error);
    await this.save(next.list);
    await vscode.commands.executeCommand('tfjsCallbacks.openInspector');
  }

  async unpin(expression: string): Promise<void> {
    await this.save(withoutPin(this.list, expression));
  }

  private async save(list: readonly string[]): Promise<void> {
    await this.context.workspaceState.update(STATE_KEY, list);
    this.changed.fire(list);
    await Promise.all([...this.sessions].map((s) => this.send(s)));
  }

  /** The list to one session; a session that refuses it says why. */
  private async send(session: vscode.DebugSession): Promise<void> {
    const args: SetPinsArguments = { expressions: [...this.list] };
    try {
      await session.customRequest(SET_PINS_REQUEST, args);
    } catch (err) {
      void vscode.window.showErrorMessage(`The pinned expressions could not be sent to "${session.name}": ${(err as Error).message}`);
    }
  }
}
