/**
 * Where the adapter's companion files are: next to it, as .js when built or .ts from source.
 */
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';

const here = path.dirname(fileURLToPath(import.meta.url));
const ext = path.extname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);

export const adapterPaths = {
  /** True when running from TypeScript sources through tsx. */
  fromSource: ext === '.ts',
  bridge: path.join(here, 'debuggee', `bridge${ext}`),
  /** The debuggee's bootloader (`node --require`), CommonJS: .cjs when built, .cts from source. */
  boot: path.join(here, 'debuggee', `boot${ext === '.ts' ? '.cts' : '.cjs'}`),
  /**
   * The adapter's folders whose files run in the debuggee: the bridge and the agent (debuggee/), and
   * shared/, the leaves both sides import. Never the user's code.
   */
  debuggeeDirs: [path.join(here, 'debuggee'), path.join(here, 'shared')],
  /** The agent's modules (a launch's bridge imports them; an attach injects their bundle). */
  agentDir: path.join(here, 'debuggee', 'agent'),
  /**
   * The agent as one script (scripts/build.mjs), injected into a program the adapter attaches to:
   * built next to the built adapter, so from source it is the repository's dist/ copy.
   */
  agentBundle: path.join(here, ...(ext === '.ts' ? ['..', 'dist', 'debug-adapter'] : []), 'debuggee', 'agent.bundle.js'),
  runtimeDir: path.join(here, '..', 'runtime'),
  /** The adapter's own folder, and its TypeScript sources (where the built files' maps point). */
  adapterDirs: ext === '.ts' ? [here] : [here, path.join(here, '..', '..', 'debug-adapter')],
  /** The runtime's TypeScript sources, which the built runtime's source maps point to. */
  runtimeSourceDir: path.join(here, ...(ext === '.ts' ? ['..'] : ['..', '..']), 'runtime'),
  register: path.join(here, '..', 'runtime', 'loader', `register${ext}`),
  cli: path.join(here, '..', 'runtime', 'cli', `main${ext}`),
  /** tsx's loader entry, for `node --import`. */
  tsx: pathToFileURL(require.resolve('tsx')).href,
  /** tsx's CommonJS hooks, for `node --require` (the bootloader from source is a .cts). */
  tsxCjs: require.resolve('tsx/cjs'),
} as const;

export function fileUrl(file: string): string {
  return pathToFileURL(file).href;
}
