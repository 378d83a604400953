import { runExecution } from './invocation/execution.js';

export interface GraphFunctionOptions {
  /** The graph's name in traces and the debugger; defaults to the function's name. */
  readonly name?: string;
}

/**
 * Marks `fn` as a graph, TF.js's counterpart of `tf.function` for callbacks: each call is one
 * execution, named for the debug hooks, in which stateless callbacks reuse results for identical
 * inputs. Works for sync and async `fn`.
 */
export function graphFunction<A extends unknown[], R>(fn: (...args: A) => R, options: GraphFunctionOptions = {}): (...args: A) => R {
  const name = options.name ?? (fn.name || 'graph');
  return (...args: A) => runExecution(name, () => fn(...args));
}
