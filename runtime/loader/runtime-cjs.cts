/**
 * What a CommonJS `require('tfjs-callback-debugger/runtime')` gets under our loader: the runtime's
 * ES module, already loaded by the CLI or the debugger's launch (one instance, the one the program's
 * model and callbacks share), else loaded here through require(esm).
 */
const loaded = (globalThis as Record<symbol, unknown>)[Symbol.for('tfjs-callback-debugger.runtime.module')];
export = loaded ?? require('../index.js');
