/**
 * The tensor inspector panel: shows each stop in a callback (the adapter's `tensorCallback`
 * event) or at a model node (`graphNode`, and nodes clicked in the graph view) and fetches tensor
 * slices for it (`tensorData`). One panel; its webview keeps its own
 * state, so a hidden panel comes back as it was.
 *
 * Where it opens (`tfjsCallbacks.inspectorLocation`):
 * - `panel` (the default): a view in the panel, beside the Debug Console and the Terminal
 *   (`INSPECTOR_VIEW`, a WebviewView). The code keeps its whole editor area: at 1440×900 with the
 *   panel open, an editor group below the code left it 6–10 lines; the panel is where VS Code's
 *   own "what the program shows" views are, and it can be dragged to the sidebar like any view.
 * - `editor`: an editor group of its own BELOW the active one, so the code keeps its full width
 *   (beside it, a 1280-px-wide window left the code ~50 columns). Once open it stays where it is,
 *   stop after stop and session after session; wherever the user moves it is remembered, and a
 *   closed inspector reopens there when that group is still open (and is not the code's own).
 * Either way one webview at a time holds the inspector: the one the setting names.
 */
import * as vscode from 'vscode';
import {
  DATA_BREAKPOINT_EVENT,
  type DataBreakpointEventBody,
  GRAPH_NODE_EVENT,
  PINNED_VALUES_EVENT,
  type PinnedValuesEventBody,
  MODEL_INFO_REQUEST,
  type ModelInfoResponseBody,
  TENSOR_CALLBACK_EVENT,
  TENSOR_BYTES_REQUEST,
  TENSOR_DATA_REQUEST,
  TENSOR_DIFF_REQUEST,
  TRAINING_CURVE_EVENT,
  type TensorBytesArguments,
  type TensorBytesResponseBody,
  type GraphNodeEventBody,
  type TensorCallbackEventBody,
  type TensorDataArguments,
  type TensorDataResponseBody,
  type TensorDiffArguments,
  type TensorDiffResponseBody,
  type TrainingVariable,
  type TrainingCurveEventBody,
} from '../debug-adapter/extension-protocol.js';
import { variableNode } from './variable-items.js';
import type { HostMessage, SliceOwner, WebviewMessage } from '../media/src/protocol.js';
import { DEBUG_TYPE } from './config-resolution.js';
import { dataBreakpointNode } from './data-breakpoint-node.js';
import { inspectorHtml } from './inspector-html.js';
import type { Pins } from './pins.js';
import { pickVariableAction } from './training-variables.js';

const VIEW_TYPE = 'tfjsCallbacks.inspector';
/** The inspector as a view (package.json `views`, in the panel's Tensor Inspector container). */
export const INSPECTOR_VIEW = 'tfjsCallbacks.inspectorView';

type Location = 'panel' | 'editor';
/** Stops (debug-adapter/state/pause-state.ts StopReason) that do not bring the panel view in front of the Debug Console. */
const QUIET_STOPS = new Set(['step', 'pause', 'restart']);
/** How long a stop waits for VS Code to make the panel view. */
const VIEW_OPEN_MS = 10_000;

export class InspectorPanel {
  private panel: vscode.WebviewPanel | undefined;
  /** The panel view, once VS Code has shown it (resolveWebviewView). */
  private view: vscode.WebviewView | undefined;
  /** Settles when the view is resolved after `show` asked VS Code to open it. */
  private viewResolved: (() => void) | undefined;
  /** Set while the view is being opened: one open, however many stops come. */
  private viewOpening: Promise<void> | undefined;
  /** Sessions whose first stop brought the panel view to the front. */
  private readonly revealedIn = new Set<string>();
  /** Stops that brought the inspector to the front, in any session. */
  private frontStops = 0;
  /** Set while the panel is being created (its group made first): one panel, however many stops come. */
  private opening: Promise<void> | undefined;
  /** The editor group the panel was last in (where the user put it), for reopening it there. */
  private lastColumn: vscode.ViewColumn | undefined;
  private ready = false;
  private readonly queue: HostMessage[] = [];
  private readonly sessions = new Map<string, vscode.DebugSession>();

  constructor(
    private readonly context: vscode.ExtensionContext,
    /** The pinned expressions: shown in the webview, unpinned from it. */
    private readonly pins?: Pins,
  ) {
    context.subscriptions.push(
      vscode.debug.onDidReceiveDebugSessionCustomEvent((e) => {
        if (e.session.type !== DEBUG_TYPE) return;
        if (e.event === PINNED_VALUES_EVENT) return this.pinned(e.session, e.body as PinnedValuesEventBody);
        // The training curve goes to an inspector that is there (it opens no panel, while running or at a stop).
        if (e.event === TRAINING_CURVE_EVENT) return this.post({ type: 'training', sessionId: e.session.id, event: e.body as TrainingCurveEventBody });
        let message: HostMessage;
        if (e.event === TENSOR_CALLBACK_EVENT) message = { type: 'invocation', sessionId: e.session.id, event: e.body as TensorCallbackEventBody, live: true };
        else if (e.event === GRAPH_NODE_EVENT) message = { type: 'node', sessionId: e.session.id, event: e.body as GraphNodeEventBody, live: true };
        else if (e.event === DATA_BREAKPOINT_EVENT)
          message = { type: 'node', sessionId: e.session.id, event: dataBreakpointNode(e.body as DataBreakpointEventBody), live: true };
        else return;
        this.sessions.set(e.session.id, e.session);
        const open = vscode.workspace.getConfiguration('tfjsCallbacks').get<boolean>('openInspectorOnStop', true);
        if (!open && !this.webview && !this.opening) return;
        // In the panel it shares the room with the Debug Console: it comes to the front at a
        // session's first stop and at each breakpoint, exception or mismatch; a step, pause or
        // Restart Frame updates it where it is, so one stepping while typing in the Debug Console
        // stays there.
        const quiet = QUIET_STOPS.has((e.body as { reason?: string }).reason ?? '');
        if (this.location === 'panel' && this.view && quiet && this.revealedIn.has(e.session.id)) return this.post(message);
        this.revealedIn.add(e.session.id);
        this.frontStops++;
        // Posted once the panel exists (it queues until its webview is ready).
        void this.show(true).then(() => this.post(message));
      }),
      vscode.debug.onDidStartDebugSession((session) => {
        if (session.type !== DEBUG_TYPE) return;
        if (this.webview) this.post({ type: 'sessionStarted', sessionId: session.id });
        else if (session.configuration.request === 'launch') void this.prepareView();
      }),
      vscode.debug.onDidTerminateDebugSession((session) => {
        this.revealedIn.delete(session.id);
        if (!this.sessions.delete(session.id)) return;
        this.post({ type: 'sessionEnded', sessionId: session.id });
      }),
      // A closed inspector reopens in its last group only while the layout is as it left it: the
      // group it was alone in closed with it, and other changes renumber the groups.
      vscode.window.tabGroups.onDidChangeTabGroups((e) => {
        if (!this.panel && (e.opened.length > 0 || e.closed.length > 0)) this.lastColumn = undefined;
      }),
      ...(pins ? [pins.onDidChange((expressions) => this.post({ type: 'pins', expressions }))] : []),
      vscode.window.registerWebviewPanelSerializer(VIEW_TYPE, {
        deserializeWebviewPanel: async (panel) => this.adopt(panel),
      }),
      // Kept alive while the Debug Console's tab is in front: a stop's tensors stay where they were.
      vscode.window.registerWebviewViewProvider(
        INSPECTOR_VIEW,
        { resolveWebviewView: (view) => this.adoptView(view) },
        { webviewOptions: { retainContextWhenHidden: true } },
      ),
    );
  }

  /** A stop's pinned values: to the inspector where it is (opened when it is not, as a stop's would be). */
  private pinned(session: vscode.DebugSession, event: PinnedValuesEventBody): void {
    this.sessions.set(session.id, session);
    const message: HostMessage = { type: 'pinned', sessionId: session.id, event };
    // Quiet where it is (a pin's chart is no reason to bring the panel in front of the Debug Console).
    if (this.webview) {
      this.post(message);
      return;
    }
    if (!vscode.workspace.getConfiguration('tfjsCallbacks').get<boolean>('openInspectorOnStop', true)) return;
    void this.show(true).then(() => this.post(message));
  }

  private get location(): Location {
    return vscode.workspace.getConfiguration('tfjsCallbacks').get<string>('inspectorLocation', 'panel') === 'editor' ? 'editor' : 'panel';
  }

  /** The webview holding the inspector now: the one the setting names. */
  private get webview(): vscode.Webview | undefined {
    return this.location === 'panel' ? this.view?.webview : this.panel?.webview;
  }

  /**
   * Shows a node the user asked for (a click in the graph view, answered by `nodeInfo`): opens the
   * panel whatever `openInspectorOnStop` says. `live`: the program is paused at this node.
   */
  async showNode(session: vscode.DebugSession, event: GraphNodeEventBody, live: boolean): Promise<void> {
    this.sessions.set(session.id, session);
    await this.show(true);
    this.post({ type: 'node', sessionId: session.id, event, live });
  }

  /** Shows the inspector where it is, or opens it (see the file comment for where). */
  show(preserveFocus = false): Promise<void> {
    if (this.location === 'panel') return this.showView(preserveFocus);
    if (this.panel) {
      // Brought to the front in its own group, never moved: no column given (the panel's own
      // `viewColumn` can still read "Active" just after it was made, which would move it). A
      // panel already in view is left alone: a reveal costs the workbench a layout at every stop.
      if (!this.panel.visible) this.panel.reveal(undefined, preserveFocus);
      return Promise.resolve();
    }
    this.opening ??= this.open(preserveFocus).finally(() => {
      this.opening = undefined;
    });
    return this.opening;
  }

  /** The panel view in front (not the Debug Console); the focus stays in the code when asked. */
  private async showView(preserveFocus: boolean): Promise<void> {
    if (this.view) {
      if (!this.view.visible) this.view.show(preserveFocus);
      return;
    }
    this.viewOpening ??= (async () => {
      const resolved = new Promise<void>((resolve) => {
        this.viewResolved = resolve;
        // A view the user removed from the layout is never resolved: the stop goes on without it.
        setTimeout(resolve, VIEW_OPEN_MS);
      });
      // VS Code has no "reveal without focus" for a view it has not made yet: open it, then give the focus back.
      await vscode.commands.executeCommand(`${INSPECTOR_VIEW}.focus`);
      await resolved;
      if (preserveFocus) await vscode.commands.executeCommand('workbench.action.focusActiveEditorGroup');
    })().finally(() => {
      this.viewOpening = undefined;
    });
    return this.viewOpening;
  }

  /**
   * Makes the panel view while a launched program starts, so its first stop is drawn as it comes:
   * VS Code makes a view only when it is first shown, which took 0.6–1.1 s on the path to the
   * window's first stop. The Debug Console comes back to the front and the focus to the code.
   * Not for an attach (a Debug Terminal's program): the user's terminal stays in front.
   */
  private async prepareView(): Promise<void> {
    if (this.location !== 'panel' || this.view || this.viewOpening) return;
    if (!vscode.workspace.getConfiguration('tfjsCallbacks').get<boolean>('openInspectorOnStop', true)) return;
    const stopsBefore = this.frontStops;
    await this.showView(false);
    // A stop that came meanwhile brought the inspector to the front: it stays there.
    if (this.frontStops === stopsBefore) await vscode.commands.executeCommand('workbench.debug.action.focusRepl');
    await vscode.commands.executeCommand('workbench.action.focusActiveEditorGroup');
  }

  private adoptView(view: vscode.WebviewView): void {
    this.view = view;
    this.setUp(view.webview);
    view.onDidDispose(() => {
      if (this.view === view) this.view = undefined;
      if (this.location === 'panel') this.ready = false;
    });
    this.viewResolved?.();
    this.viewResolved = undefined;
  }

  private async open(preserveFocus: boolean): Promise<void> {
    const groups = vscode.window.tabGroups;
    const active = groups.activeTabGroup.viewColumn;
    if (this.lastColumn !== undefined && this.lastColumn !== active && groups.all.some((g) => g.viewColumn === this.lastColumn)) {
      this.create(this.lastColumn, preserveFocus);
      return;
    }
    if (groups.activeTabGroup.tabs.length === 0) {
      this.create(active, preserveFocus);
      return;
    }
    // A new group below the code, the panel made there by its number: the group below column N is
    // N+1 (columns count groups in grid order). Not "the active group": a stop reveals its line in
    // the code's group at the same moment, and the panel then landed on the code.
    await vscode.commands.executeCommand('workbench.action.newGroupBelow');
    this.create(active + 1, preserveFocus);
    // The command focused the new group; the focus goes back to the code when asked.
    if (preserveFocus) await vscode.commands.executeCommand('workbench.action.focusAboveGroup');
  }

  private create(viewColumn: vscode.ViewColumn, preserveFocus: boolean): void {
    if (this.panel) return;
    this.adopt(vscode.window.createWebviewPanel(VIEW_TYPE, 'Tensor Inspector', { viewColumn, preserveFocus }, this.options()));
  }

  private options(): vscode.WebviewOptions & vscode.WebviewPanelOptions {
    return { enableScripts: true, localResourceRoots: [vscode.Uri.joinPath(this.context.extensionUri, 'media')] };
  }

  private adopt(panel: vscode.WebviewPanel): void {
    this.panel = panel;
    this.setUp(panel.webview);
    // Where the user drags it is where it reopens (a real group: not ViewColumn.Active as asked for).
    const remember = () => {
      if (panel.viewColumn !== undefined && panel.viewColumn > 0) this.lastColumn = panel.viewColumn;
    };
    remember();
    panel.onDidChangeViewState(remember);
    panel.onDidDispose(() => {
      this.panel = undefined;
      if (this.location === 'editor') this.ready = false;
    });
  }

  /** The inspector's page in a new webview: it says when it is ready for the queued messages. */
  private setUp(webview: vscode.Webview): void {
    this.ready = false;
    webview.options = this.options();
    const media = vscode.Uri.joinPath(this.context.extensionUri, 'media');
    webview.html = inspectorHtml({
      cspSource: webview.cspSource,
      scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(media, 'dist', 'inspector.js')).toString(),
      styleUri: webview.asWebviewUri(vscode.Uri.joinPath(media, 'inspector.css')).toString(),
    });
    webview.onDidReceiveMessage((message: WebviewMessage) => {
      // Only the webview the setting names speaks for the inspector (a panel left from before a switch does not).
      if (webview === this.webview) void this.receive(message);
    });
  }

  private post(message: HostMessage): void {
    const webview = this.webview;
    if (!webview) return;
    if (!this.ready) {
      this.queue.push(message);
      return;
    }
    void webview.postMessage(message);
  }

  /** A custom request to the session a stop belongs to: its answer's body, or why there is none. */
  private async ask(sessionId: string, command: string, args: unknown): Promise<{ body: unknown } | { error: string }> {
    const session = this.sessions.get(sessionId);
    if (!session) return { error: 'The debug session of this stop has ended.' };
    try {
      return { body: await session.customRequest(command, args) };
    } catch (err) {
      return { error: (err as Error).message };
    }
  }

  private async receive(message: WebviewMessage): Promise<void> {
    switch (message.type) {
      case 'ready':
        this.ready = true;
        if (this.pins) void this.webview?.postMessage({ type: 'pins', expressions: this.pins.list } satisfies HostMessage);
        for (const m of this.queue.splice(0)) void this.webview?.postMessage(m);
        return;
      case 'unpin':
        await this.pins?.unpin(message.expression);
        return;
      case 'copy':
        await vscode.env.clipboard.writeText(message.text);
        void vscode.window.setStatusBarMessage(`Tensor copied as ${message.format ?? 'JSON'}`, 3000);
        return;
      case 'tensorData': {
        const { side, index, start, count } = message;
        const args: TensorDataArguments = { ...ownerOf(message), side, index, start, count };
        const answer = await this.ask(message.sessionId, TENSOR_DATA_REQUEST, args);
        this.post({ type: 'tensorData', requestId: message.requestId, ...('error' in answer ? answer : { slice: answer.body as TensorDataResponseBody }) });
        return;
      }
      case 'modelInfo': {
        const answer = await this.ask(message.sessionId, MODEL_INFO_REQUEST, {});
        this.post({ type: 'modelInfo', requestId: message.requestId, ...('error' in answer ? answer : { model: answer.body as ModelInfoResponseBody }) });
        return;
      }
      case 'modelWeight': {
        // A weight of the Model section: its tf.Variable, inspected or offered Break on Value Change and the rest.
        const session = this.sessions.get(message.sessionId);
        if (!session) return void vscode.window.showErrorMessage('The debug session of this stop has ended.');
        const variable = { name: message.weight.name, trainable: message.weight.trainable, info: message.weight.info as TrainingVariable['info'] };
        const show = (s: vscode.DebugSession, node: GraphNodeEventBody) => this.showNode(s, node, true);
        return message.action === 'inspect' ? show(session, variableNode(variable)) : pickVariableAction(variable, session, show);
      }
      case 'tensorBytes': {
        const { side, index, offset, count } = message;
        const args: TensorBytesArguments = { ...ownerOf(message), side, index, offset, count };
        const answer = await this.ask(message.sessionId, TENSOR_BYTES_REQUEST, args);
        this.post({ type: 'tensorBytes', requestId: message.requestId, ...('error' in answer ? answer : { bytes: answer.body as TensorBytesResponseBody }) });
        return;
      }
      case 'tensorDiff': {
        const { a, b, side, index } = message;
        const args: TensorDiffArguments = { a: { invocationId: a.invocationId }, b: { invocationId: b.invocationId }, side, index };
        const answer = await this.ask(message.sessionId, TENSOR_DIFF_REQUEST, args);
        this.post({ type: 'tensorDiff', requestId: message.requestId, ...('error' in answer ? answer : { diff: answer.body as TensorDiffResponseBody }) });
        return;
      }
    }
  }
}

/** Whose value a webview's request is about: an invocation's, or the paused node's. */
function ownerOf(request: SliceOwner): { invocationId: number } | { graph: string; node: string } {
  return 'invocationId' in request ? { invocationId: request.invocationId } : { graph: request.graph, node: request.node };
}
