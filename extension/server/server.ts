/**
 * The language server for graph programs and model.json files (started by the extension over
 * IPC, or with --stdio). It wires LSP to the analysis modules beside it and knows nothing of the
 * VS Code API:
 *
 * - diagnostics: static Tout / arity checks on wrapper calls (tout-checks), unbound model.json
 *   callback nodes (model-checks), and the last run's Tout mismatches (last-run);
 * - code lenses (lenses), hovers with the last run's observed signature (hovers);
 * - TraceUpdatedNotification (protocol.ts): (re)load the trace (trace-store);
 * - CallbacksRequest (protocol.ts): the callbacks in open documents (callback-list).
 */
import os from 'node:os';
import {
  CodeLensRefreshRequest,
  createConnection,
  DidChangeConfigurationNotification,
  DidChangeWatchedFilesNotification,
  NotificationType,
  ProposedFeatures,
  RequestType,
  TextDocuments,
  TextDocumentSyncKind,
  type InitializeResult,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { mark } from '../../debug-adapter/debuggee/timeline.js';
import { modelCallbacks, programCallbacks } from './callback-list.js';
import { wrapperHover } from './hovers.js';
import { programLenses } from './lenses.js';
import { isModelJson } from './model-checks.js';
import { uriToPath } from './positions.js';
import { matchTrace, ProgramAnalyzer, SCRIPT_LANGUAGES } from './program-analysis.js';
import {
  CallbacksRequest,
  SETTINGS_SECTION,
  TraceUpdatedNotification,
  type CallbackEntry,
  type CallbacksParams,
  type InitializationOptions,
  type NotificationSignature,
  type RequestSignature,
  type TraceUpdatedParams,
} from './protocol.js';
import { Settings } from './settings.js';
import { TraceStore } from './trace-store.js';
import { TsProjects } from './ts-projects.js';
import { Validator } from './validation.js';
import { WARMED_UP, warmUp } from './warm-up.js';

mark('language server: loaded');
const connection = createConnection(ProposedFeatures.all);
const documents = new TextDocuments(TextDocument);
const settings = new Settings(connection);
const traces = new TraceStore();
let projects: TsProjects;
let analyzer: ProgramAnalyzer;
let validator: Validator;
let canRegisterConfiguration = false;
let canWatchFiles = false;
/**
 * Files whose changes on disk change diagnostics: a callbacks module or a model made outside the
 * editor (a model.json's "no binding" warning stayed until callbacks.ts was opened), package.json.
 */
const WATCHED_FILES = ['**/*.{ts,tsx,mts,cts,js,jsx,mjs,cjs}', '**/*.json'];
let canRefreshLenses = false;
/** How long after `initialized` the documents already open have come (didOpen follows at once). */
const WARM_UP_AFTER_MS = 100;

/** Started with no file open (a TF.js project's window): the first analysis's one-time costs now (warm-up.ts). */
function warmUpIfIdle(): void {
  if (documents.all().length > 0) return;
  try {
    const started = performance.now();
    warmUp(analyzer, settings.workspaceFolders[0] ?? os.tmpdir());
    mark('language server: warmed up');
    connection.console.log(`[tfjs-callbacks] ${WARMED_UP} (${(performance.now() - started).toFixed(0)} ms)`);
  } catch (err) {
    connection.console.error(`[tfjs-callbacks] warming up failed: ${(err as Error)?.stack ?? err}`);
  }
}

connection.onInitialize((params): InitializeResult => {
  mark('language server: initialize');
  settings.initialize(params);
  projects = new TsProjects(settings.workspaceFolders, (message) => connection.console.warn(`[tfjs-callbacks] ${message}`));
  analyzer = new ProgramAnalyzer(projects, (params.initializationOptions as InitializationOptions | undefined)?.quickFirstDiagnostics !== false);
  validator = new Validator(connection, documents, analyzer, settings, traces);
  canRegisterConfiguration = settings.usesPull && params.capabilities.workspace?.didChangeConfiguration?.dynamicRegistration === true;
  canWatchFiles = params.capabilities.workspace?.didChangeWatchedFiles?.dynamicRegistration === true;
  canRefreshLenses = params.capabilities.workspace?.codeLens?.refreshSupport === true;
  return {
    capabilities: {
      textDocumentSync: TextDocumentSyncKind.Incremental,
      codeLensProvider: { resolveProvider: false },
      hoverProvider: true,
      workspace: { workspaceFolders: { supported: true, changeNotifications: true } },
    },
    serverInfo: { name: 'tfjs-callbacks-language-server', version: '0.1.0' },
  };
});

connection.onInitialized(() => {
  if (!projects.libDir) {
    connection.console.warn(
      "[tfjs-callbacks] TypeScript's lib*.d.ts were not found beside the server or in the workspace's node_modules/typescript: " +
        'return types of callbacks cannot be checked.',
    );
  }
  if (canRegisterConfiguration) void connection.client.register(DidChangeConfigurationNotification.type, { section: SETTINGS_SECTION });
  if (canWatchFiles)
    void connection.client.register(DidChangeWatchedFilesNotification.type, { watchers: WATCHED_FILES.map((globPattern) => ({ globPattern })) });
  setTimeout(warmUpIfIdle, WARM_UP_AFTER_MS);
  if (settings.workspaceFolders.length > 0) {
    connection.workspace.onDidChangeWorkspaceFolders((e) => {
      settings.changeFolders(e.added, e.removed);
      validator.all();
    });
  }
});

connection.onDidChangeConfiguration((change) => {
  settings.changed(change.settings === null ? undefined : change);
  validator.all();
});

connection.onDidChangeWatchedFiles((change) => {
  for (const { uri } of change.changes) {
    const file = uriToPath(uri);
    if (file) projects.fileChanged(file);
  }
  validator.all();
});

documents.onDidChangeContent(({ document }) => {
  mark('language server: document opened or changed');
  if (SCRIPT_LANGUAGES.has(document.languageId)) analyzer.sync(document);
  validator.changed(document);
});

documents.onDidClose(({ document }) => {
  if (SCRIPT_LANGUAGES.has(document.languageId)) analyzer.close(document);
  validator.closed(document.uri);
});

// Lenses, hovers and the callbacks list read the wrapper calls, not types: a first analysis from the
// file alone serves them (a lens asked for right after an open does not wait for the project).
connection.onCodeLens(({ textDocument }) => {
  const doc = documents.get(textDocument.uri);
  const analysis = doc && SCRIPT_LANGUAGES.has(doc.languageId) ? analyzer.analyze(doc, 'first') : undefined;
  return analysis ? programLenses(analysis, matchTrace(analysis, traces)) : [];
});

connection.onHover(({ textDocument, position }) => {
  const doc = documents.get(textDocument.uri);
  const analysis = doc && SCRIPT_LANGUAGES.has(doc.languageId) ? analyzer.analyze(doc, 'first') : undefined;
  return analysis ? wrapperHover(analysis, position, matchTrace(analysis, traces), traces.traceFile) : null;
});

connection.onNotification(notificationType(TraceUpdatedNotification), async (params: TraceUpdatedParams | undefined) => {
  if (!params?.traceFile) traces.clear();
  else {
    const problem = await traces.load(params.traceFile);
    if (problem) connection.console.warn(`[tfjs-callbacks] ${problem}`);
  }
  validator.all();
  if (canRefreshLenses) void connection.sendRequest(CodeLensRefreshRequest.type).catch(() => {});
});

connection.onRequest(requestType(CallbacksRequest), (params: CallbacksParams | undefined): CallbackEntry[] => {
  const docs = params?.uri ? [documents.get(params.uri)].filter((d) => d !== undefined) : documents.all();
  return docs.flatMap((doc) => {
    if (isModelJson(doc.uri, doc.languageId)) return modelCallbacks(doc.uri, doc.getText());
    if (!SCRIPT_LANGUAGES.has(doc.languageId)) return [];
    const analysis = analyzer.analyze(doc, 'first');
    return analysis ? programCallbacks(analysis, matchTrace(analysis, traces)) : [];
  });
});

connection.onShutdown(() => {
  validator?.dispose();
  projects?.dispose();
});

/** This library's types for protocol.ts's signatures (see there why they are not shared objects). */
function requestType<P, R>(signature: RequestSignature<P, R>): RequestType<P, R, void> {
  return new RequestType<P, R, void>(signature.method);
}

function notificationType<P>(signature: NotificationSignature<P>): NotificationType<P> {
  return new NotificationType<P>(signature.method);
}

documents.listen(connection);
connection.listen();
