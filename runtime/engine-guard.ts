/**
 * Imported first by tf.ts, before TensorFlow.js loads: where a program runs under plain node (no
 * loader of ours), this package's @tensorflow requires are answered with the program's project's
 * copies (loader/commonjs-resolution.ts). A runtime installed through a symlink (`npm install
 * <folder>`, `file:`) otherwise loads the folder's own tfjs beside the project's: a second engine,
 * "Platform node has already been set" and hundreds of "already registered" lines. Under the
 * loader (CLI, debugger) this is already done, and this is a no-op. A project on a TF.js version
 * the runtime does not support is told so here, in one message, instead of failing obscurely later.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { nativeRoot } from './native/cache.js';
import { packageRoot, patchCommonJsResolution } from './loader/commonjs-resolution.js';
import { checkProjectTfjs } from './tfjs-version.js';

/** The program's project: the loader's, else the main script's folder, else the working directory. */
function projectDir(): string {
  if (process.env.TFJS_CALLBACKS_PROJECT_DIR) return path.resolve(process.env.TFJS_CALLBACKS_PROJECT_DIR);
  return process.argv[1] ? path.dirname(path.resolve(process.argv[1])) : process.cwd();
}

const project = projectDir();
patchCommonJsResolution({
  packageDir: packageRoot(path.dirname(fileURLToPath(import.meta.url))),
  projectDir: project,
  nativeRoot: nativeRoot(),
  serveNative: false,
});
const tfjs = checkProjectTfjs(project);
if (!tfjs.ok) throw new Error(tfjs.message);
