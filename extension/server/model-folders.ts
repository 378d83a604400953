/**
 * The folders a model.json's binding is read from (its own, and the configured callbacks module's),
 * watched by the server itself (fs.watch, one per folder, while a model in it is open): a callbacks
 * module created, deleted or renamed there from a shell re-validates the models at once. The
 * client's watchers (server.ts WATCHED_FILES) cover the workspace folders only, none when no
 * folder is open, and events from VS Code's recursive watcher came late or not at all (issue 43:
 * the "no binding" warning stayed after `callbacks.js` was written beside model.json).
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathKey } from './positions.js';

interface Watched {
  readonly watcher: fs.FSWatcher;
  /** The open models (by URI) bound from this folder, each with the file names it is bound by. */
  readonly models: Map<string, ReadonlySet<string>>;
}

export class ModelFolders {
  private readonly folders = new Map<string, Watched>();

  /** `changed(uri)`: a file a model is bound by changed on disk. */
  constructor(private readonly changed: (uri: string) => void) {}

  /** What `uri` is bound by now: files whose appearing or going changes its binding (replaces what it had). */
  watch(uri: string, files: readonly string[]): void {
    this.unwatch(uri);
    const byFolder = new Map<string, Set<string>>();
    for (const file of files) {
      const folder = path.dirname(file);
      const names = byFolder.get(folder) ?? new Set<string>();
      names.add(path.basename(file));
      byFolder.set(folder, names);
    }
    for (const [folder, names] of byFolder) this.folder(folder)?.models.set(uri, names);
  }

  /** The model was closed. */
  unwatch(uri: string): void {
    for (const [key, watched] of this.folders) {
      if (!watched.models.delete(uri) || watched.models.size > 0) continue;
      watched.watcher.close();
      this.folders.delete(key);
    }
  }

  dispose(): void {
    for (const watched of this.folders.values()) watched.watcher.close();
    this.folders.clear();
  }

  /** The folder's watch, started now; none for a folder that cannot be watched (missing, unreadable). */
  private folder(folder: string): Watched | undefined {
    const key = pathKey(folder);
    const existing = this.folders.get(key);
    if (existing) return existing;
    let watcher: fs.FSWatcher;
    try {
      watcher = fs.watch(folder, { persistent: false });
    } catch {
      return undefined;
    }
    const watched: Watched = { watcher, models: new Map() };
    watcher.on('change', (_event, name) => {
      // No name (some platforms): any model of the folder may have changed.
      const file = typeof name === 'string' ? name : undefined;
      for (const [uri, names] of watched.models) if (file === undefined || names.has(file)) this.changed(uri);
    });
    // The folder went (deleted, unmounted): its models are re-validated, and watched again if it comes back.
    watcher.on('error', () => {
      watcher.close();
      this.folders.delete(key);
      for (const uri of watched.models.keys()) this.changed(uri);
    });
    this.folders.set(key, watched);
    return watched;
  }
}
