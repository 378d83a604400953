/**
 * Which files in the debuggee are not the user's: the adapter's own (the bridge, the agent and the
 * leaves it imports) and the libraries (the runtime, node_modules, TF.js's own sources: the
 * runtime's rule, runtime/callsite.ts). The call stack, Loaded Scripts and stepping ask these.
 */
import path from 'node:path';
import { isLibraryFile } from '../../runtime/callsite.js';
import { adapterPaths } from '../paths.js';

/** The adapter's own files in the debuggee (the bridge, the agent, the shared leaves it imports). */
export function isAgentFile(file: string, dirs: readonly string[] = adapterPaths.debuggeeDirs): boolean {
  return dirs.some((dir) => file.startsWith(dir + path.sep));
}

/** The runtime (built or source), anything under node_modules, TF.js's own sources: the runtime's rule (callsite.ts). */
export function isLibrary(file: string | undefined, dirs: readonly string[] = [adapterPaths.runtimeDir, adapterPaths.runtimeSourceDir]): boolean {
  return !!file && isLibraryFile(file, dirs);
}
