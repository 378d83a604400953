/**
 * The graph view panel: one webview showing a model.json's top graph (media/src/graph/), fed by
 * the messages of media/src/graph-protocol.ts. A click on a node reveals it in model.json; "Break
 * on this node" (callback nodes) adds the function breakpoint "Break on Callback…" adds.
 * `showNodeStatus` is where node events of a run come in (the adapter sends none yet).
 */
import * as vscode from 'vscode';
import { locateNodes, type NodeLocations } from '../runtime/graph-model/node-locations.js';
import { isModelJsonPath } from '../runtime/graph-model/model-path.js';
import type { GraphData, GraphHostMessage, GraphViewMessage, NodeStatus, NodeStatusUpdate } from '../media/src/graph-protocol.js';
import { graphHtml } from './graph-html.js';
import { loadGraph } from './graph-load.js';

const VIEW_TYPE = 'tfjsCallbacks.graph';

interface Model {
  readonly uri: vscode.Uri;
  readonly graph: GraphData;
  readonly text: string;
  locations?: NodeLocations;
}

export class GraphPanel {
  private panel: vscode.WebviewPanel | undefined;
  private ready = false;
  private model: Model | undefined;
  /** The current run's statuses, re-sent when the webview reloads (a hidden panel shown again). */
  private readonly statuses = new Map<string, NodeStatus>();

  constructor(private readonly context: vscode.ExtensionContext) {}

  /** Opens the view on `uri`, the active model.json, or one picked from the workspace. */
  async open(uri?: vscode.Uri): Promise<void> {
    const target = uri ?? (await this.pickModel());
    if (!target) return;
    const title = vscode.workspace.asRelativePath(target);
    try {
      const { graph, text } = await loadGraph(target.fsPath, title);
      this.model = { uri: target, graph, text };
    } catch (err) {
      void vscode.window.showErrorMessage(`Graph view: ${(err as Error).message}`);
      return;
    }
    this.statuses.clear();
    this.showPanel();
    this.post({ type: 'graph', graph: this.model.graph });
  }

  /**
   * The seam for node events (issue 13's node hooks): statuses of the current run, posted to the
   * view; `reset` starts a new run. Kept so a reloaded view gets them again.
   */
  showNodeStatus(updates: readonly NodeStatusUpdate[], options: { reset?: boolean } = {}): void {
    if (options.reset) this.statuses.clear();
    for (const u of updates) {
      if (u.status === 'paused') for (const [node, s] of this.statuses) if (s === 'paused') this.statuses.set(node, 'ran');
      this.statuses.set(u.node, u.status);
    }
    this.post({ type: 'status', updates, ...(options.reset ? { reset: true } : {}) });
  }

  private async pickModel(): Promise<vscode.Uri | undefined> {
    const active = vscode.window.activeTextEditor?.document;
    if (active && isModelJsonPath(active.uri.fsPath)) return active.uri;
    const found = await vscode.workspace.findFiles('**/*model.json', '**/node_modules/**', 500);
    const models = found.filter((u) => isModelJsonPath(u.fsPath));
    if (models.length === 0) {
      void vscode.window.showErrorMessage('Graph view: no model.json in this workspace. Open a TF.js graph model (model.json) and run the command again.');
      return undefined;
    }
    if (models.length === 1) return models[0];
    const picked = await vscode.window.showQuickPick(
      models.map((uri) => ({ label: vscode.workspace.asRelativePath(uri), uri })),
      { title: 'TF.js Callbacks: Open Graph View', placeHolder: 'The model whose graph to show' },
    );
    return picked?.uri;
  }

  private showPanel(): void {
    if (this.panel) {
      this.panel.title = `Graph: ${this.model?.graph.title ?? ''}`;
      this.panel.reveal(undefined, false);
      return;
    }
    const media = vscode.Uri.joinPath(this.context.extensionUri, 'media');
    const panel = vscode.window.createWebviewPanel(VIEW_TYPE, `Graph: ${this.model?.graph.title ?? ''}`, vscode.ViewColumn.Beside, {
      enableScripts: true,
      localResourceRoots: [media],
    });
    this.panel = panel;
    this.ready = false;
    panel.webview.html = graphHtml({
      cspSource: panel.webview.cspSource,
      scriptUri: panel.webview.asWebviewUri(vscode.Uri.joinPath(media, 'dist', 'graph.js')).toString(),
      styleUri: panel.webview.asWebviewUri(vscode.Uri.joinPath(media, 'graph.css')).toString(),
    });
    panel.onDidDispose(() => {
      this.panel = undefined;
      this.ready = false;
    });
    panel.webview.onDidReceiveMessage((message: GraphViewMessage) => void this.receive(message));
  }

  private post(message: GraphHostMessage): void {
    // Before `ready` nothing is posted: `ready` sends the graph and the statuses as they are then.
    if (this.panel && this.ready) void this.panel.webview.postMessage(message);
  }

  private async receive(message: GraphViewMessage): Promise<void> {
    switch (message.type) {
      case 'ready': {
        this.ready = true;
        if (!this.model) return;
        this.post({ type: 'graph', graph: this.model.graph });
        const updates = [...this.statuses].map(([node, status]) => ({ node, status }));
        if (updates.length > 0) this.post({ type: 'status', updates });
        return;
      }
      case 'nodeClicked':
        return this.reveal(message.node);
      case 'breakOnNode':
        await vscode.commands.executeCommand('tfjsCallbacks.breakOnCallback', message.node);
        return;
    }
  }

  /** Selects the node's name in model.json, beside the graph. */
  private async reveal(node: string): Promise<void> {
    const model = this.model;
    if (!model) return;
    model.locations ??= locateNodes(model.text);
    const at = model.locations.find(node);
    if (!at) {
      void vscode.window.showWarningMessage(`Graph view: node '${node}' is not in ${model.graph.title} as it was read; reopen the graph view.`);
      return;
    }
    const range = new vscode.Range(at.line - 1, at.column - 1, at.endLine - 1, at.endColumn - 1);
    const column = this.panel?.viewColumn === vscode.ViewColumn.One ? vscode.ViewColumn.Beside : vscode.ViewColumn.One;
    await vscode.window.showTextDocument(model.uri, { selection: range, viewColumn: column, preserveFocus: true });
  }
}
