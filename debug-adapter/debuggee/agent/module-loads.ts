/**
 * The pause before a CommonJS module is compiled, while source breakpoints wait for their files.
 * V8's instrumentation pause (`beforeScriptWithSourceMapExecution`) never fires for Node's
 * CommonJS modules (compiled as functions, not scripts), and an entry breakpoint on a transpiled
 * file's first position binds into the first function the compiler put there (babel's `_typeof`),
 * which may never run. Every require hook (@babel/register through pirates, ts-node, tsx, swc)
 * hands its output to `Module.prototype._compile`: there the agent stops with the file and the
 * output's source map, and the adapter sets the breakpoints by URL before V8 parses the code.
 */
import type { LastBreak, ModuleLoad } from '../agent-protocol.js';

type Compile = (this: unknown, content: string, filename: string, ...rest: unknown[]) => unknown;

/** The last `sourceMappingURL` comment of compiled code (JS's `//#`, the old `//@`). */
export function sourceMapUrlOf(content: string): string | undefined {
  const at = Math.max(content.lastIndexOf('//# sourceMappingURL='), content.lastIndexOf('//@ sourceMappingURL='));
  if (at < 0) return undefined;
  const rest = content.slice(at + '//# sourceMappingURL='.length);
  const url = rest.slice(0, rest.search(/[\s]|$/)).trim();
  return url === '' ? undefined : url;
}

/**
 * Whether a module's compile is worth a stop: its file has breakpoints waiting, or it carries a
 * source map (it may hold a waiting file's code, as a build's dist/x.js holds src/x.ts) and is
 * not an installed package's (their maps are read only when a breakpoint is set in one).
 */
export function stopsFor(file: string, mapUrl: string | undefined, waiting: ReadonlySet<string>): boolean {
  if (waiting.size === 0) return false;
  if (waiting.has(file)) return true;
  if (mapUrl === undefined) return false;
  return !/[\\/]node_modules[\\/]/.test(file) || [...waiting].some((f) => /[\\/]node_modules[\\/]/.test(f));
}

/**
 * Wraps `Module.prototype._compile` once; `breakWith` stops in the agent's callbackBreak. Returns
 * the setter of the files whose breakpoints wait (none: the wrapper only calls through).
 */
export function watchModuleLoads(g: typeof globalThis, breakWith: (why: LastBreak) => void): (files: readonly string[] | undefined) => void {
  let waiting: ReadonlySet<string> = new Set();
  const set = (files: readonly string[] | undefined) => {
    waiting = new Set(files ?? []);
  };
  // The built-in module, not an import: the injected agent loads no modules.
  const Module = (g as { process?: { getBuiltinModule?(id: string): unknown } }).process?.getBuiltinModule?.('node:module') as
    | { prototype: { _compile?: Compile } }
    | undefined;
  const original = Module?.prototype._compile;
  if (!Module || typeof original !== 'function' || (original as { agentWrapped?: boolean }).agentWrapped) return set;
  const wrapped: Compile = function (this: unknown, content, filename, ...rest) {
    if (waiting.size > 0 && typeof content === 'string' && typeof filename === 'string') {
      const sourceMapURL = sourceMapUrlOf(content);
      if (stopsFor(filename, sourceMapURL, waiting)) {
        const load: ModuleLoad = { file: filename, length: content.length, ...(sourceMapURL ? { sourceMapURL } : {}) };
        breakWith({ reason: 'moduleLoad', id: 0, load });
      }
    }
    return original.call(this, content, filename, ...rest);
  };
  Object.defineProperty(wrapped, 'agentWrapped', { value: true });
  Module.prototype._compile = wrapped;
  return set;
}
