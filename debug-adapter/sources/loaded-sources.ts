/**
 * Loaded Scripts (`loadedSources` and `loadedSource` events), as js-debug lists them: the
 * program's own modules first, by their original paths (a .ts file through its source map), then
 * what node_modules holds, named by package (`@tensorflow/tfjs-core/dist/…`) and deemphasized.
 * Never the runtime, its loader, the adapter's own files (agent, bridge, bootloader), Node's internals
 * or WebAssembly.
 */
import path from 'node:path';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { adapterPaths } from '../paths.js';
import type { ScriptInfo, Sources } from './sources.js';
import { isAgentFile } from './library-files.js';

const NODE_MODULES = `${path.sep}node_modules${path.sep}`;

/** The Loaded Scripts entry for an original file, or undefined for one that is not shown. */
export function loadedSource(file: string): DebugProtocol.Source | undefined {
  // The adapter's own files load in the debuggee too: its bootloader reads paths.ts.
  const internal = [adapterPaths.runtimeDir, adapterPaths.runtimeSourceDir, ...adapterPaths.adapterDirs].some((dir) => file.startsWith(dir + path.sep));
  if (internal || isAgentFile(file) || !path.isAbsolute(file)) return undefined;
  const at = file.lastIndexOf(NODE_MODULES);
  if (at < 0) return { name: path.basename(file), path: file };
  return { name: file.slice(at + NODE_MODULES.length), path: file, origin: 'node_modules', presentationHint: 'deemphasize' };
}

/** The files of the scripts parsed so far, shown ones only, the program's own first, each once. */
export function loadedSources(sources: Sources): DebugProtocol.Source[] {
  const shown = new Map<string, DebugProtocol.Source>();
  for (const script of sources.all()) for (const source of sourcesOf(sources, script)) shown.set(source.path!, source);
  const rank = (s: DebugProtocol.Source) => (s.origin === 'node_modules' ? 1 : 0);
  return [...shown.values()].sort((a, b) => rank(a) - rank(b) || a.path!.localeCompare(b.path!));
}

/** What one script adds to Loaded Scripts. */
export function sourcesOf(sources: Sources, script: ScriptInfo): DebugProtocol.Source[] {
  // The runtime's and the adapter's own scripts are left out before their maps are read.
  if (script.wasm || !script.file || !loadedSource(script.file)) return [];
  // node_modules is listed by its own files: its maps point at sources that are not installed.
  const files = script.file.includes(NODE_MODULES) ? [script.file] : sources.filesOf(script);
  return files.map(loadedSource).filter((s): s is DebugProtocol.Source => s !== undefined);
}

/** Which files were announced (`loadedSource` 'new'), so each is announced once. */
export class LoadedSourceEvents {
  private readonly announced = new Set<string>();

  /**
   * The sources of `script` not announced before: the program's own only. node_modules' are listed
   * when Loaded Scripts asks (`loadedSources`): announced one by one they were ~100 events at the
   * debugger's start (TF.js, tsx), and VS Code's work on them slowed the program's first second.
   */
  fresh(sources: Sources, script: ScriptInfo): DebugProtocol.Source[] {
    return sourcesOf(sources, script).filter((s) => s.origin !== 'node_modules' && !this.announced.has(s.path!) && this.announced.add(s.path!));
  }
}
