/**
 * `npm run bench`: every benchmark, printed as ratios against a baseline measured in the same run.
 * `npm run bench <part>` runs one part: runtime, debug, session, timings, steps, lsp, webview, nodes, graph, trace, globs, cli, ops or adapter-memory.
 */
import os from 'node:os';
import { runtimeBenchmarks } from './runtime.bench.js';
import { debugBenchmarks } from './debug.bench.js';
import { webviewBenchmarks } from './webview.bench.js';
import { nodeHookBenchmarks } from './node-hooks.bench.js';

type Print = (line: string) => void;
const parts: Record<string, (print: Print) => Promise<void>> = {
  runtime: runtimeBenchmarks,
  debug: debugBenchmarks,
  session: async (print) => (await import('./long-session.bench.js')).longSessionBenchmarks(print),
  timings: async (print) => (await import('./test-timings.bench.js')).testTimingBenchmarks(print),
  steps: async (print) => (await import('./steps.bench.js')).stepBenchmarks(print),
  lsp: async (print) => (await import('./lsp.bench.js')).lspBenchmarks(print),
  webview: webviewBenchmarks,
  nodes: nodeHookBenchmarks,
  graph: async (print) => (await import('./graph-view.bench.js')).graphViewBenchmarks(print),
  trace: async (print) => (await import('./trace.bench.js')).traceBenchmarks(print),
  globs: async (print) => (await import('./globs.bench.js')).globBenchmarks(print),
  cli: async (print) => (await import('./cli-memory.bench.js')).cliMemoryBenchmarks(print),
  ops: async (print) => (await import('./op-watch.bench.js')).opWatchBenchmarks(print),
  'adapter-memory': async (print) => (await import('./adapter-memory.bench.js')).adapterMemoryBenchmarks(print),
};

const print: Print = (line) => console.log(line);
print(`tfjs-callback-debugger benchmarks · node ${process.version} · ${os.cpus().length} cores · ${os.cpus()[0]?.model ?? ''}`);
print('Each line: median per call or per run, and the ratio to a baseline measured in the same run.');
const only = process.argv[2];
if (only && !(only in parts)) throw new Error(`unknown benchmark part "${only}": use ${Object.keys(parts).join(', ')}`);
for (const [name, run] of Object.entries(parts)) if (!only || only === name) await run(print);
