/**
 * Module resolution hooks (run in Node's loader thread) that let a program launched by our CLI or
 * debugger import `tfjs-callback-debugger/runtime` without having it installed, and that make every
 * `@tensorflow/*` import from inside this package (the runtime, and the tfjs packages it ships,
 * such as the wasm backend) resolve to the program's own copy when its project has one: then
 * program and runtime share one TensorFlow.js engine.
 */
import { pathToFileURL } from 'node:url';
import { isInPackage, type ResolveHookData } from './one-engine.js';

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
  if (specifier.startsWith('@tensorflow/') && context.parentURL && isInPackage(context.parentURL, data.packageDir)) {
    const original = { ...context, conditions: context.conditions && [...context.conditions] };
    try {
      return await next(specifier, { ...context, parentURL: pathToFileURL(`${data.projectDir}/noop.js`).href });
    } catch {
      // The project has no such package: use the one shipped with the runtime.
      return next(specifier, original);
    }
  }
  return next(specifier, context);
}
