/**
 * `node --import <this file> program.js`: makes `tfjs-callback-debugger/runtime` importable by a
 * program whose project does not have it installed (ESM through loader hooks, CommonJS through
 * the require resolver), and makes every @tensorflow package this package loads (the runtime's
 * imports, the wasm backend it ships) the program's own copy when its project has one, so that
 * program and runtime share one engine. TFJS_CALLBACKS_PROJECT_DIR names the project (default:
 * the working directory).
 */
import { register } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { nativeRoot } from '../native/cache.js';
import { packageRoot, patchCommonJsResolution } from './commonjs-resolution.js';
import { RUNTIME_SPECIFIERS, type ResolveHookData } from './one-engine.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const extension = path.extname(fileURLToPath(import.meta.url));
const runtimeEntryFile = path.join(here, '..', `index${extension}`);
/** What CommonJS gets for the runtime: the loaded ES module, through a CommonJS file. */
const runtimeForRequire = path.join(here, `runtime-cjs${extension === '.ts' ? '.cts' : '.cjs'}`);
const projectDir = path.resolve(process.env.TFJS_CALLBACKS_PROJECT_DIR ?? process.cwd());

const packageDir = packageRoot(here);

const data: ResolveHookData = {
  runtimeEntry: new URL(`../index${extension}`, import.meta.url).href,
  runtimeForRequire: pathToFileURL(runtimeForRequire).href,
  runtimeSpecifiers: RUNTIME_SPECIFIERS,
  packageDir,
  projectDir,
  nativeRoot: nativeRoot(),
};

// Once per process: the CLI's program process and the Debug Terminal's bootloader may both preload it.
const LOADED_KEY = Symbol.for('tfjs-callback-debugger.loader.registered');
const alreadyLoaded = !!(globalThis as Record<symbol, unknown>)[LOADED_KEY];
(globalThis as Record<symbol, unknown>)[LOADED_KEY] = true;
if (!alreadyLoaded) {
  register(new URL(`./resolve-hooks${extension}`, import.meta.url), { data });
  patchCommonJsResolution({ packageDir, projectDir, nativeRoot: data.nativeRoot, runtimeForRequire, serveNative: true });
}

// The debugger's launch: the runtime loads before the program, and the backend is chosen as the
// CLI chooses it (the launch's `backend`, else auto), reported once; the program's own
// selectBackend() then gets the same one.
if (!alreadyLoaded && process.env.TFJS_CALLBACKS_PRELOAD_RUNTIME === '1') {
  // TF.js loads with source maps off (tsx turns them on for the program's TypeScript): its maps
  // point into its build tree, so a stack through TF.js named files nobody has
  // (`<project>/tfjs-data/src/dataset.ts:268:61`); without them its frames stay at the files that ran.
  const maps = process.sourceMapsEnabled;
  if (maps) process.setSourceMapsEnabled(false);
  try {
    const runtime = (await import(data.runtimeEntry)) as typeof import('../index.js');
    runtime.announceBackend(await runtime.selectBackend({ quiet: true }), (line) => process.stdout.write(`${line}\n`));
  } finally {
    if (maps) process.setSourceMapsEnabled(true);
  }
}

export { runtimeEntryFile };
