/**
 * A real LSP client for tests and benchmarks of the language server: it spawns the REAL built
 * server (`node out/server.cjs --stdio`) and talks to it with vscode-languageserver-protocol.
 *
 * Every publishDiagnostics is recorded from the start, so a wait never misses one that arrived
 * before it was called. The client answers workspace/configuration from the settings it was
 * started with, and the other requests a server may send (registerCapability, refreshes). It asks
 * for final publishes only (InitializationOptions.quickFirstDiagnostics false) unless started with
 * initializationOptions that say otherwise.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after } from 'node:test';
import { pathToFileURL } from 'node:url';
import {
  CodeLensRequest,
  ConfigurationRequest,
  createProtocolConnection,
  DidChangeConfigurationNotification,
  DidChangeTextDocumentNotification,
  DidChangeWatchedFilesNotification,
  DidCloseTextDocumentNotification,
  DidOpenTextDocumentNotification,
  ExitNotification,
  HoverRequest,
  InitializedNotification,
  InitializeRequest,
  NotificationType,
  PublishDiagnosticsNotification,
  RegistrationRequest,
  RequestType,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
  type CodeLens,
  type Diagnostic,
  type Hover,
  type ProtocolConnection,
  type PublishDiagnosticsParams,
} from 'vscode-languageserver-protocol/node';
import {
  CallbacksRequest,
  TraceUpdatedNotification,
  type CallbackEntry,
  type NotificationSignature,
  type RequestSignature,
} from '../../extension/server/protocol.js';
import { cleanEnv, repoRoot } from '../fixtures/spawn.js';

export const serverMain = path.join(repoRoot, 'out', 'server.cjs');
export const WAIT_MS = 60_000;

export function lspFixture(...parts: string[]): string {
  return path.join(repoRoot, 'test', 'fixtures', 'lsp', ...parts);
}

/**
 * A fresh folder inside the repository, removed after the test file's tests: .scratch/ is
 * git-ignored, and a program there gets the repository's tsconfig (the runtime's types resolve).
 */
export function scratchFolder(prefix: string): string {
  fs.mkdirSync(path.join(repoRoot, '.scratch'), { recursive: true });
  const dir = fs.mkdtempSync(path.join(repoRoot, '.scratch', prefix));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export function uriOf(file: string): string {
  return pathToFileURL(file).href;
}

/**
 * Builds out/server.cjs when it is missing or older than the server's sources: with
 * scripts/build.mjs, or (when another bundle in it fails to build) the server alone.
 */
export function ensureServerBuilt(): void {
  const sources = [path.join(repoRoot, 'extension', 'server'), path.join(repoRoot, 'runtime')];
  const newest = Math.max(...sources.flatMap((dir) => listTs(dir).map((f) => fs.statSync(f).mtimeMs)));
  if (fs.existsSync(serverMain) && fs.statSync(serverMain).mtimeMs >= newest) return;
  // As scripts/build.mjs builds it (jsonc-parser's ES module build: esbuild cannot follow its UMD one).
  const options = {
    entryPoints: ['extension/server/server.ts'],
    bundle: true,
    sourcemap: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    outfile: 'out/server.cjs',
    logLevel: 'error',
    alias: { 'jsonc-parser': './node_modules/jsonc-parser/lib/esm/main.js' },
  };
  const script = `require('esbuild').buildSync(${JSON.stringify(options)})`;
  const full = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: repoRoot, encoding: 'utf8', timeout: 300_000 });
  if (full.status !== 0 || !fs.existsSync(serverMain) || fs.statSync(serverMain).mtimeMs < newest) {
    const only = spawnSync(process.execPath, ['-e', script], { cwd: repoRoot, encoding: 'utf8', timeout: 300_000 });
    if (only.status !== 0) throw new Error(`building ${serverMain} failed:\n${only.stderr}`);
  }
}

function listTs(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => path.join(dir, f));
}

export interface StartOptions {
  /** Workspace folder (default: the repository root). */
  readonly workspaceFolder?: string;
  readonly initializationOptions?: Record<string, unknown>;
  /** Answers to workspace/configuration by section; when absent the client does not offer it. */
  readonly configuration?: Record<string, unknown>;
  /** The client watches files for the server, as VS Code's does (didChangeWatchedFiles, dynamic registration). */
  readonly watchesFiles?: boolean;
}

export class LspClient {
  readonly published: PublishDiagnosticsParams[] = [];
  /** Every capability the server registered (client/registerCapability), by method. */
  readonly registered: { method: string; registerOptions?: unknown }[] = [];
  private readonly waiters: (() => void)[] = [];
  private readonly versions = new Map<string, number>();
  stderr = '';
  /** The server's window/logMessage lines. */
  readonly logs: string[] = [];

  private constructor(
    readonly child: ChildProcess,
    readonly connection: ProtocolConnection,
  ) {}

  static async start(options: StartOptions = {}): Promise<LspClient> {
    ensureServerBuilt();
    const child = spawn(process.execPath, [serverMain, '--stdio'], { cwd: repoRoot, env: cleanEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
    const connection = createProtocolConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
    const client = new LspClient(child, connection);
    child.stderr!.on('data', (d: Buffer) => (client.stderr += d.toString()));
    connection.onNotification(PublishDiagnosticsNotification.type, (params) => {
      client.published.push(params);
      for (const wake of client.waiters.splice(0)) wake();
    });
    const settings = options.configuration;
    connection.onRequest(ConfigurationRequest.type, (params) => params.items.map((item) => (item.section ? (settings?.[item.section] ?? null) : null)));
    connection.onRequest(RegistrationRequest.type, (params) => {
      client.registered.push(...params.registrations);
      return undefined;
    });
    connection.onRequest('workspace/codeLens/refresh', () => null);
    connection.onNotification('window/logMessage', (params: { message: string }) => void client.logs.push(params.message));
    connection.listen();
    const folder = options.workspaceFolder ?? repoRoot;
    await connection.sendRequest(InitializeRequest.type, {
      processId: process.pid,
      rootUri: uriOf(folder),
      workspaceFolders: [{ uri: uriOf(folder), name: path.basename(folder) }],
      capabilities: {
        workspace: {
          configuration: settings !== undefined,
          didChangeConfiguration: { dynamicRegistration: settings !== undefined },
          workspaceFolders: true,
          ...(options.watchesFiles ? { didChangeWatchedFiles: { dynamicRegistration: true } } : {}),
        },
        textDocument: { publishDiagnostics: { relatedInformation: true, versionSupport: true }, hover: { contentFormat: ['markdown', 'plaintext'] } },
      },
      initializationOptions: { quickFirstDiagnostics: false, ...options.initializationOptions },
    });
    await connection.sendNotification(InitializedNotification.type, {});
    return client;
  }

  /** Opens a file (its text from disk unless given); returns its URI. */
  async open(file: string, text = fs.readFileSync(file, 'utf8'), languageId = languageOf(file)): Promise<string> {
    const uri = uriOf(file);
    this.versions.set(uri, 1);
    await this.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId, version: 1, text } });
    return uri;
  }

  /** Replaces the whole text; returns the new version. */
  async change(uri: string, text: string): Promise<number> {
    const version = (this.versions.get(uri) ?? 1) + 1;
    this.versions.set(uri, version);
    await this.connection.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version }, contentChanges: [{ text }] });
    return version;
  }

  async closeDocument(uri: string): Promise<void> {
    await this.connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
  }

  /** How many publishes so far: pass it to `diagnostics` to wait for a later one. */
  mark(): number {
    return this.published.length;
  }

  /**
   * The first diagnostics published for `uri` after publish number `after` (and, when given,
   * for at least `version`).
   */
  async diagnostics(uri: string, options: { after?: number; version?: number } = {}): Promise<Diagnostic[]> {
    const deadline = Date.now() + WAIT_MS;
    for (;;) {
      const found = this.published
        .slice(options.after ?? 0)
        .find((p) => p.uri === uri && (options.version === undefined || (p.version ?? 0) >= options.version));
      if (found) return found.diagnostics;
      if (this.child.exitCode !== null) throw new Error(`the server exited (${this.child.exitCode}) before publishing diagnostics for ${uri}:\n${this.stderr}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no diagnostics for ${uri} within ${WAIT_MS} ms; stderr:\n${this.stderr}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 1000));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  codeLenses(uri: string): Promise<CodeLens[] | null> {
    return this.connection.sendRequest(CodeLensRequest.type, { textDocument: { uri } });
  }

  hover(uri: string, line: number, character: number): Promise<Hover | null> {
    return this.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line, character } });
  }

  callbacks(uri?: string): Promise<CallbackEntry[]> {
    return this.connection.sendRequest(requestType(CallbacksRequest), uri ? { uri } : {});
  }

  async traceUpdated(traceFile: string): Promise<void> {
    await this.connection.sendNotification(notificationType(TraceUpdatedNotification), { traceFile });
  }

  /** Files changed on disk, as the client's watcher tells the server (1 created, 2 changed, 3 deleted). */
  async filesChanged(changes: { file: string; type: 1 | 2 | 3 }[]): Promise<void> {
    await this.connection.sendNotification(DidChangeWatchedFilesNotification.type, { changes: changes.map((c) => ({ uri: uriOf(c.file), type: c.type })) });
  }

  async configurationChanged(): Promise<void> {
    await this.connection.sendNotification(DidChangeConfigurationNotification.type, { settings: null });
  }

  /** shutdown + exit, then makes sure the process is gone. */
  async stop(): Promise<void> {
    if (this.child.exitCode === null) {
      const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
      try {
        await Promise.race([this.connection.sendRequest(ShutdownRequest.type), delay(5000)]);
        await this.connection.sendNotification(ExitNotification.type);
      } catch {
        // the connection may already be gone
      }
      await Promise.race([exited, delay(5000)]);
      if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
    }
    this.connection.dispose();
  }
}

/** This library's types for the server's protocol.ts signatures. */
function requestType<P, R>(signature: RequestSignature<P, R>): RequestType<P, R, void> {
  return new RequestType<P, R, void>(signature.method);
}

function notificationType<P>(signature: NotificationSignature<P>): NotificationType<P> {
  return new NotificationType<P>(signature.method);
}

function languageOf(file: string): string {
  if (file.endsWith('.json')) return 'json';
  if (/\.[cm]?js$/.test(file)) return 'javascript';
  return 'typescript';
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/** Messages of the diagnostics from `source`. */
export function messages(diagnostics: readonly Diagnostic[], source?: string): string[] {
  return diagnostics.filter((d) => source === undefined || d.source === source).map((d) => (typeof d.message === 'string' ? d.message : d.message.value));
}
