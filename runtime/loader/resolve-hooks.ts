/**
 * Module resolution hooks (run in Node's loader thread) that let a program launched by our CLI or
 * debugger import `tfjs-callback-debugger/runtime` without having it installed, and that give the
 * runtime the program's own copy of TensorFlow.js, so both share one engine.
 */
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export interface ResolveHookData {
  /** URL of the runtime entry the launcher ships. */
  readonly runtimeEntry: string;
  /** Directory whose node_modules hold the program's tfjs (its project). */
  readonly projectDir: string;
}

type NextResolve = (specifier: string, context: ResolveContext) => Promise<{ url: string; format?: string | null; shortCircuit?: boolean }>;
interface ResolveContext {
  parentURL?: string;
  conditions?: string[];
  importAttributes?: Record<string, string>;
}

let data: ResolveHookData | undefined;
let runtimeDir = '';

export async function initialize(init: ResolveHookData): Promise<void> {
  data = init;
  runtimeDir = path.dirname(fileURLToPath(init.runtimeEntry)) + path.sep;
}

export const RUNTIME_SPECIFIERS = ['tfjs-callback-debugger/runtime', 'tfjs-callback-debugger'];

export async function resolve(specifier: string, context: ResolveContext, next: NextResolve) {
  if (!data) return next(specifier, context);
  // The launcher's runtime always wins: the debugger and the program must speak the same version.
  // Handed on, not short-circuited, so a TypeScript entry still goes through tsx's hooks.
  if (RUNTIME_SPECIFIERS.includes(specifier)) return next(data.runtimeEntry, context);
  if (specifier.startsWith('@tensorflow/') && context.parentURL && isInRuntime(context.parentURL)) {
    const original = { ...context, conditions: context.conditions && [...context.conditions] };
    try {
      return await next(specifier, { ...context, parentURL: pathToFileURL(path.join(data.projectDir, 'noop.js')).href });
    } catch {
      // The project has no tfjs of its own: use the one shipped with the runtime.
      return next(specifier, original);
    }
  }
  return next(specifier, context);
}

function isInRuntime(parentURL: string): boolean {
  return parentURL.startsWith('file:') && fileURLToPath(parentURL).startsWith(runtimeDir);
}
