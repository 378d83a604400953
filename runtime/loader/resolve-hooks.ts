/**
 * Module resolution hooks (run in Node's loader thread) that let a program launched by our CLI or
 * debugger import `tfjs-callback-debugger/runtime` without having it installed, and that make every
 * `@tensorflow/*` import from inside this package (the runtime, and the tfjs packages it ships,
 * such as the wasm backend) resolve to the program's own copy when its project has one: then
 * program and runtime share one TensorFlow.js engine.
 */
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isNativePackage, nativeRedirect } from '../native/installed.js';
import { isOurs, notInstalledMessage, type ResolveHookData } from './one-engine.js';

export type { ResolveHookData } from './one-engine.js';
export { RUNTIME_SPECIFIERS } from './one-engine.js';

type NextResolve = (specifier: string, context: ResolveContext) => Promise<{ url: string; format?: string | null; shortCircuit?: boolean }>;
interface ResolveContext {
  parentURL?: string;
  conditions?: string[];
  importAttributes?: Record<string, string>;
}

let data: ResolveHookData | undefined;

export async function initialize(init: ResolveHookData): Promise<void> {
  data = init;
}

export async function resolve(specifier: string, context: ResolveContext, next: NextResolve) {
  if (!data) return next(specifier, context);
  // The launcher's runtime always wins: the debugger and the program must speak the same version.
  // Handed on, not short-circuited, so a TypeScript entry still goes through tsx's hooks.
  // A require() (from a CommonJS module the ESM loader runs) gets the CommonJS face of it.
  if (data.runtimeSpecifiers.includes(specifier)) return next(context.conditions?.includes('require') ? data.runtimeForRequire : data.runtimeEntry, context);
  if (!specifier.startsWith('@tensorflow/')) return next(specifier, context);
  const original = { ...context, conditions: context.conditions && [...context.conditions] };
  // (tfjs-node itself is not: setup-native's build requires its own.)
  const fromPackage = !isNativePackage(specifier) && !!context.parentURL && isOurs(context.parentURL, data);
  // This package's imports look in the program's project first; the program's own, as usual.
  const first = fromPackage ? { ...context, parentURL: pathToFileURL(`${data.projectDir}/noop.js`).href } : context;
  let resolved: { url: string; format?: string | null; shortCircuit?: boolean };
  try {
    resolved = await next(specifier, first);
  } catch (err) {
    // Not there: the copy shipped with the runtime (so a callbacks module can import
    // @tensorflow/tfjs in a folder that has none), else a message that says what to do.
    try {
      resolved = await next(specifier, fromPackage ? original : { ...original, parentURL: pathToFileURL(`${data.packageDir}/noop.js`).href });
    } catch {
      const served = nativeRedirect(specifier, undefined, data.projectDir);
      if (served) return { url: pathToFileURL(served).href, format: 'commonjs', shortCircuit: true };
      const message = notInstalledMessage(specifier, data.projectDir);
      if (!message) throw err;
      throw Object.assign(new Error(message), { code: 'ERR_MODULE_NOT_FOUND' });
    }
  }
  // A program's own import of a tfjs-node that cannot load (no binding) gets setup-native's build.
  const served = resolved.url.startsWith('file:') ? nativeRedirect(specifier, fileURLToPath(resolved.url), data.projectDir) : undefined;
  return served ? { url: pathToFileURL(served).href, format: 'commonjs', shortCircuit: true } : resolved;
}
