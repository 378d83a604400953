/**
 * Loads the tfjs-node that setup-native built in its cache. The cache holds tfjs-node alone: its
 * `require('@tensorflow/tfjs')` is answered with the engine the runtime already runs (the
 * project's copy, or the runtime's), so that the 'tensorflow' backend registers in that one engine.
 */
import Module, { createRequire } from 'node:module';
import path from 'node:path';

type ResolveFilename = (request: string, parent: { filename?: string | null } | undefined, isMain: boolean, options?: unknown) => string;
const internals = Module as unknown as { _resolveFilename: ResolveFilename; _nodeModulePaths(dir: string): string[] };

/**
 * require('@tensorflow/tfjs-node') from the build folder `build`, its @tensorflow requires (but
 * its own) resolved as `engineFile` (a file of the engine's @tensorflow/tfjs) resolves them.
 * tfjs-node requires everything while it loads, so the resolver is patched for that call only.
 */
export function requireBuiltNative(build: string, engineFile: string): unknown {
  const original = internals._resolveFilename;
  const engineParent = { filename: engineFile, paths: internals._nodeModulePaths(path.dirname(engineFile)) };
  const inBuild = build.endsWith(path.sep) ? build : build + path.sep;
  internals._resolveFilename = function (request, parent, isMain, options) {
    const fromBuild = !!parent?.filename && parent.filename.startsWith(inBuild);
    const engines = request.startsWith('@tensorflow/') && !request.startsWith('@tensorflow/tfjs-node');
    return original.call(this, request, fromBuild && engines ? engineParent : parent, isMain, options);
  };
  try {
    return createRequire(path.join(build, 'noop.js'))('@tensorflow/tfjs-node');
  } finally {
    internals._resolveFilename = original;
  }
}
