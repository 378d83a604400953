/**
 * The server's settings: `tfjsCallbacks.callbacksModule`, read per document through
 * workspace/configuration when the client supports it, else from initializationOptions
 * ({ callbacksModule }); and the workspace folders paths are relative to.
 */
import path from 'node:path';
import type { Connection, InitializeParams, WorkspaceFolder } from 'vscode-languageserver';
import { pathKey, uriToPath } from './positions.js';
import { SETTINGS_SECTION, type InitializationOptions } from './protocol.js';

/** What the server reads of the settings: the same fields the client sends as initializationOptions. */
export type ServerSettings = InitializationOptions;

export class Settings {
  private folders: string[] = [];
  private pullsConfiguration = false;
  private initial: ServerSettings = {};
  private readonly perUri = new Map<string, Promise<ServerSettings>>();

  constructor(private readonly connection: Connection) {}

  initialize(params: InitializeParams): void {
    this.pullsConfiguration = params.capabilities.workspace?.configuration === true;
    const options = (params.initializationOptions ?? {}) as InitializationOptions;
    if (typeof options.callbacksModule === 'string') this.initial = { callbacksModule: options.callbacksModule };
    const folders = params.workspaceFolders?.map((f) => f.uri) ?? (params.rootUri ? [params.rootUri] : []);
    this.setFolders(folders);
  }

  setFolders(uris: readonly string[]): void {
    this.folders = uris.map(uriToPath).filter((p): p is string => p !== undefined);
  }

  changeFolders(added: readonly WorkspaceFolder[], removed: readonly WorkspaceFolder[]): void {
    const gone = new Set(
      removed
        .map((f) => uriToPath(f.uri))
        .filter(Boolean)
        .map((p) => pathKey(p!)),
    );
    const kept = this.folders.filter((f) => !gone.has(pathKey(f)));
    this.folders = [...kept, ...added.map((f) => uriToPath(f.uri)).filter((p): p is string => p !== undefined)];
  }

  get workspaceFolders(): readonly string[] {
    return this.folders;
  }

  /** The workspace folder holding a file (the deepest one), else the first folder. */
  folderOf(file: string): string | undefined {
    const key = pathKey(file);
    const holding = this.folders.filter((f) => key === pathKey(f) || key.startsWith(pathKey(f) + path.sep));
    return holding.sort((a, b) => b.length - a.length)[0] ?? this.folders[0];
  }

  /** Settings changed: forget what was read. */
  changed(pushed?: unknown): void {
    this.perUri.clear();
    const section = (pushed as { settings?: Record<string, ServerSettings> } | undefined)?.settings?.[SETTINGS_SECTION];
    if (!this.pullsConfiguration && section && typeof section === 'object') this.initial = { ...this.initial, ...section };
  }

  get usesPull(): boolean {
    return this.pullsConfiguration;
  }

  async forUri(uri: string): Promise<ServerSettings> {
    if (!this.pullsConfiguration) return this.initial;
    let pending = this.perUri.get(uri);
    if (!pending) {
      pending = this.connection.workspace
        .getConfiguration({ scopeUri: uri, section: SETTINGS_SECTION })
        .then((value: unknown) => {
          const v = (value ?? {}) as Partial<ServerSettings>;
          const callbacksModule = typeof v.callbacksModule === 'string' && v.callbacksModule ? v.callbacksModule : this.initial.callbacksModule;
          return callbacksModule ? { callbacksModule } : {};
        })
        .catch(() => this.initial);
      this.perUri.set(uri, pending);
    }
    return pending;
  }
}
