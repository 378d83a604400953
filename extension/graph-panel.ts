/**
 * The graph view panel: one webview showing a model.json's top graph (media/src/graph/), fed by
 * the messages of media/src/graph-protocol.ts, live with the debugger while open: every session
 * records its runs (graph-session.ts) and each `graphRun` of this model sets the nodes' statuses
 * (graph-run-status.ts). A click on a node that ran, while the program is stopped, shows its
 * tensors in the inspector (`nodeInfo`); otherwise it reveals the node in model.json and says why
 * no tensors. "Break on this node" / "Break on every <op>" add function breakpoints.
 * When a session ends, its last run's statuses stay, the view says so, and no node stays paused.
 */
import * as vscode from 'vscode';
import { NODE_INFO_REQUEST, type GraphRunRecord, type NodeInfoArguments, type NodeInfoResponseBody } from '../debug-adapter/extension-protocol.js';
import { locateNodes, type NodeLocations } from '../runtime/graph-model/node-locations.js';
import { isModelJsonPath } from '../runtime/graph-model/model-path.js';
import type { GraphData, GraphHostMessage, GraphViewMessage, NodeStatus, NodeStatusUpdate } from '../media/src/graph-protocol.js';
import { DEBUG_TYPE } from './config-resolution.js';
import { graphHtml } from './graph-html.js';
import { loadGraph } from './graph-load.js';
import { planNodeClick, runIsOfModel, statusUpdatesOfRun } from './graph-run-status.js';
import { GraphSessions } from './graph-session.js';
import type { InspectorPanel } from './inspector-panel.js';

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
  /** The run the statuses are of, and its session. */
  private shownRun: { readonly sessionId: string; readonly run: GraphRunRecord; ended: boolean } | undefined;
  private notice = '';
  private runs: Promise<void> = Promise.resolve();
  private readonly sessions: GraphSessions;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly inspector: InspectorPanel,
  ) {
    this.sessions = new GraphSessions(context);
    // One run at a time, in the order they came (each waits for real paths).
    this.sessions.onRun(({ session, run }) => {
      this.runs = this.runs.then(() => this.runArrived(session, run)).catch((err) => this.sessions.warn(`graphRun: ${(err as Error).message}`));
    });
    this.sessions.onEnded((session) => this.sessionEnded(session));
    // Running again: no node is paused (the next stop's run says where it is).
    this.sessions.onStopChanged((session) => {
      if (this.shownRun?.sessionId === session.id && !this.sessions.isStopped(session.id)) this.unpause();
    });
  }

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
    this.shownRun = undefined;
    this.notice = '';
    this.showPanel();
    this.post({ type: 'graph', graph: this.model.graph });
    this.post({ type: 'notice', text: '' });
    this.sessions.setWatching(true);
  }

  /** The model.json shown while the view is the active tab (a webview: VS Code then has no active text editor). */
  viewedModel(): string | undefined {
    return this.panel?.active && this.model ? this.model.uri.fsPath : undefined;
  }

  /**
   * Statuses of the current run (from `graphRun`), posted to the view; `reset` starts a new run.
   * Kept so a reloaded view gets them again.
   */
  showNodeStatus(updates: readonly NodeStatusUpdate[], options: { reset?: boolean } = {}): void {
    if (options.reset) this.statuses.clear();
    for (const u of updates) {
      if (u.status === 'paused') for (const [node, s] of this.statuses) if (s === 'paused') this.statuses.set(node, 'ran');
      this.statuses.set(u.node, u.status);
    }
    this.post({ type: 'status', updates, ...(options.reset ? { reset: true } : {}) });
  }

  /** A run of some graph at a stop: this model's sets the statuses; another model's paused stop is said in a line. */
  private async runArrived(session: vscode.DebugSession, run: GraphRunRecord): Promise<void> {
    const model = this.model;
    if (!this.panel || !model) return;
    if (!(await runIsOfModel(run, { file: model.uri.fsPath }))) {
      if (run.paused !== undefined) this.say(`Paused in another model: ${run.graph} › ${run.paused}`);
      return;
    }
    if (this.model !== model || !this.panel) return;
    this.shownRun = { sessionId: session.id, run, ended: false };
    this.say('');
    this.showNodeStatus(statusUpdatesOfRun(run), { reset: true });
  }

  private sessionEnded(session: vscode.DebugSession): void {
    const shown = this.shownRun;
    if (!shown || shown.sessionId !== session.id) return;
    shown.ended = true;
    // The last run's statuses stay; nothing is paused any more.
    this.unpause();
    this.say(`The debug session '${session.name}' ended: the statuses are of its last run.`);
  }

  /** The paused node back to what it did in the run (ran, or NaN). */
  private unpause(): void {
    const paused = [...this.statuses].find(([, s]) => s === 'paused')?.[0];
    if (paused === undefined) return;
    const status = this.shownRun?.run.nodes.find((n) => n.node === paused)?.status ?? 'ran';
    this.showNodeStatus([{ node: paused, status }]);
  }

  private say(text: string): void {
    this.notice = text;
    this.post({ type: 'notice', text });
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
      this.shownRun = undefined;
      this.sessions.setWatching(false);
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
        if (this.notice) this.post({ type: 'notice', text: this.notice });
        return;
      }
      case 'nodeClicked':
        return this.nodeClicked(message.node);
      case 'breakOnNode':
        return addFunctionBreakpoint(message.node, `when node ${message.node} has run`);
      case 'breakOnOp':
        return addFunctionBreakpoint(message.op, `after every ${message.op} node`);
    }
  }

  /** Its tensors in the inspector when they can be had; else where it is written, and why no tensors. */
  private async nodeClicked(node: string): Promise<void> {
    const shown = this.shownRun;
    const plan = planNodeClick(
      node,
      shown && { sessionId: shown.sessionId, run: shown.run, ended: shown.ended, stopped: this.sessions.isStopped(shown.sessionId) },
    );
    const session = plan.kind === 'inspect' ? this.sessions.session(plan.sessionId) : undefined;
    if (plan.kind === 'reveal' || !session) {
      this.say(plan.kind === 'reveal' ? plan.why : `No tensors for ${node}: its debug session has ended.`);
      return this.reveal(node);
    }
    const args: NodeInfoArguments = { graph: plan.graph, node };
    try {
      const snapshot = (await session.customRequest(NODE_INFO_REQUEST, args)) as NodeInfoResponseBody;
      const live = plan.paused && snapshot.live;
      const description = live
        ? `paused here: node #${snapshot.index} of the run, its tensors live`
        : `shown from the graph view: node #${snapshot.index} of the latest run, summaries taken when it ran`;
      this.say('');
      await this.inspector.showNode(session, { reason: 'graph view', description, node: snapshot }, live);
    } catch (err) {
      const message = `No tensors for ${node}: the debugger could not give them (${(err as Error).message}).`;
      this.sessions.warn(message);
      this.say(message);
      await this.reveal(node);
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

/** Adds a function breakpoint (the adapter matches node names, their last part, ops and `*` globs), once. */
function addFunctionBreakpoint(name: string, what: string): void {
  const exists = vscode.debug.breakpoints.some((b) => b instanceof vscode.FunctionBreakpoint && b.functionName === name);
  if (!exists) vscode.debug.addBreakpoints([new vscode.FunctionBreakpoint(name)]);
  void vscode.window.setStatusBarMessage(
    exists ? `A breakpoint on ${name} is already set (Breakpoints view)` : `Breaks ${what} (${DEBUG_TYPE}: function breakpoint ${name})`,
    4000,
  );
}
