/**
 * tfjs-callback-debugger/runtime: TensorFlow's graph-callback wrappers for TensorFlow.js. What it
 * exports is listed in public-api.ts.
 */
export * from './public-api.js';
// Tensors' one-line previews in debuggers (`Tensor float32[2,3]`), installed once as the runtime loads.
import './debug-description.js';
// The op watch a debugger's "NaN/Inf in any op" uses (through the shared hook state): lent as the
// runtime loads, installed only while someone watches.
import { lendOpWatch } from './op-watch/op-watch.js';
lendOpWatch();
// The training curve (what each model.fit tells its callbacks), lent the same way.
import { lendFitLogs } from './training/fit-logs.js';
lendFitLogs();

// The runtime's exports, for CommonJS programs launched by the CLI or the debugger: their
// require('tfjs-callback-debugger/runtime') gets this very instance (runtime/loader/register.ts),
// not a second load through require(esm).
import * as runtimeModule from './public-api.js';
import { RUNTIME_MODULE_KEY } from './loader/one-engine.js';
(globalThis as Record<symbol, unknown>)[RUNTIME_MODULE_KEY] ??= runtimeModule;
