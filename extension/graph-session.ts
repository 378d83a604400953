/**
 * The graph view's side of the debug sessions: asks every `tfjs-callbacks` session to record its
 * graph runs (`graphWatch`) while the view is open, passes on their `graphRun` events, and knows
 * which sessions are stopped (a DAP tracker: `stopped` events, and the requests that resume).
 * A request that fails (an adapter without graphWatch, a session ending) is logged, never thrown.
 */
import * as vscode from 'vscode';
import { GRAPH_RUN_EVENT, GRAPH_WATCH_REQUEST, type GraphRunEventBody, type GraphWatchArguments } from '../debug-adapter/extension-protocol.js';
import { DEBUG_TYPE } from './config-resolution.js';
import { extensionOutput } from './output.js';

/** Client requests after which the program runs again (DAP). */
const RESUMING = new Set(['continue', 'next', 'stepIn', 'stepOut', 'stepBack', 'reverseContinue', 'goto', 'restartFrame', 'restart']);

interface Tracked {
  readonly session: vscode.DebugSession;
  stopped: boolean;
}

export class GraphSessions {
  private readonly sessions = new Map<string, Tracked>();
  private watching = false;
  private readonly log: vscode.LogOutputChannel;
  private readonly runs = new vscode.EventEmitter<{ session: vscode.DebugSession; run: GraphRunEventBody }>();
  private readonly ends = new vscode.EventEmitter<vscode.DebugSession>();
  private readonly stops = new vscode.EventEmitter<vscode.DebugSession>();
  /** A `graphRun` event of a session (the latest run of a graph, at a stop). */
  readonly onRun = this.runs.event;
  readonly onEnded = this.ends.event;
  /** A session stopped or resumed. */
  readonly onStopChanged = this.stops.event;

  constructor(context: vscode.ExtensionContext) {
    this.log = extensionOutput(context);
    context.subscriptions.push(
      this.runs,
      this.ends,
      this.stops,
      vscode.debug.registerDebugAdapterTrackerFactory(DEBUG_TYPE, {
        createDebugAdapterTracker: (session) => ({
          onDidSendMessage: (m: { type?: string; event?: string }) => {
            if (m.type === 'event' && (m.event === 'stopped' || m.event === 'continued')) this.setStopped(session, m.event === 'stopped');
          },
          onWillReceiveMessage: (m: { type?: string; command?: string }) => {
            if (m.type === 'request' && RESUMING.has(m.command ?? '')) this.setStopped(session, false);
          },
        }),
      }),
      vscode.debug.onDidStartDebugSession((session) => {
        if (session.type !== DEBUG_TYPE) return;
        this.track(session);
        if (this.watching) void this.watch(session, true);
      }),
      vscode.debug.onDidTerminateDebugSession((session) => {
        if (this.sessions.delete(session.id)) this.ends.fire(session);
      }),
      vscode.debug.onDidReceiveDebugSessionCustomEvent((e) => {
        if (e.session.type !== DEBUG_TYPE || e.event !== GRAPH_RUN_EVENT) return;
        const run = e.body as GraphRunEventBody | undefined;
        if (!run || typeof run.graph !== 'string' || !Array.isArray(run.nodes)) {
          this.warn(`graphRun from session '${e.session.name}' without a graph name or nodes: ignored.`);
          return;
        }
        this.runs.fire({ session: e.session, run });
      }),
    );
    // Sessions that started before the view's first use (activation comes with the first one).
    const active = vscode.debug.activeDebugSession;
    if (active?.type === DEBUG_TYPE) this.track(active);
  }

  /** Turns run recording on (the view opened) or off (it closed) in every session, and in each new one while on. */
  setWatching(on: boolean): void {
    if (this.watching === on) return;
    this.watching = on;
    for (const { session } of this.sessions.values()) void this.watch(session, on);
  }

  session(id: string): vscode.DebugSession | undefined {
    return this.sessions.get(id)?.session;
  }

  isStopped(id: string): boolean {
    return this.sessions.get(id)?.stopped === true;
  }

  /** Logs a failure of the view's debug requests where the user can find it (Output: "TF.js Callbacks"). */
  warn(message: string): void {
    this.log.warn(`[graph view] ${message}`);
  }

  private track(session: vscode.DebugSession): void {
    if (!this.sessions.has(session.id)) this.sessions.set(session.id, { session, stopped: false });
  }

  private setStopped(session: vscode.DebugSession, stopped: boolean): void {
    // (Messages of an ended session that come late are not its revival.)
    const t = this.sessions.get(session.id);
    if (!t || t.stopped === stopped) return;
    t.stopped = stopped;
    this.stops.fire(session);
  }

  private async watch(session: vscode.DebugSession, on: boolean): Promise<void> {
    const args: GraphWatchArguments = { on };
    try {
      await session.customRequest(GRAPH_WATCH_REQUEST, args);
    } catch (err) {
      this.warn(
        `graphWatch {on: ${on}} failed in session '${session.name}': ${(err as Error).message}. ` +
          'The graph view shows no statuses for it (an adapter without graph recording, or the session ended).',
      );
    }
  }
}
