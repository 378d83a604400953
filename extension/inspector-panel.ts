/**
 * The tensor inspector panel: shows each stop in a callback (the adapter's `tensorCallback`
 * event) and fetches tensor slices for it (`tensorData`). One panel; its webview keeps its own
 * state, so a hidden panel comes back as it was.
 */
import * as vscode from 'vscode';
import type { HostMessage, TensorCallbackEvent, WebviewMessage } from '../media/src/protocol.js';
import { DEBUG_TYPE } from './config-resolution.js';
import { inspectorHtml } from './inspector-html.js';

const VIEW_TYPE = 'tfjsCallbacks.inspector';

export class InspectorPanel {
  private panel: vscode.WebviewPanel | undefined;
  private ready = false;
  private readonly queue: HostMessage[] = [];
  private readonly sessions = new Map<string, vscode.DebugSession>();

  constructor(private readonly context: vscode.ExtensionContext) {
    context.subscriptions.push(
      vscode.debug.onDidReceiveDebugSessionCustomEvent((e) => {
        if (e.session.type !== DEBUG_TYPE || e.event !== 'tensorCallback') return;
        this.sessions.set(e.session.id, e.session);
        const open = vscode.workspace.getConfiguration('tfjsCallbacks').get<boolean>('openInspectorOnStop', true);
        if (open || this.panel) this.show(true);
        this.post({ type: 'invocation', sessionId: e.session.id, event: e.body as TensorCallbackEvent, live: true });
      }),
      vscode.debug.onDidTerminateDebugSession((session) => {
        if (!this.sessions.delete(session.id)) return;
        this.post({ type: 'sessionEnded', sessionId: session.id });
      }),
      vscode.window.registerWebviewPanelSerializer(VIEW_TYPE, {
        deserializeWebviewPanel: async (panel) => this.adopt(panel),
      }),
    );
  }

  show(preserveFocus = false): void {
    if (this.panel) {
      this.panel.reveal(this.panel.viewColumn ?? vscode.ViewColumn.Beside, preserveFocus);
      return;
    }
    const panel = vscode.window.createWebviewPanel(VIEW_TYPE, 'Tensor Inspector', { viewColumn: vscode.ViewColumn.Beside, preserveFocus }, this.options());
    this.adopt(panel);
  }

  private options(): vscode.WebviewOptions & vscode.WebviewPanelOptions {
    return { enableScripts: true, localResourceRoots: [vscode.Uri.joinPath(this.context.extensionUri, 'media')] };
  }

  private adopt(panel: vscode.WebviewPanel): void {
    this.panel = panel;
    this.ready = false;
    const webview = panel.webview;
    webview.options = this.options();
    const media = vscode.Uri.joinPath(this.context.extensionUri, 'media');
    webview.html = inspectorHtml({
      cspSource: webview.cspSource,
      scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(media, 'dist', 'inspector.js')).toString(),
      styleUri: webview.asWebviewUri(vscode.Uri.joinPath(media, 'inspector.css')).toString(),
    });
    panel.onDidDispose(() => {
      this.panel = undefined;
      this.ready = false;
    });
    webview.onDidReceiveMessage((message: WebviewMessage) => void this.receive(message));
  }

  private post(message: HostMessage): void {
    if (!this.panel) return;
    if (!this.ready) {
      this.queue.push(message);
      return;
    }
    void this.panel.webview.postMessage(message);
  }

  private async receive(message: WebviewMessage): Promise<void> {
    switch (message.type) {
      case 'ready':
        this.ready = true;
        for (const m of this.queue.splice(0)) void this.panel?.webview.postMessage(m);
        return;
      case 'copy':
        await vscode.env.clipboard.writeText(message.text);
        void vscode.window.setStatusBarMessage('Tensor copied as JSON', 3000);
        return;
      case 'tensorData': {
        const session = this.sessions.get(message.sessionId);
        if (!session) {
          this.post({ type: 'tensorData', requestId: message.requestId, error: 'The debug session of this invocation has ended.' });
          return;
        }
        try {
          const slice = await session.customRequest('tensorData', {
            invocationId: message.invocationId, side: message.side, index: message.index, start: message.start, count: message.count,
          });
          this.post({ type: 'tensorData', requestId: message.requestId, slice });
        } catch (err) {
          this.post({ type: 'tensorData', requestId: message.requestId, error: (err as Error).message });
        }
      }
    }
  }
}
