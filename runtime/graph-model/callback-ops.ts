/**
 * The ops of TensorFlow's callback nodes (py_function, numpy_function, py_func): one list for the
 * runtime, which binds their callbacks, the debugger's agent, which leaves their node breakpoints
 * to their callbacks, and the graph view, which draws them. A leaf: the agent's bundle and the
 * webview's take it as it is.
 */
import type { CallbackOp } from '../events.js';

export const CALLBACK_OPS: readonly CallbackOp[] = ['PyFunc', 'PyFuncStateless', 'EagerPyFunc'];

/** Whether a node's op is a callback's. */
export const isCallbackOp = (op: string): op is CallbackOp => (CALLBACK_OPS as readonly string[]).includes(op);
