/**
 * The contract between the extension (language-client.ts) and its language server (server.ts):
 * the custom request and notification, their params and results, and the initialization options.
 * Both ends, and the tests' LSP client, import it; no other file names these methods.
 *
 * The signatures carry their types without a library's RequestType: the client bundles
 * vscode-jsonrpc 10 and the server vscode-jsonrpc 9, whose RequestType classes do not assign to
 * each other. Each end makes its own library's RequestType / NotificationType from a signature
 * (a two-line `requestType(signature)` beside its connection), typed with the signature's params
 * and result, so a wrong param or result type still fails type-checking on both ends.
 */
import type { CallbackKind, CallbackOp } from '../../runtime/events.js';

/** A request: its method, with its params and result as types only (`types` is never set). */
export interface RequestSignature<P, R> {
  readonly method: string;
  readonly types?: { readonly params: P; readonly result: R };
}

/** A notification: its method, with its params as a type only (`types` is never set). */
export interface NotificationSignature<P> {
  readonly method: string;
  readonly types?: { readonly params: P };
}

/** The settings section the server reads (workspace/configuration) and the client synchronizes. */
export const SETTINGS_SECTION = 'tfjsCallbacks';

/** `initializationOptions`: the settings for a client without workspace/configuration. */
export interface InitializationOptions {
  /** `tfjsCallbacks.callbacksModule`, relative to the workspace folder or absolute. */
  readonly callbacksModule?: string;
  /**
   * Default true: a program its project's program does not hold yet (just opened) gets diagnostics
   * from the file alone first, then its project's (two publishes). False: one publish, the
   * project's, for a client that takes each publish as final (the tests' client).
   */
  readonly quickFirstDiagnostics?: boolean;
}

export interface CallbacksParams {
  /** Only this document; all open documents when absent. */
  readonly uri?: string;
}

/** One callback in an open document, for the "Break on Callback…" quick pick. Lines are 1-based. */
export interface CallbackEntry {
  /** What the debugger breaks on: the `name` option, the function's name, or the node's name. */
  readonly name: string;
  readonly functionName?: string;
  readonly kind: CallbackKind;
  readonly uri: string;
  /** 1-based line of the wrapper call, or of the node in model.json. */
  readonly line: number;
  /** 1-based column of the node's name in model.json (converted models are one line). */
  readonly column?: number;
  /** The wrapper function (`numpyFunction`, …) or, for a model node, the op. */
  readonly api?: string;
  readonly op?: CallbackOp;
  /** A model node's token, or the token the last run gave a wrapper callback. */
  readonly token?: string;
}

/** The callbacks in open documents (callback-list.ts). */
export const CallbacksRequest: RequestSignature<CallbacksParams, CallbackEntry[]> = { method: 'tfjsCallbacks/callbacks' };

export interface TraceUpdatedParams {
  /** The trace the last run wrote (the CLI's `--trace`); absent: forget the last run. */
  readonly traceFile?: string;
}

/** The last run's trace changed: reload it (trace-store.ts). */
export const TraceUpdatedNotification: NotificationSignature<TraceUpdatedParams> = { method: 'tfjsCallbacks/traceUpdated' };
